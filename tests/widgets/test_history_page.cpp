// The History tab (widgets/history/), headless: the database's sweeps and single runs newest first under
// QAbstractItemModelTester, searched; a sweep renamed and deleted, a refused name said; a run opened; two runs
// compared — exactly the inputs that differ, then the results with B − A and B / A worked out by hand; and the
// window's runs kept once per scenario (run/run_recorder.h).

#include "history/history_page.h"

#include "export_menu.h"

#include "history/compared_bars_view.h"
#include "history/compared_runs_job.h"
#include "history/compared_timelines_view.h"
#include "run/run_recorder.h"
#include "style/change_colors.h"
#include "scenario_file/scenario_loader.h"
#include "scenario_file/scenario_writer.h"
#include "simulation/simulate.h"

#include <QAbstractItemModelTester>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTabWidget>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace parasight;
using namespace parasight::gui;

namespace {

// The small pipeline scenario, with its global batch set to `batch`, as a file writes it.
Scenario small_pipeline(int batch) {
    const LoadResult loaded = load_scenario_file(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml");
    if (!loaded.ok()) qFatal("the small pipeline does not load");
    Scenario scenario = loaded.scenario->value();
    scenario.training.global_batch = batch;
    return scenario;
}

Report report_of(double iteration_s, double peak_bytes) {
    Report report;
    report.iteration_time_s = iteration_s;
    report.peak_memory_bytes = peak_bytes;
    report.devices = 8;
    report.mode = "representative";
    return report;
}

// sweep:1 "small" (2 of its 3 points stored, one estimated not to fit), then run:3 (batch 16, 2 s, 10 GB) and run:4 (batch 32,
// 1.5 s, 12.5 GB).
void write_history(const QString& path) {
    Expected<ResultStore> store = ResultStore::open(path.toStdString(), ResultStore::Access::read_write);
    QVERIFY(store);
    const SweepRecord record{"small", "schema: 1\nname: small\n", {{"parallelism.tp", {"1", "2", "4"}}}, 3};
    const Expected<std::int64_t> id = store.value().open_sweep(record);
    QVERIFY(id);
    std::vector<PointResult> points(2);
    for (std::uint64_t k = 0; k < 2; ++k) {
        points[k].point = k;
        points[k].values = {{"parallelism.tp", std::to_string(k + 1)}};
        points[k].scenario_name = "small";
        points[k].scenario_yaml = "schema: 1\n# point " + std::to_string(k) + "\n";
    }
    points[0].report = report_of(1.0, 1e9);
    points[1].status = PointStatus::oom_estimated;
    points[1].memory_estimate = MemoryEstimate{9e10, 8e10};
    QVERIFY(!store.value().add_points(id.value(), points));
    const Scenario a = small_pipeline(16);
    const Scenario b = small_pipeline(32);
    QVERIFY(store.value().add_run(a.name, write_scenario_yaml(a), report_of(2.0, 10e9)));
    QVERIFY(store.value().add_run(b.name, write_scenario_yaml(b), report_of(1.5, 12.5e9)));
}

// The history of `database` read into `page`, then run:3 and run:4 compared and simulated again; false when a step
// does not come.
bool compared_3_and_4(HistoryPage& page, const QString& database) {
    QSignalSpy shown(&page, &HistoryPage::historyShown);
    page.setDatabase(database);
    if (!shown.wait(10000)) return false;
    QSignalSpy simulated(&page, &HistoryPage::comparedRunsSimulated);
    page.compareRuns(3, 4);
    return simulated.wait(20000);
}

int row_of(const HistoryModel& model, const QString& name) {
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.nameOf(row) == name) return row;
    }
    return -1;
}

}  // namespace

class TestHistoryPage : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void listsSweepsAndRunsNewestFirst();
    void searchNarrowsTheList();
    void aSweepIsRenamedAndDeleted();
    void aRunOpensItsScenario();
    void twoRunsComparedInputsFirst();
    void twoRunsSimulatedAgainSideBySide();
    void exportsTheHistoryAndTheComparison_data();
    void exportsTheHistoryAndTheComparison();
    void theWindowsRunIsKeptOnce();

private:
    std::unique_ptr<QTemporaryDir> folder_;
    QString database_;
};

void TestHistoryPage::init() {
    folder_ = std::make_unique<QTemporaryDir>();
    database_ = folder_->filePath(QStringLiteral("results.db"));
    write_history(database_);
}

void TestHistoryPage::listsSweepsAndRunsNewestFirst() {
    HistoryPage page;
    QAbstractItemModelTester tester(page.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy shown(&page, &HistoryPage::historyShown);
    page.setDatabase(database_);
    QVERIFY(shown.wait(10000));
    const HistoryModel& model = *page.model();
    QCOMPARE(model.rowCount(), 3);
    QVERIFY(page.statusText().endsWith(QStringLiteral("1 sweep, 2 single runs")));
    // Newest first (stored in that order, within a second or not): run:4, run:3, then the sweep.
    QCOMPARE(model.nameOf(0), QStringLiteral("run:4"));
    QCOMPARE(model.nameOf(1), QStringLiteral("run:3"));
    QCOMPARE(model.nameOf(2), QStringLiteral("sweep:1"));
    // All three stored in the same second or in order: the sweep's row says its axes and points by status.
    const int sweep = row_of(model, QStringLiteral("sweep:1"));
    QVERIFY(sweep >= 0);
    QCOMPARE(model.data(model.index(sweep, HistoryModel::contents_column), Qt::DisplayRole).toString(),
             QStringLiteral("parallelism.tp (3)"));
    QCOMPARE(model.data(model.index(sweep, HistoryModel::stored_column), Qt::DisplayRole).toString(),
             QStringLiteral("2 of 3: 1 ok, 1 oom_estimated"));
    const int run = row_of(model, QStringLiteral("run:3"));
    QCOMPARE(model.data(model.index(run, HistoryModel::contents_column), Qt::DisplayRole).toString(),
             QStringLiteral("iteration 2 s"));
    QCOMPARE(model.data(model.index(run, HistoryModel::stored_column), Qt::DisplayRole).toString(),
             QStringLiteral("ok"));
    QCOMPARE(model.data(model.index(run, 0), HistoryModel::KindRole).toInt(), int(HistoryModel::Kind::run));
    // A point of the sweep is not stored: Resume runs it; a run has nothing to resume.
    QVERIFY(model.isIncomplete(sweep));
    QVERIFY(!model.isIncomplete(run));
    // The date as a person reads it: "YYYY-MM-DD HH:MM UTC".
    QVERIFY(model.data(model.index(run, HistoryModel::date_column), Qt::DisplayRole)
                .toString()
                .contains(QRegularExpression(QStringLiteral("^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC$"))));
    // A database that is not there says so, and lists nothing.
    page.setDatabase(folder_->filePath(QStringLiteral("none.db")));
    QVERIFY(shown.wait(10000));
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(page.statusText().contains(QStringLiteral("none.db")));
}

void TestHistoryPage::searchNarrowsTheList() {
    HistoryPage page;
    QSignalSpy shown(&page, &HistoryPage::historyShown);
    page.setDatabase(database_);
    QVERIFY(shown.wait(10000));
    page.searchEdit()->setText(QStringLiteral("TP ("));  // the sweep's axes, any case
    QCOMPARE(page.table()->model()->rowCount(), 1);
    page.searchEdit()->setText(QStringLiteral("run:"));
    QCOMPARE(page.table()->model()->rowCount(), 2);
    page.searchEdit()->clear();
    QCOMPARE(page.table()->model()->rowCount(), 3);
}

void TestHistoryPage::aSweepIsRenamedAndDeleted() {
    HistoryPage page;
    QSignalSpy shown(&page, &HistoryPage::historyShown);
    page.setDatabase(database_);
    QVERIFY(shown.wait(10000));
    page.renameSweep(1, QStringLiteral("tp only"));
    QVERIFY(shown.wait(10000));
    const int sweep = row_of(*page.model(), QStringLiteral("sweep:1"));
    QCOMPARE(page.model()->data(page.model()->index(sweep, HistoryModel::name_column), Qt::DisplayRole).toString(),
             QStringLiteral("tp only"));
    QVERIFY(page.statusText().startsWith(QStringLiteral("sweep:1 renamed “tp only”")));
    page.renameSweep(1, QString());
    QVERIFY(shown.wait(10000));
    QVERIFY(page.statusText().startsWith(QStringLiteral("Refused: a sweep's name is not empty")));
    page.deleteRow(row_of(*page.model(), QStringLiteral("sweep:1")));
    QVERIFY(shown.wait(10000));
    QCOMPARE(page.model()->rowCount(), 2);
    QCOMPARE(row_of(*page.model(), QStringLiteral("sweep:1")), -1);
    page.deleteRow(row_of(*page.model(), QStringLiteral("run:3")));
    QVERIFY(shown.wait(10000));
    QCOMPARE(page.model()->rowCount(), 1);
    QCOMPARE(page.model()->nameOf(0), QStringLiteral("run:4"));
}

void TestHistoryPage::aRunOpensItsScenario() {
    HistoryPage page;
    QSignalSpy shown(&page, &HistoryPage::historyShown);
    page.setDatabase(database_);
    QVERIFY(shown.wait(10000));
    QSignalSpy chosen(&page, &HistoryPage::scenarioChosen);
    QSignalSpy sweep(&page, &HistoryPage::sweepChosen);
    page.openRow(row_of(*page.model(), QStringLiteral("run:4")));
    QVERIFY(chosen.wait(10000));
    const Scenario b = small_pipeline(32);
    QCOMPARE(chosen.front().at(0).toString(), QStringLiteral("run:4 · ") + QString::fromStdString(b.name));
    QCOMPARE(chosen.front().at(1).toString(), QString::fromStdString(write_scenario_yaml(b)));
    page.openRow(row_of(*page.model(), QStringLiteral("sweep:1")));
    QCOMPARE(sweep.count(), 1);
    QCOMPARE(sweep.front().at(0).toLongLong(), 1);
}

// run:3 → run:4: only training.global_batch differs (16 → 32); the iteration went from 2 s to 1.5 s (B − A =
// −500 ms, B / A = 0.75), the peak from 10 GB to 12.5 GB (+2.5 GB, 1.25).
void TestHistoryPage::twoRunsComparedInputsFirst() {
    HistoryPage page;
    QSignalSpy shown(&page, &HistoryPage::historyShown);
    page.setDatabase(database_);
    QVERIFY(shown.wait(10000));
    RunComparisonModel& model = *page.comparisonModel();
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy compared(&page, &HistoryPage::comparisonShown);
    page.compareRuns(3, 4);
    QVERIFY(compared.wait(10000));
    QCOMPARE(model.inputRows(), 1);
    const auto text = [&](int row, int column) { return model.data(model.index(row, column), Qt::DisplayRole).toString(); };
    QCOMPARE(text(0, RunComparisonModel::name_column), QStringLiteral("training.global_batch"));
    QCOMPARE(text(0, RunComparisonModel::a_column), QStringLiteral("16"));
    QCOMPARE(text(0, RunComparisonModel::b_column), QStringLiteral("32"));
    QVERIFY(model.data(model.index(0, 0), RunComparisonModel::InputRole).toBool());
    QCOMPARE(page.comparisonTitle(),
             QStringLiteral("A = run:3, B = run:4: 1 input differs (in bold), then the results"));
    int iteration = -1;
    int peak = -1;
    for (int row = model.inputRows(); row < model.rowCount(); ++row) {
        if (text(row, 0) == QStringLiteral("iteration_time_s")) iteration = row;
        if (text(row, 0) == QStringLiteral("peak_memory_bytes")) peak = row;
    }
    QVERIFY(iteration > 0 && peak > 0);
    // What says nothing here is left out: the hashes (the inputs say how the scenarios differ), the dates, and
    // columns empty in both (the reason of two runs that fit).
    for (int row = model.inputRows(); row < model.rowCount(); ++row) {
        for (const char* left_out : {"scenario_hash", "created_at", "reason"}) QVERIFY(text(row, 0) != QLatin1String(left_out));
    }
    QCOMPARE(text(iteration, RunComparisonModel::a_column), QStringLiteral("2 s"));
    QCOMPARE(text(iteration, RunComparisonModel::b_column), QStringLiteral("1.5 s"));
    QCOMPARE(text(iteration, RunComparisonModel::difference_column), QStringLiteral("-500 ms"));
    QCOMPARE(text(iteration, RunComparisonModel::ratio_column), QStringLiteral("0.75×"));
    QCOMPARE(text(peak, RunComparisonModel::ratio_column), QStringLiteral("1.25×"));
    QVERIFY(text(peak, RunComparisonModel::difference_column).startsWith(QLatin1Char('+')));
    // A run the database does not hold: said, and nothing shown.
    page.compareRuns(3, 99);
    QVERIFY(compared.wait(10000));
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(page.comparisonTitle().endsWith(QStringLiteral("holds no run 99")));
}

// run:3 and run:4 simulated again: the small pipeline with a global batch of 16 and of 32 — each data-parallel
// replica takes 8 or 16 sequences in micro-batches of 2, so B runs micro-batches 0 to 7 where A runs 0 to 3. Every
// event of A has its partner in B, unchanged in length where it is computation (a micro-batch is the same work);
// B's micro-batches 4 to 7 are B's alone. Memory at the peak is the same: with one forward ahead per stage (1F1B),
// a stage holds as many micro-batches' activations however many run.
void TestHistoryPage::twoRunsSimulatedAgainSideBySide() {
    HistoryPage page;
    QVERIFY(compared_3_and_4(page, database_));
    ComparedTimelinesView& timelines = *page.comparedTimelines();
    QVERIFY(timelines.compared());
    const ComparedRuns& runs = *timelines.compared();
    QCOMPARE(runs.comparison.only_a, std::size_t{0});
    QVERIFY(runs.comparison.only_b > 0);
    QCOMPARE(runs.comparison.matched, runs.a->event_count());
    QVERIFY2(page.timelinesSummary().contains(QStringLiteral("%1 events matched, 0 only in A, %2 only in B")
                                                  .arg(runs.comparison.matched)
                                                  .arg(runs.comparison.only_b)),
             qPrintable(page.timelinesSummary()));
    // The longest computation of A's first device: unchanged, grey, where eventRect says.
    page.resize(1100, 1000);
    page.comparisonTabs()->setCurrentWidget(timelines.parentWidget());
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    const Timeline& a = *runs.a;
    EventId longest = 0;
    double longest_s = -1.0;
    for (const EventId id : a.lane(0, Stream::compute)) {
        const TimelineEvent event = a.event(id);
        if (event.end_s - event.start_s > longest_s) {
            longest_s = event.end_s - event.start_s;
            longest = id;
        }
    }
    QCOMPARE(timelines.eventColor(false, longest), std::optional<QColor>(change_color(1.0)));
    const QRect box = timelines.eventRect(false, longest);
    QVERIFY(!box.isEmpty());
    QCOMPARE(timelines.viewport()->grab().toImage().pixelColor(box.center()), change_color(1.0));
    QCOMPARE(timelines.eventAt(box.center()), std::optional(std::pair<bool, EventId>(false, longest)));
    QVERIFY2(timelines.eventToolTip(false, longest).endsWith(QStringLiteral("(1.00×)")),
             qPrintable(timelines.eventToolTip(false, longest)));
    // A forward of micro-batch 5 is B's alone: no colour (hatched), said so.
    const Timeline& b = *runs.b;
    std::optional<EventId> only_b;
    for (const EventId id : b.lane(0, Stream::compute)) {
        if (b.event(id).micro_batch == 5) only_b = id;
    }
    QVERIFY(only_b);
    QVERIFY(!timelines.eventColor(true, *only_b));
    QVERIFY(timelines.eventToolTip(true, *only_b).contains(QStringLiteral("\nonly in B: ")));
    // Side by side: B computes for twice as many micro-batches; its peak memory is A's.
    ComparedBarsView& bars = *page.comparedBars();
    bars.resize(800, 300);
    QVERIFY(bars.timePartRect(true, 0).width() > bars.timePartRect(false, 0).width());
    QVERIFY2(bars.memoryTotalText(true).endsWith(QStringLiteral(" · 1.00×")), qPrintable(bars.memoryTotalText(true)));
    QCOMPARE(bars.memoryPartRect(false, 3), bars.memoryPartRect(true, 3).translated(0, -bars.memoryPartRect(true, 3).height() - 6));
    // A run the database does not hold: said, and nothing of the pair before stays.
    QSignalSpy compared(&page, &HistoryPage::comparisonShown);
    page.compareRuns(3, 99);
    QVERIFY(compared.wait(10000));
    QVERIFY(!timelines.compared());
    QVERIFY(bars.timeTotalText(false).isEmpty());
    QVERIFY(page.timelinesSummary().isEmpty());
}

void TestHistoryPage::exportsTheHistoryAndTheComparison_data() {
    QTest::addColumn<QString>("action");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QByteArray>("starts");  // the file's first bytes
    QTest::addColumn<int>("lines");          // of a CSV: its header and a line per row; 0 otherwise
    // The list as shown: newest first, run:4, run:3, then sweep:1.
    QTest::newRow("history CSV") << "History as CSV…" << "history.csv"
                                 << QByteArray("What,Stored,Name,Points / status,Axes / result\nrun:4,") << 4;
    // The comparison of run:3 and run:4: the one input that differs first.
    QTest::newRow("comparison CSV") << "Comparison as CSV…" << "comparison.csv"
                                    << QByteArray("Input / result,A (run:3),B (run:4),B − A,B / A\n"
                                                  "training.global_batch,16,32,,\n")
                                    << -1;
    QTest::newRow("breakdown and memory PNG") << "Breakdown and Memory as PNG…" << "bars.png" << QByteArray("\x89PNG")
                                              << 0;
    QTest::newRow("timelines SVG") << "Compared Timelines as SVG…" << "timelines.svg" << QByteArray("<?xml") << 0;
}

// Each written through the Export menu, as a user does, once run:3 and run:4 are compared and simulated again.
void TestHistoryPage::exportsTheHistoryAndTheComparison() {
    QFETCH(QString, action);
    QFETCH(QString, file);
    QFETCH(QByteArray, starts);
    QFETCH(int, lines);
    HistoryPage page;
    QVERIFY(compared_3_and_4(page, database_));
    const QString path = folder_->filePath(file);
    const QString problem = export_through_menu(page, QStringLiteral("HistoryExport"), action, path);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QFile written(path);
    QVERIFY2(written.open(QIODevice::ReadOnly), qPrintable(path));
    const QByteArray bytes = written.readAll();
    QVERIFY2(bytes.startsWith(starts), bytes.left(120).constData());
    // The comparison: a line per row of the table, and the header.
    if (lines < 0) lines = page.comparisonModel()->rowCount() + 1;
    if (lines > 0) QCOMPARE(static_cast<int>(bytes.count('\n')), lines);
}

// A result offered twice for the same scenario is stored once; another scenario is stored anew.
void TestHistoryPage::theWindowsRunIsKeptOnce() {
    const auto simulated = [](int batch) {
        Validation validated = validate(small_pipeline(batch));
        if (!validated.ok()) qFatal("the small pipeline is not valid");
        auto result = std::make_shared<SimulationResult>();
        result->scenario = std::make_shared<const ValidatedScenario>(*validated.scenario);
        result->simulation.report = report_of(1.0, 1e9);
        return std::shared_ptr<const SimulationResult>(result);
    };
    RunRecorder recorder;
    recorder.setDatabase(database_);
    QSignalSpy stored(&recorder, &RunRecorder::stored);
    recorder.offer(simulated(64));
    recorder.storeNow();
    QVERIFY(stored.wait(10000));
    QCOMPARE(stored.back().at(0).toLongLong(), 5);  // after the sweep's two points and the two runs
    QCOMPARE(stored.back().at(1).toBool(), true);
    recorder.offer(simulated(64));
    recorder.storeNow();
    QVERIFY(stored.wait(10000));
    QCOMPARE(stored.back().at(0).toLongLong(), 5);
    QCOMPARE(stored.back().at(1).toBool(), false);
    // Withdrawn (the scenario changed before the quiet moment ended): nothing is stored.
    recorder.offer(simulated(128));
    recorder.withdraw();
    recorder.storeNow();
    QVERIFY(!stored.wait(300));
    // Off: nothing is stored either.
    recorder.setEnabled(false);
    recorder.offer(simulated(128));
    recorder.storeNow();
    QVERIFY(!stored.wait(300));
    // The run waits for its quiet moment, then is stored.
    recorder.setEnabled(true);
    recorder.offer(simulated(128));
    QVERIFY(stored.wait(RunRecorder::quiet_ms + 10000));
    QCOMPARE(stored.back().at(0).toLongLong(), 6);
}

QTEST_MAIN(TestHistoryPage)
#include "test_history_page.moc"
