// A stored sweep as a heatmap's grid (store/sweep_grid.h), worked out by hand on eight points: tp ∈ {1, 2} across,
// pp ∈ {1, 2} down, micro-batch ∈ {1, 2} fixed or aggregated (best, median, worst); cells without a fitting point
// showing the status nearest to fitting and its reason in words; the best cell; shares of the iteration; the slices
// through the best point; the Pareto front of time or samples/s against peak memory or devices.

#include "store/sweep_grid.h"
#include "store/sweep_pareto.h"
#include "store/sweep_slices.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace parasight;

namespace {

// Point k = 4·tp_index + 2·pp_index + mb_index (the last axis fastest). Iteration times in seconds, by point; the
// tp 2 · pp 2 cell (points 6 and 7) has no fitting point: 6 is estimated not to fit, 7 is invalid.
constexpr double times_s[8] = {4.0, 3.0, 5.0, 6.0, 2.0, 1.0, 0.0, 0.0};
// Peak memory in GB, by point, and devices (tp · pp): 1 for points 0 and 1, 2 for points 2 to 5.
constexpr double peak_memory_gb[8] = {10.0, 20.0, 5.0, 10.0, 15.0, 60.0, 0.0, 0.0};

PointResult point(std::uint64_t k) {
    const char* tp[] = {"1", "2"};
    PointResult result;
    result.point = k;
    result.values = {{"parallelism.tp", tp[k / 4]}, {"parallelism.pp", tp[(k / 2) % 2]},
                     {"training.micro_batch", tp[k % 2]}};
    result.scenario_name = "grid";
    result.scenario_yaml = "schema: 1\nname: grid\n# point " + std::to_string(k) + "\n";
    if (k == 6) {
        result.status = PointStatus::oom_estimated;
        result.memory_estimate = MemoryEstimate{9e10, 8e10};
        Warning cause;
        cause.code = WarningCode::memory_bound_exceeded;
        cause.subject = "stage[0]";
        cause.needed_bytes = 90e9;
        cause.model_state_bytes = 90e9;
        cause.capacity_bytes = 80e9;
        result.cause = cause;
        return result;
    }
    if (k == 7) {
        result.status = PointStatus::invalid;
        result.reason = "parallelism.tp: 2 does not divide 3 heads";
        return result;
    }
    Report report;
    report.iteration_time_s = times_s[k];
    report.samples_per_s = 8.0 / times_s[k];
    report.peak_memory_bytes = peak_memory_gb[k] * 1e9;
    report.devices = static_cast<std::int64_t>((k / 4 + 1) * ((k / 2) % 2 + 1));
    report.breakdown.bubble_s = k == 5 ? 0.5 : 0.25;  // seconds of bubble: point 5's is half its 1 s iteration
    report.breakdown.compute_s = times_s[k] - report.breakdown.bubble_s - 0.125;
    report.breakdown.exposed_comm_s[static_cast<std::size_t>(CommGroup::dp)] = 0.125;
    report.mode = "representative";
    result.report = report;
    return result;
}

}  // namespace

class TestSweepGrid : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void aggregatedByTheStatedRule_data();
    void aggregatedByTheStatedRule();
    void aFixedAxisTakesOneValue();
    void cellsWithoutAFittingPointSayWhy();
    void sharesOfTheIteration();
    void theShownPointsBreakdownAndEveryAxis();
    void aFilterLeavesPointsOut();
    void slicesThroughTheBestPoint();
    void paretoFrontByHand();
    void paretoFrontOfAStoredSweep();
    void aPointIsARunToCompare();
    void mistakes();

private:
    QTemporaryDir folder_;
    std::optional<ResultStore> store_;
    std::int64_t sweep_ = 0;
};

void TestSweepGrid::initTestCase() {
    Expected<ResultStore> store = ResultStore::open((folder_.path() + "/r.db").toStdString(),
                                                    ResultStore::Access::read_write);
    QVERIFY(store);
    store_.emplace(std::move(store).value());
    const SweepRecord record{"grid", "schema: 1\nname: grid\n",
                             {{"parallelism.tp", {"1", "2"}}, {"parallelism.pp", {"1", "2"}},
                              {"training.micro_batch", {"1", "2"}}},
                             8};
    const Expected<std::int64_t> id = store_->open_sweep(record);
    QVERIFY(id);
    sweep_ = id.value();
    std::vector<PointResult> points;
    for (std::uint64_t k = 0; k < 8; ++k) points.push_back(point(k));
    QVERIFY(!store_->add_points(sweep_, points));
}

void TestSweepGrid::aggregatedByTheStatedRule_data() {
    QTest::addColumn<int>("rule");
    QTest::addColumn<QList<double>>("values");  // row by row: (tp 1, pp 1), (tp 2, pp 1), (tp 1, pp 2); none at (2, 2)
    QTest::addColumn<QList<int>>("points");
    // Cell (tp 1, pp 1) holds points 0 (4 s) and 1 (3 s); (tp 2, pp 1) points 4 (2 s) and 5 (1 s); (tp 1, pp 2)
    // points 2 (5 s) and 3 (6 s). Best: the shortest; worst: the longest; the median of two: the better of the middle
    // pair, in best-first order the lower middle one.
    QTest::newRow("best") << int(GridAggregation::best) << QList<double>{3.0, 1.0, 5.0} << QList<int>{1, 5, 2};
    QTest::newRow("median") << int(GridAggregation::median) << QList<double>{3.0, 1.0, 5.0} << QList<int>{1, 5, 2};
    QTest::newRow("worst") << int(GridAggregation::worst) << QList<double>{4.0, 2.0, 6.0} << QList<int>{0, 4, 3};
}

void TestSweepGrid::aggregatedByTheStatedRule() {
    QFETCH(int, rule);
    QFETCH(QList<double>, values);
    QFETCH(QList<int>, points);
    GridRequest request{sweep_, grid_metric("iteration_time_s").value(), "parallelism.tp", "parallelism.pp", {},
                        static_cast<GridAggregation>(rule), {}};
    const Expected<SweepGrid> grid = store_->sweep_grid(request);
    QVERIFY2(grid, grid ? "" : grid.error().c_str());
    QCOMPARE(grid.value().x_values, (std::vector<StoredValue>{std::int64_t{1}, std::int64_t{2}}));
    QCOMPARE(grid.value().y_values, (std::vector<StoredValue>{std::int64_t{1}, std::int64_t{2}}));
    const std::pair<std::size_t, std::size_t> cells[] = {{0, 0}, {1, 0}, {0, 1}};
    for (int i = 0; i < 3; ++i) {
        const GridCell& cell = grid.value().at(cells[i].first, cells[i].second);
        QCOMPARE(cell.points, std::int64_t{2});
        QCOMPARE(cell.fitting, std::int64_t{2});
        QCOMPARE(cell.value.value(), values[i]);
        QCOMPARE(cell.point, std::int64_t{points[i]});
        QCOMPARE(cell.status, PointStatus::ok);
    }
    // The best cell: tp 2 · pp 1, whose value is the shortest of the shown ones (1 s best, 2 s worst).
    QCOMPARE(grid.value().best, std::optional<std::size_t>(1));
}

void TestSweepGrid::aFixedAxisTakesOneValue() {
    // Micro-batch 2 only: points 1 (3 s), 5 (1 s), 3 (6 s) and 7 (invalid); higher samples/s is better: 8 / 1 s.
    GridRequest request{sweep_, grid_metric("samples_per_s").value(), "parallelism.tp", "parallelism.pp",
                        {{"training.micro_batch", std::int64_t{2}}}, GridAggregation::best, {}};
    const Expected<SweepGrid> grid = store_->sweep_grid(request);
    QVERIFY(grid);
    QCOMPARE(grid.value().at(0, 0).points, std::int64_t{1});
    QCOMPARE(grid.value().at(0, 0).value.value(), 8.0 / 3.0);
    QCOMPARE(grid.value().at(1, 0).value.value(), 8.0);
    QCOMPARE(grid.value().at(0, 1).value.value(), 8.0 / 6.0);
    QCOMPARE(grid.value().at(1, 1).status, PointStatus::invalid);
    QCOMPARE(grid.value().best, std::optional<std::size_t>(1));
}

void TestSweepGrid::cellsWithoutAFittingPointSayWhy() {
    GridRequest request{sweep_, grid_metric("iteration_time_s").value(), "parallelism.tp", "parallelism.pp", {},
                        GridAggregation::best, {}};
    const Expected<SweepGrid> grid = store_->sweep_grid(request);
    QVERIFY(grid);
    const GridCell& cell = grid.value().at(1, 1);
    QCOMPARE(cell.points, std::int64_t{2});
    QCOMPARE(cell.fitting, std::int64_t{0});
    QVERIFY(!cell.value);
    // Estimated not to fit is nearer to fitting than invalid: point 6, its reason worded from its stored code.
    QCOMPARE(cell.status, PointStatus::oom_estimated);
    QCOMPARE(cell.point, std::int64_t{6});
    QCOMPARE(cell.reason, std::string("stage 0 needs at least 90 GB (90 GB of model states), more than the 80 GB of a "
                                      "device"));
    // Fixed at micro-batch 2, the cell holds the invalid point alone: its reason is the loader's.
    request.fixed = {{"training.micro_batch", std::int64_t{2}}};
    const Expected<SweepGrid> fixed = store_->sweep_grid(request);
    QVERIFY(fixed);
    QCOMPARE(fixed.value().at(1, 1).reason, std::string("parallelism.tp: 2 does not divide 3 heads"));
}

void TestSweepGrid::sharesOfTheIteration() {
    // The bubble's share: point 5 spends 0.5 s of its 1 s iteration in the bubble, point 4 0.25 s of 2 s; the best
    // (smallest) share in the cell tp 2 · pp 1 is 0.125.
    GridRequest request{sweep_, grid_metric("bubble_share").value(), "parallelism.tp", "parallelism.pp", {},
                        GridAggregation::best, {}};
    const Expected<SweepGrid> grid = store_->sweep_grid(request);
    QVERIFY(grid);
    QCOMPARE(grid.value().at(1, 0).value.value(), 0.125);
    QCOMPARE(grid.value().at(1, 0).point, std::int64_t{4});
}

void TestSweepGrid::theShownPointsBreakdownAndEveryAxis() {
    GridRequest request{sweep_, grid_metric("iteration_time_s").value(), "parallelism.tp", "parallelism.pp", {},
                        GridAggregation::best, {}};
    const Expected<SweepGrid> grid = store_->sweep_grid(request);
    QVERIFY(grid);
    // The cell tp 2 · pp 1 shows point 5 (1 s): 0.5 s of bubble, 0.125 s of exposed DP, the 0.375 s left computing.
    const GridCell& fast = grid.value().at(1, 0);
    QCOMPARE(fast.point, std::int64_t{5});
    QVERIFY(fast.time_breakdown);
    QCOMPARE(fast.time_breakdown->bubble_s, 0.5);
    QCOMPARE(fast.time_breakdown->compute_s, 0.375);
    QCOMPARE(fast.time_breakdown->exposed_comm_s[static_cast<std::size_t>(CommGroup::dp)], 0.125);
    QCOMPARE(fast.time_breakdown->exposed_comm_s[static_cast<std::size_t>(CommGroup::tp)], 0.0);
    QCOMPARE(fast.time_breakdown->total_s(), 1.0);
    // Point 6 was estimated not to fit and never ran: no breakdown.
    QVERIFY(!grid.value().at(1, 1).time_breakdown);
    // Every axis with its values in the sweep's order, for a control per axis.
    QCOMPARE(grid.value().axes.size(), std::size_t{3});
    QCOMPARE(grid.value().axes[2].path, std::string("training.micro_batch"));
    QCOMPARE(grid.value().axes[2].values, (std::vector<StoredValue>{std::int64_t{1}, std::int64_t{2}}));
}

// A filter (store/point_filter.h's SQL) leaves out the points it does not let through: under 3 s only, the cell
// tp 1 · pp 1 keeps point 1 (3 s) for every rule, tp 1 · pp 2 (5 s, 6 s) keeps none.
void TestSweepGrid::aFilterLeavesPointsOut() {
    GridRequest request{sweep_, grid_metric("iteration_time_s").value(), "parallelism.tp", "parallelism.pp", {},
                        GridAggregation::worst, "iteration_time_s <= 3"};
    const Expected<SweepGrid> grid = store_->sweep_grid(request);
    QVERIFY(grid);
    QCOMPARE(grid.value().at(0, 0).points, std::int64_t{1});
    QCOMPARE(grid.value().at(0, 0).value.value(), 3.0);
    QCOMPARE(grid.value().at(1, 0).value.value(), 2.0);  // the worst of 2 s and 1 s
    QCOMPARE(grid.value().at(0, 1).points, std::int64_t{0});
    QVERIFY(!grid.value().at(0, 1).value);
    // The axes keep every value.
    QCOMPARE(grid.value().y_values.size(), std::size_t{2});
}

// The best point by time is 5 (tp 2, pp 1, micro-batch 2: 1 s). Along tp (pp 1, micro-batch 2): point 1 (3 s), 5;
// along pp (tp 2, micro-batch 2): 5, then 7 (invalid); along micro-batch (tp 2, pp 1): 4 (2 s), 5.
void TestSweepGrid::slicesThroughTheBestPoint() {
    const GridMetric time = grid_metric("iteration_time_s").value();
    const Expected<SweepSlices> slices = store_->sweep_slices(sweep_, time);
    QVERIFY(slices);
    QCOMPARE(slices.value().best_point, std::int64_t{5});
    QCOMPARE(slices.value().best_metric, 1.0);
    QCOMPARE(slices.value().slices.size(), std::size_t{3});
    const SweepSlice& tp = slices.value().slices[0];
    QCOMPARE(tp.axis, std::string("parallelism.tp"));
    QCOMPARE(tp.points.size(), std::size_t{2});
    QCOMPARE(tp.points[0].point, std::int64_t{1});
    QCOMPARE(tp.points[0].metric.value(), 3.0);
    QCOMPARE(tp.best, std::size_t{1});
    const SweepSlice& pp = slices.value().slices[1];
    QCOMPARE(pp.points[1].status, PointStatus::invalid);
    QVERIFY(!pp.points[1].metric);
    // One step off the best, in words: 3 s is 200% worse than 1 s, 2 s 100% worse; an invalid point says so.
    QCOMPARE(sensitivity_lines(tp, time),
             (std::vector<std::string>{"parallelism.tp 2 → 1: 200.0% worse (3 s)"}));
    QCOMPARE(sensitivity_lines(pp, time), (std::vector<std::string>{"parallelism.pp 1 → 2: invalid"}));
    QCOMPARE(sensitivity_lines(slices.value().slices[2], time),
             (std::vector<std::string>{"training.micro_batch 2 → 1: 100.0% worse (2 s)"}));
    // Through a filter that leaves out point 5, the best is point 4 (2 s).
    const Expected<SweepSlices> filtered = store_->sweep_slices(sweep_, time, "point != 5");
    QCOMPARE(filtered.value().best_point, std::int64_t{4});
    // Samples/s, where more is better: 8 / 1 s at point 5, 8 / 3 s one step along tp: 66.7% worse.
    const GridMetric samples = grid_metric("samples_per_s").value();
    const Expected<SweepSlices> by_samples = store_->sweep_slices(sweep_, samples);
    QCOMPARE(sensitivity_lines(by_samples.value().slices[0], samples),
             (std::vector<std::string>{"parallelism.tp 2 → 1: 66.7% worse (2.67 samples/s)"}));
    // No point fits: no best, no slices.
    QCOMPARE(store_->sweep_slices(sweep_, time, "status != 'ok'").value().best_point, std::int64_t{-1});
}

// Four points (cost, result), more is better: by cost, (0.5, 1) is first on the front; (1, 2) gives more; the second
// (1, 2) gives no more than the first, and (2, 2) costs more for the same: neither is on it.
void TestSweepGrid::paretoFrontByHand() {
    const std::vector<ParetoPoint> points{{0, 1.0, 2.0}, {1, 1.0, 2.0}, {2, 2.0, 2.0}, {3, 0.5, 1.0}};
    QCOMPARE(pareto_front(points, true), (std::vector<std::size_t>{3, 0}));
    // Less is better: (0.5, 1) is cheapest and best; nothing beats it.
    QCOMPARE(pareto_front(points, false), (std::vector<std::size_t>{3}));
    QVERIFY(pareto_front({}, true).empty());
}

// The six points that fit (0 to 5; 6 and 7 do not), by peak memory: 2 (5 GB, 5 s), 0 (10 GB, 4 s), 3 (10 GB, 6 s),
// 4 (15 GB, 2 s), 1 (20 GB, 3 s), 5 (60 GB, 1 s). Each of 2, 0, 4, 5 is faster than every cheaper point: the front;
// 0 beats 3 (the same memory, 2 s faster) and 4 beats 1 (less memory, 1 s faster). By devices: 1 (1 device, 3 s)
// then 5 (2 devices, 1 s); samples/s (8 / time) ranks the same way.
void TestSweepGrid::paretoFrontOfAStoredSweep() {
    const GridMetric time = grid_metric("iteration_time_s").value();
    const GridMetric memory = pareto_costs()[0];
    const GridMetric devices = pareto_costs()[1];
    QCOMPARE(memory.name, std::string_view("peak_memory_bytes"));
    QCOMPARE(devices.name, std::string_view("devices"));
    const Expected<SweepPareto> by_memory = store_->sweep_pareto(sweep_, memory, time);
    QVERIFY(by_memory);
    QCOMPARE(by_memory.value().points.size(), std::size_t{6});
    QCOMPARE(by_memory.value().points[4].point, std::int64_t{4});
    QCOMPARE(by_memory.value().points[4].cost, 15e9);
    QCOMPARE(by_memory.value().points[4].result, 2.0);
    QCOMPARE(by_memory.value().front, (std::vector<std::size_t>{2, 0, 4, 5}));
    QCOMPARE(store_->sweep_pareto(sweep_, devices, time).value().front, (std::vector<std::size_t>{1, 5}));
    const Expected<SweepPareto> samples = store_->sweep_pareto(sweep_, devices, grid_metric("samples_per_s").value());
    QCOMPARE(samples.value().front, (std::vector<std::size_t>{1, 5}));
    QCOMPARE(samples.value().points[5].result, 8.0);
    // Without point 5, point 4 (2 devices, 2 s) is the fastest on two devices.
    const Expected<SweepPareto> filtered = store_->sweep_pareto(sweep_, devices, time, "point != 5");
    QCOMPARE(filtered.value().points.size(), std::size_t{5});
    QCOMPARE(filtered.value().points[filtered.value().front[1]].point, std::int64_t{4});
    // Nothing that fits passes: no points, no front. A sweep that is not there is named.
    QVERIFY(store_->sweep_pareto(sweep_, memory, time, "status != 'ok'").value().points.empty());
    QVERIFY(!store_->sweep_pareto(sweep_ + 1, memory, time));
}

// Each point is stored as a run: point 5's run holds point 5's scenario; a point the sweep lacks is named.
void TestSweepGrid::aPointIsARunToCompare() {
    const Expected<std::int64_t> run = store_->point_run(sweep_, 5);
    QVERIFY(run);
    QCOMPARE(store_->run_scenario(run.value()).value().yaml, std::string("schema: 1\nname: grid\n# point 5\n"));
    QVERIFY(store_->point_run(sweep_, 4).value() != run.value());
    QCOMPARE(store_->point_run(sweep_, 9).error(), std::string("holds no point 9 of sweep 1"));
}

void TestSweepGrid::mistakes() {
    GridRequest request{sweep_, grid_metric("mfu").value(), "parallelism.tpp", "parallelism.pp", {},
                        GridAggregation::best, {}};
    const Expected<SweepGrid> unknown = store_->sweep_grid(request);
    QVERIFY(!unknown);
    QCOMPARE(unknown.error(), std::string("sweep 1 has no axis 'parallelism.tpp' (did you mean 'parallelism.tp'?)"));
    request.x_axis = "parallelism.pp";
    QCOMPARE(store_->sweep_grid(request).error(), std::string("the two axes of a grid are different axes"));
    QVERIFY(!grid_metric("mfuu"));
    QCOMPARE(grid_metrics().size(), std::size_t{11});
}

QTEST_GUILESS_MAIN(TestSweepGrid)
#include "test_sweep_grid.moc"
