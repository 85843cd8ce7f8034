#pragma once
// The frame every view lives in: the summary bar over the tabs (Topology · Strategy · Timeline · Breakdown · Memory ·
// Oracle · What-if), the problems panel, File / Edit / Run menus with their shortcuts, and progress and Cancel in the
// status bar. It owns the document and the runner and connects them: every change of a valid scenario starts a run
// after a short pause (auto-run, on by default; F5 runs by hand), a newer change cancels the run under way, and the
// newest result replaces what every view shows.

#include "document/autosave.h"
#include "document/scenario_document.h"
#include "document/scenario_file_loader.h"
#include "interop/peer_file.h"
#include "presets/preset_library.h"
#include "run/comparison_choice.h"
#include "run/job_runner.h"
#include "navigation/spotlight.h"
#include "problems/problems_panel.h"
#include "run/run_recorder.h"
#include "run/run_session.h"
#include "target/target.h"
#include "run/simulation_job.h"
#include "run/tabbed_run_follower.h"
#include "lesson/lesson_handout.h"
#include "scenario_file/lesson_file.h"

#include <QFont>
#include <QStringList>
#include <QPalette>
#include <QMainWindow>
#include <QTimer>

#include <memory>

class QAction;
class QDockWidget;
class QLabel;
class QListView;
class QMenu;
class QModelIndex;
class QProgressBar;
class QPushButton;
class QStackedWidget;
class QTabWidget;
class QToolButton;

namespace parasight::gui {

class BreakdownView;
class MemoryView;
class OpenFilePage;
class OracleView;
class ScenarioForm;
class SummaryBar;
class TimelinePage;
class TopologyPage;
class StrategyPage;
class TimelineView;
class WhatIfPage;
class SweepsPage;
class HistoryPage;
class LessonPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    [[nodiscard]] ScenarioDocument& document() noexcept { return document_; }
    [[nodiscard]] JobRunner& runner() noexcept { return runner_; }
    [[nodiscard]] std::shared_ptr<const SimulationResult> result() const noexcept { return result_; }
    [[nodiscard]] SummaryBar* summaryBar() const noexcept { return summary_; }
    [[nodiscard]] BreakdownView* breakdownView() const noexcept { return breakdown_; }
    [[nodiscard]] MemoryView* memoryView() const noexcept { return memory_; }
    [[nodiscard]] OracleView* oracleView() const noexcept { return oracle_; }
    [[nodiscard]] WhatIfPage* whatIfPage() const noexcept { return what_if_; }
    [[nodiscard]] SweepsPage* sweepsPage() const noexcept { return sweeps_; }
    [[nodiscard]] HistoryPage* historyPage() const noexcept { return history_; }
    // Two runs picked anywhere for comparison (run/comparison_choice.h).
    [[nodiscard]] ComparisonChoice* comparisonChoice() const noexcept { return comparison_choice_; }
    [[nodiscard]] RunRecorder& runRecorder() noexcept { return recorder_; }
    [[nodiscard]] TimelinePage* timelinePage() const noexcept { return timeline_; }
    [[nodiscard]] TopologyPage* topologyPage() const noexcept { return topology_; }
    [[nodiscard]] StrategyPage* strategyPage() const noexcept { return strategy_; }
    [[nodiscard]] TimelineView* timelineView() const;
    [[nodiscard]] ScenarioForm* scenarioForm() const noexcept { return form_; }
    [[nodiscard]] ProblemListModel* problemList() const noexcept { return problems_->model(); }
    // What the status bar says.
    [[nodiscard]] QString statusText() const;

    // Opens a scenario file: read on a worker while the window stays responsive (a page in place of the tabs says
    // so, with Cancel), then adopted by the document; `fileOpened` follows. A file that does not load leaves the
    // document as it was and keeps its name on that page, with its own problems and what to do next (edit it,
    // reload it, open another, go back).
    void openFile(const QString& path);
    // Whether opened files are added to File → Open Recent (not for --screenshot).
    void setRecordsRecentFiles(bool on) noexcept { records_recent_files_ = on; }
    // Whether runs are kept in the history (Run → Keep Runs in History, remembered); --screenshot keeps none.
    void setKeepsRuns(bool on);
    [[nodiscard]] ScenarioFileLoader& fileLoader() noexcept { return loader_; }
    // The page shown in place of the tabs while a file opens or when it could not be opened; null when the tabs
    // show.
    [[nodiscard]] OpenFilePage* openFilePage() const;
    // Opens the bundled default scenario as a new, unsaved document.
    void openDefaultScenario();
    // Opens a new, unsaved scenario made from a bundled preset (document/preset_scenario.h).
    void openPreset(const Preset& preset);
    // File → Import → ASTRA-sim Network: ASTRA-sim 2.0's network file and, optionally, its system file (the one
    // ending .json) as a new, unsaved scenario (interop/astra_sim_import.h), its topology shown and the status bar
    // saying which of the files' settings ParaSight does not model. False, the document unchanged and every problem
    // in the problems panel, when they do not import.
    bool importAstraSim(const QStringList& paths);
    // File → Import → Calculon Files: Calculon's system, model and execution files, in any order
    // (interop/calculon_import.h), likewise; the status bar counts the assumptions where Calculon and ParaSight differ.
    bool importCalculon(const QStringList& paths);
    // What the last import's files say that ParaSight models otherwise or not at all, each a sentence; File → Import
    // shows them once the scenario is open.
    [[nodiscard]] const QStringList& importNotes() const noexcept { return import_notes_; }
    // Offers to recover what sessions that crashed left in `folder` (Autosave), newest first, until one is recovered
    // or all are discarded.
    void offerRecovery(const QString& folder);
    // Opens a crashed session's copy as an unsaved scenario belonging to its file, autosaves it at once and then
    // removes the old copy (kept, when the new one cannot be written); the status bar says where Save will write.
    // False, with the reason in the problems panel, if it cannot be read (the copy is kept).
    bool recover(LeftAutosave& left);
    [[nodiscard]] Autosave& autosave() noexcept { return autosave_; }
    // File → Open Recent, newest first.
    [[nodiscard]] QMenu* recentMenu() const noexcept { return recent_menu_; }

    // The tab names `--screenshot --tab` accepts, in tab order.
    [[nodiscard]] static QStringList tabNames();
    // Shows the tab of that name (one of tabNames()); false for an unknown name.
    bool showTab(const QString& name);
    // Brings `target` (target/target.h) into view: the tab or the scenario dock that shows it, and there the thing
    // itself; false when nothing shows it (a node the tree does not have, an NPU no run simulated).
    bool reveal(const Target& target);
    // Reveals `target` and marks where it is drawn for a few seconds (navigation/spotlight.h); false as reveal.
    bool spotlight(const Target& target);
    [[nodiscard]] Spotlight* spotlightOverlay() const noexcept { return spotlight_; }
    // Opens a lesson (docs/lessons.md) in the Lesson dock at its first step: its scenario as a new document,
    // simulated, then its tab and targets shown (Help → Lessons opens the bundled ones).
    void openLesson(Lesson lesson, int step = 0);
    // A lesson file of one's own (docs/lessons.md), opened at its first step; false, its problems shown, when it does
    // not read.
    bool openLessonFile(const QString& path);
    // The tab on screen pictured for slides, as PNG (twice the screen's pixels) and SVG, in `folder` (made when
    // missing) under a name saying what it shows ("Pipeline bubbles, step 1 - Timeline.png", a number added rather
    // than a file replaced); the PNG's path, or why nothing was written. View → Picture for Slides (F12) writes to the
    // pictures folder's ParaSight.
    Expected<QString> pictureForSlides(const QString& folder);
    // The welcome: the bundled lessons and the scenario presets to start from (at first start; Help → Welcome).
    class WelcomeDialog* showWelcome();
    [[nodiscard]] LessonPanel* lessonPanel() const noexcept { return lesson_panel_; }
    // The summary bar and the tabs: what a lesson handout pictures of each step.
    [[nodiscard]] QWidget* resultsArea() const noexcept { return results_; }
    // Writes the open lesson's handout to `path` (.md or .pdf) with each step's picture (lesson_handout_export.h);
    // handoutExported follows. False when no lesson is open or a handout is being made.
    bool exportHandout(const QString& path, HandoutReader reader);
    // Presentation mode (View → Presentation Mode, F11): full screen, high contrast, the scenario dock hidden, text
    // × 1.5, the lesson's teacher notes hidden; PageUp / PageDown move through the lesson's steps; Esc ends it.
    void setPresenting(bool on);
    [[nodiscard]] bool isPresenting() const noexcept { return presenting_; }
    static constexpr double presentation_font_scale = 1.5;
    // Whether the run's numbers are hidden (a lesson's question waits for a guess).
    [[nodiscard]] bool resultsHidden() const;

    void setAutoRun(bool on);
    // Runs the current scenario now, if it is valid.
    void runNow();
    // Simulates every device instead of one per symmetry class (Run → Simulate Every Device), and runs again.
    void setEveryDevice(bool on);

Q_SIGNALS:
    // The newest run has ended, with a result or not; nothing is running.
    void runSettled();
    // Presentation mode began or ended.
    void presentingChanged(bool on);
    // openFile() has ended: the document is the file's (`opened`), or it was not opened (its problems are on the
    // open-file page), or the reading was cancelled.
    void fileOpened(const QString& path, bool opened);
    // A lesson step is shown: its run settled and its tab and targets shown — or its scenario could not be opened
    // (its problems are shown).
    void lessonStepShown();
    // A handout was written (`written`), or why not.
    void handoutExported(const QString& message, bool written);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildMenus();
    void buildStatusBar();
    void buildProblemsPanel();
    void buildScenarioDock();
    void buildLessonDock();
    // Asks where to write the open lesson's handout, then writes it.
    void chooseHandout(HandoutReader reader);
    void updateFormEnabled();
    // While a lesson's question waits for its guess, the tabs of results other than the step's own are closed.
    void hideResultTabs(bool hidden);
    // The lesson's step `index` as a new document; its tab and targets once its run settles.
    void showLessonStep(int index);
    void onScenarioChanged();
    void onResult(const std::shared_ptr<const SimulationResult>& result);
    void onFailure(const SimulationError& error);
    // runSettled() now, or once every tab shows the run's outcome.
    void settleWhenShown();
    // A stored scenario (a sweep's point, a run of the history) opened as a new document, simulated, on the
    // Timeline; `title` says which, with every run of it until another document replaces it.
    void openStoredScenario(const QString& title, const QString& yaml);
    void showProblems(const Diagnostics& problems, const QString& file);
    // An import's scenario opened as a new, unsaved document on the Topology tab, or its problems shown.
    bool openImported(Expected<PeerImport, Diagnostics> imported, const QString& title, const QString& tool);
    void showImportNotes(const QString& tool);
    // Greys the numbers of a result that no longer matches the scenario being edited.
    void updateTitle();
    bool maybeSave();
    bool save();
    bool saveAs();
    void openWithDialog();
    void fillRecentMenu();
    void onFileLoaded(const std::shared_ptr<LoadedScenarioFile>& file);
    // The open-file page in place of the tabs, or the tabs again.
    void showOpenFilePage(bool shown);
    // Before a scenario of another origin (a preset, a recovered copy, the default) replaces the document: the file
    // being read is dropped and the tabs show again.
    void leaveOpenFilePage();
    // Cancel (the status bar's button, Esc): the file being read, else the run.
    void cancelWork();
    // The file is read (or dropped): the busy bar and Cancel go, unless a run still shows its progress with them.
    void endFileProgress();
    // What the open-file page's Back button returns to: the open scenario's name, or empty when none was opened.
    [[nodiscard]] QString backTarget() const;

    ScenarioDocument document_;
    Autosave autosave_{document_, Autosave::default_folder()};
    JobRunner runner_;
    RunSession session_;
    TabbedRunFollower* follower_ = nullptr;  // hands the result tabs the session's state, the one in front first
    bool settle_when_caught_up_ = false;     // runSettled() once every tab shows the newest outcome
    ScenarioFileLoader loader_;
    bool has_document_ = false;  // a scenario has been opened (the document is more than its empty start)
    bool records_recent_files_ = true;
    QStringList import_notes_;  // importNotes()
    std::shared_ptr<const SimulationResult> result_;
    QTimer debounce_;
    bool auto_run_ = true;
    bool every_device_ = false;

    SummaryBar* summary_ = nullptr;
    BreakdownView* breakdown_ = nullptr;
    MemoryView* memory_ = nullptr;
    OracleView* oracle_ = nullptr;
    WhatIfPage* what_if_ = nullptr;
    SweepsPage* sweeps_ = nullptr;
    HistoryPage* history_ = nullptr;
    ComparisonChoice* comparison_choice_ = nullptr;  // two runs picked anywhere, compared on History
    QDockWidget* lesson_dock_ = nullptr;
    LessonPanel* lesson_panel_ = nullptr;
    bool lesson_step_pending_ = false;  // a step's tab and targets wait for its run
    bool lesson_owns_document_ = false;  // the document is a lesson step's (its edits are trials, not work)
    class LessonHandoutExport* handout_export_ = nullptr;  // the handout being made, if any
    QLabel* hidden_results_ = nullptr;  // in the summary's place while a lesson's question waits for a guess
    QAction* presentation_action_ = nullptr;
    bool presenting_ = false;
    bool scenario_dock_shown_ = true;       // before presenting
    Qt::WindowStates window_state_before_;  // likewise
    QFont font_before_;
    QPalette palette_before_;  // the application's, before presentation mode's high contrast
    RunRecorder recorder_;
    QAction* keep_runs_action_ = nullptr;
    QString from_sweep_;  // what the document was opened from ("sweep:1 point 3 · name", "run:4 · name"), if stored
    TimelinePage* timeline_ = nullptr;
    TopologyPage* topology_ = nullptr;
    StrategyPage* strategy_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    QStackedWidget* center_ = nullptr;  // the summary bar and tabs, or the open-file page
    QWidget* results_ = nullptr;
    OpenFilePage* open_page_ = nullptr;
    ProblemsPanel* problems_ = nullptr;
    ScenarioForm* form_ = nullptr;
    // Where `target` is drawn once revealed, in the view that shows it.
    [[nodiscard]] std::optional<TargetArea> areaOf(const Target& target) const;
    void showScenarioDock();

    Spotlight* spotlight_ = nullptr;
    QStackedWidget* form_stack_ = nullptr;  // the form, or a line saying no scenario is open yet
    QProgressBar* progress_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QLabel* status_ = nullptr;
    QAction* auto_run_action_ = nullptr;
    QMenu* recent_menu_ = nullptr;
};

}  // namespace parasight::gui
