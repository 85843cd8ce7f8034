// The main window (widgets/main_window/): it opens the bundled default scenario and shows its simulated numbers; an
// edit re-runs it and the newest result replaces the old; an invalid edit is never simulated and says why; every
// tab renders. Headless (offscreen).

#include "main_window/main_window.h"

#include "breakdown/breakdown_view.h"
#include "memory/memory_view.h"
#include "oracle/oracle_view.h"
#include "oracle/oracle_table_model.h"
#include "scenario_form/scenario_form.h"
#include "strategy/strategy_page.h"
#include "strategy/strategy_tree_model.h"
#include "summary/summary_bar.h"
#include "sweeps/heatmap_view.h"
#include "history/history_page.h"
#include "run/run_recorder.h"
#include "sweeps/sweeps_page.h"
#include "timeline/event_details.h"
#include "timeline/timeline_page.h"
#include "timeline/timeline_rows.h"
#include "timeline/timeline_view.h"
#include "topology/topology_page.h"
#include "whatif/what_if_page.h"

#include "export_menu.h"
#include "open_file.h"
#include "target/target.h"
#include "export/warning_text.h"
#include "store/stored_sweep_run.h"
#include "sweep/sweep_setup.h"

#include <QAbstractAxis>
#include <QChart>
#include <QComboBox>
#include <QAction>
#include <QApplication>
#include <QFile>
#include <QFileDialog>
#include <QMenu>
#include <QTemporaryDir>
#include <QTimer>
#include <QDockWidget>
#include <QLegend>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QSet>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>
#include <QTest>
#include <QToolButton>

using parasight::Scenario;
using parasight::Timeline;
using parasight::gui::MainWindow;

namespace {

// How many distinct colours an image holds: a blank render has one or two.
int distinct_colours(const QImage& image) {
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3) {
        for (int x = 0; x < image.width(); x += 3) colours.insert(image.pixel(x, y));
    }
    return static_cast<int>(colours.size());
}

}  // namespace

class TestMainWindow : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void opensTheDefaultScenarioSimulated();
    void theSummarySaysTheWarnings();
    void anEditRunsAgain();
    void chartsAreNotGreyAfterARerun();
    void aNewRunOrDocumentDropsWhatWasMeasuredOrSought();
    void anInvalidEditIsNotSimulated();
    void theTabsStayPutWhileTheScenarioHasProblems();
    void aRefusedRunClearsEveryTab();
    void theWindowsTabsAreTheTargetsTabs();
    void targetsAreRevealedAndSpotlit_data();
    void targetsAreRevealedAndSpotlit();
    void anOracleRowIsRevealed();
    void aSweepsCellOpensItsPointsTimeline();
    void runsAreKeptAcrossARestart();
    void aChosenRowBringsItsDeviceToTheTimeline();
    void everyDeviceCanBeSimulated();
    void anEventSelectedInTheTimelineChoosesItsNpu();
    void aWhatIfProblemGoesToItsRuleCell();
    void fitsASmallWindow();
    void everyTabRenders_data();
    void everyTabRenders();
    void breakdownAndMemoryExport_data();
    void breakdownAndMemoryExport();
};

void TestMainWindow::initTestCase() {
    // Window geometry and docks are kept in QSettings: keep the tests' apart from a user's.
    QCoreApplication::setOrganizationName(QStringLiteral("ParaSight tests"));
    QCoreApplication::setApplicationName(QStringLiteral("test_main_window"));
}

void TestMainWindow::opensTheDefaultScenarioSimulated() {
    MainWindow window;
    QSignalSpy settled(&window, &MainWindow::runSettled);
    window.openDefaultScenario();
    QVERIFY(window.document().validated() != nullptr);
    QVERIFY(settled.wait(30000));
    QVERIFY(window.result() != nullptr);
    QVERIFY(window.result()->scenario == window.document().validated());
    const QStringList texts = window.summaryBar()->texts();
    QCOMPARE(texts.size(), 6);
    // The default scenario's iteration time and peak memory as the core reports them; 1024 devices.
    QVERIFY2(texts[0].startsWith(QStringLiteral("Iteration ")), qPrintable(texts.join(u'|')));
    QVERIFY2(texts[1].contains(QStringLiteral("samples/s")) && texts[1].contains(QStringLiteral("tokens/s")),
             qPrintable(texts[1]));
    QVERIFY2(texts[2].startsWith(QStringLiteral("MFU ")), qPrintable(texts[2]));
    QVERIFY2(texts[3].startsWith(QStringLiteral("Peak memory ")) && texts[3].endsWith(QStringLiteral(" of 80 GiB")),
             qPrintable(texts[3]));
    // 192 micro-batches a pipeline; the short run of 19 ((16 + 1) + 2) repeats, the other 173 repeat its period.
    QVERIFY2(texts[4].startsWith(QStringLiteral("640006 events in ")), qPrintable(texts[4]));
    QCOMPARE(texts[5], QStringLiteral("173 of 192 micro\u2011batches by repeating the steady period"));
    const auto* label = window.summaryBar()->findChild<QLabel*>();
    QVERIFY(label != nullptr);
    QVERIFY2(label->toolTip().startsWith(QStringLiteral("The engine simulated 19 micro-batches and repeated the "
                                                        "schedule's steady period (97.59 ms, 1 micro-batch) for the "
                                                        "other 173")),
             qPrintable(label->toolTip()));
    QCOMPARE(window.windowTitle(), QStringLiteral("Untitled[*] — ParaSight"));
    // The default run has nothing to warn of: no warning line.
    QVERIFY(window.summaryBar()->warningTexts().isEmpty());
    QVERIFY(window.summaryBar()->findChild<QLabel*>(QStringLiteral("SummaryWarnings"))->isHidden());
}

void TestMainWindow::theSummarySaysTheWarnings() {
    // Each warning of the run a line under the numbers, worded as the report words it; out of memory is the memory
    // item's already (in red, with the device and the tensor), not a line again. A message clears them.
    parasight::Report report;
    report.memory_capacity_bytes = 80.0 * 1024 * 1024 * 1024;
    parasight::Warning host_bound;
    host_bound.code = parasight::WarningCode::host_bound_layers;
    host_bound.subject = "cluster.device.kernel_launch";
    host_bound.layers = 12;
    host_bound.time_s = 43 * 40.53e-6;
    host_bound.gpu_time_s = 185.5e-6;
    parasight::Warning out_of_memory;
    out_of_memory.code = parasight::WarningCode::out_of_memory;
    out_of_memory.subject = "NPU 0";
    parasight::Warning capped;
    capped.code = parasight::WarningCode::in_flight_capped;
    capped.subject = "stage[1]";
    capped.micro_batches = 2;
    report.warnings = {host_bound, out_of_memory, capped};
    parasight::gui::SummaryBar bar;
    bar.resize(900, 200);
    bar.show();
    QVERIFY(QTest::qWaitForWindowExposed(&bar));
    bar.showReport(report);
    const QStringList expected{QString::fromStdString(parasight::warning_text(host_bound)),
                               QString::fromStdString(parasight::warning_text(capped))};
    QCOMPARE(bar.warningTexts(), expected);
    auto* line = bar.findChild<QLabel*>(QStringLiteral("SummaryWarnings"));
    QVERIFY(line != nullptr && line->isVisible());
    QVERIFY2(line->text().contains(QStringLiteral("the host&#x27;s kernel launches bound all 12 layers")) ||
                 line->text().contains(QStringLiteral("the host's kernel launches bound all 12 layers")),
             qPrintable(line->text()));
    bar.setStale(true);
    QVERIFY(!line->isEnabled());  // greyed with the numbers while a newer run is under way
    // The next run without warnings (CUDA graphs on, say) takes the line away.
    report.warnings = {out_of_memory};
    bar.showReport(report);
    QVERIFY(bar.warningTexts().isEmpty());
    QVERIFY(line->isHidden());
    report.warnings = {capped};
    bar.showReport(report);
    QCOMPARE(bar.warningTexts().size(), 1);
    bar.showMessage(QStringLiteral("Simulating…"));
    QVERIFY(bar.warningTexts().isEmpty());
    QVERIFY(line->isHidden());
}

void TestMainWindow::anEditRunsAgain() {
    MainWindow window;
    QSignalSpy settled(&window, &MainWindow::runSettled);
    window.openDefaultScenario();
    QVERIFY(settled.wait(30000));
    const double before = window.result()->simulation.report.iteration_time_s;
    // Twice the global batch: twice the micro-batches per pipeline, so a longer iteration.
    window.document().edit(QStringLiteral("batch"), QString(),
                           [](Scenario& s) { s.training.global_batch *= 2; });
    QVERIFY(settled.wait(30000));
    QVERIFY(window.result()->scenario == window.document().validated());
    QVERIFY(window.result()->simulation.report.iteration_time_s > before);
    QVERIFY(window.isWindowModified());
    // Undo brings the first value back, and with it a run of it.
    window.document().undoStack()->undo();
    QVERIFY(settled.wait(30000));
    QCOMPARE(window.result()->simulation.report.iteration_time_s, before);
}

// A result that arrives while its views are greyed (stale) was styled with the disabled palette, and enabling the
// views did not style it again: after the first re-run every chart's axis labels, titles and legend stayed grey.
void TestMainWindow::chartsAreNotGreyAfterARerun() {
    MainWindow window;
    window.show();
    QSignalSpy settled(&window, &MainWindow::runSettled);
    window.openDefaultScenario();
    QVERIFY(settled.wait(30000));
    // Looked at, as a user would: the tab in front follows every change at once (the others catch up a turn of the
    // event loop later, run/tabbed_run_follower.h).
    window.showTab(QStringLiteral("breakdown"));
    window.document().edit(QStringLiteral("batch"), QString(), [](Scenario& s) { s.training.global_batch *= 2; });
    QVERIFY(settled.wait(30000));
    QVERIFY(window.breakdownView()->isEnabled());
    const QColor text = window.palette().color(QPalette::Active, QPalette::Text);
    QVERIFY(text != window.palette().color(QPalette::Disabled, QPalette::Text));
    for (QChart* chart : {window.breakdownView()->chart(), window.memoryView()->peakChart(),
                          window.memoryView()->timeChart()}) {
        QVERIFY(!chart->axes().isEmpty());
        for (const QAbstractAxis* axis : chart->axes()) {
            QCOMPARE(axis->labelsColor(), text);
            QCOMPARE(axis->titleBrush().color(), text);
        }
        QCOMPARE(chart->legend()->labelColor(), text);
    }
    // While stale, they are greyed.
    window.document().edit(QStringLiteral("batch"), QString(), [](Scenario& s) { s.training.global_batch /= 2; });
    window.setAutoRun(false);
    QVERIFY(!window.breakdownView()->isEnabled());
    QCOMPARE(window.breakdownView()->chart()->axes().front()->labelsColor(),
             window.palette().color(QPalette::Disabled, QPalette::Text));
}

// The measurement panel kept the previous run's numbers after a re-run, and the Find text carried over into another
// scenario.
void TestMainWindow::aNewRunOrDocumentDropsWhatWasMeasuredOrSought() {
    MainWindow window;
    QSignalSpy settled(&window, &MainWindow::runSettled);
    QVERIFY(parasight::testing::open_and_wait(window, QStringLiteral(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml")));
    QVERIFY(settled.wait(30000));
    window.showTab(QStringLiteral("timeline"));
    window.show();
    QWidget* details = window.timelinePage()->details();
    Q_EMIT window.timelineView()->rangeSelected(0.0, window.result()->simulation.report.iteration_time_s / 2);
    QVERIFY(!details->isHidden());
    window.document().edit(QStringLiteral("batch"), QString(), [](Scenario& s) { s.training.global_batch = 32; });
    QVERIFY(settled.wait(30000));
    QVERIFY(details->isHidden());
    auto* find = window.findChild<QLineEdit*>(QStringLiteral("TimelineSearch"));
    QVERIFY(find != nullptr);
    find->setText(QStringLiteral("layer 1"));
    window.document().edit(QStringLiteral("batch"), QString(), [](Scenario& s) { s.training.global_batch = 16; });
    QVERIFY(settled.wait(30000));
    QCOMPARE(find->text(), QStringLiteral("layer 1"));  // the same scenario: still sought
    window.openDefaultScenario();
    QCOMPARE(find->text(), QString());
}

void TestMainWindow::aChosenRowBringsItsDeviceToTheTimeline() {
    MainWindow window;
    window.resize(1400, 900);
    QSignalSpy settled(&window, &MainWindow::runSettled);
    window.openDefaultScenario();
    QVERIFY(settled.wait(30000));
    const auto& report = window.result()->simulation.report;
    const Timeline& timeline = *window.result()->simulation.timeline;
    // The views name devices by their index in the Report; the timeline by its own: the same simulated devices in
    // the same order.
    QCOMPARE(timeline.devices().size(), report.per_device.size());
    for (std::size_t d = 0; d < report.per_device.size(); ++d) QCOMPARE(timeline.devices()[d].npu, report.per_device[d].npu);
    // The Breakdown's "Stage 15" row (under the mean's) — its one simulated device, NPU 960 = 15 x 64 — goes to the top
    // of the timeline.
    window.breakdownView()->table()->selectRow(16);
    const std::optional<std::size_t> revealed = window.timelineView()->revealedDevice();
    QVERIFY(revealed.has_value());
    QCOMPARE(timeline.devices()[*revealed].npu, std::int64_t{960});
    // The Memory table's first row, stage 0's fullest device, NPU 0.
    window.memoryView()->findChild<QTableView*>()->selectRow(0);
    QCOMPARE(timeline.devices()[window.timelineView()->revealedDevice().value()].npu, std::int64_t{0});
}

void TestMainWindow::everyDeviceCanBeSimulated() {
    // tests/data/cli/small_pipeline.yaml: 8 NPUs, tp 2 · dp 2 · pp 2. One device per symmetry class simulates a
    // device of each stage; every device, all 8 — a stage's four alike, so each stage shows one row for its four.
    MainWindow window;
    QSignalSpy settled(&window, &MainWindow::runSettled);
    QVERIFY(parasight::testing::open_and_wait(window, QStringLiteral(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml")));
    QVERIFY(settled.wait(30000));
    const std::size_t representatives = window.result()->simulation.report.per_device.size();
    QVERIFY(representatives < 8);
    window.setEveryDevice(true);
    QVERIFY(settled.wait(30000));
    QCOMPARE(window.result()->simulation.report.per_device.size(), std::size_t{8});
    QCOMPARE(window.result()->simulation.timeline->devices().size(), std::size_t{8});
    // A stage's four did the same: one row each, standing for the four it lists on a click.
    std::size_t device_rows = 0;
    for (const auto& row : window.timelineView()->rows().rows) {
        if (row.isBand()) continue;
        ++device_rows;
        QCOMPARE(row.class_size, std::size_t{4});
    }
    QCOMPARE(device_rows, std::size_t{2});
    window.setEveryDevice(false);
    QVERIFY(settled.wait(30000));
    QCOMPARE(window.result()->simulation.report.per_device.size(), representatives);
}

void TestMainWindow::anEventSelectedInTheTimelineChoosesItsNpu() {
    // tests/data/cli/small_pipeline.yaml, one device per stage: NPU 0 and NPU 4 (stage 1). Selecting stage 1's first
    // computation colours NPU 4's groups on the Topology tab.
    MainWindow window;
    QSignalSpy settled(&window, &MainWindow::runSettled);
    QVERIFY(parasight::testing::open_and_wait(window, QStringLiteral(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml")));
    QVERIFY(settled.wait(30000));
    const parasight::Timeline& timeline = *window.result()->simulation.timeline;
    QCOMPARE(timeline.devices().at(1).npu, std::int64_t{4});
    QCOMPARE(window.topologyPage()->npuText(), QString());
    window.timelineView()->select(timeline.lane(1, parasight::Stream::compute).front(), true);
    QVERIFY2(window.topologyPage()->npuText().startsWith(QStringLiteral("NPU 4 at (0, 1)")),
             qPrintable(window.topologyPage()->npuText()));
}

void TestMainWindow::anInvalidEditIsNotSimulated() {
    MainWindow window;
    QSignalSpy settled(&window, &MainWindow::runSettled);
    window.openDefaultScenario();
    QVERIFY(settled.wait(30000));
    settled.clear();
    window.document().edit(QStringLiteral("tp"), QString(), [](Scenario& s) { s.parallelism.tp = 3; });
    QVERIFY(window.document().validated() == nullptr);
    QVERIFY(!settled.wait(500));  // nothing runs
    QVERIFY2(window.summaryBar()->texts().front().startsWith(QStringLiteral("The scenario has problems")),
             qPrintable(window.summaryBar()->texts().front()));
    auto* problems = window.findChild<QListView*>(QStringLiteral("ProblemsList"));
    QVERIFY(problems != nullptr);
    QVERIFY(problems->model()->rowCount() > 0);
    QCOMPARE(problems->model()->index(0, 0).data().toString(),
             QString::fromStdString(window.document().problems().front().to_string()));
    // The status bar counts them, the noun agreeing with the count.
    const auto count = static_cast<std::int64_t>(window.document().problems().size());
    const QString phrase = QStringLiteral("%1 %2").arg(count).arg(count == 1 ? "problem" : "problems");
    QCOMPARE(window.statusText(), phrase + QStringLiteral(" in Untitled"));
    // The panel did not open by itself — it took a quarter of the window and squeezed the views under the pointer —
    // but the count in the status bar opens it, about five rows tall.
    QVERIFY(problems->parentWidget()->isHidden());
    auto* count_button = window.findChild<QToolButton*>(QStringLiteral("ProblemsCount"));
    QVERIFY(count_button != nullptr);
    QVERIFY(!count_button->isHidden());
    QCOMPARE(count_button->text(), QStringLiteral("⚠ ") + phrase);
    count_button->click();
    QVERIFY(!problems->parentWidget()->isHidden());
    // Fixed, the count and the panel go.
    window.document().undoStack()->undo();
    QVERIFY(count_button->isHidden());
    QVERIFY(problems->parentWidget()->isHidden());
}

// The summary's two lines of numbers gave way to the one-line "The scenario has problems" as a field went invalid, and
// the tab bar below it moved up under the pointer (and back down once fixed), found driving the window under Xvfb.
void TestMainWindow::theTabsStayPutWhileTheScenarioHasProblems() {
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy settled(&window, &MainWindow::runSettled);
    window.openDefaultScenario();
    QVERIFY(settled.wait(30000));
    auto* tabs = window.findChild<QTabWidget*>();
    QVERIFY(tabs != nullptr);
    const auto tabs_top = [&] {
        QTest::qWait(100);  // the layouts settle over a few turns of the event loop
        return tabs->mapTo(&window, QPoint(0, 0)).y();
    };
    const int with_numbers = tabs_top();
    QVERIFY(window.summaryBar()->height() > 2 * window.summaryBar()->fontMetrics().height());  // two lines of numbers
    window.document().edit(QStringLiteral("tp"), QString(), [](Scenario& s) { s.parallelism.tp = 3; });
    QVERIFY(window.summaryBar()->texts().front().startsWith(QStringLiteral("The scenario has problems")));
    QCOMPARE(tabs_top(), with_numbers);
    window.document().undoStack()->undo();
    QVERIFY(settled.wait(30000));
    QCOMPARE(tabs_top(), with_numbers);
}

namespace {

// What each result tab shows of the run: true where it shows the run's numbers.
struct TabsShowing {
    bool summary = false;
    bool breakdown = false;
    bool memory = false;
    bool timeline = false;
    bool strategy = false;
    bool topology = false;
};

TabsShowing tabs_showing(const MainWindow& window) {
    TabsShowing showing;
    showing.summary = window.summaryBar()->texts().front().startsWith(QStringLiteral("Iteration "));
    showing.breakdown = window.breakdownView()->message().isEmpty();
    showing.memory = window.memoryView()->message().isEmpty();
    showing.timeline = window.timelineView()->message().isEmpty();
    // Stage 0's compute time beside the strategy tree (its first row).
    const auto* tree = window.strategyPage()->model();
    const QModelIndex stage = tree->index(0, 0, tree->index(0, 0));
    showing.strategy = !tree->index(stage.row(), parasight::gui::StrategyTreeModel::compute_column, stage.parent())
                            .data()
                            .toString()
                            .isEmpty();
    showing.topology = window.topologyPage()->trafficText().startsWith(QStringLiteral("In the last run"));
    return showing;
}

}  // namespace

// After a run the core refused (a valid scenario too large to simulate), Strategy and Topology kept the previous
// scenario's numbers: every tab now follows the run session — numbers, then the failure, then numbers again.
void TestMainWindow::aRefusedRunClearsEveryTab() {
    MainWindow window;
    QSignalSpy settled(&window, &MainWindow::runSettled);
    QVERIFY(parasight::testing::open_and_wait(window, QStringLiteral(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml")));
    if (window.result() == nullptr) QVERIFY(settled.wait(30000));
    const TabsShowing before = tabs_showing(window);
    QVERIFY(before.summary && before.breakdown && before.memory && before.timeline && before.strategy &&
            before.topology);

    // 8 000 000 sequences in micro-batches of 1 over dp 2: 4 000 000 micro-batches per pipeline, past the task
    // limit (tests/data/cli/too_many_micro_batches.yaml works it out): valid, but not simulated.
    settled.clear();
    window.document().edit(QStringLiteral("batch"), QString(), [](Scenario& s) { s.training.global_batch = 8'000'000; });
    QVERIFY(window.document().validated() != nullptr);
    QVERIFY(settled.wait(30000));
    QVERIFY(window.result() == nullptr);
    const TabsShowing failed = tabs_showing(window);
    QVERIFY(!failed.summary && !failed.breakdown && !failed.memory && !failed.timeline && !failed.strategy &&
            !failed.topology);
    QVERIFY2(window.summaryBar()->texts().front().startsWith(QStringLiteral("Not simulated: ")),
             qPrintable(window.summaryBar()->texts().front()));
    QCOMPARE(window.breakdownView()->message(), window.summaryBar()->texts().front());
    QCOMPARE(window.memoryView()->message(), window.summaryBar()->texts().front());
    QCOMPARE(window.timelineView()->message(), window.summaryBar()->texts().front());
    QVERIFY(window.breakdownView()->isEnabled());  // a failure is news, not greyed
    QVERIFY(!window.summaryBar()->isStale());

    // Undone, it runs again and every tab shows numbers.
    window.document().undoStack()->undo();
    QVERIFY(settled.wait(30000));
    QVERIFY(window.result() != nullptr);
    const TabsShowing again = tabs_showing(window);
    QVERIFY(again.summary && again.breakdown && again.memory && again.timeline && again.strategy && again.topology);
    QVERIFY(window.breakdownView()->isEnabled() && window.memoryView()->isEnabled());
}

void TestMainWindow::theWindowsTabsAreTheTargetsTabs() {
    QStringList targets;
    for (const std::string_view tab : parasight::target_tab_names()) targets << QString::fromUtf8(tab.data(), qsizetype(tab.size()));
    QCOMPARE(MainWindow::tabNames(), targets);
}

void TestMainWindow::targetsAreRevealedAndSpotlit_data() {
    QTest::addColumn<QString>("target");
    QTest::addColumn<bool>("shown");
    QTest::addColumn<QString>("tab");  // the tab it is in; empty: the scenario dock
    // The 1F1B pipeline preset: 4 stages on NPUs 0-3, each simulated.
    QTest::newRow("a tab") << "tab:oracle" << true << "oracle";
    QTest::newRow("a field of the form") << "field:training.global_batch" << true << "";
    QTest::newRow("a stage of the tree") << "node:stage[2]" << true << "strategy";
    QTest::newRow("a layer of the tree") << "node:layer[5]" << true << "strategy";
    QTest::newRow("a stage the tree has not") << "node:stage[9]" << false << "strategy";
    QTest::newRow("an NPU") << "npu:3" << true << "topology";
    QTest::newRow("an NPU the cluster has not") << "npu:99" << false << "topology";
    QTest::newRow("a group") << "group:pp@1" << true << "topology";
    QTest::newRow("a timeline row") << "device:2@timeline" << true << "timeline";
    QTest::newRow("a breakdown row") << "device:1@breakdown" << true << "breakdown";
    QTest::newRow("a memory row") << "device:3@memory" << true << "memory";
    QTest::newRow("events") << "events:backward" << true << "timeline";
    QTest::newRow("events that are not") << "events:all-to-all" << false << "timeline";
    QTest::newRow("a stretch of time") << "time:1 ms..2 ms" << true << "timeline";
    QTest::newRow("a memory category") << "memory:activations" << true << "memory";
    // A transformer: the oracle answers for CNNs only.
    QTest::newRow("the oracle of a transformer") << "oracle:data@4" << false << "oracle";
}

// Every kind of target brings its thing into view in its tab, and the spotlight marks it there.
void TestMainWindow::targetsAreRevealedAndSpotlit() {
    QFETCH(QString, target);
    QFETCH(bool, shown);
    QFETCH(QString, tab);
    MainWindow window;
    window.resize(1280, 800);
    window.show();
    QSignalSpy settled(&window, &MainWindow::runSettled);
    QVERIFY(parasight::testing::open_and_wait(window, QStringLiteral(PARASIGHT_SOURCE_DIR "/presets/scenarios/pipeline-1f1b.yaml")));
    if (window.result() == nullptr) QVERIFY(settled.wait(30000));
    const parasight::Expected<parasight::Target> parsed = parasight::parse_target(target.toStdString());
    QVERIFY(parsed);
    QCOMPARE(window.spotlight(parsed.value()), shown);
    if (!tab.isEmpty()) {
        auto* tabs = window.findChild<QTabWidget*>();
        QCOMPARE(MainWindow::tabNames().at(tabs->currentIndex()), tab);
    }
    if (!shown) {
        QTest::qWait(50);
        QVERIFY(window.spotlightOverlay()->marked().isEmpty());
        return;
    }
    // Marked where the thing is drawn, inside the window.
    QTRY_VERIFY(!window.spotlightOverlay()->marked().isEmpty());
    QVERIFY(window.rect().intersects(window.spotlightOverlay()->marked()));
    // And each view has brought the thing itself forward.
    const parasight::Target& revealed = parsed.value();
    switch (revealed.kind) {
        case parasight::TargetKind::field:
            QCOMPARE(QApplication::focusWidget(), window.scenarioForm()->editor(QString::fromStdString(revealed.name)));
            break;
        case parasight::TargetKind::strategy_node:
            QCOMPARE(window.strategyPage()->tree()->currentIndex().data().toString().section(QLatin1Char(' '), 0, 0),
                     QString::fromStdString(revealed.name));
            break;
        case parasight::TargetKind::npu:
        case parasight::TargetKind::group:
            QVERIFY2(window.topologyPage()->npuText().contains(QStringLiteral("NPU %1").arg(revealed.npu)),
                     qPrintable(window.topologyPage()->npuText()));
            break;
        case parasight::TargetKind::device:
            if (revealed.name == "timeline") {
                QCOMPARE(window.timelineView()->revealedDevice(), window.timelineView()->deviceOfNpu(revealed.npu));
            } else {
                QTableView* table = revealed.name == "breakdown" ? window.breakdownView()->table()
                                                                 : window.memoryView()->findChild<QTableView*>();
                QVERIFY(table->selectionModel()->hasSelection());
            }
            break;
        case parasight::TargetKind::events: QVERIFY(window.timelineView()->selected().has_value()); break;
        case parasight::TargetKind::time_range:
            QCOMPARE(window.timelineView()->selectedRange(), std::optional(std::pair(0.001, 0.002)));
            break;
        default: break;
    }
}

// The oracle's row of a strategy at a PE count: its p chosen, its row selected and marked.
void TestMainWindow::anOracleRowIsRevealed() {
    MainWindow window;
    window.resize(1280, 800);
    window.show();
    QSignalSpy settled(&window, &MainWindow::runSettled);
    QVERIFY(parasight::testing::open_and_wait(window, QStringLiteral(PARASIGHT_SOURCE_DIR "/presets/scenarios/resnet50-abci.yaml")));
    if (window.result() == nullptr) QVERIFY(settled.wait(30000));
    QComboBox* pes = window.oracleView()->peBox();
    QVERIFY(pes->count() >= 2);
    const qint64 p = pes->itemData(1).toLongLong();
    const auto target = parasight::parse_target("oracle:data@" + std::to_string(p));
    QVERIFY(target);
    QVERIFY(window.spotlight(target.value()));
    QCOMPARE(pes->currentIndex(), 1);
    auto* table = window.oracleView()->findChild<QTableView*>();
    QVERIFY(table->selectionModel()->hasSelection());
    const int row = table->selectionModel()->selectedRows().front().row();
    QCOMPARE(window.oracleView()->model()->strategy(row), parasight::OracleStrategy::data);
    QTRY_VERIFY(!window.spotlightOverlay()->marked().isEmpty());
    // A PE count the oracle does not list is not shown.
    QVERIFY(!window.reveal(parasight::parse_target("oracle:data@3").value()));
}

// Drill-down: the small pipeline swept over tp 1, 2 (dp derived) by the core as parasight-cli sweep runs it; a
// double-clicked cell of the Sweeps tab opens its point's scenario, simulated, on the Timeline.
void TestMainWindow::aSweepsCellOpensItsPointsTimeline() {
    QTemporaryDir folder;
    const QString database = folder.filePath(QStringLiteral("results.db"));
    {
        const auto base = parasight::read_sweep_base(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml");
        QVERIFY(base);
        const auto plan =
            parasight::plan_sweep(base.value(), {"parallelism.tp=1,2", "training.micro_batch=1,2"}, std::nullopt);
        QVERIFY(plan);
        auto store = parasight::ResultStore::open(database.toStdString(), parasight::ResultStore::Access::read_write);
        QVERIFY(store);
        parasight::SweepOptions options;
        const auto start = parasight::start_stored_sweep(store.value(), plan.value(), options);
        QVERIFY(start);
        struct Observer final : parasight::StoringSweepObserver {
            using StoringSweepObserver::StoringSweepObserver;
            bool cancelled() const override { return false; }
        } observer(store.value(), start.value().sweep_id, parasight::RankingMetric{"iteration_time_s"});
        const auto outcome = parasight::run_sweep(plan.value(), options, observer);
        QVERIFY(!outcome.error);
        QCOMPARE(outcome.run, std::uint64_t{4});
    }
    MainWindow window;
    window.resize(1280, 800);
    window.show();
    QSignalSpy settled(&window, &MainWindow::runSettled);
    QSignalSpy shown(window.sweepsPage(), &parasight::gui::SweepsPage::gridShown);
    window.sweepsPage()->setDatabase(database);
    QVERIFY(shown.wait(10000));
    QVERIFY(window.sweepsPage()->heatmap()->grid().has_value());
    // Point 3: tp 2, micro-batch 2.
    Q_EMIT window.sweepsPage()->heatmap()->pointActivated(3);
    QVERIFY(settled.wait(30000));
    QVERIFY(window.result() != nullptr);
    QCOMPARE(window.document().scenario().parallelism.tp, 2);
    QCOMPARE(window.document().scenario().training.micro_batch, 2);
    auto* tabs = window.findChild<QTabWidget*>();
    QCOMPARE(MainWindow::tabNames().at(tabs->currentIndex()), QStringLiteral("timeline"));
    // The way back, said with the run.
    QCOMPARE(window.statusText(), QStringLiteral("Simulated sweep:1 point 3 · CLI small pipeline, 2 x 4 NPUs; the "
                                                 "Sweeps tab (Ctrl+8) goes back to its sweep"));
    // Another document forgets it.
    window.openDefaultScenario();
    QVERIFY(settled.wait(30000));
    QCOMPARE(window.statusText(), QStringLiteral("Simulated"));
}

// The window keeps its runs: the small pipeline at its micro-batch of 2 (kept after its quiet moment), then at 1 (kept
// at once); a window opened afterwards lists both in its history and compares them — micro-batch 2 → 1 the only
// input that differs.
void TestMainWindow::runsAreKeptAcrossARestart() {
    QTemporaryDir folder;
    const QString database = folder.filePath(QStringLiteral("results.db"));
    {
        MainWindow window;
        window.historyPage()->setDatabase(database);
        window.runRecorder().setDatabase(database);
        QSignalSpy settled(&window, &MainWindow::runSettled);
        QSignalSpy stored(&window.runRecorder(), &parasight::gui::RunRecorder::stored);
        QSignalSpy opened(&window, &MainWindow::fileOpened);
        window.openFile(QStringLiteral(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml"));
        QVERIFY(settled.wait(30000));
        QVERIFY(stored.wait(parasight::gui::RunRecorder::quiet_ms + 10000));
        QCOMPARE(stored.back().at(1).toBool(), true);
        window.document().edit(QStringLiteral("micro-batch"), QString(), [](Scenario& s) { s.training.micro_batch = 1; });
        QVERIFY(settled.wait(30000));
        window.runRecorder().storeNow();  // as closing the window does
        QVERIFY(stored.wait(10000));
        QCOMPARE(stored.back().at(1).toBool(), true);
    }
    MainWindow window;
    QSignalSpy shown(window.historyPage(), &parasight::gui::HistoryPage::historyShown);
    window.historyPage()->setDatabase(database);
    QVERIFY(shown.wait(10000));
    const auto& history = *window.historyPage()->model();
    QCOMPARE(history.rowCount(), 2);
    QCOMPARE(history.nameOf(0), QStringLiteral("run:2"));
    QCOMPARE(history.nameOf(1), QStringLiteral("run:1"));
    QSignalSpy compared(window.historyPage(), &parasight::gui::HistoryPage::comparisonShown);
    window.historyPage()->compareRuns(1, 2);
    QVERIFY(compared.wait(10000));
    const auto& comparison = *window.historyPage()->comparisonModel();
    QCOMPARE(comparison.inputRows(), 1);
    QCOMPARE(comparison.data(comparison.index(0, 0), Qt::DisplayRole).toString(),
             QStringLiteral("training.micro_batch"));
    QCOMPARE(comparison.data(comparison.index(0, 1), Qt::DisplayRole).toString(), QStringLiteral("2"));
    QCOMPARE(comparison.data(comparison.index(0, 2), Qt::DisplayRole).toString(), QStringLiteral("1"));
    // Picked the other way round from anywhere (here the choice itself): run:2 is A, run:1 B, on the History tab.
    window.showTab(QStringLiteral("sweeps"));
    parasight::gui::ComparisonChoice& choice = *window.comparisonChoice();
    QCOMPARE(choice.actionText(), QStringLiteral("Mark for Comparison (A)"));
    choice.pick(2, QStringLiteral("run:2"));
    QCOMPARE(choice.actionText(), QStringLiteral("Compare with run:2 (A)"));
    choice.pick(1, QStringLiteral("run:1"));
    QVERIFY(compared.wait(10000));
    QCOMPARE(window.findChild<QTabWidget*>()->currentWidget(), static_cast<QWidget*>(window.historyPage()));
    QCOMPARE(window.historyPage()->comparisonTitle(),
             QStringLiteral("A = run:2, B = run:1: 1 input differs (in bold), then the results"));
    QCOMPARE(comparison.data(comparison.index(0, 1), Qt::DisplayRole).toString(), QStringLiteral("1"));
    QVERIFY(!choice.a());  // A is forgotten once compared
}

void TestMainWindow::aWhatIfProblemGoesToItsRuleCell() {
    MainWindow window;
    window.openDefaultScenario();
    window.document().edit(QStringLiteral("slow"), QString(), [](Scenario& s) {
        parasight::SlowDevices slow;
        slow.npus = {999'999};  // past the default cluster's NPUs
        slow.compute_time_factor = 1.25;
        s.what_if.slow_devices.push_back(slow);
    });
    auto* problems = window.findChild<QListView*>(QStringLiteral("ProblemsList"));
    QVERIFY(problems != nullptr);
    QCOMPARE(problems->model()->rowCount(), 1);
    Q_EMIT problems->clicked(problems->model()->index(0, 0));
    auto* tabs = window.findChild<QTabWidget*>();
    QCOMPARE(tabs->currentWidget(), static_cast<QWidget*>(window.whatIfPage()));
    const QTableView* table = window.whatIfPage()->rulesTable(parasight::gui::WhatIfList::slow_devices);
    QCOMPARE(table->currentIndex().row(), 0);
    QCOMPARE(table->currentIndex().column(), 0);  // the NPUs
}

void TestMainWindow::fitsASmallWindow() {
    // The summary wraps and the placeholders' text narrows, so a 640 × 400 window is that size, not wider.
    MainWindow window;
    QSignalSpy settled(&window, &MainWindow::runSettled);
    window.openDefaultScenario();
    window.resize(640, 400);
    window.show();
    QVERIFY(settled.wait(30000));
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QVERIFY2(window.minimumSizeHint().width() <= 640, qPrintable(QString::number(window.minimumSizeHint().width())));
    QCOMPARE(window.size(), QSize(640, 400));
}

void TestMainWindow::everyTabRenders_data() {
    QTest::addColumn<QString>("tab");
    for (const QString& name : MainWindow::tabNames()) QTest::newRow(qPrintable(name)) << name;
}

void TestMainWindow::everyTabRenders() {
    QFETCH(QString, tab);
    MainWindow window;
    QSignalSpy settled(&window, &MainWindow::runSettled);
    window.resize(1400, 900);
    window.openDefaultScenario();
    QVERIFY(window.showTab(tab));
    window.show();
    QVERIFY(settled.wait(30000));
    const QImage image = window.grab().toImage();
    QCOMPARE(image.size(), QSize(1400, 900) * window.devicePixelRatio());
    QVERIFY2(distinct_colours(image) > 8, qPrintable(QString::number(distinct_colours(image))));
    QVERIFY(!window.showTab(QStringLiteral("no such tab")));
}

// Breakdown and Memory had no export; like the Timeline and Topology they now write their charts as PNG and SVG and
// their tables as CSV (the Breakdown's as parasight-cli simulate --csv writes it). small_pipeline: 2 stages, one
// simulated device each, so two rows.
void TestMainWindow::breakdownAndMemoryExport_data() {
    QTest::addColumn<QString>("button");
    QTest::addColumn<QString>("action");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QByteArray>("starts");  // the file's first bytes
    QTest::addColumn<int>("lines");          // of a CSV: its header and a row per simulated device; 0 otherwise
    QTest::newRow("breakdown CSV") << "BreakdownExport" << "Table as CSV…" << "breakdown.csv"
                                   << QByteArray("npu,stage,stands_for,compute_s,") << 3;
    QTest::newRow("breakdown PNG") << "BreakdownExport" << "Chart as PNG…" << "breakdown.png"
                                   << QByteArray("\x89PNG") << 0;
    QTest::newRow("breakdown SVG") << "BreakdownExport" << "Chart as SVG…" << "breakdown.svg" << QByteArray("<?xml")
                                   << 0;
    QTest::newRow("memory CSV") << "MemoryExport" << "Table as CSV…" << "memory.csv"
                                << QByteArray("npu,stage,stands_for,weights_bytes,") << 3;
    QTest::newRow("memory peak PNG") << "MemoryExport" << "Peak chart as PNG…" << "peak.png" << QByteArray("\x89PNG")
                                     << 0;
    QTest::newRow("memory over time SVG") << "MemoryExport" << "Chart over time as SVG…" << "time.svg"
                                          << QByteArray("<?xml") << 0;
}

void TestMainWindow::breakdownAndMemoryExport() {
    QFETCH(QString, button);
    QFETCH(QString, action);
    QFETCH(QString, file);
    QFETCH(QByteArray, starts);
    QFETCH(int, lines);
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    MainWindow window;
    window.resize(1200, 800);
    window.show();
    QSignalSpy settled(&window, &MainWindow::runSettled);
    QVERIFY(parasight::testing::open_and_wait(window, QStringLiteral(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml")));
    QVERIFY(settled.wait(30000));
    const QString path = folder.filePath(file);
    const QString problem = export_through_menu(window, button, action, path);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QFile written(path);
    QVERIFY2(written.open(QIODevice::ReadOnly), qPrintable(path));
    const QByteArray bytes = written.readAll();
    QVERIFY2(bytes.startsWith(starts), bytes.left(80).constData());
    if (lines > 0) QCOMPARE(static_cast<int>(bytes.count('\n')), lines);
}

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
