// The Sweeps tab (widgets/sweeps/sweeps_page.h), headless: a results database read on a worker, its newest sweep
// shown as a heatmap of its first two axes in the metric the command line ranks it by, the choices re-reading the
// grid, and a database that is not there said so.

#include "sweeps/sweeps_page.h"

#include "document/scenario_document.h"
#include "main_window/main_window.h"
#include "presets/preset_library.h"
#include "export_menu.h"
#include "half_stored_sweep.h"
#include "run/comparison_choice.h"
#include "sweeps/axis_picker.h"
#include "sweeps/heatmap_view.h"
#include "sweeps/pareto_view.h"
#include "sweeps/slice_view.h"
#include "sweeps/sweep_points_model.h"
#include "style/sequential_colors.h"

#include <QPlainTextEdit>
#include <QPushButton>

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QFile>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QTableView>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace parasight;
using namespace parasight::gui;

namespace {

// A sweep over tp ∈ {1, 2} × global batch ∈ {8, 16} (the batch changes the work per iteration: ranked by tokens/s),
// each point simulated with an iteration of 1 s × tp and 100 tokens/s × batch / tp.
void write_database(const QString& path) {
    Expected<ResultStore> store = ResultStore::open(path.toStdString(), ResultStore::Access::read_write);
    QVERIFY(store);
    const SweepRecord record{"small", "schema: 1\nname: small\nmodel: {kind: transformer}\n",
                             {{"parallelism.tp", {"1", "2"}}, {"training.global_batch", {"8", "16"}}}, 4};
    const Expected<std::int64_t> id = store.value().open_sweep(record);
    QVERIFY(id);
    std::vector<PointResult> points;
    for (std::uint64_t k = 0; k < 4; ++k) {
        PointResult point;
        point.point = k;
        const int tp = k < 2 ? 1 : 2;
        const int batch = k % 2 == 0 ? 8 : 16;
        point.values = {{"parallelism.tp", std::to_string(tp)}, {"training.global_batch", std::to_string(batch)}};
        point.scenario_name = "small";
        point.scenario_yaml = "schema: 1\n# point " + std::to_string(k) + "\n";
        Report report;
        report.iteration_time_s = 1.0 * tp;
        report.tokens_per_s = 100.0 * batch / tp;
        report.mode = "representative";
        point.report = report;
        points.push_back(point);
    }
    QVERIFY(!store.value().add_points(id.value(), points));
}

// tp ∈ {1, 2} × pp ∈ {1, 2} × micro-batch ∈ {1, 2}: an iteration of tp + pp seconds, less 0.5 s at micro-batch 2;
// tp · pp devices, each with a peak of 8 GiB × micro-batch / (tp · pp).
void write_three_axes(const QString& path) {
    Expected<ResultStore> store = ResultStore::open(path.toStdString(), ResultStore::Access::read_write);
    QVERIFY(store);
    const SweepRecord record{"three", "schema: 1\nname: three\n",
                             {{"parallelism.tp", {"1", "2"}}, {"parallelism.pp", {"1", "2"}},
                              {"training.micro_batch", {"1", "2"}}},
                             8};
    const Expected<std::int64_t> id = store.value().open_sweep(record);
    QVERIFY(id);
    std::vector<PointResult> points;
    for (std::uint64_t k = 0; k < 8; ++k) {
        PointResult point;
        point.point = k;
        const int tp = 1 + static_cast<int>(k / 4);
        const int pp = 1 + static_cast<int>(k / 2 % 2);
        const int micro_batch = 1 + static_cast<int>(k % 2);
        point.values = {{"parallelism.tp", std::to_string(tp)}, {"parallelism.pp", std::to_string(pp)},
                        {"training.micro_batch", std::to_string(micro_batch)}};
        point.scenario_name = "three";
        point.scenario_yaml = "schema: 1\n# point " + std::to_string(k) + "\n";
        Report report;
        report.iteration_time_s = tp + pp - (micro_batch == 2 ? 0.5 : 0.0);
        report.breakdown.compute_s = report.iteration_time_s;
        report.devices = tp * pp;
        report.peak_memory_bytes = 8.0 * (1 << 30) * micro_batch / (tp * pp);
        report.mode = "representative";
        point.report = report;
        points.push_back(point);
    }
    QVERIFY(!store.value().add_points(id.value(), points));
}

}  // namespace

class TestSweepsPage : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void showsTheNewestSweepRankedAsTheCommandLineRanksIt();
    void aDoubleClickedCellOpensItsPoint();
    void aDatabaseThatIsNotThereSaysSo();
    void aDatabaseWithoutASweepSaysSo();
    void aSweepRunFromTheTabIsStoredAndShown();
    void theSameSweepAsACommand();
    void anAxisHeldAtOneValueOrAggregated();
    void theFilteredPointsBestFirstAPageAtATime();
    void exportsThePointsAndTheSection();
    void slicesThroughTheBestPoint();
    void aStoppedSweepIsResumed();
    void aSweepCancelledFromTheTabIsResumedStoringEachPointOnce();
    void theParetoFrontAndOneSelection();
    void anAxisPickedFromTheScenariosFields();
    void aPointPickedForComparison();
    void theSlicesAndTheFrontArePictured_data();
    void theSlicesAndTheFrontArePictured();
    void anAxisLineReplacesItsFieldsLine_data();
    void anAxisLineReplacesItsFieldsLine();
    void aScenariosOwnSweepIsReadyToRun_data();
    void aScenariosOwnSweepIsReadyToRun();
    void aHiddenTabFollowsTheScenarioWhenShown_data();
    void aHiddenTabFollowsTheScenarioWhenShown();
};

void TestSweepsPage::showsTheNewestSweepRankedAsTheCommandLineRanksIt() {
    QTemporaryDir folder;
    const QString path = folder.filePath(QStringLiteral("results.db"));
    write_database(path);
    ScenarioDocument document;
    SweepsPage page(document);
    QSignalSpy shown(&page, &SweepsPage::gridShown);
    page.setDatabase(path);
    QVERIFY(shown.wait(10000));
    QCOMPARE(page.sweepBox()->count(), 1);
    QCOMPARE(page.xBox()->currentText(), QStringLiteral("parallelism.tp"));
    QCOMPARE(page.yBox()->currentText(), QStringLiteral("training.global_batch"));
    // The global batch changes the work per iteration: tokens/s ranks, as parasight-cli sweep's default does.
    QCOMPARE(page.metricBox()->currentText(), QStringLiteral("tokens_per_s"));
    QVERIFY(page.heatmap()->grid().has_value());
    const SweepGrid& grid = *page.heatmap()->grid();
    // tp 1 · batch 16: 100 × 16 / 1 = 1600 tokens/s, the best.
    QCOMPARE(grid.at(0, 1).value.value(), 1600.0);
    QCOMPARE(grid.best, std::optional<std::size_t>(2));
    // Another metric reads the grid again.
    page.metricBox()->setCurrentText(QStringLiteral("iteration_time_s"));
    QVERIFY(shown.wait(10000));
    QCOMPARE(page.heatmap()->grid()->at(1, 0).value.value(), 2.0);
    QCOMPARE(page.heatmap()->grid()->best, std::optional<std::size_t>(0));
    // One axis both ways is no heatmap.
    page.yBox()->setCurrentIndex(0);
    QVERIFY(shown.count() >= 3 || shown.wait(10000));
    QVERIFY(!page.heatmap()->grid().has_value());
}

// The cell's point's scenario, as stored, is handed to the window to open (point 3: tp 2 · batch 16).
void TestSweepsPage::aDoubleClickedCellOpensItsPoint() {
    QTemporaryDir folder;
    const QString path = folder.filePath(QStringLiteral("results.db"));
    write_database(path);
    ScenarioDocument document;
    SweepsPage page(document);
    QSignalSpy shown(&page, &SweepsPage::gridShown);
    QSignalSpy chosen(&page, &SweepsPage::scenarioChosen);
    QSignalSpy refused(&page, &SweepsPage::scenarioRefused);
    page.setDatabase(path);
    QVERIFY(shown.wait(10000));
    Q_EMIT page.heatmap()->pointActivated(3);
    QVERIFY(chosen.wait(10000));
    QCOMPARE(chosen.front().at(0).toString(), QStringLiteral("sweep:1 point 3 · small"));
    QCOMPARE(chosen.front().at(1).toString(), QStringLiteral("schema: 1\n# point 3\n"));
    // A point the sweep does not hold says so.
    page.openPoint(9);
    QVERIFY(refused.wait(10000));
    QCOMPARE(refused.front().front().toString(), QStringLiteral("holds no point 9 of sweep 1"));
}

// A database that holds runs but no sweep: the tab says so and shows its (empty) grid — the screenshot of the Sweeps
// tab waited for a grid that never came.
void TestSweepsPage::aDatabaseWithoutASweepSaysSo() {
    QTemporaryDir folder;
    const QString path = folder.filePath(QStringLiteral("runs.db"));
    QVERIFY(ResultStore::open(path.toStdString(), ResultStore::Access::read_write).has_value());
    ScenarioDocument document;
    SweepsPage page(document);
    QSignalSpy shown(&page, &SweepsPage::gridShown);
    page.setDatabase(path);
    QVERIFY(shown.wait(10000));
    QVERIFY2(page.statusText().contains(QStringLiteral("runs.db holds no sweep yet")), qPrintable(page.statusText()));
    QCOMPARE(page.sweepBox()->count(), 0);
    QVERIFY(!page.heatmap()->grid().has_value());
}

void TestSweepsPage::aDatabaseThatIsNotThereSaysSo() {
    QTemporaryDir folder;
    ScenarioDocument document;
    SweepsPage page(document);
    QSignalSpy shown(&page, &SweepsPage::gridShown);
    page.setDatabase(folder.filePath(QStringLiteral("none.db")));
    QVERIFY(shown.wait(10000));
    QVERIFY2(page.statusText().contains(QStringLiteral("none.db does not exist")), qPrintable(page.statusText()));
    QCOMPARE(page.sweepBox()->count(), 0);
    QVERIFY(!page.heatmap()->grid().has_value());
}

// The small pipeline (8 NPUs, tp 2, dp derived, pp 2) swept over tp 1, 2 × micro-batch 1, 2 from the tab: the count
// before running, the points stored in the database as parasight-cli sweep stores them, the heatmap of the result.
void TestSweepsPage::aSweepRunFromTheTabIsStoredAndShown() {
    QTemporaryDir folder;
    const QString path = folder.filePath(QStringLiteral("results.db"));
    ScenarioDocument document;
    Diagnostics problems;
    QVERIFY(document.openFile(QStringLiteral(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml"), problems));
    SweepsPage page(document);
    QSignalSpy settled(&page, &SweepsPage::sweepSettled);
    QSignalSpy shown(&page, &SweepsPage::gridShown);
    page.setDatabase(path);  // not there yet: made by the first sweep
    QVERIFY(shown.wait(10000));
    page.axesEdit()->setPlainText(QStringLiteral("parallelism.tp=1,3"));
    // tp 3 parses as an axis value; whether it fits is each point's business: 2 points.
    QTRY_COMPARE(page.pointCountText(), QStringLiteral("2 points"));
    page.axesEdit()->setPlainText(QStringLiteral("parallelism.tpp=1,2"));
    QTRY_COMPARE(page.pointCountText(), QStringLiteral("parallelism.tpp=1,2: parallelism.tpp: 'parallelism' has no 'tpp' "
                                                   "(did you mean 'tp'?)"));
    // Planned on a worker: the axes that make no sweep are said when the plan fails, the Run button back.
    QSignalSpy refused(&page, &SweepsPage::sweepRefused);
    QVERIFY(page.runSweep());
    QVERIFY(refused.wait(10000));
    QCOMPARE(refused.takeFirst().at(0).toString(),
             QStringLiteral("parallelism.tpp=1,2: parallelism.tpp: 'parallelism' has no 'tpp' (did you mean 'tp'?)"));
    QCOMPARE(page.pointCountText(), QStringLiteral("parallelism.tpp=1,2: parallelism.tpp: 'parallelism' has no 'tpp' "
                                                   "(did you mean 'tp'?)"));
    QCOMPARE(settled.count(), 0);
    // dp derived, one value: not an axis worth a heatmap's side; tp across and the micro-batch down.
    page.axesEdit()->setPlainText(QStringLiteral("parallelism.dp=auto\nparallelism.tp=1,2\ntraining.micro_batch=1,2"));
    QTRY_COMPARE(page.pointCountText(), QStringLiteral("4 points"));
    QVERIFY(page.runSweep());
    QVERIFY(settled.wait(60000));
    QTRY_VERIFY_WITH_TIMEOUT(page.heatmap()->grid().has_value(), 10000);
    // Every point stored once, as the command line reads them.
    Expected<ResultStore> store = ResultStore::open(path.toStdString(), ResultStore::Access::read_only);
    QVERIFY(store);
    const auto sweeps = store.value().sweeps();
    QVERIFY(sweeps && sweeps.value().size() == 1);
    QCOMPARE(sweeps.value().front().stored(), std::uint64_t{4});
    const SweepGrid& grid = *page.heatmap()->grid();
    QCOMPARE(page.xBox()->currentText(), QStringLiteral("parallelism.tp"));
    QCOMPARE(page.yBox()->currentText(), QStringLiteral("training.micro_batch"));
    QCOMPARE(grid.x_values.size() * grid.y_values.size(), std::size_t{4});
    // Run again: nothing new to run, the sweep found by its key.
    QVERIFY(page.runSweep());
    QVERIFY(settled.wait(60000));
    const auto again = store.value().sweeps();
    QVERIFY(again && again.value().size() == 1 && again.value().front().stored() == 4);
}

// The command line that runs the tab's sweep: the scenario's file, each axis quoted for a shell where it must be,
// the strategy space, the database; none for an untitled scenario.
void TestSweepsPage::theSameSweepAsACommand() {
    ScenarioDocument document;
    SweepsPage page(document);
    page.setDatabase(QStringLiteral("/data/results.db"));
    QCOMPARE(QString::fromStdString(page.sweepCommand().error()),
             QStringLiteral("Save the scenario first: the command names its file"));
    Diagnostics problems;
    QVERIFY(document.openFile(QStringLiteral(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml"), problems));
    page.axesEdit()->setPlainText(
        QStringLiteral("parallelism.tp=1,2\ncluster.topology[1].bandwidth=25..50 GB/s +25 GB/s"));
    page.strategiesBox()->setCurrentIndex(1);
    const Expected<QString> command = page.sweepCommand();
    QVERIFY(command);
    QCOMPARE(command.value(),
             QStringLiteral("parasight-cli sweep " PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml --axis "
                            "parallelism.tp=1,2 --axis 'cluster.topology[1].bandwidth=25..50 GB/s +25 GB/s' "
                            "--strategies degrees --db /data/results.db"));
    // As a Slurm job array (packaging/slurm/submit-sweep.sh): the axes into axes.txt, a line each, then the
    // submission of 8 shards into a folder beside the scenario; the array takes no strategy space.
    QCOMPARE(QString::fromStdString(page.slurmArrayCommand(8).error()),
             QStringLiteral("The job array takes axes only: write the strategy space in the scenario's sweep: section"));
    page.strategiesBox()->setCurrentIndex(0);
    QCOMPARE(page.slurmArrayCommand(8).value(),
             QStringLiteral("printf '%s\\n' parallelism.tp=1,2 'cluster.topology[1].bandwidth=25..50 GB/s +25 GB/s' "
                            "> axes.txt && ./submit-sweep.sh " PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml 8 "
                            PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline-sweep axes.txt"));
}

// The axis neither across nor down gets a control: every value (each cell at its best point) or one value only.
void TestSweepsPage::anAxisHeldAtOneValueOrAggregated() {
    QTemporaryDir folder;
    const QString path = folder.filePath(QStringLiteral("results.db"));
    write_three_axes(path);
    ScenarioDocument document;
    SweepsPage page(document);
    QSignalSpy shown(&page, &SweepsPage::gridShown);
    page.setDatabase(path);
    QVERIFY(shown.wait(10000));
    // No axis changes the work per iteration: ranked by time.
    QCOMPARE(page.metricBox()->currentText(), QStringLiteral("iteration_time_s"));
    QComboBox* micro_batch = page.fixedBox(QStringLiteral("training.micro_batch"));
    QVERIFY(micro_batch);
    QVERIFY(!page.fixedBox(QStringLiteral("parallelism.tp")));  // across
    QCOMPARE(micro_batch->count(), 3);
    QCOMPARE(micro_batch->itemText(2), QStringLiteral("2"));
    // Every value, at the best: tp 1 · pp 1 is 2 s at micro-batch 1, 1.5 s at 2 — the best is 1.5 s (point 1).
    QCOMPARE(page.heatmap()->grid()->at(0, 0).value.value(), 1.5);
    QCOMPARE(page.heatmap()->grid()->at(0, 0).point, std::int64_t{1});
    // Held at micro-batch 1: 2 s (point 0); tp 2 · pp 2: 4 s (point 6).
    micro_batch->setCurrentIndex(1);
    QVERIFY(shown.wait(10000));
    QCOMPARE(page.heatmap()->grid()->at(0, 0).value.value(), 2.0);
    QCOMPARE(page.heatmap()->grid()->at(1, 1).point, std::int64_t{6});
    QCOMPARE(page.heatmap()->grid()->at(0, 0).points, std::int64_t{1});
    // Its breakdown came with it: all compute.
    QCOMPARE(page.heatmap()->grid()->at(1, 1).time_breakdown->compute_s, 4.0);
    // Micro-batch across instead: pp gets the control, micro-batch none.
    page.xBox()->setCurrentText(QStringLiteral("training.micro_batch"));
    QVERIFY(shown.wait(10000));
    QVERIFY(!page.fixedBox(QStringLiteral("training.micro_batch")));
    QVERIFY(page.fixedBox(QStringLiteral("parallelism.tp")));
}

// The three-axis sweep's points (iteration tp + pp s, less 0.5 s at micro-batch 2) best first, three at a time; the
// filter narrows the table and the heatmap alike; a mistake is said where it is and changes nothing; a header sorts
// every point; the selected point's cell is marked on the heatmap.
void TestSweepsPage::theFilteredPointsBestFirstAPageAtATime() {
    QTemporaryDir folder;
    const QString path = folder.filePath(QStringLiteral("results.db"));
    write_three_axes(path);
    ScenarioDocument document;
    SweepsPage page(document);
    page.setPageRows(3);
    QAbstractItemModelTester tester(page.pointsModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy points(&page, &SweepsPage::pointsShown);
    page.setDatabase(path);
    QVERIFY(points.wait(10000));
    SweepPointsModel& model = *page.pointsModel();
    const auto column = [&](const char* name) {
        for (int c = 0; c < model.columnCount(); ++c) {
            if (model.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString() == QLatin1String(name)) return c;
        }
        return -1;
    };
    const auto text = [&](int row, const char* name) {
        return model.data(model.index(row, column(name)), Qt::DisplayRole).toString();
    };
    // Best first: point 1 (tp 1, pp 1, mb 2: 1.5 s), then 0 (2 s) and 3 (tp 1, pp 2, mb 2: 2.5 s) before 5 (2.5 s).
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.pointOf(0), std::int64_t{1});
    QCOMPARE(model.pointOf(1), std::int64_t{0});
    QCOMPARE(model.pointOf(2), std::int64_t{3});
    QCOMPARE(text(0, "iteration_time_s"), QStringLiteral("1.5 s"));
    QCOMPARE(text(0, "parallelism.pp"), QStringLiteral("1"));
    QCOMPARE(page.pointsText(), QStringLiteral("8 of 8 points stored; the best 3 by iteration_time_s"));
    page.showMorePoints();
    QVERIFY(points.wait(10000));
    QCOMPARE(model.rowCount(), 6);
    QCOMPARE(model.pointOf(3), std::int64_t{5});
    page.showMorePoints();
    QVERIFY(points.wait(10000));
    QCOMPARE(model.rowCount(), 8);
    // The filter: micro-batch 2 at pp 1 is points 1 (1.5 s) and 5 (2.5 s); the heatmap keeps only them.
    QSignalSpy grid(&page, &SweepsPage::gridShown);
    page.filterEdit()->setText(QStringLiteral("micro_batch = 2 and pp = 1"));
    QVERIFY(grid.wait(10000));
    QVERIFY(points.wait(10000));
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.pointOf(1), std::int64_t{5});
    QCOMPARE(page.pointsText(), QStringLiteral("2 of the 8 points pass the filter; the best 2 by iteration_time_s"));
    QCOMPARE(page.heatmap()->grid()->at(0, 1).points, std::int64_t{0});
    QCOMPARE(page.heatmap()->grid()->at(1, 0).value.value(), 2.5);
    // A mistake is said, located, and the table and heatmap stay as they were.
    page.filterEdit()->setText(QStringLiteral("micro_batch = 2 and ppp = 1"));
    QVERIFY(points.wait(10000));
    QCOMPARE(page.pointsText(), QStringLiteral("filter:1:21: unknown name 'ppp' (did you mean 'pp'?); a condition "
                                               "names an axis or a result column"));
    QCOMPARE(model.rowCount(), 2);
    // A header sorts every point: by tp, largest first (then by point): 4, 5, 6.
    page.filterEdit()->clear();
    QVERIFY(points.wait(10000));
    model.sort(column("parallelism.tp"), Qt::DescendingOrder);
    QVERIFY(points.wait(10000));
    QCOMPARE(model.pointOf(0), std::int64_t{4});
    QCOMPARE(model.pointOf(2), std::int64_t{6});
    QCOMPARE(page.pointsText(), QStringLiteral("8 of 8 points stored; 3 shown, sorted by parallelism.tp"));
    // The selected point's cell: point 6 is tp 2 (across, second), pp 2 (down, second).
    page.pointsTable()->selectRow(2);
    QCOMPARE(page.heatmap()->markedCell(), std::optional(std::pair<std::size_t, std::size_t>(1, 1)));
    // A double-click on a row opens its point.
    QSignalSpy chosen(&page, &SweepsPage::scenarioChosen);
    Q_EMIT page.pointsTable()->doubleClicked(model.index(2, 0));
    QVERIFY(chosen.wait(10000));
    QVERIFY(chosen.front().at(1).toString().contains(QStringLiteral("# point 6")));
}

// The points that pass the filter as CSV, in the table's order (every one, not the page), and the sweep's axes as a
// `sweep:` section; a file that cannot be written says why and leaves nothing.
void TestSweepsPage::exportsThePointsAndTheSection() {
    QTemporaryDir folder;
    const QString path = folder.filePath(QStringLiteral("results.db"));
    write_three_axes(path);
    ScenarioDocument document;
    SweepsPage page(document);
    page.setPageRows(1);
    QSignalSpy points(&page, &SweepsPage::pointsShown);
    page.setDatabase(path);
    QVERIFY(points.wait(10000));
    page.filterEdit()->setText(QStringLiteral("micro_batch = 2 and pp = 1"));
    QVERIFY(points.wait(10000));
    QSignalSpy exported(&page, &SweepsPage::exported);
    const QString csv = folder.filePath(QStringLiteral("points.csv"));
    page.exportPointsCsv(csv);
    QVERIFY(exported.wait(10000));
    QVERIFY2(exported.back().at(0).toString().startsWith(QStringLiteral("The points that pass the filter are in")),
             qPrintable(exported.back().at(0).toString()));
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(file.readAll()).split(u'\n', Qt::SkipEmptyParts);
    // The header, then points 1 (1.5 s) and 5 (2.5 s), best first: both, though the table shows a page of one.
    QCOMPARE(lines.size(), 3);
    QVERIFY(lines[0].startsWith(QStringLiteral("point,parallelism.tp,parallelism.pp,training.micro_batch,")));
    QVERIFY(lines[1].startsWith(QStringLiteral("1,1,1,2,")));
    QVERIFY(lines[2].startsWith(QStringLiteral("5,2,1,2,")));
    const QString yaml = folder.filePath(QStringLiteral("section.yaml"));
    page.exportSweepSection(yaml);
    QVERIFY(exported.wait(10000));
    QFile section(yaml);
    QVERIFY(section.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(section.readAll()),
             QStringLiteral("# The axes of sweep:1; add this section to its base scenario to run it again.\n"
                            "sweep:\n  axes:\n    - {parallelism.tp: [1, 2]}\n    - {parallelism.pp: [1, 2]}\n"
                            "    - {training.micro_batch: [1, 2]}\n"));
    page.exportPointsCsv(folder.filePath(QStringLiteral("no/such/folder/points.csv")));
    QVERIFY(exported.wait(10000));
    QVERIFY(exported.back().at(0).toString().startsWith(QStringLiteral("The points were not written: ")));
    QVERIFY(!QFile::exists(folder.filePath(QStringLiteral("no/such/folder/points.csv"))));
}

// The best point of the three-axis sweep is point 1 (tp 1, pp 1, micro-batch 2: 1.5 s); a step to tp 2 or pp 2 costs
// 1 s (66.7%), to micro-batch 1 0.5 s (33.3%). Each slice is drawn with its points where pointAt says.
void TestSweepsPage::slicesThroughTheBestPoint() {
    QTemporaryDir folder;
    const QString path = folder.filePath(QStringLiteral("results.db"));
    write_three_axes(path);
    ScenarioDocument document;
    SweepsPage page(document);
    QSignalSpy sliced(&page, &SweepsPage::slicesShown);
    page.setDatabase(path);
    QVERIFY(sliced.wait(10000));
    const SliceView& view = *page.sliceView();
    QVERIFY(view.slices());
    QCOMPARE(view.slices()->best_point, std::int64_t{1});
    QCOMPARE(view.captions(0), QStringList{QStringLiteral("1 → 2: 66.7% worse (2.5 s)")});
    QCOMPARE(view.captions(1), QStringList{QStringLiteral("1 → 2: 66.7% worse (2.5 s)")});
    QCOMPARE(view.captions(2), QStringList{QStringLiteral("2 → 1: 33.3% worse (2 s)")});
    SliceView shown;
    shown.resize(900, 260);
    shown.showSlices(*view.slices(), grid_metric("iteration_time_s").value());
    const QImage image = shown.grab().toImage();
    // The best (1.5 s) at the top of its panel, the worse value at the bottom; each a dot of the line's colour.
    QVERIFY(shown.pointAt(0, 0).y() < shown.pointAt(0, 1).y());
    QCOMPARE(image.pixelColor(shown.pointAt(0, 1)), viridis(0.35));
    // A filter that no fitting point passes leaves no best point to slice through.
    page.filterEdit()->setText(QStringLiteral("status = invalid"));
    QVERIFY(sliced.wait(10000));
    QVERIFY(!page.sliceView()->slices());
}

// The small pipeline over tp × micro-batch, stopped after half its points (shard 1 of 2, as a cancelled run or an
// unmerged shard leaves it): resumed from the tab, it runs the two missing points into the same sweep.
void TestSweepsPage::aStoppedSweepIsResumed() {
    QTemporaryDir folder;
    const QString path = folder.filePath(QStringLiteral("results.db"));
    std::int64_t sweep = 0;
    {
        Expected<ResultStore> store = ResultStore::open(path.toStdString(), ResultStore::Access::read_write);
        QVERIFY(store);
        const std::optional<std::int64_t> stored = testing::store_half_a_sweep(store.value());
        QVERIFY(stored);
        sweep = *stored;
    }
    ScenarioDocument document;
    SweepsPage page(document);
    QSignalSpy shown(&page, &SweepsPage::gridShown);
    page.setDatabase(path);
    QVERIFY(shown.wait(10000));
    QSignalSpy settled(&page, &SweepsPage::sweepSettled);
    page.resumeSweep(sweep);
    QVERIFY(settled.wait(60000));
    QCOMPARE(page.progressText(), QStringLiteral("sweep:1: 2 run now, 2 stored before"));
    Expected<ResultStore> store = ResultStore::open(path.toStdString(), ResultStore::Access::read_only);
    QCOMPARE(store.value().stored_points(sweep).value(), (std::vector<std::uint64_t>{0, 1, 2, 3}));
    QCOMPARE(store.value().sweeps().value().size(), std::size_t{1});
    page.resumeSweep(9);
    QVERIFY(settled.wait(10000));
    QCOMPARE(page.progressText(), QStringLiteral("sweep:9 cannot be resumed: holds no sweep 9"));
}

// The small pipeline over tp 1, 2 × 900 bandwidths of its node switch (101 to 1000 GB/s): 1800 points, each as quick as
// the next, started from the tab and cancelled at its first progress — its points so far stored (about a quarter
// here) — then run again: the same sweep, only the missing points run, each point stored once (the store's counts:
// run now + stored before = 1800, stored = 1800, one row per point).
void TestSweepsPage::aSweepCancelledFromTheTabIsResumedStoringEachPointOnce() {
    QTemporaryDir folder;
    const QString path = folder.filePath(QStringLiteral("results.db"));
    ScenarioDocument document;
    Diagnostics problems;
    QVERIFY(document.openFile(QStringLiteral(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml"), problems));
    SweepsPage page(document);
    page.setDatabase(path);
    page.axesEdit()->setPlainText(
        QStringLiteral("parallelism.tp=1,2\ncluster.topology[0].bandwidth=101..1000 GB/s +1 GB/s"));
    QTRY_COMPARE(page.pointCountText(), QStringLiteral("1800 points"));
    QSignalSpy settled(&page, &SweepsPage::sweepSettled);
    QVERIFY(page.runSweep());
    QTRY_VERIFY_WITH_TIMEOUT(page.progressText().contains(QStringLiteral(" of 1800 points")), 30000);
    page.cancelSweep();
    QVERIFY(settled.wait(60000));
    std::uint64_t before = 0;
    {
        Expected<ResultStore> store = ResultStore::open(path.toStdString(), ResultStore::Access::read_only);
        QVERIFY(store);
        const auto sweeps = store.value().sweeps().value();
        QCOMPARE(sweeps.size(), std::size_t{1});
        before = sweeps.front().stored();
    }
    QVERIFY2(before < 1800, "the cancel came after the last point");
    QVERIFY(page.runSweep());
    QVERIFY(settled.wait(120000));
    QCOMPARE(page.progressText(), QStringLiteral("sweep:1: %1 run now, %2 stored before").arg(1800 - before).arg(before));
    Expected<ResultStore> store = ResultStore::open(path.toStdString(), ResultStore::Access::read_only);
    const auto sweeps = store.value().sweeps().value();
    QCOMPARE(sweeps.size(), std::size_t{1});
    QCOMPARE(sweeps.front().stored(), std::uint64_t{1800});
    const std::vector<std::uint64_t> points = store.value().stored_points(sweeps.front().id).value();
    QCOMPARE(points.size(), std::size_t{1800});
    QCOMPARE(points.back(), std::uint64_t{1799});
}

// The three-axis sweep by peak memory (GiB) and time: point 6 (2 GiB, 4 s); 2 and 4 (4 GiB, 3 s), 7 (4 GiB, 3.5 s);
// 0 (8 GiB, 2 s), 3 and 5 (8 GiB, 2.5 s); 1 (16 GiB, 1.5 s). Each of 6, 2, 0, 1 is faster than every point that needs
// less: the front (2 before 4, its equal, by point order). By devices: point 1, on one device, is also the fastest.
void TestSweepsPage::theParetoFrontAndOneSelection() {
    QTemporaryDir folder;
    const QString path = folder.filePath(QStringLiteral("results.db"));
    write_three_axes(path);
    ScenarioDocument document;
    SweepsPage page(document);
    page.setPageRows(3);  // points 1, 0 and 3, the best three
    page.resize(1000, 900);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    for (QTabWidget* tabs : page.findChildren<QTabWidget*>()) {
        for (int tab = 0; tab < tabs->count(); ++tab) {
            if (tabs->tabText(tab) == QStringLiteral("Pareto front")) tabs->setCurrentIndex(tab);
        }
    }
    QSignalSpy fronted(&page, &SweepsPage::paretoShown);
    QSignalSpy points(&page, &SweepsPage::pointsShown);
    page.setDatabase(path);
    QVERIFY(fronted.wait(10000));
    if (points.isEmpty()) QVERIFY(points.wait(10000));
    ParetoView& view = *page.paretoView();
    // The front follows the heatmap's metric.
    QCOMPARE(page.paretoResultBox()->currentText(), QStringLiteral("iteration_time_s"));
    QCOMPARE(page.paretoCostBox()->currentText(), QStringLiteral("peak_memory_bytes"));
    QVERIFY(view.pareto());
    QCOMPARE(view.pareto()->points.size(), std::size_t{8});
    QCOMPARE(view.pareto()->front, (std::vector<std::size_t>{6, 2, 0, 1}));
    // Point 1 (most memory, fastest) top right; point 6 (least memory, slowest) bottom left.
    QVERIFY(view.pointAt(1).x() > view.pointAt(6).x());
    QVERIFY(view.pointAt(1).y() < view.pointAt(6).y());
    QCOMPARE(view.pointToolTip(0), QStringLiteral("point 0, on the front\npeak_memory_bytes: 8 GiB\n"
                                                  "iteration_time_s: 2 s"));
    QVERIFY(view.pointToolTip(3).startsWith(QStringLiteral("point 3, dominated: ")));
    // A dominated point is a dot of the scale's colour, faded when dominated points are dimmed.
    QCOMPARE(view.grab().toImage().pixelColor(view.pointAt(3)), viridis(0.35));
    view.setDominatedDimmed(true);
    QVERIFY(view.grab().toImage().pixelColor(view.pointAt(3)) != viridis(0.35));
    // Clicking a point selects it everywhere: point 0 is the table's second row, its cell (tp 1, pp 1) outlined.
    QTest::mouseClick(&view, Qt::LeftButton, {}, view.pointAt(0));
    QCOMPARE(page.pointsTable()->selectionModel()->selectedRows().size(), 1);
    QCOMPARE(page.pointsTable()->selectionModel()->selectedRows().front().row(), 1);
    QCOMPARE(view.markedIndex(), std::optional<std::size_t>(0));
    QCOMPARE(page.heatmap()->markedCell(), std::optional(std::pair<std::size_t, std::size_t>(0, 0)));
    // Point 7 is on no page read: the table's selection is cleared; its cell (tp 2, pp 2, where 7 is the best) and
    // its dot are marked.
    QTest::mouseClick(&view, Qt::LeftButton, {}, view.pointAt(7));
    QVERIFY(page.pointsTable()->selectionModel()->selectedRows().isEmpty());
    QCOMPARE(view.markedIndex(), std::optional<std::size_t>(7));
    QCOMPARE(page.heatmap()->markedCell(), std::optional(std::pair<std::size_t, std::size_t>(1, 1)));
    // A heatmap cell clicked: (tp 1, pp 2) shows point 3, the table's third row.
    const QRect cell = page.heatmap()->cellRect(0, 1);
    QTest::mouseClick(page.heatmap(), Qt::LeftButton, {}, cell.center());
    QCOMPARE(page.pointsTable()->selectionModel()->selectedRows().front().row(), 2);
    QCOMPARE(view.markedIndex(), std::optional<std::size_t>(3));
    // Against devices the fastest point is also the cheapest: the front is point 1 alone.
    page.paretoCostBox()->setCurrentText(QStringLiteral("devices"));
    QVERIFY(fronted.wait(10000));
    QCOMPARE(view.pareto()->front, (std::vector<std::size_t>{1}));
    // A double-clicked point is opened.
    QSignalSpy chosen(&page, &SweepsPage::scenarioChosen);
    QTest::mouseDClick(&view, Qt::LeftButton, {}, view.pointAt(1));
    QVERIFY(chosen.wait(10000));
    QVERIFY(chosen.front().at(1).toString().contains(QStringLiteral("# point 1")));
    // Nothing that fits passes the filter: said, not drawn.
    page.filterEdit()->setText(QStringLiteral("status = invalid"));
    QVERIFY(fronted.wait(10000));
    QVERIFY(!view.pareto());
}

// The small pipeline's fields offered to pick from with their values (tp is 2, the outer link 25 GB/s), read on a
// worker; an axis added by picking writes its line, counted on a worker; picking the same field again replaces its
// line.
void TestSweepsPage::anAxisPickedFromTheScenariosFields() {
    ScenarioDocument document;
    Diagnostics problems;
    QVERIFY(document.openFile(QStringLiteral(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml"), problems));
    SweepsPage page(document);
    AxisPicker& picker = *page.axisPicker();
    QTRY_VERIFY(picker.fieldBox()->findText(QStringLiteral("parallelism.tp")) >= 0);
    QVERIFY(picker.fieldBox()->findText(QStringLiteral("cluster.topology[1].bandwidth")) >= 0);
    QCOMPARE(picker.fieldBox()->findText(QStringLiteral("schema")), -1);
    picker.fieldBox()->setEditText(QStringLiteral("parallelism.tp"));
    QVERIFY2(picker.valuesEdit()->placeholderText().startsWith(QStringLiteral("values (now 2): ")),
             qPrintable(picker.valuesEdit()->placeholderText()));
    QVERIFY(!picker.addButton()->isEnabled());  // no values yet
    picker.valuesEdit()->setText(QStringLiteral("1,2"));
    QVERIFY(picker.addButton()->isEnabled());
    QTest::mouseClick(picker.addButton(), Qt::LeftButton);
    QCOMPARE(page.axesEdit()->toPlainText(), QStringLiteral("parallelism.tp=1,2"));
    QTRY_COMPARE(page.pointCountText(), QStringLiteral("2 points"));
    QVERIFY(picker.valuesEdit()->text().isEmpty());
    picker.fieldBox()->setEditText(QStringLiteral("cluster.topology[1].bandwidth"));
    QVERIFY(picker.valuesEdit()->placeholderText().startsWith(QStringLiteral("values (now 25 GB/s): ")));
    picker.valuesEdit()->setText(QStringLiteral("25..100 GB/s x2"));
    QTest::keyClick(picker.valuesEdit(), Qt::Key_Return);  // Return adds too
    // 25, 50, 100 GB/s: 2 × 3 points.
    QTRY_COMPARE(page.pointCountText(), QStringLiteral("6 points"));
    picker.fieldBox()->setEditText(QStringLiteral("parallelism.tp"));
    picker.valuesEdit()->setText(QStringLiteral("1,2,4"));
    QTest::mouseClick(picker.addButton(), Qt::LeftButton);
    QCOMPARE(page.axesEdit()->toPlainText(),
             QStringLiteral("parallelism.tp=1,2,4\ncluster.topology[1].bandwidth=25..100 GB/s x2"));
    QTRY_COMPARE(page.pointCountText(), QStringLiteral("9 points"));
}

// A point picked for comparison is its stored run: the first pick is A (named by sweep and point), the second asks for
// A against B; picking A again forgets it.
void TestSweepsPage::aPointPickedForComparison() {
    QTemporaryDir folder;
    const QString path = folder.filePath(QStringLiteral("results.db"));
    write_three_axes(path);
    ScenarioDocument document;
    SweepsPage page(document);
    ComparisonChoice choice;
    page.setComparisonChoice(&choice);
    QSignalSpy shown(&page, &SweepsPage::gridShown);
    page.setDatabase(path);
    QVERIFY(shown.wait(10000));
    Expected<ResultStore> store = ResultStore::open(path.toStdString(), ResultStore::Access::read_only);
    QVERIFY(store);
    const std::int64_t run_1 = store.value().point_run(1, 1).value();
    const std::int64_t run_6 = store.value().point_run(1, 6).value();
    QSignalSpy changed(&choice, &ComparisonChoice::changed);
    QSignalSpy requested(&choice, &ComparisonChoice::compareRequested);
    page.comparePoint(1);
    QVERIFY(changed.wait(10000));
    QCOMPARE(choice.a(), std::optional<qint64>(run_1));
    QCOMPARE(choice.actionText(), QStringLiteral("Compare with sweep:1 point 1 (A)"));
    Q_EMIT page.heatmap()->compareRequested(1);  // the same point again: forgotten
    QVERIFY(changed.wait(10000));
    QVERIFY(!choice.a());
    QCOMPARE(requested.count(), 0);
    page.comparePoint(1);
    QVERIFY(changed.wait(10000));
    Q_EMIT page.paretoView()->compareRequested(6);
    QVERIFY(requested.wait(10000));
    QCOMPARE(requested.front().at(0).toLongLong(), run_1);
    QCOMPARE(requested.front().at(1).toLongLong(), run_6);
    QVERIFY(!choice.a());
}

void TestSweepsPage::theSlicesAndTheFrontArePictured_data() {
    QTest::addColumn<QString>("action");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QByteArray>("starts");
    QTest::newRow("slices PNG") << "Slices as PNG…" << "slices.png" << QByteArray("\x89PNG");
    QTest::newRow("slices SVG") << "Slices as SVG…" << "slices.svg" << QByteArray("<?xml");
    QTest::newRow("Pareto PNG") << "Pareto Front as PNG…" << "pareto.png" << QByteArray("\x89PNG");
    QTest::newRow("Pareto SVG") << "Pareto Front as SVG…" << "pareto.svg" << QByteArray("<?xml");
}

// The slices and the front on tabs not shown are pictured at the size they would have there — the shown Points
// tab's, wider than their own minimum: a PNG of twice the view's pixels.
void TestSweepsPage::theSlicesAndTheFrontArePictured() {
    QFETCH(QString, action);
    QFETCH(QString, file);
    QFETCH(QByteArray, starts);
    QTemporaryDir folder;
    const QString path = folder.filePath(QStringLiteral("results.db"));
    write_three_axes(path);
    ScenarioDocument document;
    SweepsPage page(document);
    page.resize(1000, 900);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    QSignalSpy fronted(&page, &SweepsPage::paretoShown);
    page.setDatabase(path);
    QVERIFY(fronted.wait(10000));
    const QString output = folder.filePath(file);
    const QString problem = export_through_menu(page, QStringLiteral("SweepsExport"), action, output);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QFile written(output);
    QVERIFY2(written.open(QIODevice::ReadOnly), qPrintable(output));
    QVERIFY(written.readAll().startsWith(starts));
    if (file == QStringLiteral("pareto.png")) {
        QVERIFY(page.paretoView()->width() > 800);
        QCOMPARE(QImage(output).width(), page.paretoView()->width() * 2);
    }
}

void TestSweepsPage::anAxisLineReplacesItsFieldsLine_data() {
    QTest::addColumn<QString>("axes");
    QTest::addColumn<QString>("line");
    QTest::addColumn<QString>("result");
    QTest::newRow("into nothing") << "" << "a.b=1" << "a.b=1";
    QTest::newRow("appended") << "a.b=1" << "a.c=2" << "a.b=1\na.c=2";
    QTest::newRow("in place, blank lines at the end dropped") << "a.b=1\na.c=2\n\n" << "a.b = 3" << "a.b = 3\na.c=2";
    QTest::newRow("a line spaced around its =") << " a.c = 2 " << "a.c=5" << "a.c=5";
    QTest::newRow("a line without = kept") << "a.b" << "a.b=1" << "a.b\na.b=1";
}

void TestSweepsPage::anAxisLineReplacesItsFieldsLine() {
    QFETCH(QString, axes);
    QFETCH(QString, line);
    QFETCH(QString, result);
    QCOMPARE(with_axis_line(axes, line), result);
}

// A scenario with a sweep section (the memory case study's search: 8 in-node fabrics × 5 group bandwidths) is ready to
// run as it opens, from its file or as a bundled preset: the Sweeps tab counted nothing when it was told of the
// scenario before the section came with it, and a preset came without it.
void TestSweepsPage::aScenariosOwnSweepIsReadyToRun_data() {
    QTest::addColumn<bool>("asPreset");
    QTest::newRow("file") << false;
    QTest::newRow("preset") << true;
}

void TestSweepsPage::aScenariosOwnSweepIsReadyToRun() {
    QFETCH(bool, asPreset);
    if (asPreset) {
        MainWindow window;
        const parasight::Preset* preset = parasight::find_preset(parasight::PresetKind::scenario, "moe-1t-hiermem");
        QVERIFY(preset != nullptr);
        window.openPreset(*preset);
        QTRY_COMPARE(window.sweepsPage()->pointCountText(), QStringLiteral("40 points, with the scenario's sweep section"));
        return;
    }
    ScenarioDocument document;
    SweepsPage page(document);
    Diagnostics problems;
    QVERIFY(document.openFile(QStringLiteral(PARASIGHT_SOURCE_DIR "/presets/scenarios/moe-1t-hiermem.yaml"),
                              problems));
    QTRY_COMPARE(page.pointCountText(), QStringLiteral("40 points, with the scenario's sweep section"));
}

QTEST_MAIN(TestSweepsPage)
// The fields offered as axes follow the scenario at once while the tab can be seen; behind another tab of a shown
// window they wait until it is shown (each is a job writing the whole scenario as YAML, not to run at every
// keystroke of an edit elsewhere).
void TestSweepsPage::aHiddenTabFollowsTheScenarioWhenShown_data() {
    QTest::addColumn<bool>("in_front");
    QTest::newRow("the tab in front") << true;
    QTest::newRow("the tab behind another") << false;
}

void TestSweepsPage::aHiddenTabFollowsTheScenarioWhenShown() {
    QFETCH(bool, in_front);
    ScenarioDocument document;
    Diagnostics problems;
    QVERIFY(document.openFile(QStringLiteral(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml"), problems));
    QTabWidget tabs;
    tabs.addTab(new QWidget, QStringLiteral("Other"));
    auto* page = new SweepsPage(document);
    tabs.addTab(page, QStringLiteral("Sweeps"));
    tabs.setCurrentIndex(in_front ? 1 : 0);
    tabs.show();
    QVERIFY(QTest::qWaitForWindowExposed(&tabs));
    AxisPicker& picker = *page->axisPicker();
    // The placeholder names the field's value in the scenario the fields were last read from.
    const auto offered_tp = [&] {
        picker.fieldBox()->setEditText(QStringLiteral("parallelism.tp"));
        return picker.valuesEdit()->placeholderText();
    };
    QTRY_VERIFY2(offered_tp().startsWith(QStringLiteral("values (now 2): ")), qPrintable(offered_tp()));
    // tp 4 · dp 1 · pp 2: still the 8 NPUs.
    document.edit(QStringLiteral("tp"), QString(), [](Scenario& s) {
        s.parallelism.tp = 4;
        s.parallelism.dp = 1;
    });
    if (in_front) {
        QTRY_VERIFY2(offered_tp().startsWith(QStringLiteral("values (now 4): ")), qPrintable(offered_tp()));
        return;
    }
    QTest::qWait(300);  // what a job would take, many times over
    QVERIFY2(offered_tp().startsWith(QStringLiteral("values (now 2): ")), qPrintable(offered_tp()));
    tabs.setCurrentIndex(1);
    QTRY_VERIFY2(offered_tp().startsWith(QStringLiteral("values (now 4): ")), qPrintable(offered_tp()));
}

#include "test_sweeps_page.moc"
