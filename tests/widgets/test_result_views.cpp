// The Breakdown and Memory tabs (widgets/breakdown/, widgets/memory/): their table models, checked under
// QAbstractItemModelTester against reports whose numbers are worked out by hand; the memory curve's steps and its
// peak-keeping reduction; the axis units; and both views on a simulated scenario — the chart draws the table's rows,
// every row adds up to the iteration, out of memory is named.

#include "breakdown/breakdown_table_model.h"
#include "breakdown/breakdown_view.h"
#include "breakdown/collective_table_model.h"
#include "memory/memory_table_model.h"
#include "memory/memory_view.h"
#include "memory/tier_capacity_bars.h"
#include "scenario_file/scenario_loader.h"
#include "style/activity_colors.h"
#include "style/axis_scale.h"
#include "style/breakdown_parts.h"
#include "style/quantity_text.h"

#include <QAbstractItemModelTester>
#include <QBarSet>
#include <QChart>
#include <QComboBox>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QHeaderView>
#include <QImage>
#include <QStandardItemModel>
#include <QTableView>
#include <QTest>
#include <QValueAxis>

#include <cmath>

using namespace parasight;
using namespace parasight::gui;

namespace {

constexpr double GiB = 1024.0 * 1024.0 * 1024.0;

DeviceReport device(std::int64_t npu, int stage, double weight) {
    DeviceReport d;
    d.npu = npu;
    d.stage = stage;
    d.weight = weight;
    return d;
}

std::size_t at(CommGroup group) { return static_cast<std::size_t>(group); }
std::size_t at(MemoryCategory category) { return static_cast<std::size_t>(category); }

// Two stages of a 10 s iteration: stage 0 has a device standing for 3 and one for 1, stage 1 one standing for 4.
//   NPU 0 (×3): compute 6, TP 1, bubble 3    NPU 1: compute 6, local memory 2, TP 2    NPU 8 (×4): compute 7, DP 1,
//   idle 2
// Mean over the 8 devices: compute (3·6 + 6 + 4·7)/8 = 6.5, local memory 2/8 = 0.25, TP (3 + 2)/8 = 0.625,
// DP 4/8 = 0.5, bubble 9/8 = 1.125, idle 8/8 = 1 — 10 s in all.
Report two_stage_report() {
    Report report;
    report.iteration_time_s = 10.0;
    report.devices = 8;
    DeviceReport a = device(0, 0, 3.0);
    a.breakdown.compute_s = 6.0;
    a.breakdown.exposed_comm_s[at(CommGroup::tp)] = 1.0;
    a.breakdown.bubble_s = 3.0;
    DeviceReport b = device(1, 0, 1.0);
    b.breakdown.compute_s = 6.0;
    b.breakdown.exposed_local_memory_s = 2.0;
    b.breakdown.exposed_comm_s[at(CommGroup::tp)] = 2.0;
    DeviceReport c = device(8, 1, 4.0);
    c.breakdown.compute_s = 7.0;
    c.breakdown.exposed_comm_s[at(CommGroup::dp)] = 1.0;
    c.breakdown.idle_s = 2.0;
    report.per_device = {a, b, c};
    report.breakdown.compute_s = 6.5;
    report.breakdown.exposed_local_memory_s = 0.25;
    report.breakdown.exposed_comm_s[at(CommGroup::tp)] = 0.625;
    report.breakdown.exposed_comm_s[at(CommGroup::dp)] = 0.5;
    report.breakdown.bubble_s = 1.125;
    report.breakdown.idle_s = 1.0;

    // Memory on 80 GiB devices: NPU 0 holds 10 + 10 + 20 + 50 = 90 GiB (over), NPU 1 10 + 10 + 20 + 30 = 70 GiB,
    // NPU 8 10 + 10 + 20 + 10 = 50 GiB; nothing is a buffer.
    report.memory_capacity_bytes = 80.0 * GiB;
    const double activations[] = {50.0, 30.0, 10.0};
    for (std::size_t d = 0; d < 3; ++d) {
        auto& bytes = report.per_device[d].memory_at_peak_bytes;
        bytes[at(MemoryCategory::weights)] = 10.0 * GiB;
        bytes[at(MemoryCategory::gradients)] = 10.0 * GiB;
        bytes[at(MemoryCategory::optimizer)] = 20.0 * GiB;
        bytes[at(MemoryCategory::activations)] = activations[d] * GiB;
        report.per_device[d].peak_memory_bytes = (40.0 + activations[d]) * GiB;
    }
    return report;
}

constexpr int compute_part = 0;
constexpr int local_memory_part = 1;
constexpr int tp_part = 2;
constexpr int cp_part = 3;
constexpr int ep_part = 4;
constexpr int pp_part = 5;
constexpr int dp_part = 6;
constexpr int remote_memory_part = 7;
constexpr int bubble_part = 8;
constexpr int idle_part = 9;

std::shared_ptr<const SimulationResult> simulated(Scenario scenario) {
    SimulateOptions options;
    options.record_memory_timeline = true;
    auto outcome = simulate(scenario, options);
    if (!outcome) return nullptr;
    auto result = std::make_shared<SimulationResult>();
    result->simulation = std::move(*outcome);
    return result;
}

// tests/data/cli/small_pipeline.yaml: tp 2 · dp 2 · pp 2 on 8 A100s.
std::optional<Scenario> small_pipeline() {
    LoadResult loaded = load_scenario_file(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml");
    if (!loaded.ok()) return std::nullopt;
    return loaded.scenario->value();
}

QHorizontalStackedBarSeries* bars_of(QChart* chart) {
    for (QAbstractSeries* series : chart->series()) {
        if (auto* bars = qobject_cast<QHorizontalStackedBarSeries*>(series)) return bars;
    }
    return nullptr;
}

}  // namespace

class TestResultViews : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void breakdownPerStage_data();
    void breakdownPerStage();
    void breakdownPerDevice();
    void breakdownShares();
    void memoryPerStageAndDevice();
    void axisScales_data();
    void axisScales();
    void quantityTexts_data();
    void quantityTexts();
    void breakdownViewDrawsTheTable();
    void memoryAxesReachTheDataAndTheCapacityInRange_data();
    void memoryAxesReachTheDataAndTheCapacityInRange();
    void headersSayWhatTheyMean();
    void communicationCallsAreListed();
    void memoryViewNamesOutOfMemory();
    void aLegendThatDoesNotFitBelowGoesBeside();
    void tableHeadersShowTheChartsColours_data();
    void tableHeadersShowTheChartsColours();
    void capacityNoteFitsASmallWindow();
    void tierCapacityPerRow_data();
    void tierCapacityPerRow();
    void tierCapacityBarsAreAsLongAsTheirShare();
    void manyDevicesOfferStagesOnly();
};

void TestResultViews::breakdownPerStage_data() {
    QTest::addColumn<int>("row");
    QTest::addColumn<int>("part");
    QTest::addColumn<double>("seconds");
    QTest::addColumn<QString>("text");
    // Row 0: the report's mean as given.
    QTest::newRow("mean compute") << 0 << compute_part << 6.5 << QStringLiteral("6.5 s");
    QTest::newRow("mean local memory") << 0 << local_memory_part << 0.25 << QStringLiteral("250 ms");
    QTest::newRow("mean tp") << 0 << tp_part << 0.625 << QStringLiteral("625 ms");
    QTest::newRow("mean idle") << 0 << idle_part << 1.0 << QStringLiteral("1 s");
    // Stage 0, weighted by the devices each stands for: compute (3·6 + 1·6)/4 = 6, local memory 1·2/4 = 0.5,
    // TP (3·1 + 1·2)/4 = 1.25, bubble 3·3/4 = 2.25.
    QTest::newRow("stage 0 compute") << 1 << compute_part << 6.0 << QStringLiteral("6 s");
    QTest::newRow("stage 0 local memory") << 1 << local_memory_part << 0.5 << QStringLiteral("500 ms");
    QTest::newRow("stage 0 tp") << 1 << tp_part << 1.25 << QStringLiteral("1.25 s");
    QTest::newRow("stage 0 bubble") << 1 << bubble_part << 2.25 << QStringLiteral("2.25 s");
    QTest::newRow("stage 0 dp") << 1 << dp_part << 0.0 << QStringLiteral("0");
    // Stage 1: its one device.
    QTest::newRow("stage 1 dp") << 2 << dp_part << 1.0 << QStringLiteral("1 s");
    QTest::newRow("stage 1 idle") << 2 << idle_part << 2.0 << QStringLiteral("2 s");
    // Every row adds up to the iteration.
    for (int row = 0; row < 3; ++row) {
        QTest::addRow("row %d total", row) << row << BreakdownTableModel::total_column << 10.0 << QStringLiteral("10 s");
    }
}

void TestResultViews::breakdownPerStage() {
    QFETCH(int, row);
    QFETCH(int, part);
    QFETCH(double, seconds);
    QFETCH(QString, text);
    BreakdownTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.showReport(two_stage_report(), DeviceGrouping::stage);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), BreakdownTableModel::part_count + 1);
    QCOMPARE(model.headerData(0, Qt::Vertical).toString(), QStringLiteral("Mean of all devices"));
    QCOMPARE(model.headerData(1, Qt::Vertical).toString(), QStringLiteral("Stage 0"));
    QCOMPARE(model.headerData(2, Qt::Vertical).toString(), QStringLiteral("Stage 1"));
    const QModelIndex index = model.index(row, part);
    QCOMPARE(index.data(BreakdownTableModel::SecondsRole).toDouble(), seconds);
    QCOMPARE(index.data().toString(), text);
}

void TestResultViews::breakdownPerDevice() {
    BreakdownTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.showReport(two_stage_report(), DeviceGrouping::device);
    QCOMPARE(model.rowCount(), 4);
    // A representative device says how many it stands for.
    QCOMPARE(model.headerData(1, Qt::Vertical).toString(), QStringLiteral("NPU 0 · stage 0 ×3"));
    QCOMPARE(model.headerData(2, Qt::Vertical).toString(), QStringLiteral("NPU 1 · stage 0"));
    QCOMPARE(model.headerData(3, Qt::Vertical).toString(), QStringLiteral("NPU 8 · stage 1 ×4"));
    QCOMPARE(model.seconds(2, compute_part), 6.0);
    QCOMPARE(model.seconds(2, local_memory_part), 2.0);
    QCOMPARE(model.seconds(2, tp_part), 2.0);
    // Parts no device spends time on are left out: CP, EP, PP and remote memory here.
    for (const int part : {cp_part, ep_part, pp_part, remote_memory_part}) QVERIFY(model.partIsEmpty(part));
    for (const int part : {compute_part, local_memory_part, tp_part, dp_part, bubble_part, idle_part}) {
        QVERIFY(!model.partIsEmpty(part));
    }
    // The header's colour is the shared palette's.
    QCOMPARE(model.headerData(tp_part, Qt::Horizontal, Qt::DecorationRole).value<QColor>(),
             exposed_comm_color(CommGroup::tp));
    QCOMPARE(model.headerData(tp_part, Qt::Horizontal).toString(), QStringLiteral("TP exposed"));
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

void TestResultViews::breakdownShares() {
    BreakdownTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.showReport(two_stage_report(), DeviceGrouping::stage);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.setShowShares(true);
    QCOMPARE(changed.count(), 1);
    // Stage 0's compute: 6 s of 10 s = 60%, its local memory 0.5 s = 5%; the total is the whole iteration.
    QCOMPARE(model.index(1, compute_part).data().toString(), QStringLiteral("60.0%"));
    QCOMPARE(model.chartValue(1, compute_part), 60.0);
    QCOMPARE(model.index(1, local_memory_part).data().toString(), QStringLiteral("5.0%"));
    QCOMPARE(model.index(1, BreakdownTableModel::total_column).data().toString(), QStringLiteral("100.0%"));
    // The seconds stay what they are.
    QCOMPARE(model.index(1, compute_part).data(BreakdownTableModel::SecondsRole).toDouble(), 6.0);
    QCOMPARE(model.index(1, tp_part).data(Qt::ToolTipRole).toString(),
             QStringLiteral("Stage 0, TP exposed: 1.25 s (12.5% of the iteration)"));
    model.setShowShares(true);
    QCOMPARE(changed.count(), 1);  // no change, no signal
}

void TestResultViews::memoryPerStageAndDevice() {
    MemoryTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.showReport(two_stage_report(), DeviceGrouping::stage);
    QCOMPARE(model.rowCount(), 2);
    // A stage shows its fullest device: NPU 0 (90 GiB) for stage 0.
    QCOMPARE(model.headerData(0, Qt::Vertical).toString(), QStringLiteral("Stage 0 · NPU 0"));
    QCOMPARE(model.rowLabel(0), QStringLiteral("Stage 0"));
    QCOMPARE(model.device(0), std::size_t{0});
    QCOMPARE(model.bytes(0, MemoryTableModel::peak_column), 90.0 * GiB);
    QCOMPARE(model.index(0, MemoryTableModel::peak_column).data().toString(), QStringLiteral("90 GiB"));
    // 90 of 80 GiB: 112.5%, over, and marked in the over-capacity colour.
    QCOMPARE(model.index(0, MemoryTableModel::share_column).data().toString(), QStringLiteral("112.5%"));
    QVERIFY(model.overCapacity(0));
    QCOMPARE(model.index(0, MemoryTableModel::peak_column).data(Qt::ForegroundRole).value<QColor>(),
             over_capacity_color());
    QCOMPARE(model.index(0, static_cast<int>(at(MemoryCategory::activations))).data().toString(),
             QStringLiteral("50 GiB"));
    // Stage 1: NPU 8, 50 GiB of 80 = 62.5%, not over.
    QCOMPARE(model.headerData(1, Qt::Vertical).toString(), QStringLiteral("Stage 1 · NPU 8"));
    QCOMPARE(model.index(1, MemoryTableModel::share_column).data().toString(), QStringLiteral("62.5%"));
    QVERIFY(!model.overCapacity(1));
    QVERIFY(!model.index(1, MemoryTableModel::peak_column).data(Qt::ForegroundRole).isValid());
    QVERIFY(model.categoryIsEmpty(static_cast<int>(at(MemoryCategory::buffers))));
    QVERIFY(model.categoryIsEmpty(static_cast<int>(at(MemoryCategory::runtime))));  // no device gave a context
    QVERIFY(!model.categoryIsEmpty(static_cast<int>(at(MemoryCategory::optimizer))));
    QCOMPARE(model.index(1, MemoryTableModel::peak_column).data(Qt::ToolTipRole).toString(),
             QStringLiteral("Stage 1 · NPU 8: peak 50 GiB of 80 GiB (62.5%)"));

    model.showReport(two_stage_report(), DeviceGrouping::device);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.headerData(1, Qt::Vertical).toString(), QStringLiteral("NPU 1 · stage 0"));
    QCOMPARE(model.bytes(1, MemoryTableModel::peak_column), 70.0 * GiB);
}

void TestResultViews::axisScales_data() {
    QTest::addColumn<bool>("time");
    QTest::addColumn<double>("max");
    QTest::addColumn<double>("unit_value");
    QTest::addColumn<QString>("unit");
    QTest::newRow("20 s") << true << 19.93 << 1.0 << QStringLiteral("s");
    QTest::newRow("12.5 ms") << true << 0.0125 << 1e-3 << QStringLiteral("ms");
    QTest::newRow("3 µs") << true << 3e-6 << 1e-6 << QStringLiteral("µs");
    QTest::newRow("nothing") << true << 0.0 << 1e-9 << QStringLiteral("ns");
    QTest::newRow("80 GiB") << false << 80.0 * GiB << GiB << QStringLiteral("GiB");
    QTest::newRow("852 MiB") << false << 852.0 * 1024 * 1024 << 1024.0 * 1024 << QStringLiteral("MiB");
    QTest::newRow("1023 B") << false << 1023.0 << 1.0 << QStringLiteral("B");
}

void TestResultViews::axisScales() {
    QFETCH(bool, time);
    QFETCH(double, max);
    QFETCH(double, unit_value);
    QFETCH(QString, unit);
    const AxisScale scale = time ? time_axis_scale(max) : bytes_axis_scale(max);
    QCOMPARE(scale.unit_value, unit_value);
    QCOMPARE(scale.unit, unit);
}

void TestResultViews::quantityTexts_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    // The GUI writes µs where the command line writes "us"; nothing else changes.
    QTest::newRow("µs") << time_text(629.2e-6) << QStringLiteral("629.2 µs");
    QTest::newRow("ms") << time_text(0.09414) << QStringLiteral("94.14 ms");
    QTest::newRow("bytes") << bytes_text(17.16 * GiB) << QStringLiteral("17.16 GiB");
    QTest::newRow("percent") << percent_text(112.5) << QStringLiteral("112.5%");
}

void TestResultViews::quantityTexts() {
    QFETCH(QString, text);
    QFETCH(QString, expected);
    QCOMPARE(text, expected);
}

void TestResultViews::breakdownViewDrawsTheTable() {
    const auto scenario = small_pipeline();
    QVERIFY(scenario.has_value());
    const auto result = simulated(*scenario);
    QVERIFY(result != nullptr);
    BreakdownView view;
    view.showResult(result);
    BreakdownTableModel* model = view.model();
    const int rows = model->rowCount();
    // The mean, then pp = 2 stages.
    QCOMPARE(rows, 3);
    const double iteration_s = result->simulation.report.iteration_time_s;
    for (int row = 0; row < rows; ++row) {
        QVERIFY(std::fabs(model->seconds(row, BreakdownTableModel::total_column) - iteration_s) <= 1e-9 * iteration_s);
    }
    // A bar set per part that is not empty, a bar per row, in the rows' order from the top (Qt draws the first
    // category at the bottom).
    QHorizontalStackedBarSeries* bars = bars_of(view.chart());
    QVERIFY(bars != nullptr);
    int parts = 0;
    for (int part = 0; part < BreakdownTableModel::part_count; ++part) parts += model->partIsEmpty(part) ? 0 : 1;
    QCOMPARE(bars->count(), parts);
    QBarSet* compute = bars->barSets().front();
    QCOMPARE(compute->label(), QStringLiteral("Compute"));
    QCOMPARE(compute->count(), rows);
    QCOMPARE(compute->color(), compute_color());
    // The axis is in seconds here (a run of seconds or less: the unit follows the iteration).
    const AxisScale scale = time_axis_scale(iteration_s);
    QCOMPARE(compute->at(rows - 1), model->seconds(0, compute_part) / scale.unit_value);

    // As shares, the bars of a row add up to 100.
    view.scaleBox()->setCurrentIndex(1);
    bars = bars_of(view.chart());
    QVERIFY(bars != nullptr);
    double sum = 0.0;
    for (const QBarSet* set : bars->barSets()) sum += set->at(0);
    QVERIFY2(std::fabs(sum - 100.0) < 1e-9, qPrintable(QString::number(sum)));

    // Per device: one row per simulated device, after the mean.
    view.groupingBox()->setCurrentIndex(1);
    QCOMPARE(model->rowCount(), 1 + static_cast<int>(result->simulation.report.per_device.size()));

    view.showMessage(QStringLiteral("Not simulated: why"));
    QCOMPARE(model->rowCount(), 0);
}

// style/axis_scale.h: a memory axis ends a tenth above the data's peak, or above the capacity when the capacity is at
// most twice the peak (or passed); beyond that the capacity is off the scale.
void TestResultViews::memoryAxesReachTheDataAndTheCapacityInRange_data() {
    QTest::addColumn<double>("peak_gib");
    QTest::addColumn<double>("capacity_gib");
    QTest::addColumn<double>("top_gib");
    QTest::addColumn<bool>("capacity_shown");
    QTest::newRow("1.5 of 80: to the data") << 1.5 << 80.0 << 1.65 << false;
    QTest::newRow("4 of 80: to the data") << 4.0 << 80.0 << 4.4 << false;
    QTest::newRow("39.9 of 80: just out of range") << 39.9 << 80.0 << 43.89 << false;
    QTest::newRow("40 of 80: twice, in range") << 40.0 << 80.0 << 88.0 << true;
    QTest::newRow("60 of 80") << 60.0 << 80.0 << 88.0 << true;
    QTest::newRow("90 of 80: out of memory") << 90.0 << 80.0 << 99.0 << true;
    QTest::newRow("no capacity") << 2.0 << 0.0 << 2.2 << false;
}

void TestResultViews::memoryAxesReachTheDataAndTheCapacityInRange() {
    QFETCH(double, peak_gib);
    QFETCH(double, capacity_gib);
    QFETCH(double, top_gib);
    QFETCH(bool, capacity_shown);
    constexpr double gib = 1024.0 * 1024.0 * 1024.0;
    const parasight::gui::MemoryAxisTop top = parasight::gui::memory_axis_top(peak_gib * gib, capacity_gib * gib);
    QVERIFY2(std::abs(top.bytes / gib - top_gib) < 1e-9 * top_gib, qPrintable(QString::number(top.bytes / gib)));
    QCOMPARE(top.capacity_shown, capacity_shown);
}

// The Breakdown's and Memory's columns said "Bubble" or "Buffers" with nothing to say what they count.
void TestResultViews::headersSayWhatTheyMean() {
    BreakdownTableModel breakdown;
    for (int part = 0; part <= BreakdownTableModel::part_count; ++part) {
        QVERIFY(!breakdown.headerData(part, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty());
    }
    int bubble = -1;
    for (int part = 0; part < BreakdownTableModel::part_count; ++part) {
        if (breakdown_part_name(part) == QStringLiteral("Bubble")) bubble = part;
    }
    QVERIFY(bubble >= 0);
    QVERIFY(breakdown.headerData(bubble, Qt::Horizontal, Qt::ToolTipRole)
                .toString()
                .startsWith(QStringLiteral("Pipeline bubble: idle time waiting for the pipeline to fill")));
    MemoryTableModel memory;
    for (int column = 0; column <= MemoryTableModel::share_column; ++column) {
        QVERIFY(!memory.headerData(column, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty());
    }
}

// A table per kind of communication call with nccl-tests' bandwidths, which the window did not show (the core's
// figures are worked out in tests/core/test_collective_table.cpp): small_pipeline's tp all-reduces, 32 per device of
// 262 144 B (256 KiB) between 2 ranks, whose busbw is their algbw.
void TestResultViews::communicationCallsAreListed() {
    auto scenario = small_pipeline();
    QVERIFY(scenario.has_value());
    const auto simulation = simulated(*scenario);
    QVERIFY(simulation != nullptr);
    // What the runner's worker derives (run/simulation_result.h).
    auto result = std::make_shared<SimulationResult>(*simulation);
    result->collectives = parasight::collective_table(*result->simulation.timeline);
    BreakdownView view;
    QAbstractItemModelTester tester(view.collectives(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    view.showResult(result);
    CollectiveTableModel* model = view.collectives();
    QCOMPARE(static_cast<std::size_t>(model->rowCount()), result->collectives.size());
    int tp = -1;
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->index(row, CollectiveTableModel::operation_column).data().toString() == QStringLiteral("tp all-reduce")) tp = row;
    }
    QVERIFY(tp >= 0);
    QCOMPARE(model->index(tp, CollectiveTableModel::group_column).data().toString(), QStringLiteral("TP"));
    QCOMPARE(model->index(tp, CollectiveTableModel::ranks_column).data().toString(), QStringLiteral("2"));
    QCOMPARE(model->index(tp, CollectiveTableModel::calls_column).data().toString(), QStringLiteral("32"));
    QCOMPARE(model->index(tp, CollectiveTableModel::bytes_column).data().toString(), QStringLiteral("256 KiB"));
    QCOMPARE(model->index(tp, CollectiveTableModel::busbw_column).data().toString(),
             model->index(tp, CollectiveTableModel::algbw_column).data().toString());
    QVERIFY(!model->headerData(CollectiveTableModel::busbw_column, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty());
    // How it ran: the core's algorithm and protocol for the call (tests/core/test_collective_table.cpp checks them
    // against the collective model's choice).
    QCOMPARE(model->index(tp, CollectiveTableModel::method_column).data().toString(),
             QString::fromStdString(result->collectives[static_cast<std::size_t>(tp)].method));
    QVERIFY(!model->index(tp, CollectiveTableModel::method_column).data().toString().isEmpty());
    view.showMessage(QStringLiteral("Not simulated: why"));
    QCOMPARE(model->rowCount(), 0);
}

void TestResultViews::aLegendThatDoesNotFitBelowGoesBeside() {
    // The small pipeline on A100s: five categories at the peak (weights, gradients, optimizer state, activations and
    // the CUDA context's runtime), whose names in a row need about 500 pixels.
    auto scenario = small_pipeline();
    QVERIFY(scenario.has_value());
    const auto result = simulated(*scenario);
    QVERIFY(result != nullptr);
    MemoryView view;
    view.resize(2400, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.showResult(result);
    QLegend* legend = view.peakChart()->legend();
    int entries = 0;
    for (QLegendMarker* marker : legend->markers()) entries += marker->isVisible() ? 1 : 0;
    QCOMPARE(entries, 5);
    // Wide: a row below the bars.
    QTRY_VERIFY(legend->isVisible());
    QCOMPARE(legend->alignment(), Qt::AlignBottom);
    // Narrower (the bar chart about 440 pixels wide): the row would not fit, a column beside the bars does.
    view.resize(900, 700);
    QTRY_COMPARE(legend->alignment(), Qt::AlignRight);
    QVERIFY(legend->isVisible());
    // Narrower still (about 340): not even the column; the table's header names the colours.
    view.resize(700, 700);
    QTRY_VERIFY(!legend->isVisible());
    // Wide again: back below.
    view.resize(2400, 700);
    QTRY_COMPARE(legend->alignment(), Qt::AlignBottom);
    QVERIFY(legend->isVisible());
}

void TestResultViews::memoryViewNamesOutOfMemory() {
    auto scenario = small_pipeline();
    QVERIFY(scenario.has_value());
    // A few MiB of model: without the A100's 1573 MiB CUDA context, so that the peak is small against the device.
    scenario->cluster.device.context_memory_bytes = 0.0;
    MemoryView view;
    const auto fits = simulated(*scenario);
    QVERIFY(fits != nullptr);
    QVERIFY(!fits->simulation.report.out_of_memory);
    view.showResult(fits);
    QVERIFY(view.outOfMemoryLabel()->isHidden());
    // The over-time chart shows the fullest device with its memory curve, scaled to it: a peak of 35 MiB on a device
    // of 80 GiB drew a flat line at the bottom of an 80 GiB axis. The axis now ends within twice the peak (a tenth
    // above it, rounded to nice numbers), and a note beside it says where the capacity is, off the scale.
    QCOMPARE(view.deviceBox()->count(), static_cast<int>(fits->simulation.report.per_device.size()));
    auto* curve = qobject_cast<QLineSeries*>(view.timeChart()->series().front());
    QVERIFY(curve != nullptr && curve->count() >= 2);
    QCOMPARE(view.timeChart()->series().size(), 1);  // no capacity line: 80 GiB is off the scale
    const std::size_t fullest = static_cast<std::size_t>(view.deviceBox()->currentIndex());
    const double peak_mib = fits->simulation.report.per_device[fullest].peak_memory_bytes / (1024.0 * 1024.0);
    const auto* bytes_axis = qobject_cast<const QValueAxis*>(view.timeChart()->axes(Qt::Vertical).front());
    QVERIFY(bytes_axis != nullptr);
    QVERIFY2(bytes_axis->max() >= 1.1 * peak_mib && bytes_axis->max() < 2.0 * peak_mib,
             qPrintable(QStringLiteral("%1 MiB for a peak of %2 MiB").arg(bytes_axis->max()).arg(peak_mib)));
    QCOMPARE(bytes_axis->titleText(), QStringLiteral("Memory (MiB)"));
    QCOMPARE(view.findChild<QLabel*>(QStringLiteral("CapacityNote"))->text(),
             QStringLiteral("Capacity 80 GiB per device: above both charts"));

    // The same on devices of 16 MiB (its peak is 35 MiB): out of memory, named above the charts and marked on the
    // curve.
    scenario->cluster.device.memory_bytes = 16.0 * 1024 * 1024;
    const auto over = simulated(*scenario);
    QVERIFY(over != nullptr);
    const auto& oom = over->simulation.report.out_of_memory;
    QVERIFY(oom.has_value());
    view.showResult(over);
    QVERIFY(!view.outOfMemoryLabel()->isHidden());
    QVERIFY2(view.outOfMemoryLabel()->text().contains(QStringLiteral("Out of memory: NPU %1 needs ").arg(oom->npu)),
             qPrintable(view.outOfMemoryLabel()->text()));
    QVERIFY(view.outOfMemoryLabel()->text().contains(QStringLiteral("of its 16 MiB")));
    QCOMPARE(view.model()->index(0, MemoryTableModel::peak_column).data(Qt::ForegroundRole).value<QColor>(),
             over_capacity_color());
    // The device shown over time is the fullest, the one out of memory: the crossing is marked at capacity.
    const std::size_t shown = static_cast<std::size_t>(view.deviceBox()->currentIndex());
    QCOMPARE(over->simulation.report.per_device[shown].npu, oom->npu);
    QScatterSeries* crossing = nullptr;
    for (QAbstractSeries* series : view.timeChart()->series()) {
        if (auto* scatter = qobject_cast<QScatterSeries*>(series)) crossing = scatter;
    }
    QVERIFY(crossing != nullptr);
    QCOMPARE(crossing->count(), 1);
}

void TestResultViews::tableHeadersShowTheChartsColours_data() {
    QTest::addColumn<QString>("view");
    QTest::addColumn<int>("column");
    QTest::addColumn<QColor>("colour");
    QTest::newRow("memory: weights") << "memory" << static_cast<int>(MemoryCategory::weights)
                                     << memory_category_color(MemoryCategory::weights);
    QTest::newRow("memory: activations") << "memory" << static_cast<int>(MemoryCategory::activations)
                                         << memory_category_color(MemoryCategory::activations);
    QTest::newRow("breakdown: compute") << "breakdown" << 0 << compute_color();
}

// A chart's legend hides when the chart is too narrow for its names (at 1024 px the Memory tab's peak chart showed
// bare colours); the table's headers name the colours at any width. The headers returned each column's colour, but
// Qt's header paints only icons, so nothing was drawn: the header is grabbed and the swatch looked for in its section.
void TestResultViews::tableHeadersShowTheChartsColours() {
    QFETCH(QString, view);
    QFETCH(int, column);
    QFETCH(QColor, colour);
    auto scenario = small_pipeline();
    QVERIFY(scenario.has_value());
    const auto result = simulated(*scenario);
    QVERIFY(result != nullptr);
    MemoryView memory;
    BreakdownView breakdown;
    QWidget* shown = &breakdown;
    if (view == QStringLiteral("memory")) {
        memory.showResult(result);
        shown = &memory;
    } else {
        breakdown.showResult(result);
    }
    shown->resize(1000, 600);
    shown->show();
    QVERIFY(QTest::qWaitForWindowExposed(shown));
    const QString table_name = view == QStringLiteral("memory") ? "Memory table" : "Breakdown table";
    QTableView* table = nullptr;
    for (QTableView* candidate : shown->findChildren<QTableView*>()) {
        if (candidate->accessibleName() == table_name) table = candidate;
    }
    QVERIFY(table != nullptr);
    QHeaderView* header = table->horizontalHeader();
    QTRY_VERIFY(header->sectionSize(column) > 0);
    const QImage picture = header->grab().toImage();
    const qreal scale = picture.devicePixelRatio();
    const QRect section(header->sectionViewportPosition(column), 0, header->sectionSize(column), header->height());
    int matching_px = 0;
    for (int y = section.top(); y <= section.bottom(); ++y) {
        for (int x = section.left(); x <= section.right(); ++x) {
            if (picture.pixelColor(QPointF(x * scale, y * scale).toPoint()).rgb() == colour.rgb()) ++matching_px;
        }
    }
    // A square three quarters of a line high: at least 6 × 6 px of the colour.
    QVERIFY2(matching_px >= 36, qPrintable(QStringLiteral("%1 px of %2").arg(matching_px).arg(colour.name())));
}

// In a 1024 px window the Memory tab is about 670 px wide beside the Scenario dock; the note on where the capacity is
// ran on past the Export button there, cut off mid-word.
void TestResultViews::capacityNoteFitsASmallWindow() {
    auto scenario = small_pipeline();
    QVERIFY(scenario.has_value());
    const auto result = simulated(*scenario);
    QVERIFY(result != nullptr);
    MemoryView view;
    view.showResult(result);
    view.resize(670, 560);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const auto* note = view.findChild<QLabel*>(QStringLiteral("CapacityNote"));
    QVERIFY(note != nullptr && !note->text().isEmpty());
    // The view fits that width, so nothing is squeezed below its size ...
    QVERIFY2(view.minimumSizeHint().width() <= 670, qPrintable(QString::number(view.minimumSizeHint().width())));
    // ... and the note has the width of its whole text.
    QVERIFY2(note->width() >= note->sizeHint().width(),
             qPrintable(QStringLiteral("%1 px for %2 px of text").arg(note->width()).arg(note->sizeHint().width())));
}

namespace {

// two_stage_report() (NPU 0 holds 90 GiB of its 80 GiB at its peak, the fullest) with `uses` offloaded.
Report offloading_report(std::vector<OffloadUse> uses) {
    Report report = two_stage_report();
    report.offloads = std::move(uses);
    return report;
}

OffloadUse offload_use(OffloadTarget target, bool optimizer, bool gradients, bool parameters, double bytes,
                       double capacity_bytes, std::int64_t first_npu) {
    OffloadUse use;
    use.target = target;
    use.optimizer = optimizer;
    use.gradients = gradients;
    use.parameters = parameters;
    use.bytes = bytes;
    use.capacity_bytes = capacity_bytes;
    use.first_npu = first_npu;
    return use;
}

}  // namespace

void TestResultViews::tierCapacityPerRow_data() {
    QTest::addColumn<std::vector<OffloadUse>>("uses");
    QTest::addColumn<int>("row");
    QTest::addColumn<QString>("tier");
    QTest::addColumn<QString>("text");  // usage · what it keeps
    QTest::addColumn<bool>("over");
    constexpr double TiB = 1024.0 * GiB;
    const std::vector<OffloadUse> host{offload_use(OffloadTarget::host, true, false, false, 300.0 * GiB, 1.0 * TiB, 8)};
    // The device row first: the fullest device, NPU 0, 90 GiB of 80 GiB = 112.5% — it does not fit either.
    QTest::newRow("host: the device") << host << 0 << QStringLiteral("Device memory (NPU 0)")
                                      << QStringLiteral("90 GiB of 80 GiB (112.5%) · at its peak — does not fit") << true;
    // 300 GiB of 1 TiB = 29.3%.
    QTest::newRow("host") << host << 1 << QStringLiteral("Host memory (node of NPU 8)")
                          << QStringLiteral("300 GiB of 1 TiB (29.3%) · optimizer states") << false;
    const std::vector<OffloadUse> two{
        offload_use(OffloadTarget::nvme, true, true, false, 2.0 * TiB, 4.0 * TiB, 0),
        offload_use(OffloadTarget::pool, false, false, true, 13.16 * TiB, 12.0 * TiB, 0)};
    QTest::newRow("nvme") << two << 1 << QStringLiteral("NVMe (node of NPU 0)")
                          << QStringLiteral("2 TiB of 4 TiB (50.0%) · gradients and optimizer states") << false;
    // 13.16 / 12 = 109.7%: red, and said.
    QTest::newRow("pool over its capacity")
        << two << 2 << QStringLiteral("Memory pool (every device's)")
        << QStringLiteral("13.16 TiB of 12 TiB (109.7%) · parameters — does not fit") << true;
}

void TestResultViews::tierCapacityPerRow() {
    QFETCH(std::vector<OffloadUse>, uses);
    QFETCH(int, row);
    QFETCH(QString, tier);
    QFETCH(QString, text);
    QFETCH(bool, over);
    const Report report = offloading_report(uses);
    const std::vector<TierCapacityRow> rows = tier_capacity_rows(report);
    QCOMPARE(rows.size(), uses.size() + 1);
    const TierCapacityRow& shown = rows.at(static_cast<std::size_t>(row));
    QCOMPARE(shown.tier, tier);
    QCOMPARE(shown.usage_text() + QStringLiteral(" · ") + shown.keeps + (over ? QStringLiteral(" — does not fit") : QString()),
             text);
    QCOMPARE(shown.over(), over);
    // The widget says the same to a screen reader, and hides without offloading.
    QWidget parent;
    TierCapacityBars bars(&parent);
    bars.showReport(report);
    QVERIFY(bars.isVisibleTo(&parent));
    QVERIFY2(bars.accessibleDescription().contains(tier + QStringLiteral(": ") + text),
             qPrintable(bars.accessibleDescription()));
    bars.showReport(two_stage_report());
    QVERIFY(!bars.isVisibleTo(&parent));
    QVERIFY(bars.rows().empty());
}

void TestResultViews::tierCapacityBarsAreAsLongAsTheirShare() {
    // Host memory 300 GiB of 1 TiB: its fill ends at 29.3% of its track; the device's, over its capacity, fills the
    // whole track in red.
    constexpr double TiB = 1024.0 * GiB;
    TierCapacityBars bars;
    bars.showReport(offloading_report({offload_use(OffloadTarget::host, true, false, false, 300.0 * GiB, TiB, 8)}));
    bars.resize(900, bars.sizeHint().height());
    QImage picture(bars.size(), QImage::Format_ARGB32);
    picture.fill(Qt::transparent);
    bars.render(&picture);
    const QRect device = bars.trackRect(0);
    const QRect host = bars.trackRect(1);
    QVERIFY(host.width() >= 120 && host.right() < bars.width());
    QCOMPARE(host.left(), device.left());
    const int middle = host.center().y();
    const int end = host.left() + static_cast<int>(std::lround(300.0 / 1024.0 * host.width()));
    QCOMPARE(picture.pixelColor(host.left() + 2, middle), exposed_remote_memory_color());
    QCOMPARE(picture.pixelColor(end - 2, middle), exposed_remote_memory_color());
    QCOMPARE(picture.pixelColor(end + 2, middle), bars.palette().color(QPalette::AlternateBase));
    QCOMPARE(picture.pixelColor(device.right() - 2, device.center().y()), over_capacity_color());
}

void TestResultViews::manyDevicesOfferStagesOnly() {
    // 65 simulated devices are more than the views list one by one (max_listed_devices = 64).
    Report report = two_stage_report();
    report.per_device.resize(max_listed_devices + 1, report.per_device.front());
    auto result = std::make_shared<SimulationResult>();
    result->simulation.report = report;
    BreakdownView view;
    view.groupingBox()->setCurrentIndex(1);
    view.showResult(result);
    QCOMPARE(view.groupingBox()->currentIndex(), 0);
    const auto* items = qobject_cast<QStandardItemModel*>(view.groupingBox()->model());
    QVERIFY(items != nullptr);
    QVERIFY(!items->item(1)->isEnabled());
    QCOMPARE(items->item(1)->toolTip(),
             QStringLiteral("65 simulated devices are more than a chart can show apart (at most 64)"));
}

QTEST_MAIN(TestResultViews)
#include "test_result_views.moc"
