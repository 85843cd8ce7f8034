#pragma once
// The Topology tab's "Time a collective": an operation, a buffer and a group — every NPU, an axis's group (NPU 0's),
// or one dimension — timed on the scenario's cluster as `parasight-cli collective` times it (analysis/
// collective_probe.h): the time, the bus bandwidth as NCCL tests report it, and each dimension's algorithm, bytes and
// time. Computed at once (a formula, not a simulation) whenever the scenario or a choice changes.

#include "scenario/scenario.h"

#include <QGroupBox>

#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;

namespace parasight::gui {

class CollectiveProbeBox : public QGroupBox {
    Q_OBJECT

public:
    explicit CollectiveProbeBox(QWidget* parent = nullptr);

    // The cluster and layout to time on; the group list follows its axes and dimensions. Shared, not copied: the
    // document's value, whose strategy tree may hold 100 000 entries.
    void setScenario(std::shared_ptr<const Scenario> scenario);
    // What the box says: the result, or why there is none.
    [[nodiscard]] QString resultText() const;
    [[nodiscard]] QComboBox* operation() const noexcept { return operation_; }
    [[nodiscard]] QLineEdit* size() const noexcept { return size_; }
    [[nodiscard]] QComboBox* group() const noexcept { return group_; }

private:
    void refreshGroups();
    void recompute();

    std::shared_ptr<const Scenario> scenario_ = std::make_shared<const Scenario>();
    QComboBox* operation_ = nullptr;
    QLineEdit* size_ = nullptr;
    QComboBox* group_ = nullptr;
    QLabel* result_ = nullptr;
};

}  // namespace parasight::gui
