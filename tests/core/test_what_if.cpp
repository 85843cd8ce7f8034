// What-if analysis (docs/what-if.md): the what_if: section read and written back; collective delays, slow devices and
// degraded links worked out event by event on two scenarios whose every time is round (tests/data/what_if/):
//
// pipeline.yaml — 2 stages of one GPT-2-small layer, 2 micro-batches of 1 sequence, 1F1B, no overlap slowdown.
//   From round-ops.csv a layer's forward F is 1 ms and its backward B 2 ms (everything else takes no time). A
//   pipeline send moves 1 × 1024 tokens × 768 × 2 B = 1 572 864 B at 1.572864 GB/s with no latency: s = 1 ms.
//   1F1B: stage 0 runs F0 F1 B0 B1, stage 1 F0 B0 F1 B1; sends run beside computation (overlap_p2p).
//   Without delay:  stage 0  F0 [0, 1]  send f0 [1, 2]  F1 [1, 2]  send f1 [2, 3]
//                   stage 1  F0 [2, 3]  B0 [3, 5]  send b0 [5, 6]  F1 [5, 6]  B1 [6, 8]  send b1 [8, 9]
//                   stage 0  B0 [6, 8]  B1 [9, 11]                                      → iteration 11 ms
//   With delay d before every send (each send d + s, one after another on the feature stream), for d ≤ 2 ms:
//                   stage 0  F0 [0, 1]  delay [1, 1+d]  f0 [1+d, 2+d]  F1 [1, 2]  delay [2+d, 2+2d]  f1 [2+2d, 3+2d]
//                   stage 1  F0 [2+d, 3+d]  B0 [3+d, 5+d]  delay [5+d, 5+2d]  b0 [5+2d, 6+2d]
//                            F1 [5+d, 6+d] (f1 ended at 3+2d ≤ 5+d)  B1 [6+d, 8+d]  delay [8+d, 8+2d]  b1 [8+2d, 9+2d]
//                   stage 0  B0 [6+2d, 8+2d]  B1 [9+2d, 11+2d]                           → iteration 11 + 2d
//   Past d = 2 ms stage 1's F1 waits for f1 (3+2d > 5+d): F1 [3+2d, 4+2d], B1 [4+2d, 6+2d], its delay waits for b0
//   to end at 6+2d: b1 ends 7+3d, stage 0's B1 [7+3d, 9+3d]                               → iteration 9 + 3d.
//   Two delayed sends lie on the critical path up to the knee at 2 ms, three past it.
//
// bert-dp.yaml — BERT-large cut to 4 layers (vocabulary 1024), 2 data-parallel replicas on one switch, gradients
//   reduced per layer (a 1 B bucket flushes at every layer) while backward runs, no overlap slowdown. F = 1 ms,
//   B = 2 ms per layer. A layer's gradients are 12 596 224 parameters × 2 B = 25 192 448 B; an all-reduce between 2
//   members sends and receives half of them twice: 25 192 448 B / 50.384896 GB/s = A = 0.5 ms. The last bucket
//   (the embeddings, reduced after layer 0's) takes e.
//   Without delay: forward [0, 4]; layer 3 backward [4, 6], its all-reduce [6, 6.5]; layer 2 [6, 8], [8, 8.5]; …;
//   layer 0 [10, 12], [12, 12.5]; embeddings [12.5, 12.5 + e]                         → iteration T0 = 12.5 + e
//   With delay d on every all-reduce: a layer's all-reduce (d + A) has until the next layer's gradients are ready
//   (B = 2 ms later), so while d + A ≤ B only layer 0's and the embeddings' add their delay: T = T0 + 2d. Past the
//   overlap window B − A = 1.5 ms the all-reduces queue behind each other from layer 3's on (ready at 6 ms):
//   T = 6 + 4(d + A) + d + e = T0 − 4.5 ms + 5d: slope 5, every bucket.

#include "analysis/breakdown.h"
#include "export/warning_text.h"
#include "scenario_file/scenario_loader.h"
#include "scenario_file/scenario_writer.h"
#include "simulation/simulate.h"
#include "sweep/delay_sweep.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace parasight;

Q_DECLARE_METATYPE(parasight::CollectiveDelay)

namespace {

constexpr double ms = 1e-3;
constexpr double kExact = 1e-12;  // sums of a few milliseconds

ValidatedScenario load(const char* name) {
    const LoadResult loaded = load_scenario_file(std::string(PARASIGHT_TEST_DATA_DIR "/what_if/") + name);
    if (!loaded.ok()) qFatal("%s does not load: %s", name, loaded.diagnostics.front().to_string().c_str());
    return *loaded.scenario;
}

ValidatedScenario with(const ValidatedScenario& base, const WhatIfSpec& what_if) {
    Scenario scenario = base.value();
    scenario.what_if = what_if;
    Validation validation = validate(std::move(scenario));
    if (!validation.ok()) {
        qFatal("the what-if scenario does not validate: %s", validation.diagnostics.front().message.c_str());
    }
    return *validation.scenario;
}

CollectiveDelay delay_on(std::optional<ParallelAxis> group, double delay_s) {
    CollectiveDelay delay;
    delay.group = group;
    delay.delay_s = delay_s;
    return delay;
}

SimulatedGraph run(const ValidatedScenario& scenario, bool all_devices = false) {
    SimulateOptions options;
    options.all_devices = all_devices;
    auto simulated = simulate_graph(scenario, options);
    if (!simulated) qFatal("the simulation failed: %s", simulated.error().message.c_str());
    return std::move(*simulated);
}

// One event as the tests write it: what ran, on which stream, from when to when (ms).
struct Event {
    TaskKind kind;
    Stream stream;
    double start_ms;
    double end_ms;
};

// By start, computation before communication at one instant.
void sort_by_start(std::vector<Event>& events) {
    std::stable_sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
        return a.start_ms != b.start_ms ? a.start_ms < b.start_ms : a.stream < b.stream;
    });
}

// The device's events that took time, sorted by start.
std::vector<Event> events_of(const SimulatedGraph& simulated, int device) {
    std::vector<Event> events;
    for (std::size_t t = 0; t < simulated.graph.tasks.size(); ++t) {
        const Task& task = simulated.graph.tasks[t];
        const TaskTiming& timing = simulated.run.timings[t];
        if (task.device != device || timing.end_s <= timing.start_s) continue;
        events.push_back(Event{task.kind, task.stream, timing.start_s / ms, timing.end_s / ms});
    }
    sort_by_start(events);
    return events;
}

QString describe(const std::vector<Event>& events) {
    QStringList lines;
    for (const Event& event : events) {
        lines << QStringLiteral("%1 on %2 [%3, %4]")
                     .arg(QString::fromUtf8(name_of(event.kind, task_kind_names).data()))
                     .arg(static_cast<int>(event.stream))
                     .arg(event.start_ms, 0, 'g', 12)
                     .arg(event.end_ms, 0, 'g', 12);
    }
    return lines.join(u'\n');
}

bool same(const std::vector<Event>& actual, const std::vector<Event>& expected) {
    if (actual.size() != expected.size()) return false;
    for (std::size_t i = 0; i < actual.size(); ++i) {
        if (actual[i].kind != expected[i].kind || actual[i].stream != expected[i].stream ||
            std::abs(actual[i].start_ms - expected[i].start_ms) > 1e-9 ||
            std::abs(actual[i].end_ms - expected[i].end_ms) > 1e-9) {
            return false;
        }
    }
    return true;
}

// The work of the communications of `kind` the graph holds, each once.
std::vector<double> communication_times_ms(const ExecutionGraph& graph, TaskKind kind, int device) {
    std::vector<double> times;
    for (const Task& task : graph.tasks) {
        if (task.kind == kind && task.device == device) times.push_back(task.work_s / ms);
    }
    return times;
}

}  // namespace

class TestWhatIf : public QObject {
    Q_OBJECT

private slots:
    void nothingHidesWhenEveryCallAddsItsDelay_data() {
        QTest::addColumn<double>("slope");
        QTest::addColumn<bool>("nothing");
        // 8 delayed calls: a slope of 8 ± 1% (0.08) is every call adding its whole delay.
        QTest::newRow("every call") << 8.0 << true;
        QTest::newRow("within 1%") << 7.95 << true;
        QTest::newRow("past 1%") << 7.9 << false;
        QTest::newRow("two of eight") << 2.0 << false;
    }
    void nothingHidesWhenEveryCallAddsItsDelay() {
        QFETCH(double, slope);
        QFETCH(bool, nothing);
        DelaySweep sweep;
        sweep.delayed_calls = 8;
        sweep.initial_slope = slope;
        QCOMPARE(delay_hides_nothing(sweep), nothing);
        sweep.delayed_calls = 0;  // nothing delayed: nothing to say
        QVERIFY(!delay_hides_nothing(sweep));
    }

    void sectionReadsAndWritesBack() {
        const LoadResult loaded = load_scenario_text(R"(schema: 1
model: {preset: gpt2-small, layers: 4}
training: {global_batch: 8, micro_batch: 1}
cluster:
  device: a100-80gb
  topology:
    - {kind: switch, size: 4, bandwidth: 300 GB/s, latency: 1 us}
    - {kind: ring, size: 4, bandwidth: 50 GB/s, latency: 2 us}
parallelism: {dp: 4, pp: 4}
what_if:
  collective_delays:
    - {group: dp, operation: all-reduce, delay: 3 ms}
    - {layers: 1..2, delay: 50 us}
    - {group: pp, operation: send, layers: 3, delay: 0 s}
  slow_devices:
    - {npus: [15, 3, 8..11, 9], compute_time_factor: 1.25}
  degraded_links:
    - {dimension: 1, bandwidth_factor: 0.5}
    - {npus: 12..15, bandwidth_factor: 0.25}
)", "what-if.yaml");
        QVERIFY2(loaded.ok(), loaded.diagnostics.empty() ? "" : loaded.diagnostics.front().to_string().c_str());
        const WhatIfSpec& what_if = loaded.scenario->value().what_if;
        QCOMPARE(what_if.collective_delays.size(), std::size_t{3});
        QVERIFY(what_if.collective_delays[0].group == ParallelAxis::dp);
        QVERIFY(what_if.collective_delays[0].operation == CommOperation::all_reduce);
        QCOMPARE(what_if.collective_delays[0].delay_s, 3e-3);
        QVERIFY(!what_if.collective_delays[1].group && !what_if.collective_delays[1].operation);
        QVERIFY((what_if.collective_delays[1].layers == LayerRange{1, 2}));
        QVERIFY((what_if.collective_delays[2].layers == LayerRange{3, 3}));
        // Listed in any order, ranges counted out, each NPU once, in increasing order.
        QVERIFY((what_if.slow_devices[0].npus == std::vector<std::int64_t>{3, 8, 9, 10, 11, 15}));
        QVERIFY(!what_if.degraded_links[1].dimension);
        QVERIFY((what_if.degraded_links[1].npus == std::vector<std::int64_t>{12, 13, 14, 15}));

        const std::string written = write_scenario_yaml(loaded.scenario->value());
        QVERIFY2(written.find("npus: [3, 8..11, 15]") != std::string::npos, written.c_str());
        const LoadResult again = load_scenario_text(written, "again.yaml");
        QVERIFY(again.ok());
        QVERIFY(*again.scenario == *loaded.scenario);
    }

    void noWhatIfChangesNothing() {
        // An empty section writes nothing and simulates as the scenario without it.
        const ValidatedScenario scenario = load("pipeline.yaml");
        QVERIFY(write_scenario_yaml(scenario.value()).find("what_if") == std::string::npos);
        QCOMPARE(run(scenario).report.iteration_time_s, 11 * ms);
    }

    void pipelineSendDelayEventByEvent_data() {
        QTest::addColumn<double>("delay_ms");
        QTest::newRow("0.5 ms, before the knee") << 0.5;
        QTest::newRow("2 ms, at the knee") << 2.0;
    }

    void pipelineSendDelayEventByEvent() {
        QFETCH(double, delay_ms);
        const double d = delay_ms;
        CollectiveDelay delay = delay_on(ParallelAxis::pp, d * ms);
        delay.operation = CommOperation::send;
        const SimulatedGraph simulated = run(with(load("pipeline.yaml"), WhatIfSpec{{delay}, {}, {}}));
        using enum TaskKind;
        const Stream compute = Stream::compute;
        const Stream features = Stream::feature_comm;
        std::vector<Event> stage0{{forward, compute, 0, 1},
                                        {forward, compute, 1, 2},
                                        {injected_delay, features, 1, 1 + d},
                                        {pp_comm, features, 1 + d, 2 + d},
                                        {injected_delay, features, 2 + d, 2 + 2 * d},
                                        {pp_comm, features, 2 + 2 * d, 3 + 2 * d},
                                        {backward, compute, 6 + 2 * d, 8 + 2 * d},
                                        {backward, compute, 9 + 2 * d, 11 + 2 * d}};
        std::vector<Event> stage1{{forward, compute, 2 + d, 3 + d},
                                        {backward, compute, 3 + d, 5 + d},
                                        {forward, compute, 5 + d, 6 + d},
                                        {injected_delay, features, 5 + d, 5 + 2 * d},
                                        {pp_comm, features, 5 + 2 * d, 6 + 2 * d},
                                        {backward, compute, 6 + d, 8 + d},
                                        {injected_delay, features, 8 + d, 8 + 2 * d},
                                        {pp_comm, features, 8 + 2 * d, 9 + 2 * d}};
        const auto actual0 = events_of(simulated, 0);
        const auto actual1 = events_of(simulated, 1);
        sort_by_start(stage0);
        sort_by_start(stage1);
        QVERIFY2(same(actual0, stage0), qPrintable(describe(actual0)));
        QVERIFY2(same(actual1, stage1), qPrintable(describe(actual1)));
        QVERIFY(std::abs(simulated.report.iteration_time_s - (11 + 2 * d) * ms) <= kExact);
        // The delay is part of the send's time: exposed, it is charged to pp. Stage 1 computes 6 ms of its 11 + 2d
        // and waits 2 + d for stage 0's first send; its sends run beside its computation except b1 ([8+d, 9+2d]).
        const TimeBreakdown& stage1_time = simulated.report.per_device[1].breakdown;
        QVERIFY(std::abs(stage1_time.compute_s - 6 * ms) <= kExact);
        QVERIFY(std::abs(stage1_time.exposed_comm_s[static_cast<std::size_t>(CommGroup::pp)] - (1 + d) * ms) <=
                kExact);
    }

    void pipelineDelayPastTheKnee() {
        // d = 3 ms: 9 + 3d = 18 ms (the working at the top).
        const SimulatedGraph simulated =
            run(with(load("pipeline.yaml"), WhatIfSpec{{delay_on(ParallelAxis::pp, 3 * ms)}, {}, {}}));
        QVERIFY(std::abs(simulated.report.iteration_time_s - 18 * ms) <= kExact);
    }

    void delayHoldsNeitherComputeNorLinks() {
        // With an overlap slowdown of 1 a computation beside a transfer takes twice as long, but not beside a delay:
        // stage 0's F1 runs [1, 2] beside the 1 ms delay before send f0 (which then runs [2, 3], after F1).
        Scenario scenario = load("pipeline.yaml").value();
        scenario.simulation.overlap_slowdown = 1.0;
        scenario.what_if.collective_delays = {delay_on(ParallelAxis::pp, 1 * ms)};
        const SimulatedGraph simulated = run(*validate(scenario).scenario);
        const auto events = events_of(simulated, 0);
        QVERIFY2(events.size() > 3, qPrintable(describe(events)));
        QVERIFY2(same({events[1], events[3]}, {{TaskKind::forward, Stream::compute, 1, 2},
                                                {TaskKind::pp_comm, Stream::feature_comm, 2, 3}}),
                 qPrintable(describe(events)));
    }

    void everyMemberMeetsTheDelay() {
        // Every device simulated: the delays are collectives of their own; the iteration is the representative's.
        const ValidatedScenario scenario =
            with(load("bert-dp.yaml"), WhatIfSpec{{delay_on(ParallelAxis::dp, 1 * ms)}, {}, {}});
        const SimulatedGraph every = run(scenario, true);
        const SimulatedGraph one = run(scenario, false);
        QCOMPARE(every.graph.devices.size(), std::size_t{2});
        for (const Task& task : every.graph.tasks) {
            if (task.kind == TaskKind::injected_delay) QVERIFY(task.collective >= 0);
        }
        QVERIFY(std::abs(every.report.iteration_time_s - one.report.iteration_time_s) <= kExact);
    }

    void dataParallelKneeFromTheOverlapWindow() {
        const ValidatedScenario scenario = load("bert-dp.yaml");
        // The all-reduce of a layer's gradients takes A = 0.5 ms (the working at the top); layer 3's bucket also
        // holds the final LayerNorm's 2 × 1024 parameters, 4 096 B more: ε = 4 096 B / 50.384896 GB/s ≈ 81 ns.
        const double epsilon_ms = 4096.0 / 50.384896e9 / ms;
        const SimulatedGraph plain = run(scenario);
        const auto all_reduces = communication_times_ms(plain.graph, TaskKind::dp_comm, 0);
        QCOMPARE(all_reduces.size(), std::size_t{5});  // 4 layers, then the embeddings
        QVERIFY(std::abs(all_reduces[0] - (0.5 + epsilon_ms)) <= 1e-12);
        for (std::size_t i = 1; i < 4; ++i) QVERIFY(std::abs(all_reduces[i] - 0.5) <= 1e-12);
        const double t0_ms = plain.report.iteration_time_s / ms;
        const double e_ms = t0_ms - 12.5;
        QVERIFY(std::abs(e_ms - all_reduces[4]) <= 1e-9);

        std::vector<double> delays_s;
        for (int k = 1; k <= 12; ++k) delays_s.push_back(0.25 * k * ms);  // 0.25 … 3 ms
        SimulateOptions options;
        const auto sweep = sweep_delay(scenario, delay_on(ParallelAxis::dp, 0.0), delays_s, options);
        QVERIFY2(sweep.has_value(), sweep ? "" : sweep.error().message.c_str());
        QCOMPARE(sweep->points.size(), std::size_t{13});
        QCOMPARE(sweep->delayed_calls, std::int64_t{5});
        for (const DelaySweepPoint& point : sweep->points) {
            const double d = point.delay_s / ms;
            // Hidden: T0 + 2d. Queued from layer 3's all-reduce on: 6 + 4 × (d + 0.5) + ε + d + e = T0 − 4.5 + ε + 5d.
            const double expected = std::max(t0_ms + 2 * d, t0_ms - 4.5 + epsilon_ms + 5 * d);
            QVERIFY2(std::abs(point.iteration_time_s / ms - expected) <= 1e-9,
                     qPrintable(QStringLiteral("d = %1 ms: %2 ms, not %3").arg(d).arg(point.iteration_time_s / ms)
                                    .arg(expected)));
        }
        // Below the knee only layer 0's and the embeddings' all-reduces add their delay; the overlap window
        // B − A = 2 − 0.5 = 1.5 ms hides the rest: the knee (exactly 1.5 ms − ε/3; at 1.5 ms the iteration is ε
        // past the line, far within 1%). Past it all 5 are on the critical path.
        QVERIFY(std::abs(sweep->initial_slope - 2.0) <= 1e-6);
        QCOMPARE(sweep->hidden_delay_s, 1.5 * ms);
        QVERIFY(!sweep->hidden_beyond_range);
        QVERIFY(std::abs(sweep->slope - 5.0) <= 1e-6);
    }

    void sweepInsideTheWindowHidesEveryDelay() {
        const std::vector<double> delays_s{0.5 * ms, 1 * ms};
        const auto sweep = sweep_delay(load("bert-dp.yaml"), delay_on(ParallelAxis::dp, 0.0), delays_s, {});
        QVERIFY(sweep.has_value());
        QVERIFY(sweep->hidden_beyond_range);
        QCOMPARE(sweep->hidden_delay_s, 1 * ms);
    }

    void sweepPastTheKneeHidesNothing() {
        // Both delays past the 1.5 ms window: the line from the probe's slope of 2 misses them by 3 × (d − 1.5 ms).
        const std::vector<double> delays_s{2 * ms, 3 * ms};
        const auto sweep = sweep_delay(load("bert-dp.yaml"), delay_on(ParallelAxis::dp, 0.0), delays_s, {});
        QVERIFY(sweep.has_value());
        QVERIFY(!sweep->hidden_beyond_range);
        QCOMPARE(sweep->hidden_delay_s, 0.0);
        QVERIFY(std::abs(sweep->initial_slope - 2.0) <= 1e-6);
    }

    void sweepRefusesWhatChangesNothing() {
        const ValidatedScenario scenario = load("bert-dp.yaml");
        const auto tp = sweep_delay(scenario, delay_on(ParallelAxis::tp, 0.0), {1 * ms}, {});
        QVERIFY(!tp.has_value());
        QVERIFY2(tp.error().message.starts_with("the delay matches no communication of this run"),
                 tp.error().message.c_str());
        const auto zero = sweep_delay(scenario, delay_on(ParallelAxis::dp, 0.0), {0.0}, {});
        QVERIFY(!zero.has_value());
        QCOMPARE(QString::fromStdString(zero.error().message), QStringLiteral("no delay above 0 to sweep"));
    }

    void sweepOverTheScenariosOwnDelayCountsItsCalls() {
        // bert-dp.yaml with its own 1 ms delay on every all-reduce: the swept dp delay adds to the same 5 calls (4
        // layers' buckets and the embeddings'), one delay task each, and still counts 5. T(0) is the run with the
        // file's rule: 1 ms lies inside the 1.5 ms window, so only layer 0's and the embeddings' calls add it,
        // T0 + 2 × 1 ms.
        WhatIfSpec own;
        own.collective_delays.push_back(delay_on(std::nullopt, 1 * ms));
        const ValidatedScenario scenario = with(load("bert-dp.yaml"), own);
        const double plain_s = run(load("bert-dp.yaml")).report.iteration_time_s;
        const auto sweep = sweep_delay(scenario, delay_on(ParallelAxis::dp, 0.0), {0.25 * ms}, {});
        QVERIFY(sweep.has_value());
        QCOMPARE(sweep->delayed_calls, std::int64_t{5});
        QVERIFY(std::abs(sweep->points.front().iteration_time_s - (plain_s + 2 * ms)) <= kExact);
    }

    void sweepReportsItsProgressAsAWhole() {
        // Two delays, the run at 0 and the probe: four runs, each reporting compile, engine and analysis from 0 to 1,
        // heard as one engine phase rising from 0 to 1 (run k's analysis ends at (k + 1) / 4).
        struct Recorder final : ProgressSink {
            std::vector<double> fractions;
            bool only_engine = true;
            void progress(SimulationPhase phase, double fraction) override {
                only_engine = only_engine && phase == SimulationPhase::engine;
                fractions.push_back(fraction);
            }
            [[nodiscard]] bool cancelled() const override { return false; }
        } recorder;
        SimulateOptions options;
        options.progress = &recorder;
        const std::vector<double> delays_s{0.5 * ms, 1 * ms};
        QVERIFY(sweep_delay(load("bert-dp.yaml"), delay_on(ParallelAxis::dp, 0.0), delays_s, options).has_value());
        QVERIFY(recorder.only_engine);
        QVERIFY(!recorder.fractions.empty());
        QVERIFY(std::is_sorted(recorder.fractions.begin(), recorder.fractions.end()));
        QVERIFY(recorder.fractions.front() >= 0.0);
        QCOMPARE(recorder.fractions.back(), 1.0);
        QVERIFY(std::find(recorder.fractions.begin(), recorder.fractions.end(), 0.5) != recorder.fractions.end());
    }

    void cancelledSweepStops() {
        struct Cancelled final : ProgressSink {
            int calls = 0;
            void progress(SimulationPhase, double) override { ++calls; }
            [[nodiscard]] bool cancelled() const override { return true; }
        } cancelled;
        SimulateOptions options;
        options.progress = &cancelled;
        const auto sweep = sweep_delay(load("bert-dp.yaml"), delay_on(ParallelAxis::dp, 0.0), {1 * ms}, options);
        QVERIFY(!sweep.has_value());
        QCOMPARE(sweep.error().kind, SimulationErrorKind::cancelled);
        QCOMPARE(cancelled.calls, 1);  // the first report of the first run stops it
    }

    void delaysParse_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");  // the delays in µs, or the error
        QTest::newRow("range") << "0..2ms+0.5ms" << "0 500 1000 1500 2000";
        QTest::newRow("list") << "1ms, 20us" << "1000 20";
        QTest::newRow("doubling") << "1..8us x2" << "1 2 4 8";
        QTest::newRow("not a time") << "1 GB" << "error";
        QTest::newRow("negative") << "-1ms" << "'-1ms' is not a delay from 0 s to 1 h";
        QTest::newRow("over an hour") << "3601s" << "'3601s' is not a delay from 0 s to 1 h";
        QTest::newRow("too many") << "0..1001us+1us" << "1002 delays; at most 1000";
    }

    void delaysParse() {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const auto delays_s = parse_delays(text.toStdString());
        if (!delays_s) {
            // "error": any reason (the unit parser's own words).
            if (expected != QLatin1String("error")) QCOMPARE(QString::fromStdString(delays_s.error()), expected);
            return;
        }
        QStringList us;
        for (const double delay_s : *delays_s) us << QString::number(std::round(delay_s * 1e6));
        QCOMPARE(us.join(QLatin1Char(' ')), expected);
    }

    void ruleWords_data() {
        QTest::addColumn<CollectiveDelay>("rule");
        QTest::addColumn<QString>("words");
        CollectiveDelay every;
        QTest::newRow("everything") << every << "every communication";
        CollectiveDelay sends;
        sends.operation = CommOperation::send;
        QTest::newRow("sends") << sends << "every send";
        CollectiveDelay dp = delay_on(ParallelAxis::dp, 0.0);
        dp.operation = CommOperation::all_reduce;
        dp.layers = LayerRange{0, 3};
        QTest::newRow("dp all-reduce in layers") << dp << "every dp all-reduce in layers 0..3";
        dp.layers = LayerRange{5, 5};
        QTest::newRow("one layer") << dp << "every dp all-reduce in layer 5";
    }

    void ruleWords() {
        QFETCH(CollectiveDelay, rule);
        QFETCH(QString, words);
        QCOMPARE(QString::fromStdString(delay_rule_words(rule)), words);
    }

    void ruleThatMatchesNothingIsWarned() {
        CollectiveDelay on_layers = delay_on(ParallelAxis::dp, 1 * ms);
        on_layers.layers = LayerRange{0, 3};  // gradient buckets belong to no layer
        const SimulatedGraph simulated =
            run(with(load("bert-dp.yaml"), WhatIfSpec{{delay_on(ParallelAxis::dp, 1 * ms), on_layers}, {}, {}}));
        QCOMPARE(simulated.report.warnings.size(), std::size_t{1});
        QCOMPARE(QString::fromStdString(warning_text(simulated.report.warnings.front())),
                 QStringLiteral("what_if.collective_delays[1] delays nothing: no communication of this run has its "
                                "group, operation and layers"));
    }

    void stragglerSlowsItsPipeline() {
        // Stage 0 at half speed: F 2 ms, B 4 ms. Stage 0 F0 [0, 2], f0 [2, 3], F1 [2, 4], f1 [4, 5]; stage 1 F0
        // [3, 4], B0 [4, 6], b0 [6, 7], F1 [6, 7], B1 [7, 9], b1 [9, 10]; stage 0 B0 [7, 11], B1 [11, 15]: 15 ms
        // instead of 11, and stage 1 ends its work at 10 instead of 9.
        const SimulatedGraph simulated =
            run(with(load("pipeline.yaml"), WhatIfSpec{{}, {SlowDevices{{0}, 2.0, {}}}, {}}));
        QVERIFY(std::abs(simulated.report.iteration_time_s - 15 * ms) <= kExact);
        const auto stage1 = events_of(simulated, 1);
        QVERIFY2(!stage1.empty() && std::abs(stage1.back().end_ms - 10) <= 1e-9, qPrintable(describe(stage1)));
    }

    void stragglerSlowsItsDataParallelGroup_data() {
        QTest::addColumn<bool>("all_devices");
        QTest::newRow("every device") << true;
        QTest::newRow("one device per stage: the slowest") << false;
    }

    void stragglerSlowsItsDataParallelGroup() {
        // NPU 1 at 1.5× the time: forward 6 ms, each layer's backward 3 ms, so its buckets are ready at 9, 12, 15
        // and 18 ms, and each all-reduce, which both members meet, runs [9, 9.5] … [18, 18.5]; the embeddings'
        // follow: 18.5 + e = T0 + 6 ms — 1.5 × 12 ms of computation − 12. NPU 0 waits for it at every bucket.
        QFETCH(bool, all_devices);
        const ValidatedScenario base = load("bert-dp.yaml");
        const double t0_s = run(base).report.iteration_time_s;
        const SimulatedGraph simulated = run(with(base, WhatIfSpec{{}, {SlowDevices{{1}, 1.5, {}}}, {}}), all_devices);
        QVERIFY(std::abs(simulated.report.iteration_time_s - (t0_s + 6 * ms)) <= kExact);
        if (all_devices) {
            const auto npu0 = events_of(simulated, 0);
            std::vector<double> all_reduce_starts;
            for (const Event& event : npu0) {
                if (event.kind == TaskKind::dp_comm) all_reduce_starts.push_back(event.start_ms);
            }
            const std::vector<double> expected{9, 12, 15, 18, 18.5};
            QVERIFY2(all_reduce_starts.size() == expected.size() &&
                         std::equal(expected.begin(), expected.end(), all_reduce_starts.begin(),
                                    [](double a, double b) { return std::abs(a - b) <= 1e-9; }),
                     qPrintable(describe(npu0)));
        } else {
            QCOMPARE(simulated.graph.devices.front().npu, std::int64_t{1});  // the stage is simulated as NPU 1
        }
    }

    void degradedLinksSlowTheirGroups_data() {
        QTest::addColumn<std::optional<int>>("dimension");
        QTest::addColumn<std::vector<std::int64_t>>("npus");
        QTest::addColumn<double>("factor");
        QTest::addColumn<double>("all_reduce_ms");
        // A = 0.5 ms at full bandwidth; the ring of 2 runs at its slower member's links.
        QTest::newRow("the dimension at half") << std::optional<int>{0} << std::vector<std::int64_t>{} << 0.5 << 1.0;
        QTest::newRow("NPU 1 at a quarter") << std::optional<int>{} << std::vector<std::int64_t>{1} << 0.25 << 2.0;
        QTest::newRow("faster links") << std::optional<int>{0} << std::vector<std::int64_t>{} << 2.0 << 0.25;
    }

    void degradedLinksSlowTheirGroups() {
        QFETCH(std::optional<int>, dimension);
        QFETCH(std::vector<std::int64_t>, npus);
        QFETCH(double, factor);
        QFETCH(double, all_reduce_ms);
        const SimulatedGraph simulated =
            run(with(load("bert-dp.yaml"), WhatIfSpec{{}, {}, {DegradedLinks{dimension, npus, factor, {}}}}), true);
        for (const int device : {0, 1}) {
            // Layer 2's all-reduce (layer 3's also holds the final LayerNorm).
            const auto times = communication_times_ms(simulated.graph, TaskKind::dp_comm, device);
            QVERIFY(times.size() == 5 && std::abs(times[1] - all_reduce_ms) <= 1e-12);
        }
    }

    void degradedSenderSlowsItsPipelineSends() {
        // NPU 1 (stage 1) at half bandwidth: its sends and those to it take 2 ms. 1F1B as at the top with s = 2:
        // stage 0 F0 [0, 1], f0 [1, 3], F1 [1, 2], f1 [3, 5]; stage 1 F0 [3, 4], B0 [4, 6], b0 [6, 8], F1 [6, 7],
        // B1 [7, 9], b1 [9, 11]; stage 0 B0 [8, 10], B1 [11, 13]: 13 ms.
        const SimulatedGraph simulated =
            run(with(load("pipeline.yaml"), WhatIfSpec{{}, {}, {DegradedLinks{{}, {1}, 0.5, {}}}}));
        QVERIFY(std::abs(simulated.report.iteration_time_s - 13 * ms) <= kExact);
    }
};

QTEST_GUILESS_MAIN(TestWhatIf)
#include "test_what_if.moc"
