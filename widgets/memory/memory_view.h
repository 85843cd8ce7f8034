#pragma once
// The Memory tab: each stage's (or device's) memory at its peak stacked by category — weights, gradients,
// optimizer state, activations, buffers — against the device's capacity line, with the same numbers in a table;
// out of memory named with the device, the tensor and the time; one device's memory over the iteration as a
// line, with the capacity and the moment it was crossed; and with offloaded model states, how full each tier is.

#include "memory/memory_table_model.h"
#include "navigation/target_area.h"
#include "run/run_session.h"
#include "run/simulation_result.h"

#include "style/axis_scale.h"
#include "target/target.h"

#include <QWidget>

#include <memory>

class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QStackedWidget;
class QTableView;

namespace parasight::gui {

class TierCapacityBars;

class MemoryView : public QWidget {
    Q_OBJECT

public:
    explicit MemoryView(QWidget* parent = nullptr);
    // What the run session says now (run/run_session.h): numbers, a message, greyed while stale.
    void showRun(const parasight::gui::RunState& state);
    // What the view says instead of numbers; empty while it shows a result.
    [[nodiscard]] QString message() const;
    // Brings `target` into view when this view shows it (target/target.h); false when it does not.
    bool reveal(const parasight::Target& target);
    // Where it is drawn, once revealed, for the spotlight; none when this view does not show it.
    [[nodiscard]] std::optional<TargetArea> areaOf(const parasight::Target& target) const;


    void showResult(std::shared_ptr<const SimulationResult> result);
    void showMessage(const QString& message);

    [[nodiscard]] MemoryTableModel* model() const noexcept { return model_; }
    [[nodiscard]] QChart* peakChart() const noexcept { return peak_chart_; }
    [[nodiscard]] QChart* timeChart() const noexcept { return time_chart_; }
    [[nodiscard]] QComboBox* groupingBox() const noexcept { return grouping_; }
    // Which simulated device the over-time chart shows.
    [[nodiscard]] QComboBox* deviceBox() const noexcept { return device_; }
    [[nodiscard]] QLabel* outOfMemoryLabel() const noexcept { return out_of_memory_; }

Q_SIGNALS:
    // A row was chosen: its (first) simulated device, an index into Report::per_device and Timeline::devices().
    void deviceChosen(qulonglong device);

protected:
    void changeEvent(QEvent* event) override;

private:
    [[nodiscard]] std::optional<int> rowOfNpu(std::int64_t npu) const;
    // Says which charts, scaled to the data, do not reach the capacity ("Capacity 80 GiB per device: above both
    // charts"); nothing when both do.
    void showCapacityNote();
    void refresh();
    void rebuildPeakChart();
    void rebuildTimeChart();

    std::shared_ptr<const SimulationResult> result_;
    MemoryTableModel* model_ = nullptr;
    QComboBox* grouping_ = nullptr;
    QComboBox* device_ = nullptr;
    QLabel* out_of_memory_ = nullptr;
    QStackedWidget* pages_ = nullptr;
    QLabel* message_ = nullptr;
    QChart* peak_chart_ = nullptr;
    QChart* time_chart_ = nullptr;
    QLabel* capacity_note_ = nullptr;
    TierCapacityBars* tiers_ = nullptr;
    bool peak_capacity_shown_ = true;  // whether each chart's axis reaches the capacity
    bool time_capacity_shown_ = true;
    QTableView* table_ = nullptr;
};

}  // namespace parasight::gui
