// The sweep runner (sweep/sweep_runner.h) on tests/data/cli/small_pipeline.yaml (a 4-layer transformer, pp 2 on 8
// NPUs, global batch 16) with dp derived (`auto`), the device's memory cut to 30 MB and the first stage's micro-batches
// in flight capped at 2 in its strategy tree (the schedule's own: nothing changes but the memory bound, which then
// counts one micro-batch's activations), so that every kind of point shows up: tp ∈ {1, 2, 4} × micro-batch ∈
// {1, 2, 3}. test_memory_lower_bound works out the figures:
//   micro-batch 3: 16 sequences do not split into replicas × micro-batches of 3 → invalid (3 points);
//   tp 1: the last stage needs at least 29 474 816 B of model states and a micro-batch's activations, 9 699 328 B
//         a sequence, past 30 MB → oom_estimated, not simulated (2 points);
//   tp 2, micro-batch 2: a bound of 14 733 312 + 11 010 048 = 25.7 MB, but with 2 micro-batches in flight the
//         device needs 36.8 MB → simulated until it runs out of memory (1 point);
//   the other 3 fit.

#include "scenario_file/scenario_writer.h"
#include "simulation/simulate.h"
#include "sweep/sweep_runner.h"

#include <QtTest>

#include <map>
#include <mutex>
#include <set>
#include <thread>

using namespace parasight;

namespace {

SweepPlan small_plan(std::vector<SweepAxis> axes) {
    const LoadResult loaded = load_scenario_file(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml");
    Expected<SweepSpace> space = SweepSpace::of(std::move(axes));
    if (!loaded.ok() || !space) qFatal("the small pipeline or its axes did not load");
    return SweepPlan{loaded.scenario->value().name, write_scenario_yaml(loaded.scenario->value()), {},
                     std::move(space).value(), std::nullopt};
}

SweepPlan nine_point_plan() {
    LoadResult loaded = load_scenario_file(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml");
    if (!loaded.ok()) qFatal("the small pipeline did not load");
    Scenario base = loaded.scenario->value();
    // A 30 MB device (the memory axis) holds no 1573 MiB CUDA context: the bound is the model states and activations.
    base.cluster.device.context_memory_bytes = 0.0;
    StrategyOverride cap;
    cap.node = "stage[0]";
    cap.max_ongoing_micro_batches = 2;
    base.strategy_tree.push_back(cap);
    Expected<SweepSpace> space = SweepSpace::of({{"parallelism.dp", {"auto"}},
                                                 {"cluster.device.memory", {"30 MB"}},
                                                 {"parallelism.tp", {"1", "2", "4"}},
                                                 {"training.micro_batch", {"1", "2", "3"}}});
    if (!space) qFatal("the axes did not make a space");
    return SweepPlan{base.name, write_scenario_yaml(base), {}, std::move(space).value(), std::nullopt};
}

// Keeps every point it is given; cancels after `cancel_after` points when set.
class Collector final : public SweepObserver {
public:
    std::optional<std::string> points_done(std::span<const PointResult> points) override {
        ++batches;
        for (const PointResult& point : points) {
            results.emplace(point.point, point);
            order.push_back(point.point);
        }
        if (fail_with) return fail_with;
        return std::nullopt;
    }
    bool cancelled() const override { return cancel_after && results.size() >= *cancel_after; }

    std::map<std::uint64_t, PointResult> results;
    std::vector<std::uint64_t> order;  // the points in the order they were handed on
    int batches = 0;
    std::optional<std::size_t> cancel_after;
    std::optional<std::string> fail_with;
};

// Everything a point's result says, but how long it took to simulate.
std::string fingerprint(const PointResult& result) {
    std::string text = std::to_string(result.point) + " " + std::string(name_of(result.status, point_status_names)) +
                       " " + point_reason(result) + " " + result.scenario_yaml;
    for (const AxisValue& value : result.values) text += " " + value.path + "=" + value.value;
    if (result.report) {
        const Report& report = *result.report;
        text += " " + std::to_string(report.iteration_time_s) + " " + std::to_string(report.peak_memory_bytes) +
                " " + std::to_string(report.mfu) + " " + std::to_string(report.events) + " " +
                std::to_string(report.breakdown.bubble_s) + " " + std::to_string(report.warnings.size());
    }
    if (result.memory_estimate) text += " " + std::to_string(result.memory_estimate->needed_bytes);
    return text;
}

}  // namespace

class TestSweepRunner : public QObject {
    Q_OBJECT
private slots:
    void everyPointIsRecordedWithWhatBecameOfIt();
    void aPreparedPointSaysWhatItsSimulationHolds();
    void theResultsAreTheSameForAnyNumberOfThreads();
    void shardsSplitThePointsExactlyOnce();
    void storedPointsAreNotRunAgain();
    void aCancelStopsTheSweep();
    void anObserverErrorStopsTheSweep();
    void aShortSweepHandsOnItsPointsInOrder_data();
    void aShortSweepHandsOnItsPointsInOrder();
    void shardsAreWrittenKOverN_data();
    void shardsAreWrittenKOverN();
};

void TestSweepRunner::everyPointIsRecordedWithWhatBecameOfIt() {
    const SweepPlan plan = nine_point_plan();
    QCOMPARE(plan.space.point_count(), std::size_t{9});
    Collector collector;
    SweepOptions options;
    options.jobs = 2;
    const SweepOutcome outcome = run_sweep(plan, options, collector);
    QCOMPARE(outcome.points_in_shard, std::uint64_t{9});
    QCOMPARE(outcome.run, std::uint64_t{9});
    QVERIFY(!outcome.cancelled);
    QVERIFY(!outcome.error);
    QCOMPARE(collector.results.size(), std::size_t{9});
    std::map<PointStatus, int> counts;
    for (const auto& [point, result] : collector.results) {
        ++counts[result.status];
        const std::string tp = result.values[2].value;
        const std::string micro_batch = result.values[3].value;
        if (micro_batch == "3") {
            QCOMPARE(result.status, PointStatus::invalid);
            // dp = 8 / (2 · tp): 4, 2 or 1 replicas of micro-batches of 3.
            const int dp = 8 / (2 * std::stoi(tp));
            const std::string why = "training.global_batch: global_batch 16 is not divisible by dp x micro_batch = " +
                                    std::to_string(dp) + " x 3 = " + std::to_string(3 * dp);
            QVERIFY2(result.reason == why, result.reason.c_str());
            QVERIFY(!result.report);
        } else if (tp == "1") {
            QCOMPARE(result.status, PointStatus::oom_estimated);
            QVERIFY(result.memory_estimate);
            const double activations = 9699328.0 * std::stoi(micro_batch);
            // Counting one micro-batch, the last stage needs the most: its 512 parameters of final LayerNorm more.
            QCOMPARE(result.memory_estimate->needed_bytes, 1842176.0 * 16 + activations);
            QCOMPARE(result.memory_estimate->capacity_bytes, 30e6);
            const std::string expected = micro_batch == "1"
                                             ? "stage 1 needs at least 39.17 MB (29.47 MB of model states and 9.699 MB "
                                               "of activations for 1 micro-batch in flight), more than the 30 MB of a "
                                               "device"
                                             : "stage 1 needs at least 48.87 MB (29.47 MB of model states and 19.4 MB "
                                               "of activations for 1 micro-batch in flight), more than the 30 MB of a "
                                               "device";
            QVERIFY(result.cause && result.cause->code == WarningCode::memory_bound_exceeded);
            QCOMPARE(result.cause->stage, 1);
            QVERIFY2(point_reason(result) == expected, point_reason(result).c_str());
        } else if (tp == "2" && micro_batch == "2") {
            // Stopped at the allocation that crossed 30 MB: no Report, the device's memory then and why.
            QCOMPARE(result.status, PointStatus::oom);
            QVERIFY(!result.report);
            QVERIFY(result.memory_estimate);
            QVERIFY(result.memory_estimate->needed_bytes > 30e6);
            QVERIFY(result.cause && result.cause->code == WarningCode::out_of_memory);
            const std::string reason = point_reason(result);
            QVERIFY2(reason.rfind("out of memory: NPU 0 needs ", 0) == 0 &&
                         reason.find(" of its 28.61 MiB; the capacity is first exceeded by ") != std::string::npos,
                     reason.c_str());  // 30 MB = 28.61 MiB
            // The bound is sound: simulated anyway, to the end, the point runs out of memory.
            const LoadResult loaded = load_scenario_text(result.scenario_yaml, "point");
            QVERIFY(loaded.ok());
            const auto simulated = simulate(*loaded.scenario, SimulateOptions{});
            QVERIFY(simulated && simulated.value().report.out_of_memory);
        } else {
            QCOMPARE(result.status, PointStatus::ok);
            QVERIFY(result.report);
            QVERIFY(result.report->per_device.empty());  // only the Report is kept
            QVERIFY(!result.report->out_of_memory);
            QVERIFY(result.report->iteration_time_s > 0.0);
        }
    }
    QCOMPARE(counts[PointStatus::invalid], 3);
    QCOMPARE(counts[PointStatus::oom_estimated], 2);
    QCOMPARE(counts[PointStatus::oom], 1);
    QCOMPARE(counts[PointStatus::ok], 3);
}

void TestSweepRunner::aPreparedPointSaysWhatItsSimulationHolds() {
    // The nine points read, not simulated: those that do not load or do not fit have their result and nothing to
    // simulate; the others their scenario and the least tasks of their first engine run, which the workers take the
    // largest of first. 1F1B over 2 stages repeats a period from 2 + 1 + 1 + 2 = 6 micro-batches on, running 3 + 2 = 5
    // of them first; a transformer layer with tp > 1 is at least 8 tasks a micro-batch, and there are 4 layers:
    //   tp 2, micro-batch 1: 8 replicas' 16 sequences over dp 2 → 8 micro-batches, 5 run first → 8 · 5 · 4 = 160;
    //   tp 2, micro-batch 2: 4 micro-batches, too few to repeat, all run → 8 · 4 · 4 = 128;
    //   tp 4, micro-batch 1 and 2: dp 1 → 16 and 8 micro-batches, 5 run first → 160.
    const SweepPlan plan = nine_point_plan();
    const PointScenarios scenarios(plan.base_yaml);
    const std::map<std::uint64_t, double> simulated{{3, 160.0}, {4, 128.0}, {6, 160.0}, {7, 160.0}};
    for (std::uint64_t point = 0; point < 9; ++point) {
        const PreparedPoint prepared = prepare_point(plan, scenarios, point);
        const auto found = simulated.find(point);
        QCOMPARE(prepared.scenario.has_value(), found != simulated.end());
        QCOMPARE(prepared.estimated_tasks, found != simulated.end() ? found->second : 0.0);
        // What it holds is what run_point makes of it.
        const std::optional<PointResult> whole = run_point(plan, scenarios, point);
        const std::optional<PointResult> result = simulate_point(prepare_point(plan, scenarios, point));
        QVERIFY(whole && result);
        QCOMPARE(fingerprint(*result), fingerprint(*whole));
    }
}

void TestSweepRunner::theResultsAreTheSameForAnyNumberOfThreads() {
    const SweepPlan plan = nine_point_plan();
    std::vector<std::string> fingerprints[3];
    for (const int jobs : {1, 2, 3}) {
        Collector collector;
        SweepOptions options;
        options.jobs = jobs;
        options.batch_points = 2;
        // Each worker thread says it started, once, on itself (the window lowers their priority there).
        std::mutex mutex;
        std::set<std::thread::id> started;
        int starts = 0;
        options.worker_started = [&] {
            const std::lock_guard lock(mutex);
            started.insert(std::this_thread::get_id());
            ++starts;
        };
        (void)run_sweep(plan, options, collector);
        QCOMPARE(starts, jobs);
        QCOMPARE(started.size(), static_cast<std::size_t>(jobs));
        QVERIFY(started.count(std::this_thread::get_id()) == 0);
        for (const auto& [point, result] : collector.results) fingerprints[jobs - 1].push_back(fingerprint(result));
    }
    QCOMPARE(fingerprints[0].size(), std::size_t{9});
    QCOMPARE(fingerprints[1], fingerprints[0]);
    QCOMPARE(fingerprints[2], fingerprints[0]);
}

void TestSweepRunner::shardsSplitThePointsExactlyOnce() {
    const SweepPlan plan = nine_point_plan();
    std::map<std::uint64_t, int> seen;
    for (std::uint64_t index = 0; index < 4; ++index) {
        Collector collector;
        SweepOptions options;
        options.shard = Shard{index, 4};
        const SweepOutcome outcome = run_sweep(plan, options, collector);
        // Points k ≡ index (mod 4) of 0…8: shard 0 has 0, 4, 8; the others two each.
        QCOMPARE(outcome.points_in_shard, index == 0 ? std::uint64_t{3} : std::uint64_t{2});
        QCOMPARE(options.shard.size_of(9), outcome.points_in_shard);
        for (const auto& [point, result] : collector.results) {
            QCOMPARE(point % 4, index);
            ++seen[point];
        }
    }
    QCOMPARE(seen.size(), std::size_t{9});
    for (const auto& [point, times] : seen) QCOMPARE(times, 1);
}

void TestSweepRunner::storedPointsAreNotRunAgain() {
    const SweepPlan plan = nine_point_plan();
    Collector collector;
    SweepOptions options;
    options.done = {0, 3, 4, 8};
    const SweepOutcome outcome = run_sweep(plan, options, collector);
    QCOMPARE(outcome.already_done, std::uint64_t{4});
    QCOMPARE(outcome.run, std::uint64_t{5});
    std::vector<std::uint64_t> points;
    for (const auto& [point, result] : collector.results) points.push_back(point);
    QCOMPARE(points, (std::vector<std::uint64_t>{1, 2, 5, 6, 7}));
}

void TestSweepRunner::aCancelStopsTheSweep() {
    // 100 points of the valid tp 2 configuration (different link bandwidths), one thread, a batch per point:
    // cancelled once 3 points are in, the sweep stops before its end. How soon depends on the scheduler — the worker
    // may finish several more points of a millisecond while the reporting thread waits for a core (the bound "< 10"
    // it had depended on that) — so the bound is the sweep's end, which a sweep ignoring the cancel reaches.
    std::vector<std::string> bandwidths;
    for (int gbps = 1; gbps <= 100; ++gbps) bandwidths.push_back(std::to_string(gbps) + " GB/s");
    const SweepPlan plan = small_plan({{"cluster.topology[1].bandwidth", bandwidths}});
    Collector collector;
    collector.cancel_after = 3;
    SweepOptions options;
    options.batch_points = 1;
    const SweepOutcome outcome = run_sweep(plan, options, collector);
    QVERIFY(outcome.cancelled);
    QVERIFY(outcome.run >= 3);
    QVERIFY2(outcome.run < 100, std::to_string(outcome.run).c_str());
    QCOMPARE(collector.results.size(), static_cast<std::size_t>(outcome.run));
}

void TestSweepRunner::anObserverErrorStopsTheSweep() {
    std::vector<std::string> bandwidths;
    for (int gbps = 1; gbps <= 100; ++gbps) bandwidths.push_back(std::to_string(gbps) + " GB/s");
    const SweepPlan plan = small_plan({{"cluster.topology[1].bandwidth", bandwidths}});
    Collector collector;
    collector.fail_with = "the disk is full";
    SweepOptions options;
    options.batch_points = 1;
    options.jobs = 2;
    const SweepOutcome outcome = run_sweep(plan, options, collector);
    QVERIFY(outcome.error);
    QCOMPARE(*outcome.error, std::string("the disk is full"));
    QCOMPARE(collector.batches, 1);  // nothing is handed on after the error
}

void TestSweepRunner::aShortSweepHandsOnItsPointsInOrder_data() {
    QTest::addColumn<int>("jobs");
    QTest::addColumn<double>("batch_seconds");
    QTest::newRow("1 thread") << 1 << 3600.0;
    QTest::newRow("2 threads") << 2 << 3600.0;
    QTest::newRow("3 threads") << 3 << 3600.0;
    // A batch due every millisecond: each hands on the points before the first still running, none after it.
    QTest::newRow("1 thread, batches of 1 ms") << 1 << 0.001;
    QTest::newRow("2 threads, batches of 1 ms") << 2 << 0.001;
}

// A sweep hands on the points before the first still running, while the others run (16 at a time, a batch's time
// after the last, or once every point has been read); a point finished after one still running waits for it (here
// for up to an hour): the points arrive in increasing order whatever the threads — the last 16, which the workers
// read first and simulate the longest first, included — so a store numbers their runs in the points' order (the
// golden sweep's database relies on it), each once.
void TestSweepRunner::aShortSweepHandsOnItsPointsInOrder() {
    QFETCH(int, jobs);
    QFETCH(double, batch_seconds);
    std::vector<std::string> bandwidths;
    for (int gbps = 1; gbps <= 40; ++gbps) bandwidths.push_back(std::to_string(gbps) + " GB/s");
    const SweepPlan plan = small_plan({{"cluster.topology[1].bandwidth", bandwidths}});
    for (int repeat = 0; repeat < 3; ++repeat) {
        Collector collector;
        SweepOptions options;
        options.jobs = jobs;
        options.batch_seconds = batch_seconds;
        options.out_of_order_seconds = 3600.0;
        const SweepOutcome outcome = run_sweep(plan, options, collector);
        QCOMPARE(outcome.run, std::uint64_t{40});
        std::vector<std::uint64_t> expected(40);
        for (std::uint64_t point = 0; point < 40; ++point) expected[point] = point;
        QCOMPARE(collector.order, expected);
    }
}

void TestSweepRunner::shardsAreWrittenKOverN_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");  // "index/count" counted from 0, or the error
    QTest::newRow("first") << "1/4" << "0/4";
    QTest::newRow("last") << "4/4" << "3/4";
    QTest::newRow("one") << "1/1" << "0/1";
    QTest::newRow("K past N") << "5/4" << "shard 5/4 does not exist: K must be between 1 and N";
    QTest::newRow("zero") << "0/4" << "shard 0/4 does not exist: K must be between 1 and N";
    QTest::newRow("no slash") << "3" << "a shard is written K/N (the K-th of N, 1 ≤ K ≤ N), not '3'";
    QTest::newRow("words") << "a/b" << "a shard is written K/N (the K-th of N, 1 ≤ K ≤ N), not 'a/b'";
}

void TestSweepRunner::shardsAreWrittenKOverN() {
    QFETCH(QString, text);
    QFETCH(QString, expected);
    const Expected<Shard> shard = parse_shard(text.toStdString());
    const QString got = shard ? QString("%1/%2").arg(shard.value().index).arg(shard.value().count)
                              : QString::fromStdString(shard.error());
    QCOMPARE(got, expected);
}

QTEST_GUILESS_MAIN(TestSweepRunner)
#include "test_sweep_runner.moc"
