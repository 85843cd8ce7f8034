#include "main_window/main_window.h"

#include "main_window/open_file_page.h"

#include "common/message_text.h"
#include "breakdown/breakdown_view.h"
#include "document/peer_import_files.h"
#include "document/preset_scenario.h"
#include "document/recent_files.h"
#include "document/recovery_question.h"
#include "document/save_path_dialog.h"
#include "strategy/strategy_page.h"
#include "topology/topology_page.h"
#include "memory/memory_view.h"
#include "oracle/oracle_view.h"
#include "problems/problems_panel.h"
#include "scenario_form/scenario_form.h"
#include "presets/preset_library.h"
#include "style/appearance.h"
#include "summary/summary_bar.h"
#include "history/history_page.h"
#include "interop/astra_sim_import.h"
#include "interop/calculon_import.h"
#include "lesson/bundled_lessons.h"
#include "lesson/lesson_check.h"
#include "lessons/lesson_panel.h"
#include "main_window/lesson_handout_export.h"
#include "main_window/welcome_dialog.h"
#include "picture/picture_export.h"
#include "scenario_file/preset_name.h"
#include "scenario_file/scenario_writer.h"
#include "scenario_file/sweep_section.h"
#include "sweeps/sweeps_page.h"
#include "timeline/playhead_bar.h"
#include "timeline/timeline_page.h"
#include "timeline/timeline_view.h"
#include "whatif/what_if_page.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDesktopServices>
#include <QDockWidget>
#include <QFileDialog>
#include <QPainter>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QFileInfo>
#include <QKeySequence>
#include <QLabel>
#include <QListView>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QShortcut>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

#include <map>

namespace parasight::gui {

namespace {

// How long the scenario must stay unchanged before a run starts: typing "1536" runs once, not four times.
constexpr int debounce_ms = 150;

struct TabSpec {
    const char* name;  // as --screenshot --tab takes it
    const char* title;
};

constexpr TabSpec tab_specs[] = {
    {"topology", QT_TRANSLATE_NOOP("MainWindow", "Topology")},
    {"strategy", QT_TRANSLATE_NOOP("MainWindow", "Strategy")},
    {"timeline", QT_TRANSLATE_NOOP("MainWindow", "Timeline")},
    {"breakdown", QT_TRANSLATE_NOOP("MainWindow", "Breakdown")},
    {"memory", QT_TRANSLATE_NOOP("MainWindow", "Memory")},
    {"oracle", QT_TRANSLATE_NOOP("MainWindow", "Oracle")},
    {"whatif", QT_TRANSLATE_NOOP("MainWindow", "What-if")},
    {"sweeps", QT_TRANSLATE_NOOP("MainWindow", "Sweeps")},
    {"history", QT_TRANSLATE_NOOP("MainWindow", "History")},
};

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setObjectName(QStringLiteral("MainWindow"));
    center_ = new QStackedWidget(this);
    results_ = new QWidget(center_);
    auto* layout = new QVBoxLayout(results_);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    summary_ = new SummaryBar(results_);
    tabs_ = new QTabWidget(results_);
    tabs_->setDocumentMode(true);
    breakdown_ = new BreakdownView(tabs_);
    memory_ = new MemoryView(tabs_);
    timeline_ = new TimelinePage(tabs_);
    topology_ = new TopologyPage(document_, tabs_);
    strategy_ = new StrategyPage(document_, tabs_);
    oracle_ = new OracleView(document_, tabs_);
    what_if_ = new WhatIfPage(document_, tabs_);
    sweeps_ = new SweepsPage(document_, tabs_);
    sweeps_->setDatabase({});  // the default results database, read on a worker
    // A cell of the heatmap double-clicked: its point's scenario opened and simulated, its timeline shown.
    connect(sweeps_, &SweepsPage::scenarioChosen, this, &MainWindow::openStoredScenario);
    connect(&document_, &ScenarioDocument::replaced, this, [this] { from_sweep_.clear(); });
    connect(sweeps_, &SweepsPage::scenarioRefused, this,
            [this](const QString& reason) { status_->setText(tr("The point could not be opened: %1").arg(reason)); });
    // The history: a sweep opened on the Sweeps tab, a run's scenario as a document; one database for both tabs and
    // for the runs kept.
    history_ = new HistoryPage(tabs_);
    history_->setDatabase({});
    connect(history_, &HistoryPage::scenarioChosen, this, &MainWindow::openStoredScenario);
    connect(history_, &HistoryPage::sweepChosen, this, [this](qint64 id) {
        sweeps_->showSweep(id);
        showTab(QStringLiteral("sweeps"));
    });
    connect(history_, &HistoryPage::resumeRequested, this, [this](qint64 id) {
        sweeps_->resumeSweep(id);
        showTab(QStringLiteral("sweeps"));
    });
    connect(history_, &HistoryPage::databaseChosen, this, [this](const QString& path) {
        sweeps_->setDatabase(path);
        recorder_.setDatabase(path);
    });
    connect(sweeps_, &SweepsPage::databaseChosen, this, [this](const QString& path) {
        history_->setDatabase(path);
        recorder_.setDatabase(path);
    });
    connect(sweeps_, &SweepsPage::sweepSettled, history_, &HistoryPage::reload);
    // Two runs picked anywhere — a cell, a point, a row of the history — compared on the History tab.
    comparison_choice_ = new ComparisonChoice(this);
    sweeps_->setComparisonChoice(comparison_choice_);
    history_->setComparisonChoice(comparison_choice_);
    connect(comparison_choice_, &ComparisonChoice::changed, this, [this] {
        if (const auto a = comparison_choice_->a()) {
            status_->setText(tr("%1 (run:%2) is A: pick B with “%3” on a cell, a point or a run")
                                 .arg(comparison_choice_->aLabel())
                                 .arg(*a)
                                 .arg(comparison_choice_->actionText()));
        }
    });
    connect(comparison_choice_, &ComparisonChoice::compareRequested, this, [this](qint64 a, qint64 b) {
        history_->compareRuns(a, b);
        showTab(QStringLiteral("history"));
        status_->setText(tr("Comparing run:%1 (A) with run:%2 (B) on the History tab").arg(a).arg(b));
    });
    connect(&recorder_, &RunRecorder::stored, this, [this](qint64, bool added) {
        if (added) history_->reload();
    });
    connect(&recorder_, &RunRecorder::refused, this,
            [this](const QString& reason) { status_->setText(tr("The run was not kept in the history: %1").arg(reason)); });
    const std::map<QString, QWidget*> pages{{QStringLiteral("topology"), topology_},
                                            {QStringLiteral("strategy"), strategy_},
                                            {QStringLiteral("timeline"), timeline_},
                                            {QStringLiteral("breakdown"), breakdown_},
                                            {QStringLiteral("memory"), memory_},
                                            {QStringLiteral("oracle"), oracle_},
                                            {QStringLiteral("whatif"), what_if_},
                                            {QStringLiteral("sweeps"), sweeps_},
                                            {QStringLiteral("history"), history_}};
    for (const TabSpec& spec : tab_specs) tabs_->addTab(pages.at(QString::fromLatin1(spec.name)), tr(spec.title));
    layout->addWidget(summary_);
    // In a lesson, while its question waits for a guess, the run's numbers are hidden in the summary's place.
    hidden_results_ = new QLabel(tr("The numbers are hidden until you commit a guess in the Lesson dock."), results_);
    hidden_results_->setObjectName(QStringLiteral("HiddenResults"));
    hidden_results_->setMargin(6);
    hidden_results_->hide();
    layout->addWidget(hidden_results_);
    layout->addWidget(tabs_, 1);
    // A row chosen in the Breakdown or Memory view brings its device's row to the top of the timeline.
    const auto reveal_in_timeline = [this](qulonglong device) {
        if (!result_ || device >= result_->simulation.report.per_device.size()) return;
        follower_->catchUp(timeline_);
        timeline_->reveal(Target{TargetKind::device, "timeline", result_->simulation.report.per_device[device].npu});
    };
    connect(breakdown_, &BreakdownView::deviceChosen, this, reveal_in_timeline);
    connect(memory_, &MemoryView::deviceChosen, this, reveal_in_timeline);
    // An event selected in the timeline chooses its device's NPU on the topology: its groups coloured there.
    connect(timelineView(), &TimelineView::selectionChanged, this, [this](qint64 event) {
        if (event < 0 || !result_ || !result_->simulation.timeline) return;
        const Timeline& timeline = *result_->simulation.timeline;
        const std::int64_t npu = timeline.devices().at(timeline.event(static_cast<EventId>(event)).device).npu;
        follower_->catchUp(topology_);
        topology_->reveal(Target{TargetKind::npu, {}, npu});
    });
    spotlight_ = new Spotlight(this);
    open_page_ = new OpenFilePage(center_);
    center_->addWidget(results_);
    center_->addWidget(open_page_);
    setCentralWidget(center_);
    connect(&loader_, &ScenarioFileLoader::started, this, [this](quint64, const QString& path) {
        open_page_->showOpening(path);
        showOpenFilePage(true);
        status_->setText(tr("Opening %1…").arg(QDir::toNativeSeparators(path)));
        progress_->setRange(0, 0);
        progress_->show();
        cancel_->show();
    });
    connect(&loader_, &ScenarioFileLoader::finished, this,
            [this](quint64, const std::shared_ptr<LoadedScenarioFile>& file) { onFileLoaded(file); });
    connect(&loader_, &ScenarioFileLoader::cancelled, this, [this](quint64, const QString& path) {
        open_page_->showCancelled(path, backTarget());
        status_->setText(tr("Opening %1 was cancelled").arg(QDir::toNativeSeparators(path)));
        endFileProgress();
        updateTitle();
        Q_EMIT fileOpened(path, false);
    });
    connect(open_page_, &OpenFilePage::cancelRequested, &loader_, &ScenarioFileLoader::cancel);
    connect(open_page_, &OpenFilePage::reloadRequested, this, &MainWindow::openFile);
    connect(open_page_, &OpenFilePage::openAnotherRequested, this, &MainWindow::openWithDialog);
    connect(open_page_, &OpenFilePage::editRequested, this, [this](const QString& path) {
        if (!QDesktopServices::openUrl(QUrl::fromLocalFile(path))) {
            status_->setText(tr("No application is set to open %1; open it in a text editor by hand")
                                 .arg(QDir::toNativeSeparators(path)));
        }
    });
    connect(open_page_, &OpenFilePage::backRequested, this, [this] {
        if (has_document_) {
            showOpenFilePage(false);
        } else {
            openDefaultScenario();
        }
    });

    buildMenus();
    buildProblemsPanel();
    buildStatusBar();
    buildScenarioDock();
    buildLessonDock();

    debounce_.setSingleShot(true);
    debounce_.setInterval(debounce_ms);
    connect(&debounce_, &QTimer::timeout, this, &MainWindow::runNow);
    connect(&document_, &ScenarioDocument::scenarioChanged, this, &MainWindow::onScenarioChanged);
    connect(&document_, &ScenarioDocument::filePathChanged, this, &MainWindow::updateTitle);
    connect(&document_, &ScenarioDocument::replaced, timeline_, &TimelinePage::startOver);
    connect(&document_, &ScenarioDocument::modifiedChanged, this, &MainWindow::updateTitle);

    // Every view shows what the run session says: a result (greyed while stale), a failure, or nothing simulated.
    // The summary is always in view; the tabs follow it, the one in front at once and the others a turn of the event
    // loop each (run/tabbed_run_follower.h).
    connect(&session_, &RunSession::changed, summary_, &SummaryBar::showRun);
    follower_ = new TabbedRunFollower(session_, *tabs_, this);
    follower_->follow(topology_, [this](const RunState& state) { topology_->showRun(state); });
    follower_->follow(strategy_, [this](const RunState& state) { strategy_->showRun(state); });
    follower_->follow(timeline_, [this](const RunState& state) { timeline_->showRun(state); });
    follower_->follow(breakdown_, [this](const RunState& state) { breakdown_->showRun(state); });
    follower_->follow(memory_, [this](const RunState& state) { memory_->showRun(state); });
    follower_->follow(oracle_, [this](const RunState& state) { oracle_->showRun(state); });
    connect(follower_, &TabbedRunFollower::caughtUp, this, [this] {
        if (!settle_when_caught_up_) return;
        settle_when_caught_up_ = false;
        Q_EMIT runSettled();
    });

    connect(&runner_, &JobRunner::started, this, [this] {
        progress_->setValue(0);
        progress_->show();
        cancel_->show();
        status_->setText(tr("Simulating…"));
    });
    connect(&runner_, &JobRunner::progressed, this, [this](quint64, const QString& phase, double fraction) {
        progress_->setValue(static_cast<int>(fraction * 100.0));
        status_->setText(tr("Simulating: %1…").arg(phase));
    });
    connect(what_if_, &WhatIfPage::editRefused, this, [this](const QString& reason) { status_->setText(reason); });
    connect(&autosave_, &Autosave::failed, this, [this](const QString& reason) {
        status_->setText(tr("Autosave failed: %1").arg(reason));
    });
    connect(&runner_, &JobRunner::failed, this, [this](quint64, const QString& what) {
        // What the worker threw (a bug, or memory ran out) is a failure like the core's own.
        SimulationError error;
        error.message = what.toStdString();
        onFailure(error);
    });
    connect(&runner_, &JobRunner::cancelled, this, [this] {
        status_->setText(tr("Cancelled"));
        Q_EMIT runSettled();
    });
    connect(&runner_, &JobRunner::idle, this, [this] {
        if (loader_.isLoading()) return;  // the file being read keeps the busy bar and Cancel
        progress_->hide();
        cancel_->hide();
    });

    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    updateTitle();
}

MainWindow::~MainWindow() {
    // The form's fields (and the topology inspector's, and an open strategy-tree editor) commit on losing focus,
    // which tearing the window down causes: they go while the document they write to is still alive (members die
    // before the base class deletes child widgets).
    delete form_;
    delete topology_;
    delete strategy_;
    delete what_if_;
}

QStringList MainWindow::tabNames() {
    QStringList names;
    for (const TabSpec& spec : tab_specs) names << QString::fromLatin1(spec.name);
    return names;
}

bool MainWindow::showTab(const QString& name) {
    const int index = static_cast<int>(tabNames().indexOf(name));
    if (index < 0) return false;
    tabs_->setCurrentIndex(index);
    return true;
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* new_action = file->addAction(tr("&New"), this, [this] {
        if (maybeSave()) openDefaultScenario();
    });
    new_action->setShortcut(QKeySequence::New);
    file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::openWithDialog);
    recent_menu_ = file->addMenu(tr("Open &Recent"));
    connect(recent_menu_, &QMenu::aboutToShow, this, &MainWindow::fillRecentMenu);
    fillRecentMenu();
    QMenu* presets = file->addMenu(tr("Open &Preset"));
    const std::pair<PresetKind, QString> preset_menus[] = {{PresetKind::scenario, tr("&Scenarios")},
                                                           {PresetKind::model, tr("&Models")},
                                                           {PresetKind::cluster, tr("&Clusters")},
                                                           {PresetKind::device, tr("&Devices")}};
    for (const auto& [kind, title] : preset_menus) {
        QMenu* menu = presets->addMenu(title);
        for (const Preset& preset : all_presets()) {
            if (preset.kind != kind) continue;
            menu->addAction(QString::fromUtf8(preset.id.data(), static_cast<qsizetype>(preset.id.size())), this,
                            [this, &preset] {
                                if (maybeSave()) openPreset(preset);
                            });
        }
    }
    QMenu* import = file->addMenu(tr("&Import"));
    // The peers keep each kind of file in a folder of its own (ASTRA-sim's inputs/network and inputs/system,
    // Calculon's systems, models and examples): one dialog a file, each starting where the last one was.
    import->addAction(tr("&ASTRA-sim Network…"), this, [this] {
        if (!maybeSave()) return;
        const QString network = QFileDialog::getOpenFileName(this, tr("Import ASTRA-sim: its network file"), QString(),
                                                             tr("ASTRA-sim networks (*.yml *.yaml);;All files (*)"));
        if (network.isEmpty()) return;
        const QString system = QFileDialog::getOpenFileName(
            this, tr("Import ASTRA-sim: its system file (Cancel: ASTRA-sim 2.0's topology-aware collectives)"),
            QFileInfo(network).absolutePath(), tr("ASTRA-sim systems (*.json);;All files (*)"));
        QStringList paths{network};
        if (!system.isEmpty()) paths << system;
        if (importAstraSim(paths)) showImportNotes(QStringLiteral("ASTRA-sim"));
    });
    import->addAction(tr("&Calculon Files…"), this, [this] {
        if (!maybeSave()) return;
        QStringList paths;
        for (const QString& which : {tr("Import Calculon: its system file"), tr("Import Calculon: its model file"),
                                     tr("Import Calculon: its execution file")}) {
            const QString path = QFileDialog::getOpenFileName(
                this, which, paths.isEmpty() ? QString() : QFileInfo(paths.back()).absolutePath(),
                tr("Calculon inputs (*.json);;All files (*)"));
            if (path.isEmpty()) return;
            paths << path;
        }
        if (importCalculon(paths)) showImportNotes(QStringLiteral("Calculon"));
    });
    file->addSeparator();
    file->addAction(tr("&Save"), QKeySequence::Save, this, &MainWindow::save);
    file->addAction(tr("Save &As…"), QKeySequence::SaveAs, this, &MainWindow::saveAs);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = document_.undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = document_.undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence::Redo});
    edit->addAction(undo);
    edit->addAction(redo);

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(tr("&Run"), QKeySequence(Qt::Key_F5), this, &MainWindow::runNow);
    run->addAction(tr("&Cancel"), QKeySequence(Qt::Key_Escape), this, &MainWindow::cancelWork);
    auto_run_action_ = run->addAction(tr("&Auto-run After Edits"));
    auto_run_action_->setCheckable(true);
    auto_run_action_->setChecked(auto_run_);
    connect(auto_run_action_, &QAction::toggled, this, &MainWindow::setAutoRun);
    QAction* every_device = run->addAction(tr("Simulate &Every Device"));
    every_device->setCheckable(true);
    every_device->setToolTip(tr("Simulate each device rather than one of each kind (symmetry class): slower, and "
                                "refused past the task limit for large clusters"));
    connect(every_device, &QAction::toggled, this, &MainWindow::setEveryDevice);
    keep_runs_action_ = run->addAction(tr("&Keep Runs in History"));
    keep_runs_action_->setCheckable(true);
    keep_runs_action_->setToolTip(tr("Store each scenario's run in the results database, for the History tab"));
    const bool keep = QSettings().value(QStringLiteral("history/keep_runs"), true).toBool();
    keep_runs_action_->setChecked(keep);
    recorder_.setEnabled(keep);
    connect(keep_runs_action_, &QAction::triggered, this, [this](bool on) {
        QSettings().setValue(QStringLiteral("history/keep_runs"), on);
        setKeepsRuns(on);
    });

    QMenu* view = menuBar()->addMenu(tr("&View"));
    for (int i = 0; i < tabs_->count(); ++i) {
        QAction* action = view->addAction(tabs_->tabText(i), this, [this, i] { tabs_->setCurrentIndex(i); });
        action->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + i)));
    }

    view->addSeparator();
    // For a lecture: full screen, the lesson and the results only, larger text; PageUp / PageDown (a presenter's
    // remote) move through the lesson's steps, Esc ends it.
    presentation_action_ = view->addAction(tr("&Presentation Mode"), this, &MainWindow::setPresenting);
    presentation_action_->setCheckable(true);
    presentation_action_->setShortcut(QKeySequence(Qt::Key_F11));
    view->addAction(tr("Picture for &Slides"), QKeySequence(Qt::Key_F12), this, [this] {
        const QString folder = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation) +
                               QStringLiteral("/ParaSight");
        const Expected<QString> written = pictureForSlides(folder);
        statusBar()->showMessage(written ? tr("Pictured for slides: %1 and .svg").arg(QDir::toNativeSeparators(written.value()))
                                         : tr("Not pictured: %1").arg(QString::fromStdString(written.error())),
                                 10000);
    });
    auto* next_step = new QShortcut(QKeySequence(Qt::Key_PageDown), this);
    auto* previous_step = new QShortcut(QKeySequence(Qt::Key_PageUp), this);
    for (QShortcut* shortcut : {next_step, previous_step}) {
        shortcut->setContext(Qt::WindowShortcut);
        shortcut->setEnabled(false);  // while presenting only: tables page with these keys otherwise
        connect(this, &MainWindow::presentingChanged, shortcut, &QShortcut::setEnabled);
    }
    connect(next_step, &QShortcut::activated, this, [this] { lesson_panel_->setStep(lesson_panel_->step() + 1); });
    connect(previous_step, &QShortcut::activated, this, [this] { lesson_panel_->setStep(lesson_panel_->step() - 1); });
    QMenu* appearance = view->addMenu(tr("&Appearance"));
    auto* appearances = new QActionGroup(appearance);
    const QString chosen = QSettings().value(QStringLiteral("appearance"), QStringLiteral("system")).toString();
    const std::pair<Appearance, QString> choices[] = {
        {Appearance::system, tr("Follow the &Desktop")},
        {Appearance::light, tr("&Light")},
        {Appearance::dark, tr("Da&rk")}};
    for (const auto& [choice, title] : choices) {
        QAction* action = appearance->addAction(title, this, [choice] {
            apply_appearance(choice);
            QSettings().setValue(QStringLiteral("appearance"), appearance_name(choice));
        });
        action->setCheckable(true);
        action->setChecked(appearance_name(choice) == chosen);
        appearances->addAction(action);
    }

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    // The bundled lessons (presets/lessons, docs/lessons.md), each opened in the Lesson dock at its first step.
    QMenu* lessons = help->addMenu(tr("&Lessons"));
    for (BundledLesson& bundled : bundled_lessons()) {
        const QString title = QString::fromStdString(bundled.lesson.title);
        const QString label = bundled.lesson.number ? tr("%1. %2").arg(*bundled.lesson.number).arg(title) : title;
        QAction* action = lessons->addAction(label);
        action->setToolTip(QString::fromStdString(bundled.lesson.summary));
        connect(action, &QAction::triggered, this, [this, lesson = std::move(bundled.lesson)] { openLesson(lesson); });
    }
    lessons->setToolTipsVisible(true);
    lessons->addSeparator();
    lessons->addAction(tr("Open Lesson &File…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open a Lesson"), QString(), tr("Lessons (*.yaml)"));
        if (!path.isEmpty()) openLessonFile(path);
    });
    help->addAction(tr("&Welcome…"), this, &MainWindow::showWelcome);
    help->addSeparator();
    help->addAction(tr("&About ParaSight"), this, [this] {
        QMessageBox::about(
            this, tr("About ParaSight"),
            tr("<h3>ParaSight %1</h3><p>A design-space explorer for distributed deep-learning training: it simulates "
               "one training iteration on every device of a cluster.</p><p>Its model draws on DistSim (Lu et al. "
               "2023), ASTRA-sim 2.0 (Won et al. 2023), NeuronaBox (Liu et al. 2024), the ParaDL oracle (Kahira et "
               "al. 2021) and Proteus (Duan et al. 2024); docs/model.md says what each number comes from.</p>")
                .arg(QStringLiteral(PARASIGHT_VERSION)));
    });
}

void MainWindow::buildStatusBar() {
    status_ = new QLabel(this);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 100);
    progress_->setMaximumWidth(200);
    progress_->setTextVisible(false);
    progress_->hide();
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setToolTip(tr("Stop the file being opened, or the simulation (Esc)"));
    cancel_->hide();
    connect(cancel_, &QPushButton::clicked, this, &MainWindow::cancelWork);
    statusBar()->addWidget(status_, 1);
    statusBar()->addPermanentWidget(problems_->countButton());
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancel_);
}

void MainWindow::buildProblemsPanel() {
    problems_ = new ProblemsPanel(this);
    // Choosing a problem goes to its field.
    connect(problems_, &ProblemsPanel::problemChosen, this, [this](const QString& path) {
        if (!path.isEmpty()) reveal(Target{TargetKind::field, path.toStdString()});
    });
}

void MainWindow::buildScenarioDock() {
    auto* dock = new QDockWidget(tr("Scenario"), this);
    dock->setObjectName(QStringLiteral("ScenarioDock"));
    // Until a scenario is open, the form would show the empty start's zeros and their problems: a line in its place.
    form_stack_ = new QStackedWidget(dock);
    form_ = new ScenarioForm(document_, form_stack_);
    auto* no_scenario = new QLabel(tr("No scenario is open yet."), form_stack_);
    no_scenario->setObjectName(QStringLiteral("NoScenario"));
    no_scenario->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    no_scenario->setMargin(8);
    no_scenario->setWordWrap(true);
    form_stack_->addWidget(form_);
    form_stack_->addWidget(no_scenario);
    form_stack_->setCurrentWidget(no_scenario);
    dock->setWidget(form_stack_);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    resizeDocks({dock}, {340}, Qt::Horizontal);
}

void MainWindow::buildLessonDock() {
    lesson_dock_ = new QDockWidget(tr("Lesson"), this);
    lesson_dock_->setObjectName(QStringLiteral("LessonDock"));
    lesson_panel_ = new LessonPanel(lesson_dock_);
    lesson_dock_->setWidget(lesson_panel_);
    addDockWidget(Qt::RightDockWidgetArea, lesson_dock_);
    resizeDocks({lesson_dock_}, {380}, Qt::Horizontal);
    lesson_dock_->hide();  // until a lesson is opened
    connect(lesson_panel_, &LessonPanel::stepChosen, this, &MainWindow::showLessonStep);
    connect(&document_, &ScenarioDocument::replaced, this, [this] { lesson_owns_document_ = false; });
    connect(lesson_panel_, &LessonPanel::awaitingGuessChanged, this, [this](bool awaiting) {
        summary_->setVisible(!awaiting);
        hidden_results_->setVisible(awaiting);
        oracle_->setSimulationHidden(awaiting);
        hideResultTabs(awaiting);
    });
    // A step's tab and targets once its run has settled (a target on the Timeline needs the run's events).
    connect(this, &MainWindow::runSettled, this, [this] {
        if (!lesson_step_pending_ || !lesson_panel_->lesson()) return;
        lesson_step_pending_ = false;
        const LessonStep& step = lesson_panel_->lesson()->steps[static_cast<std::size_t>(lesson_panel_->step())];
        if (!step.tab.empty()) showTab(QString::fromStdString(step.tab));
        for (const LocatedText& text : step.reveal) {
            if (const Expected<Target> target = parse_target(text.text)) reveal(target.value());
        }
        if (step.spotlight) {
            if (const Expected<Target> target = parse_target(step.spotlight->text)) spotlight(target.value());
        }
        timeline_->playhead()->setShown(step.playhead);
        if (step.sweep) {
            // The step's sweep defined on the Sweeps tab and run on the step's scenario (resumed when stored before).
            QStringList axes;
            for (const LocatedText& axis : step.sweep->axes) axes << QString::fromStdString(axis.text);
            sweeps_->defineSweep(axes, step.sweep->strategies
                                           ? std::optional<QString>(QString::fromStdString(step.sweep->strategies->text))
                                           : std::nullopt);
            sweeps_->runSweep();
        }
        Q_EMIT lessonStepShown();
    });
    connect(lesson_panel_, &LessonPanel::handoutRequested, this, &MainWindow::chooseHandout);
    connect(lesson_panel_, &LessonPanel::tryItRequested, this, [this] { document_.setLocked(false); });
    connect(&document_, &ScenarioDocument::lockedChanged, this, [this](bool locked) {
        lesson_panel_->setLocked(locked);
        updateFormEnabled();
    });
    connect(&document_, &ScenarioDocument::editRefused, this, [this] {
        statusBar()->showMessage(tr("The step's scenario is locked: press Try It in the Lesson dock to change it"),
                                 10000);
    });
}

void MainWindow::chooseHandout(HandoutReader reader) {
    const QString title = reader == HandoutReader::teacher ? tr("Export the Teacher's Handout")
                                                           : tr("Export the Students' Handout");
    QString filter = tr("Markdown, pictures beside it (*.md)");
    const QString path = QFileDialog::getSaveFileName(this, title, QString(),
                                                      tr("Markdown, pictures beside it (*.md);;PDF (*.pdf)"), &filter);
    if (path.isEmpty()) return;
    const bool pdf = filter.contains(QStringLiteral("*.pdf"));
    const QString suffix = pdf ? QStringLiteral(".pdf") : QStringLiteral(".md");
    exportHandout(path.endsWith(suffix, Qt::CaseInsensitive) ? path : path + suffix, reader);
}

bool MainWindow::exportHandout(const QString& path, HandoutReader reader) {
    if (!lesson_panel_->lesson() || handout_export_ != nullptr) return false;
    handout_export_ = new LessonHandoutExport(*this, path, reader);
    connect(handout_export_, &LessonHandoutExport::finished, this, [this](const QString& message, bool written) {
        handout_export_->deleteLater();
        handout_export_ = nullptr;
        statusBar()->showMessage(message, 10000);
        Q_EMIT handoutExported(message, written);
    });
    statusBar()->showMessage(tr("Making the handout: each step is opened and pictured…"));
    handout_export_->start();
    return true;
}

void MainWindow::setPresenting(bool on) {
    if (on == presenting_) return;
    presenting_ = on;
    if (presentation_action_->isChecked() != on) presentation_action_->setChecked(on);
    auto* scenario_dock = qobject_cast<QDockWidget*>(form_stack_->parentWidget());
    if (on) {
        // Kept to be put back: whether the scenario dock showed, the window's state and font.
        scenario_dock_shown_ = scenario_dock != nullptr && scenario_dock->isVisible();
        window_state_before_ = windowState();
        font_before_ = font();
        palette_before_ = QApplication::palette();
        QApplication::setPalette(high_contrast_palette(palette_before_));
        if (scenario_dock != nullptr) scenario_dock->hide();
        QFont larger = font();
        larger.setPointSizeF(larger.pointSizeF() * presentation_font_scale);
        setFont(larger);
        showFullScreen();
    } else {
        QApplication::setPalette(palette_before_);
        setFont(font_before_);
        if (scenario_dock != nullptr && scenario_dock_shown_) scenario_dock->show();
        setWindowState(window_state_before_);
    }
    lesson_panel_->setPresenting(on);
    spotlight_->setDimming(on);
    Q_EMIT presentingChanged(on);
}

bool MainWindow::resultsHidden() const { return !hidden_results_->isHidden(); }

void MainWindow::openLesson(Lesson lesson, int step) {
    lesson_dock_->show();
    lesson_dock_->raise();
    lesson_panel_->showLesson(std::move(lesson), step);
}

WelcomeDialog* MainWindow::showWelcome() {
    auto* welcome = new WelcomeDialog(this);
    welcome->setAttribute(Qt::WA_DeleteOnClose);
    connect(welcome, &WelcomeDialog::lessonChosen, this, [this](const Lesson& lesson) { openLesson(lesson); });
    connect(welcome, &WelcomeDialog::scenarioChosen, this, [this](const QString& id) {
        const Preset* preset = find_preset(PresetKind::scenario, id.toStdString());
        if (preset != nullptr && maybeSave()) openPreset(*preset);
    });
    welcome->show();
    return welcome;
}

Expected<QString> MainWindow::pictureForSlides(const QString& folder) {
    QWidget* shown = tabs_->currentWidget();
    if (shown == nullptr) return Error{"no tab is shown"};
    if (!QDir().mkpath(folder)) return Error{"cannot make the folder " + folder.toStdString()};
    // What it shows: the lesson's step, or the document, and the tab.
    QString what = lesson_panel_->lesson() && lesson_owns_document_
                       ? tr("%1, step %2").arg(QString::fromStdString(lesson_panel_->lesson()->title)).arg(lesson_panel_->step() + 1)
                       : document_.displayName();
    what = QStringLiteral("%1 - %2").arg(what, tabs_->tabText(tabs_->currentIndex()).remove(u'&'));
    what.replace(QRegularExpression(QStringLiteral("[/\\\\:*?\"<>|]")), QStringLiteral("-"));
    QString base = QDir(folder).filePath(what);
    for (int number = 2; QFileInfo::exists(base + QStringLiteral(".png")) || QFileInfo::exists(base + QStringLiteral(".svg")); ++number) {
        base = QDir(folder).filePath(QStringLiteral("%1 (%2)").arg(what).arg(number));
    }
    const auto paint = [shown](QPainter& painter) { shown->render(&painter); };
    if (auto error = export_png(shown->size(), shown->palette().color(QPalette::Window), paint, base + QStringLiteral(".png"))) {
        return Error{error->toStdString()};
    }
    if (auto error = export_svg(shown->size(), QStringLiteral("ParaSight: %1").arg(what), paint, base + QStringLiteral(".svg"))) {
        return Error{error->toStdString()};
    }
    return base + QStringLiteral(".png");
}

bool MainWindow::openLessonFile(const QString& path) {
    LessonRead read = read_lesson_file(path.toStdString());
    if (!read.lesson) {
        showProblems(read.diagnostics, path);
        return false;
    }
    openLesson(std::move(*read.lesson));
    return true;
}

void MainWindow::showLessonStep(int index) {
    const Lesson& lesson = *lesson_panel_->lesson();
    const LoadResult scenario = lesson_step_scenario(lesson, static_cast<std::size_t>(index), lesson_panel_->variant());
    const QString title = tr("%1, step %2").arg(QString::fromStdString(lesson.title)).arg(index + 1);
    if (!scenario.ok()) {
        showProblems(scenario.diagnostics, QString::fromStdString(lesson.file));
        Q_EMIT lessonStepShown();
        return;
    }
    // A step's document is the lesson's, its edits the students' trials: moving on drops them without asking. Any
    // other document is asked about first.
    if (!lesson_owns_document_ && !maybeSave()) return;
    Diagnostics problems;
    leaveOpenFilePage();
    if (!document_.openText(write_scenario_yaml(scenario.scenario->value()), title.toStdString(), problems)) {
        showProblems(problems, title);
        Q_EMIT lessonStepShown();
        return;
    }
    lesson_owns_document_ = true;  // after openText, whose `replaced` clears it
    document_.setLocked(true);     // until the students press Try It
    lesson_step_pending_ = true;
    status_->setText(tr("%1: %2").arg(title, QString::fromStdString(lesson.steps[static_cast<std::size_t>(index)].title)));
}

void MainWindow::showScenarioDock() {
    if (auto* dock = qobject_cast<QDockWidget*>(form_stack_->parentWidget())) {
        dock->show();
        dock->raise();
    }
}

bool MainWindow::reveal(const Target& target) {
    switch (target.kind) {
        case TargetKind::tab: return showTab(QString::fromStdString(target.name));
        case TargetKind::field:
            // A what-if rule's value is edited in its tab's tables, every other field in the scenario form.
            if (what_if_->reveal(target)) return showTab(QStringLiteral("whatif"));
            showScenarioDock();
            return form_->reveal(target);
        case TargetKind::strategy_node: return showTab(QStringLiteral("strategy")) && strategy_->reveal(target);
        case TargetKind::npu:
        case TargetKind::group: return showTab(QStringLiteral("topology")) && topology_->reveal(target);
        case TargetKind::device: {
            if (!showTab(QString::fromStdString(target.name))) return false;
            if (target.name == "breakdown") return breakdown_->reveal(target);
            if (target.name == "memory") return memory_->reveal(target);
            return timeline_->reveal(target);
        }
        case TargetKind::events:
        case TargetKind::time_range: return showTab(QStringLiteral("timeline")) && timeline_->reveal(target);
        case TargetKind::memory_category: return showTab(QStringLiteral("memory")) && memory_->reveal(target);
        case TargetKind::oracle_strategy: return showTab(QStringLiteral("oracle")) && oracle_->reveal(target);
    }
    return false;
}

std::optional<TargetArea> MainWindow::areaOf(const Target& target) const {
    switch (target.kind) {
        case TargetKind::tab: {
            const int index = static_cast<int>(tabNames().indexOf(QString::fromStdString(target.name)));
            if (index < 0) return std::nullopt;
            return TargetArea{tabs_->tabBar(), tabs_->tabBar()->tabRect(index)};
        }
        case TargetKind::field:
            if (auto area = what_if_->areaOf(target); area && what_if_->isVisible()) return area;
            return form_->areaOf(target);
        case TargetKind::strategy_node: return strategy_->areaOf(target);
        case TargetKind::npu:
        case TargetKind::group: return topology_->areaOf(target);
        case TargetKind::device:
            if (target.name == "breakdown") return breakdown_->areaOf(target);
            if (target.name == "memory") return memory_->areaOf(target);
            return timeline_->areaOf(target);
        case TargetKind::events:
        case TargetKind::time_range: return timeline_->areaOf(target);
        case TargetKind::memory_category: return memory_->areaOf(target);
        case TargetKind::oracle_strategy: return oracle_->areaOf(target);
    }
    return std::nullopt;
}

bool MainWindow::spotlight(const Target& target) {
    if (!reveal(target)) return false;
    // Marked once the revealed tab is laid out: its geometry before that is not where it will be drawn.
    QTimer::singleShot(0, this, [this, target] { spotlight_->shine([this, target] { return areaOf(target); }); });
    return true;
}

TimelineView* MainWindow::timelineView() const { return timeline_->view(); }

QString MainWindow::statusText() const { return status_->text(); }

void MainWindow::openFile(const QString& path) { loader_.start(path); }

OpenFilePage* MainWindow::openFilePage() const {
    return center_->currentWidget() == open_page_ ? open_page_ : nullptr;
}

QString MainWindow::backTarget() const { return has_document_ ? document_.displayName() : QString(); }

void MainWindow::endFileProgress() {
    progress_->setRange(0, 100);
    if (!runner_.isRunning()) {
        progress_->hide();
        cancel_->hide();
    }
}

void MainWindow::onFileLoaded(const std::shared_ptr<LoadedScenarioFile>& file) {
    endFileProgress();
    if (!file->ok()) {
        const auto count = static_cast<std::int64_t>(file->problems.size());
        // Moved, not copied: a file of 100 000 unknown keys has as many problems.
        open_page_->showFailure(file->path, std::move(file->problems), backTarget());
        // The page lists the file's problems; the panel's would repeat them beside it.
        problems_->hideAll();
        status_->setText(tr("%1 could not be opened: %2")
                             .arg(QDir::toNativeSeparators(file->path),
                                  QString::fromStdString(count_phrase(count, "problem"))));
        if (!QFileInfo::exists(file->path)) RecentFiles::remove(file->path);  // gone: forget it
        updateTitle();
        Q_EMIT fileOpened(file->path, false);
        return;
    }
    has_document_ = true;
    const QString path = file->path;
    document_.openLoaded(std::move(*file));
    showOpenFilePage(false);
    if (records_recent_files_) RecentFiles::add(path);
    status_->setText(tr("Opened %1").arg(QDir::toNativeSeparators(path)));
    Q_EMIT fileOpened(path, true);
}

void MainWindow::cancelWork() {
    // Esc: out of presentation mode first, as a viewer expects.
    if (presenting_) {
        setPresenting(false);
        return;
    }
    if (loader_.isLoading()) {
        loader_.cancel();
        return;
    }
    runner_.cancel();
}

void MainWindow::leaveOpenFilePage() {
    loader_.cancel();  // a file still being read is dropped: the scenario chosen now replaces it
    has_document_ = true;
    showOpenFilePage(false);
}

void MainWindow::showOpenFilePage(bool shown) {
    center_->setCurrentWidget(shown ? static_cast<QWidget*>(open_page_) : results_);
    updateFormEnabled();
    form_stack_->setCurrentIndex(has_document_ ? 0 : 1);
    updateTitle();
}

void MainWindow::hideResultTabs(bool hidden) {
    // The tabs of results, but the one the step shows (the lesson chose it) and the one on screen: closed until the
    // guess. The inputs' tabs (Topology, Strategy) stay open.
    static const QStringList results{QStringLiteral("timeline"), QStringLiteral("breakdown"), QStringLiteral("memory"),
                                     QStringLiteral("oracle"),   QStringLiteral("whatif"),    QStringLiteral("sweeps"),
                                     QStringLiteral("history")};
    const QStringList names = tabNames();
    const LessonStep* step = lesson_panel_->lesson()
                                 ? &lesson_panel_->lesson()->steps.at(static_cast<std::size_t>(lesson_panel_->step()))
                                 : nullptr;
    for (int index = 0; index < names.size(); ++index) {
        const bool kept = !results.contains(names[index]) || (step != nullptr && names[index] == QString::fromStdString(step->tab)) ||
                          (step != nullptr && step->tab.empty() && index == tabs_->currentIndex());
        const bool closed = hidden && !kept;
        tabs_->setTabEnabled(index, !closed);
        tabs_->setTabToolTip(index, closed ? tr("Hidden until you commit a guess in the Lesson dock") : QString());
    }
}

void MainWindow::updateFormEnabled() {
    // The form edits the scenario behind the page: not while the page says another file is in question, nor while
    // a lesson step's scenario is locked.
    form_->setEnabled(center_->currentWidget() != open_page_ && !document_.isLocked());
}

void MainWindow::openPreset(const Preset& preset) {
    Diagnostics problems;
    if (auto scenario = scenario_from_preset(preset, problems)) {
        leaveOpenFilePage();
        // A scenario preset's sweep section comes with it (the Sweeps tab runs it), as with a file.
        std::string sweep_yaml;
        if (preset.kind == PresetKind::scenario) {
            sweep_yaml = read_sweep_section(preset.text, std::string(preset.file)).yaml;
        }
        document_.openNew(std::move(*scenario), std::move(sweep_yaml));
        return;
    }
    showProblems(problems, QString::fromUtf8(preset.file.data(), static_cast<qsizetype>(preset.file.size())));
}

bool MainWindow::importAstraSim(const QStringList& paths) {
    PickedAstraSimFiles picked = pick_astra_sim_files(paths);
    const QString title =
        picked.network ? QFileInfo(QString::fromStdString(picked.network->name)).fileName() : tr("ASTRA-sim files");
    if (!picked.problems.empty()) {
        showProblems(picked.problems, title);
        return false;
    }
    return openImported(import_astra_sim(*picked.network, picked.system, PeerImportOptions{}), title,
                        QStringLiteral("ASTRA-sim"));
}

bool MainWindow::importCalculon(const QStringList& paths) {
    PickedCalculonFiles picked = pick_calculon_files(paths);
    const QString title = picked.model ? QFileInfo(QString::fromStdString(picked.model->name)).fileName()
                                       : tr("Calculon files");
    if (!picked.problems.empty()) {
        showProblems(picked.problems, title);
        return false;
    }
    return openImported(import_calculon(*picked.system, *picked.model, *picked.execution), title,
                        QStringLiteral("Calculon"));
}

bool MainWindow::openImported(Expected<PeerImport, Diagnostics> imported, const QString& title, const QString& tool) {
    Diagnostics problems;
    if (!imported) problems = std::move(imported.error());
    if (imported) leaveOpenFilePage();
    if (!imported || !document_.openText(imported->yaml, title.toStdString(), problems)) {
        showProblems(problems, title);
        return false;
    }
    showTab(QStringLiteral("topology"));
    import_notes_.clear();
    for (const std::string& note : imported->not_modelled) import_notes_ << QString::fromStdString(note);
    status_->setText(import_notes_.isEmpty()
                         ? tr("Imported %1 from %2, unsaved (conversions: docs/interop.md)").arg(title, tool)
                         : tr("Imported %1 from %2, unsaved; %3 modelled otherwise than in %2 (docs/interop.md)")
                               .arg(title, tool,
                                    QString::fromStdString(count_phrase(
                                        static_cast<std::int64_t>(import_notes_.size()), "setting"))));
    return true;
}

void MainWindow::showImportNotes(const QString& tool) {
    if (import_notes_.isEmpty()) return;
    auto* box = new QMessageBox(QMessageBox::Information, tr("Imported from %1").arg(tool),
                                tr("Where %1 and ParaSight differ (docs/interop.md):").arg(tool), QMessageBox::Ok, this);
    box->setInformativeText(QStringLiteral("• ") + import_notes_.join(QStringLiteral("\n• ")));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::fillRecentMenu() {
    recent_menu_->clear();
    const QStringList files = RecentFiles::files();
    for (qsizetype i = 0; i < files.size(); ++i) {
        const QString& path = files[i];
        // "&1 default.yaml — /home/me/runs": the name first, the folder to tell two of one name apart.
        const QFileInfo info(path);
        QAction* action = recent_menu_->addAction(
            tr("&%1 %2 — %3").arg(i + 1).arg(info.fileName(), QDir::toNativeSeparators(info.absolutePath())), this,
            [this, path] {
                if (!maybeSave()) return;
                openFile(path);  // one that is gone is forgotten when it fails to open
            });
        action->setData(path);
    }
    if (files.isEmpty()) recent_menu_->addAction(tr("No Recent Files"))->setEnabled(false);
    recent_menu_->addSeparator();
    QAction* clear = recent_menu_->addAction(tr("&Clear Recent Files"), this, [] { RecentFiles::clear(); });
    clear->setEnabled(!files.isEmpty());
}

void MainWindow::offerRecovery(const QString& folder) {
    for (LeftAutosave& left : Autosave::left_in(folder)) {
        switch (ask_about_recovery(left, this)) {
            case RecoveryAnswer::recover:
                if (recover(left)) return;
                break;
            case RecoveryAnswer::discard: left.remove(); break;
            case RecoveryAnswer::later: break;
        }
    }
}

bool MainWindow::recover(LeftAutosave& left) {
    Diagnostics problems;
    std::optional<Scenario> scenario = left.read(problems);
    if (!scenario) {
        showProblems(problems, left.path());
        return false;
    }
    leaveOpenFilePage();
    document_.openRecovered(std::move(*scenario), left.originalPath(), left.sweepSection());
    // Protected again before the old copy goes: a second crash must not lose what was just recovered.
    autosave_.writeNow();
    if (!autosave_.error().isEmpty()) {
        status_->setText(tr("Recovered unsaved changes, but they could not be autosaved again (%1): the old copy %2 "
                            "is kept")
                             .arg(autosave_.error(), QDir::toNativeSeparators(left.path())));
        return true;
    }
    left.remove();
    status_->setText(document_.filePath().isEmpty()
                         ? tr("Recovered unsaved changes, untitled: Save asks where to keep them")
                         : tr("Recovered unsaved changes: Save writes them to %1")
                               .arg(QDir::toNativeSeparators(document_.filePath())));
    return true;
}

void MainWindow::openDefaultScenario() {
    const Preset* preset = find_preset(PresetKind::scenario, "default");
    Diagnostics problems;
    leaveOpenFilePage();
    if (preset == nullptr || !document_.openText(preset->text, std::string(preset->file), problems)) {
        showProblems(problems, tr("the bundled default scenario"));
    }
}

void MainWindow::setAutoRun(bool on) {
    auto_run_ = on;
    if (auto_run_action_ != nullptr && auto_run_action_->isChecked() != on) auto_run_action_->setChecked(on);
    if (on && document_.validated() && (!result_ || result_->scenario != document_.validated())) debounce_.start();
}

void MainWindow::setEveryDevice(bool on) {
    if (every_device_ == on) return;
    every_device_ = on;
    if (document_.validated()) runNow();
}

void MainWindow::runNow() {
    debounce_.stop();
    SimulateOptions options;
    options.record_memory_timeline = true;  // the memory view draws a device's memory over the iteration
    options.all_devices = every_device_;
    const auto validated = document_.validated();
    if (!validated) return;
    const auto deliver = [this](std::uint64_t, SimulationOutcome outcome) {
        if (outcome) {
            onResult(outcome.value());
        } else {
            onFailure(outcome.error());
        }
    };
    runner_.start<SimulationOutcome>(simulation_work(validated, options), deliver);
}

void MainWindow::onScenarioChanged() {
    recorder_.withdraw();  // the result it was offered is no longer the scenario's
    updateTitle();
    showProblems(document_.problems(), document_.filePath());
    session_.setEditing(document_.validated().get());
    if (document_.validated()) {
        if (auto_run_) debounce_.start();
    } else {
        debounce_.stop();
        runner_.cancel();
    }
}

void MainWindow::openStoredScenario(const QString& title, const QString& yaml) {
    if (!maybeSave()) return;
    Diagnostics problems;
    leaveOpenFilePage();
    if (!document_.openText(yaml.toStdString(), title.toStdString(), problems)) {
        showProblems(problems, title);
        return;
    }
    from_sweep_ = title;  // said with every run of it, until another document replaces it
    showTab(QStringLiteral("timeline"));
    status_->setText(from_sweep_.startsWith(QStringLiteral("sweep:"))
                         ? tr("Opened %1; the Sweeps tab (Ctrl+8) goes back to its sweep").arg(title)
                         : tr("Opened %1; the History tab (Ctrl+9) goes back to it").arg(title));
}

void MainWindow::setKeepsRuns(bool on) {
    recorder_.setEnabled(on);
    if (keep_runs_action_ != nullptr && keep_runs_action_->isChecked() != on) keep_runs_action_->setChecked(on);
}

void MainWindow::onResult(const std::shared_ptr<const SimulationResult>& result) {
    result_ = result;
    if (lesson_panel_->lesson()) {
        const LessonRun run{result->simulation.report, result->oracle_comparison};
        lesson_panel_->setRun(&run, write_scenario_yaml(result->scenario->value()));
    }
    // Kept in the history once it has stayed the newest a moment (run/run_recorder.h).
    if (result->scenario == document_.validated()) recorder_.offer(result);
    // A result for an older value than the editor's is still shown, greyed, until the newer one arrives.
    session_.setResult(result, document_.validated().get());
    status_->setText(from_sweep_.isEmpty() ? tr("Simulated")
                     : from_sweep_.startsWith(QStringLiteral("sweep:"))
                         ? tr("Simulated %1; the Sweeps tab (Ctrl+8) goes back to its sweep").arg(from_sweep_)
                         : tr("Simulated %1; the History tab (Ctrl+9) goes back to it").arg(from_sweep_));
    settleWhenShown();
}

void MainWindow::onFailure(const SimulationError& error) {
    result_.reset();
    if (lesson_panel_->lesson()) lesson_panel_->setRun(nullptr);
    session_.setFailure(error);
    // The error's message first, then its diagnostics, if any.
    Diagnostic headline;
    headline.message = error.message;
    Diagnostics problems;
    problems.reserve(error.diagnostics.size() + 1);
    problems.push_back(std::move(headline));
    problems.insert(problems.end(), error.diagnostics.begin(), error.diagnostics.end());
    showProblems(problems, document_.filePath());
    status_->setText(tr("The simulation failed"));
    settleWhenShown();
}

void MainWindow::settleWhenShown() {
    if (follower_->isCaughtUp()) {
        Q_EMIT runSettled();
    } else {
        settle_when_caught_up_ = true;
    }
}

void MainWindow::showProblems(const Diagnostics& problems, const QString& file) {
    problems_->setProblems(problems);
    const QString count = QString::fromStdString(count_phrase(static_cast<std::int64_t>(problems.size()), "problem"));
    if (!problems.empty()) status_->setText(tr("%1 in %2").arg(count, file.isEmpty() ? document_.displayName() : file));
}

void MainWindow::updateTitle() {
    if (openFilePage() != nullptr) {
        // The page's file, not the scenario behind it.
        setWindowTitle(QStringLiteral("%1 — ParaSight").arg(open_page_->headline()));
        setWindowModified(false);
        return;
    }
    setWindowTitle(QStringLiteral("%1[*] — ParaSight").arg(document_.displayName()));
    setWindowModified(document_.isModified());
}

bool MainWindow::maybeSave() {
    if (!document_.isModified()) return true;
    const auto answer = QMessageBox::warning(
        this, tr("Unsaved changes"), tr("%1 has changes that are not saved. Save them?").arg(document_.displayName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save) return save();
    return answer == QMessageBox::Discard;
}

bool MainWindow::save() {
    if (document_.filePath().isEmpty()) return saveAs();
    if (const auto error = document_.saveAs(document_.filePath())) {
        QMessageBox::critical(this, tr("Cannot save"), tr("Saving %1 failed: %2").arg(document_.filePath(), *error));
        return false;
    }
    if (records_recent_files_) RecentFiles::add(document_.filePath());
    return true;
}

bool MainWindow::saveAs() {
    const QString path = ask_save_path(this, tr("Save Scenario"), document_.filePath(), tr("Scenarios (*.yaml *.yml)"),
                                       QStringLiteral(".yaml"));
    if (path.isEmpty()) return false;
    if (const auto error = document_.saveAs(path)) {
        QMessageBox::critical(this, tr("Cannot save"), tr("Saving %1 failed: %2").arg(path, *error));
        return false;
    }
    if (records_recent_files_) RecentFiles::add(document_.filePath());
    return true;
}

void MainWindow::openWithDialog() {
    if (!maybeSave()) return;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Scenario"), QString(),
                                                      tr("Scenarios (*.yaml *.yml);;All files (*)"));
    if (!path.isEmpty()) openFile(path);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    recorder_.storeNow();  // the last run, without waiting for its quiet moment
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    event->accept();
}

}  // namespace parasight::gui
