// How a Timeline numbers the events of a repeated period (analysis/repeated_events.h), on a run small enough to work
// out by hand: data parallelism alone over 8 GPUs, 24 micro-batches of forward and backward on one simulated device,
// every micro-batch the same tasks one period apart. (The Timeline made this way is checked against the whole run's
// on every bundled scenario in test_steady_state.)

#include "analysis/repeated_events.h"
#include "scenario_file/scenario_loader.h"
#include "simulation/simulate.h"

#include <QTest>

#include <algorithm>
#include <optional>

using namespace parasight;

namespace {

// 192 sequences in micro-batches of 1 over dp 8: 24 micro-batches a device.
constexpr const char* dp_only_yaml =
    "schema: 1\nname: dp only\n"
    "model: {kind: transformer, layers: 8, hidden: 512, heads: 8, seq_len: 512, vocab: 4096}\n"
    "training: {global_batch: 192, micro_batch: 1, dtype: bf16}\n"
    "cluster:\n  device: a100-80gb\n"
    "  topology: [{kind: switch, size: 4, bandwidth: 300 GB/s, latency: 1 us}, "
    "{kind: switch, size: 2, bandwidth: 25 GB/s, latency: 5 us}]\n"
    "parallelism: {dp: 8}\nsimulation: {steady_state: false}\n";

constexpr int micro_batches = 24;

struct Run {
    SimulatedGraph simulated;
    std::vector<TaskId> first_of;  // by micro-batch: its first task (the lowest id)
    std::size_t per_micro_batch = 0;
};

std::optional<Run> whole_run() {
    const LoadResult loaded = load_scenario_text(dp_only_yaml, "dp.yaml");
    if (!loaded.ok()) return std::nullopt;
    auto simulated = simulate_graph(*loaded.scenario, SimulateOptions{});
    if (!simulated) return std::nullopt;
    Run run{std::move(simulated).value(), std::vector<TaskId>(micro_batches, -1), 0};
    for (std::size_t t = 0; t < run.simulated.graph.tasks.size(); ++t) {
        const int micro_batch = run.simulated.graph.tasks[t].micro_batch;
        if (micro_batch < 0) continue;
        if (micro_batch == 0) ++run.per_micro_batch;
        TaskId& first = run.first_of[static_cast<std::size_t>(micro_batch)];
        if (first < 0) first = static_cast<TaskId>(t);
    }
    return run;
}

// The period of one micro-batch whose boundary is micro-batch `at`'s first task, `micro_batches_long` long.
SteadyPeriod period_at(const Run& run, int at, int micro_batches_long) {
    const auto start = [&](int micro_batch) {
        return run.simulated.run.timings[static_cast<std::size_t>(run.first_of[static_cast<std::size_t>(micro_batch)])]
            .start_s;
    };
    SteadyPeriod period;
    period.micro_batches = 1;
    period.period_s = start(at) - start(at - micro_batches_long);
    period.boundary_s = start(at) - 1e-12;
    period.boundary_micro_batch = at;
    return period;
}

}  // namespace

class TestRepeatedEvents : public QObject {
    Q_OBJECT

private slots:
    void numbersTheRepetitionsAfterTheShortRun();
    void refusesAPeriodHoldingATaskTwice();
};

void TestRepeatedEvents::numbersTheRepetitionsAfterTheShortRun() {
    const auto run = whole_run();
    QVERIFY(run);
    QVERIFY(run->per_micro_batch > 0);
    const SteadyPeriod period = period_at(*run, 12, 1);
    QVERIFY(period.period_s > 0.0);
    // Taken as a short run of 24 micro-batches whose period repeats 5 more times: 24 + 5 micro-batches in all.
    const auto events = RepeatedEvents::make(run->simulated.graph, run->simulated.run, micro_batches, period, 5);
    QVERIFY(events);
    const std::size_t short_tasks = run->simulated.graph.tasks.size();
    // The window [T − Δ, T) holds micro-batch 11's tasks, one micro-batch's worth: S + 5·W events.
    QCOMPARE(events->event_count(), short_tasks + 5 * run->per_micro_batch);
    // A short-run task before the boundary is itself; one from the boundary on is 5 periods later.
    const TaskId before = run->first_of[11];
    const TaskId after = run->first_of[12];
    QCOMPARE(events->source(static_cast<std::uint32_t>(before)).repetition, std::int64_t{0});
    QCOMPARE(events->source(static_cast<std::uint32_t>(after)).repetition, std::int64_t{5});
    QCOMPARE(events->micro_batch(events->source(static_cast<std::uint32_t>(after)), 12), 17);
    // The first repeated event is the window's first task (micro-batch 11's first) one period on: micro-batch 12,
    // Δ later; the last is the window's last task 5 periods on.
    const RepeatedEvents::Source first = events->source(static_cast<std::uint32_t>(short_tasks));
    QCOMPARE(first.task, before);
    QCOMPARE(first.repetition, std::int64_t{1});
    QCOMPARE(events->micro_batch(first, 11), 12);
    QCOMPARE(events->shift_s(first), period.period_s);
    const RepeatedEvents::Source last = events->source(static_cast<std::uint32_t>(events->event_count() - 1));
    QCOMPARE(last.repetition, std::int64_t{5});
    QCOMPARE(run->simulated.graph.tasks[static_cast<std::size_t>(last.task)].micro_batch, 11);
}

void TestRepeatedEvents::refusesAPeriodHoldingATaskTwice() {
    const auto run = whole_run();
    QVERIFY(run);
    // Two micro-batches' time taken as a period of one: each task's place comes twice in the window, so the whole
    // run's events cannot be told apart by place and micro-batch.
    QVERIFY(!RepeatedEvents::make(run->simulated.graph, run->simulated.run, micro_batches, period_at(*run, 12, 2), 5));
    // No repetition, or graph and run that do not belong together.
    QVERIFY(!RepeatedEvents::make(run->simulated.graph, run->simulated.run, micro_batches, period_at(*run, 12, 1), 0));
    QVERIFY(!RepeatedEvents::make(run->simulated.graph, EngineRun{}, micro_batches, period_at(*run, 12, 1), 5));
    // A graph with more micro-batches than it is said to have.
    QVERIFY(!RepeatedEvents::make(run->simulated.graph, run->simulated.run, 20, period_at(*run, 12, 1), 5));
}

QTEST_APPLESS_MAIN(TestRepeatedEvents)
#include "test_repeated_events.moc"
