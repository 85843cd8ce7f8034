#pragma once
// The Oracle tab: ParaDL's closed forms for the scenario's CNN (docs/oracle.md), recomputed on every edit — they
// take microseconds, so no worker runs them. Strong-scaling curves of time per epoch (or iteration) against PEs on
// log axes, a line per strategy, dashed where a limit rules it out with the limit named where the dashes begin; at
// the chosen p, each strategy's computation and communication stacked, and its memory per PE against the device's
// capacity; the same numbers in a table; after a run, the oracle's answer for the scenario's own strategy beside the
// simulated one and the largest reason they differ (all of them in its tooltip). A transformer scenario gets a
// sentence saying what the tab needs.

#include "navigation/target_area.h"
#include "oracle/oracle_table_model.h"
#include "oracle/strong_scaling.h"
#include "run/run_session.h"
#include "run/simulation_result.h"
#include "target/target.h"

#include <optional>

#include <QWidget>

#include <memory>
#include <vector>

class QChart;
class QComboBox;
class QLabel;
class QStackedWidget;
class QTableView;

namespace parasight::gui {

class ScenarioDocument;

class OracleView : public QWidget {
    Q_OBJECT

public:
    explicit OracleView(ScenarioDocument& document, QWidget* parent = nullptr);
    // What the run session says now (run/run_session.h): numbers, a message, greyed while stale.
    void showRun(const parasight::gui::RunState& state);
    // Brings `target` into view when this view shows it (target/target.h): a strategy's row at a PE count; false
    // otherwise (a strategy or a PE count the oracle does not list for this scenario).
    bool reveal(const parasight::Target& target);
    // Where it is drawn, once revealed, for the spotlight; none when this view does not show it.
    [[nodiscard]] std::optional<TargetArea> areaOf(const parasight::Target& target) const;

    [[nodiscard]] OracleTableModel* model() const noexcept { return model_; }
    [[nodiscard]] QChart* scalingChart() const noexcept { return scaling_chart_; }
    [[nodiscard]] QChart* splitChart() const noexcept { return split_chart_; }
    [[nodiscard]] QChart* memoryChart() const noexcept { return memory_chart_; }
    // The PE counts shown, and the one the bars and the table are at.
    [[nodiscard]] QComboBox* peBox() const noexcept { return pe_box_; }
    // Time per epoch (0) or per iteration (1).
    [[nodiscard]] QComboBox* perBox() const noexcept { return per_box_; }
    [[nodiscard]] QLabel* headline() const noexcept { return headline_; }
    // Empty while the tab shows the oracle; else what it shows instead.
    [[nodiscard]] QString message() const;
    [[nodiscard]] const std::vector<OracleScalingPoint>& points() const noexcept { return points_; }
    // The oracle's answer for the scenario's own strategy beside the simulated one, and why they differ.
    [[nodiscard]] QLabel* comparisonLabel() const noexcept { return comparison_; }

    // The newest simulation: its comparison with the oracle, when the scenario is a CNN's.
    void showResult(const std::shared_ptr<const SimulationResult>& result);
    void showNoResult();
    // Greys the comparison while it belongs to an older value of the scenario than the one edited.
    void setResultStale(bool stale);
    // While a lesson's question waits for its guess, the simulation's numbers beside the oracle's are hidden.
    void setSimulationHidden(bool hidden);

protected:
    void changeEvent(QEvent* event) override;

private:
    const SimulationResult* shown_run_ = nullptr;  // the result showRun last drew
    void recompute();
    void showChosen();
    void showComparison();
    void rebuildScalingChart();
    void rebuildBarCharts();
    void showMessage(const QString& message);
    // The table's row of `target`'s strategy at the PE count chosen now, if it lists it.
    [[nodiscard]] std::optional<int> rowOf(const parasight::Target& target) const;
    [[nodiscard]] bool perIteration() const;
    [[nodiscard]] double timeOf(const OracleEstimate& estimate) const;

    ScenarioDocument& document_;
    OracleProblem problem_;
    std::vector<OracleScalingPoint> points_;
    OracleTableModel* model_ = nullptr;
    QLabel* headline_ = nullptr;
    QLabel* comparison_ = nullptr;
    QString comparison_text_;  // what comparison_ says when shown (empty: no comparison)
    QString comparison_tool_tip_;
    bool simulation_hidden_ = false;
    QComboBox* pe_box_ = nullptr;
    QComboBox* per_box_ = nullptr;
    QStackedWidget* pages_ = nullptr;
    QLabel* message_ = nullptr;
    QChart* scaling_chart_ = nullptr;
    QChart* split_chart_ = nullptr;
    QChart* memory_chart_ = nullptr;
    QTableView* table_ = nullptr;
};

}  // namespace parasight::gui
