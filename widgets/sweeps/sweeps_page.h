#pragma once
// The Sweeps tab: sweeps run on the scenario being edited — axes written as parasight-cli sweep's --axis writes them,
// a strategy space, the point count before running, progress and cancel; stored as the command line stores them, so
// they resume — and the sweeps a results database holds (docs/store.md), by default the one parasight-cli sweep
// fills, each as a heatmap of two of its axes (sweeps/heatmap_view.h), the others aggregated by a stated rule, in a
// chosen metric: throughput by default when an axis changes the work per iteration, as the command line ranks. The
// heatmap fills in while a sweep runs. The database is read and written on workers (jobs of run/job_runner.h).

#include "run/job_runner.h"
#include "store/sweep_grid.h"
#include "sweep/sweep_setup.h"

#include <QString>
#include <QWidget>

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableView;

namespace parasight::gui {

class AxisPicker;
class ComparisonChoice;
class HeatmapView;
class ParetoView;
class SliceView;
class SweepPointsModel;
class ScenarioDocument;
struct SweepRun;

class SweepsPage : public QWidget {
    Q_OBJECT

public:
    explicit SweepsPage(ScenarioDocument& document, QWidget* parent = nullptr);

    // Reads the sweeps of the database at `path` (the default one when empty) and shows the newest.
    void setDatabase(const QString& path);
    // Shows the sweep with this id, reading the database again first when it is not listed yet.
    void showSweep(qint64 id);
    [[nodiscard]] const QString& database() const noexcept { return database_; }

    [[nodiscard]] HeatmapView* heatmap() const noexcept { return heatmap_; }
    [[nodiscard]] QComboBox* sweepBox() const noexcept { return sweep_box_; }
    [[nodiscard]] QComboBox* metricBox() const noexcept { return metric_box_; }
    [[nodiscard]] QComboBox* xBox() const noexcept { return x_box_; }
    [[nodiscard]] QComboBox* yBox() const noexcept { return y_box_; }
    [[nodiscard]] QComboBox* ruleBox() const noexcept { return rule_box_; }
    // Linear, log, or ratio to a baseline cell (HeatmapScale's order).
    [[nodiscard]] QComboBox* scaleBox() const noexcept { return scale_box_; }
    // Each cell's glyph of where its point's iteration went.
    [[nodiscard]] QCheckBox* glyphsBox() const noexcept { return glyphs_box_; }
    // The filter bar over the sweep's points (store/point_filter.h): the heatmap and the table show only the points
    // it lets through; a mistake is said, located, and changes nothing.
    [[nodiscard]] QLineEdit* filterEdit() const noexcept { return filter_; }
    // The sweep's points that pass the filter, best first by the metric (or by a header clicked), a page at a time.
    [[nodiscard]] SweepPointsModel* pointsModel() const noexcept { return points_model_; }
    [[nodiscard]] QTableView* pointsTable() const noexcept { return points_table_; }
    // The metric along each axis through the best point, and what a step off it costs (sweeps/slice_view.h).
    [[nodiscard]] SliceView* sliceView() const noexcept { return slice_view_; }
    // The window's choice of two runs to compare: each view's "Compare…" picks a point's run for it.
    void setComparisonChoice(ComparisonChoice* choice);
    // Picks point `point`'s run for the comparison (its run read on a worker).
    void comparePoint(qint64 point);
    // The field picker that writes an axis line into the axes box.
    [[nodiscard]] AxisPicker* axisPicker() const noexcept { return axis_picker_; }
    // The points that fit, cost against result, and the Pareto front (sweeps/pareto_view.h); what it plots.
    [[nodiscard]] ParetoView* paretoView() const noexcept { return pareto_view_; }
    [[nodiscard]] QComboBox* paretoCostBox() const noexcept { return pareto_cost_; }
    [[nodiscard]] QComboBox* paretoResultBox() const noexcept { return pareto_result_; }
    // "12 of 32 points pass the filter; the best 12 by iteration_time_s", or the filter's mistake.
    [[nodiscard]] QString pointsText() const;
    // Writes every point that passes the filter, in the table's order, as CSV (the columns of `parasight-cli runs
    // export`), or the sweep's axes as a scenario file's `sweep:` section — on a worker, whole or not at all;
    // `exported` says which, or why not.
    void exportPointsCsv(const QString& path);
    void exportSweepSection(const QString& path);
    // Reads the next page of points; a page holds 100 points unless set otherwise.
    void showMorePoints();
    void setPageRows(std::int64_t rows) noexcept { page_rows_ = rows; }
    // The control of an axis neither across nor down: "all values" (aggregated by the rule) or one of its values;
    // none for an axis of one value, or while the grid is not read.
    [[nodiscard]] QComboBox* fixedBox(const QString& axis) const;
    // What the page says above the heatmap: the database and its sweeps, or why there are none.
    [[nodiscard]] QString statusText() const;

    // Reads the scenario of a point of the sweep shown, for scenarioChosen (a double-click on a cell asks so).
    void openPoint(qint64 point);

    // The sweep to run: axes as --axis writes them, one per line, and a strategy space (none, degrees, all).
    [[nodiscard]] QPlainTextEdit* axesEdit() const noexcept { return axes_; }
    [[nodiscard]] QComboBox* strategiesBox() const noexcept { return strategies_; }
    // "12 points", or why the axes make no sweep.
    [[nodiscard]] QString pointCountText() const;
    // Plans the sweep the axes define on the scenario being edited and runs it, both on a worker (planning writes the
    // scenario out, seconds for the largest strategy trees); false only without a results database. Axes that make
    // no sweep are said by sweepRefused and the count.
    bool runSweep();
    // Writes a sweep's axes (as --axis writes them) and strategy space ("degrees", "all", or none) in the tab's boxes,
    // as a lesson step defines its sweep.
    void defineSweep(const QStringList& axes, const std::optional<QString>& strategies);
    void cancelSweep();
    // Runs a stored sweep's missing points (its plan read back from the database: store/stored_sweep_run.h) and
    // shows it; what cannot be resumed is said under Run Sweep.
    void resumeSweep(qint64 id);
    // The parasight-cli sweep command that runs the same sweep (the scenario's file, the axes, the database), or why
    // there is none (an untitled scenario has no file to name); Copy as Command puts it on the clipboard.
    [[nodiscard]] Expected<QString> sweepCommand() const;
    // The same sweep as a Slurm job array of `shards` tasks (packaging/slurm: the axes written to axes.txt, then
    // submit-sweep.sh with a folder beside the scenario for the shards and the merged database); the array takes
    // axes only, so a strategy space chosen here is refused.
    [[nodiscard]] Expected<QString> slurmArrayCommand(int shards) const;
    [[nodiscard]] bool isSweeping() const noexcept { return sweeper_.isRunning(); }
    // The sweep shown (as listed when it was read), if any.
    [[nodiscard]] const SweepSummary* shownSweep() const;
    // What the sweep run from here says: its progress, or how it ended.
    [[nodiscard]] QString progressText() const;

Q_SIGNALS:
    // The heatmap shows a new grid, or a message in its place.
    void gridShown();
    // A point's scenario was read, to be opened: `title` says which ("sweep:1 point 5 · its name").
    void scenarioChosen(const QString& title, const QString& yaml);
    // It could not be read: why.
    void scenarioRefused(const QString& reason);
    // An export ended: what was written where, or why nothing was.
    void exported(const QString& message);
    // The Pareto front was read (or could not be).
    void paretoShown();
    // The slices through the best point were read (or could not be).
    void slicesShown();
    // A page of points was read into the table (or the filter refused).
    void pointsShown();
    // A sweep run from this tab ended: finished, cancelled or failed (its points so far stored).
    void sweepSettled();
    // runSweep's axes make no sweep: why, as the count says it.
    void sweepRefused(const QString& why);
    // Another database was opened here, for the History tab to follow.
    void databaseChosen(const QString& path);

protected:
    void showEvent(QShowEvent* event) override;

private:
    // What a plan is made of — the document's scenario and sweep section, the axes and strategy space written here —
    // copied, so that a worker can make it.
    struct SweepRequest {
        std::shared_ptr<const Scenario> scenario;
        std::string section;
        std::filesystem::path folder;
        std::vector<std::string> specs;
        std::optional<std::string> strategies;
    };
    [[nodiscard]] SweepRequest sweepRequest() const;
    // The plan a request makes, or why it makes none; on any thread.
    [[nodiscard]] static Expected<SweepPlan, QString> planOf(SweepRequest request);
    // The plan the axes make on the document's scenario, or why they make none.
    // Counts the planned sweep's points on a worker (the scenario written as YAML: seconds for the largest strategy
    // trees) and shows them when they come.
    void updatePointCount();
    // Offers the scenario's fields as axes, read on a worker.
    void offerFields();
    // The scenario changed: the fields and the point count follow it — at once while this tab can be seen, else
    // when it is shown (each is a job that writes the whole scenario as YAML: with every keystroke of an edit in
    // another tab, that was work competing with the simulation for the cores).
    void followScenario();
    // Runs `plan` into the database on workers, with progress and cancel.
    bool startSweep(SweepPlan plan);
    // Whether there is a results database to store a sweep in; if not, the progress line says why.
    bool hasDatabase();
    // The Run button off, Cancel shown, `phase` under them: a sweep is being planned or run.
    void beginSweep(const QString& phase);
    // A sweep's run, as it ended: the Run button back, what was run said, the database read again.
    void finishSweep(const SweepRun& run);
    void chooseSweep();
    void requestGrid();
    void showSweeps(const std::vector<SweepSummary>& sweeps);
    // A control per axis neither across nor down, from the grid's axes, keeping the values held before.
    void updateFixedControls(const SweepGrid& grid);
    // The filter as SQL, or why not (said under the filter bar).
    [[nodiscard]] Expected<std::string> filterWhere() const;
    // The ORDER BY of the table: a header clicked, or the metric best first; points without the value last.
    [[nodiscard]] std::string pointsOrder() const;
    // Reads the first page of points again (`more`: the next page).
    void requestPoints(bool more);
    // Selects point `point` in every view: its row when the table has it loaded, else its heatmap cell (when a cell
    // shows it) and its Pareto dot.
    void selectPoint(qint64 point);
    // Reads the cost against the result again, with its front.
    void requestPareto();
    // Reads the slices through the best point again.
    void requestSlices();
    // Marks on the heatmap the cell of the table's selected point.
    void markSelectedPoint();
    // The axes held at one value, as the controls say.
    [[nodiscard]] std::map<std::string, StoredValue> fixedValues() const;

    ScenarioDocument& document_;
    QString database_;
    std::vector<SweepSummary> sweeps_;
    std::int64_t wanted_sweep_ = 0;  // showSweep's, until the database is read again
    JobRunner runner_;        // the sweeps and their grids
    JobRunner point_runner_;  // a point's scenario
    JobRunner sweeper_;       // a sweep run from here
    // The scenario's fields offered as axes, read from its YAML on a worker: written and parsed back, a scenario's
    // text takes seconds with a 100 000-entry strategy tree — which closing the window does not wait for.
    JobRunner fields_runner_{nullptr, JobRunner::OnDestroy::abandon};
    JobRunner count_runner_{nullptr, JobRunner::OnDestroy::abandon};  // the planned sweep's points, likewise
    bool scenario_followed_ = true;  // false: the scenario changed while the tab was hidden
    QPlainTextEdit* axes_ = nullptr;
    AxisPicker* axis_picker_ = nullptr;
    ComparisonChoice* choice_ = nullptr;  // the window's
    QComboBox* strategies_ = nullptr;
    QLabel* count_ = nullptr;
    QPushButton* run_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QPushButton* copy_ = nullptr;
    QLabel* progress_ = nullptr;
    std::int64_t running_sweep_ = 0;  // the sweep being run, once it is stored
    QLabel* status_ = nullptr;
    QComboBox* sweep_box_ = nullptr;
    QComboBox* metric_box_ = nullptr;
    QComboBox* x_box_ = nullptr;
    QComboBox* y_box_ = nullptr;
    QComboBox* rule_box_ = nullptr;
    QComboBox* scale_box_ = nullptr;
    QCheckBox* glyphs_box_ = nullptr;
    // The controls of the other axes: each axis's path, its values and its box.
    struct FixedControl {
        std::string path;
        std::vector<StoredValue> values;
        QComboBox* box = nullptr;
    };
    std::vector<FixedControl> fixed_;
    QGridLayout* fixed_layout_ = nullptr;
    QWidget* fixed_row_ = nullptr;
    HeatmapView* heatmap_ = nullptr;
    QLineEdit* filter_ = nullptr;
    QLabel* points_status_ = nullptr;
    QTableView* points_table_ = nullptr;
    QPushButton* more_ = nullptr;
    SweepPointsModel* points_model_ = nullptr;
    JobRunner points_runner_;
    JobRunner export_runner_;
    JobRunner slices_runner_;
    SliceView* slice_view_ = nullptr;
    JobRunner pareto_runner_;
    ParetoView* pareto_view_ = nullptr;
    QComboBox* pareto_cost_ = nullptr;
    QComboBox* pareto_result_ = nullptr;
    QString order_column_;  // a header clicked; empty: the metric, best first
    Qt::SortOrder order_ = Qt::AscendingOrder;
    std::int64_t points_passing_ = 0;
    std::int64_t page_rows_ = 100;
};

}  // namespace parasight::gui
