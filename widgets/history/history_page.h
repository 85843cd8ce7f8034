#pragma once
// The History tab: a browser over the results database (docs/store.md) — its sweeps and single runs, newest first,
// searchable by name, axes, date or status — to open one (a sweep on the Sweeps tab, a run's scenario as a new
// document), rename a sweep, delete a sweep or a run, and compare two runs: the inputs that differ, then every
// result with its change (history/run_comparison_model.h), then — both runs simulated again — their breakdown and
// memory side by side (history/compared_bars_view.h) and their timelines on one time axis
// (history/compared_timelines_view.h). The window stores each scenario it simulates there as a
// single run (once per scenario and mode), so a run can be found again after the window is closed. The database is
// read and changed on a worker (run/job_runner.h).

#include "history/history_model.h"
#include "history/run_comparison_model.h"
#include "run/job_runner.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

namespace parasight::gui {

class ComparedBarsView;
class ComparisonChoice;
class ComparedTimelinesView;

class HistoryPage : public QWidget {
    Q_OBJECT

public:
    explicit HistoryPage(QWidget* parent = nullptr);

    // Reads the history of the database at `path` (the default one when empty).
    void setDatabase(const QString& path);
    [[nodiscard]] const QString& database() const noexcept { return database_; }
    // Reads it again (after the window stored a run, or a sweep ran).
    void reload();

    [[nodiscard]] HistoryModel* model() const noexcept { return model_; }
    [[nodiscard]] RunComparisonModel* comparisonModel() const noexcept { return comparison_model_; }
    [[nodiscard]] QLineEdit* searchEdit() const noexcept { return search_; }
    [[nodiscard]] QTableView* table() const noexcept { return table_; }
    // Rows of the model (not of the filtered view) selected now.
    [[nodiscard]] QList<int> selectedRows() const;
    // What the page says: the database and its counts, or what was done or refused last.
    [[nodiscard]] QString statusText() const;
    [[nodiscard]] QString comparisonTitle() const;
    // The comparison's views: the inputs and results, the breakdown and memory, the timelines.
    [[nodiscard]] QTabWidget* comparisonTabs() const noexcept { return comparison_tabs_; }
    [[nodiscard]] ComparedBarsView* comparedBars() const noexcept { return compared_bars_; }
    [[nodiscard]] ComparedTimelinesView* comparedTimelines() const noexcept { return compared_timelines_; }
    [[nodiscard]] QString timelinesSummary() const;

    // The actions, on model rows (the buttons ask first where an action cannot be undone).
    void openRow(int row);
    void renameSweep(std::int64_t id, const QString& name);
    void deleteRow(int row);
    void compareRuns(std::int64_t a, std::int64_t b);
    // The window's choice of two runs to compare: a run's context menu picks it.
    void setComparisonChoice(ComparisonChoice* choice) { choice_ = choice; }
    // Brings the comparison's timelines to the front.
    void showComparedTimelines();

Q_SIGNALS:
    // The history was read (or could not be).
    void historyShown();
    // A comparison was read, or refused (comparisonTitle says which).
    void comparisonShown();
    // The two runs compared were simulated again and their breakdown, memory and timelines shown, or could not be.
    void comparedRunsSimulated();
    // Open asked for a sweep: the window shows it on the Sweeps tab.
    void sweepChosen(qint64 id);
    // Resume asked for a sweep with points missing: the window runs them on the Sweeps tab.
    void resumeRequested(qint64 id);
    // Open asked for a run: its scenario was read, to be opened (`title`: "run:12 · its name").
    void scenarioChosen(const QString& title, const QString& yaml);
    // Another database was opened here, for the Sweeps tab to follow.
    void databaseChosen(const QString& path);

private:
    void updateButtons();
    // Simulates the two runs compared again, for the views the store cannot fill.
    void simulateCompared(std::int64_t a, std::int64_t b);
    void showSimulationProblem(const QString& problem);
    void showEntries(const Expected<HistoryEntries>& entries, const QString& done);
    // Runs `edit` on the database opened for writing, then reads the history again; `done` says what it did.
    void editThenReload(std::function<std::optional<std::string>(ResultStore&)> edit, const QString& done);

    QString database_;
    JobRunner runner_;          // reading and changing the history
    JobRunner detail_runner_;   // a run's scenario, a comparison
    JobRunner simulation_runner_;  // the two runs compared, simulated again
    HistoryModel* model_ = nullptr;
    QSortFilterProxyModel* filter_ = nullptr;
    RunComparisonModel* comparison_model_ = nullptr;
    QLabel* status_ = nullptr;
    QLineEdit* search_ = nullptr;
    QTableView* table_ = nullptr;
    QPushButton* open_ = nullptr;
    QPushButton* rename_ = nullptr;
    QPushButton* delete_ = nullptr;
    QPushButton* compare_ = nullptr;
    QPushButton* resume_ = nullptr;
    QLabel* comparison_title_ = nullptr;
    QTableView* comparison_table_ = nullptr;
    QTabWidget* comparison_tabs_ = nullptr;
    ComparedBarsView* compared_bars_ = nullptr;
    ComparedTimelinesView* compared_timelines_ = nullptr;
    QLabel* timelines_summary_ = nullptr;
    ComparisonChoice* choice_ = nullptr;  // the window's
};

}  // namespace parasight::gui
