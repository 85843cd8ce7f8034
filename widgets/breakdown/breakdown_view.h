#pragma once
// The Breakdown tab: where each device's iteration goes — compute, exposed TP / CP / EP / PP / DP communication,
// exposed memory, bubble and idle — as stacked horizontal bars per pipeline stage (or per device, when few enough),
// in time or as shares of the iteration, with the same numbers in a table beside it. Hovering a bar shows its
// numbers; clicking one selects its row in the table.

#include "breakdown/breakdown_table_model.h"
#include "navigation/target_area.h"
#include "run/run_session.h"
#include "run/simulation_result.h"
#include "target/target.h"

#include <QWidget>

#include <memory>

class QChart;
class QComboBox;
class QLabel;
class QStackedWidget;
class QTableView;

namespace parasight::gui {

class CollectiveTableModel;

class BreakdownView : public QWidget {
    Q_OBJECT

public:
    explicit BreakdownView(QWidget* parent = nullptr);
    // What the run session says now (run/run_session.h): numbers, a message, greyed while stale.
    void showRun(const parasight::gui::RunState& state);
    // What the view says instead of numbers; empty while it shows a result.
    [[nodiscard]] QString message() const;
    // Brings `target` into view when this view shows it (target/target.h); false when it does not.
    bool reveal(const parasight::Target& target);
    // Where it is drawn, once revealed, for the spotlight; none when this view does not show it.
    [[nodiscard]] std::optional<TargetArea> areaOf(const parasight::Target& target) const;


    void showResult(std::shared_ptr<const SimulationResult> result);
    // Instead of a result: why there is none.
    void showMessage(const QString& message);

    [[nodiscard]] BreakdownTableModel* model() const noexcept { return model_; }
    [[nodiscard]] QChart* chart() const noexcept { return chart_; }
    [[nodiscard]] QComboBox* groupingBox() const noexcept { return grouping_; }
    [[nodiscard]] QComboBox* scaleBox() const noexcept { return scale_; }
    [[nodiscard]] QTableView* table() const noexcept { return table_; }
    [[nodiscard]] CollectiveTableModel* collectives() const noexcept { return collectives_; }

Q_SIGNALS:
    // A row was chosen: its (first) simulated device, an index into Report::per_device and Timeline::devices().
    void deviceChosen(qulonglong device);

protected:
    void changeEvent(QEvent* event) override;

private:
    [[nodiscard]] std::optional<int> rowOfNpu(std::int64_t npu) const;
    void refresh();
    void rebuildChart();

    std::shared_ptr<const SimulationResult> result_;
    BreakdownTableModel* model_ = nullptr;
    QComboBox* grouping_ = nullptr;
    QComboBox* scale_ = nullptr;
    QStackedWidget* pages_ = nullptr;
    QLabel* message_ = nullptr;
    QChart* chart_ = nullptr;
    QTableView* table_ = nullptr;
    CollectiveTableModel* collectives_ = nullptr;
    QTableView* collectives_table_ = nullptr;
};

}  // namespace parasight::gui
