// The state of a run at an instant, compared with the state a period earlier (engine/run_states.h): on a run small
// enough to work out by hand, the states that recur and, one at a time, each part of a state that can differ.

#include "engine/run_states.h"
#include "engine/steady_period.h"

#include <QTest>

#include <algorithm>
#include <functional>

using namespace parasight;

Q_DECLARE_METATYPE(parasight::StateDifference)

namespace {

constexpr int micro_batches = 8;
constexpr double activation_bytes = 1e9;

// One device, 1F1B-like with two micro-batches in flight: its compute stream runs f0 f1 b0 f2 b1 … f7 b6 b7
// (forward 1 s, backward 2 s, backward j after forward j); each forward sends its activations on the feature stream
// (2.5 s, after the forward). Nothing slows anything (γ = 0, one transfer at a time). Worked out:
//   compute: f0 [0, 1) f1 [1, 2) b0 [2, 4), then f_j [3j − 2, 3j − 1) and b_(j−1) [3j − 1, 3j + 1) for j ≥ 2;
//   sends: s0 [1, 3.5) s1 [3.5, 6) s2 [6, 8.5) s3 [8.5, 11), then s_j [3j − 1, 3j + 1.5) for j ≥ 4
//   (each waits for its forward, the first ones for the stream too).
// So from micro-batch 4 on every task comes 3 s after its twin one micro-batch earlier.
struct Toy {
    ExecutionGraph graph;
    std::vector<TaskId> forward, backward, send;  // by micro-batch
};

Toy toy(const std::function<void(Toy&)>& change_graph) {
    Toy toy;
    toy.graph.devices.resize(1);
    const std::int32_t label = toy.graph.label("op");
    auto add = [&](TaskKind kind, Stream stream, int micro_batch, double work_s) {
        Task task;
        task.kind = kind;
        task.stream = stream;
        task.micro_batch = micro_batch;
        task.label = label;
        task.work_s = work_s;
        if (kind == TaskKind::pp_comm) task.dimension_mask = 1;
        if (kind == TaskKind::forward) task.allocate_bytes = activation_bytes;
        if (kind == TaskKind::backward) task.release_bytes = activation_bytes;
        return toy.graph.add(task);
    };
    toy.forward.assign(micro_batches, -1);
    toy.backward.assign(micro_batches, -1);
    toy.send.assign(micro_batches, -1);
    auto forward = [&](int j) {
        toy.forward[j] = add(TaskKind::forward, Stream::compute, j, 1.0);
        toy.send[j] = add(TaskKind::pp_comm, Stream::feature_comm, j, 2.5);
    };
    auto backward = [&](int j) { toy.backward[j] = add(TaskKind::backward, Stream::compute, j, 2.0); };
    forward(0);
    for (int j = 1; j < micro_batches; ++j) {
        forward(j);
        backward(j - 1);
    }
    backward(micro_batches - 1);
    for (int j = 0; j < micro_batches; ++j) {
        toy.graph.depend(toy.forward[j], toy.backward[j]);
        toy.graph.depend(toy.forward[j], toy.send[j]);
    }
    if (change_graph) change_graph(toy);
    toy.graph.finish();
    return toy;
}

EngineRun run_of(const ExecutionGraph& graph) {
    EngineOptions options;
    options.overlap_slowdown = 0.0;
    options.record_memory_timeline = true;
    options.record_start_order = true;
    return run_engine(graph, options);
}

// The start order again, after timings were changed by hand.
void reorder(EngineRun& run) {
    std::stable_sort(run.start_order.begin(), run.start_order.end(), [&](TaskId a, TaskId b) {
        return run.timings[static_cast<std::size_t>(a)].start_s < run.timings[static_cast<std::size_t>(b)].start_s;
    });
}

void set_timing(EngineRun& run, TaskId task, double start_s, double end_s) {
    run.timings[static_cast<std::size_t>(task)] = TaskTiming{start_s, end_s};
    reorder(run);
}

}  // namespace

class TestRunStates : public QObject {
    Q_OBJECT

private slots:
    void theToyRunsAsWorkedOut();
    void findsThePeriod();
    void differences_data();
    void differences();
};

void TestRunStates::theToyRunsAsWorkedOut() {
    const Toy t = toy(nullptr);
    const EngineRun run = run_of(t.graph);
    QCOMPARE(run.end, EngineEnd::finished);
    auto timing = [&](TaskId task) { return run.timings[static_cast<std::size_t>(task)]; };
    for (int j = 2; j < micro_batches; ++j) {
        QCOMPARE(timing(t.forward[j]).start_s, 3.0 * j - 2.0);
        QCOMPARE(timing(t.backward[j - 1]).start_s, 3.0 * j - 1.0);
        QCOMPARE(timing(t.backward[j - 1]).end_s, 3.0 * j + 1.0);
    }
    QCOMPARE(timing(t.send[3]).start_s, 8.5);
    for (int j = 4; j < micro_batches; ++j) {
        QCOMPARE(timing(t.send[j]).start_s, 3.0 * j - 1.0);
        QCOMPARE(timing(t.send[j]).end_s, 3.0 * j + 1.5);
    }
    QCOMPARE(run.makespan_s, 24.0);  // b7 [22, 24)
}

void TestRunStates::findsThePeriod() {
    // The latest boundary whose state recurs: micro-batch 7's forward (19 s), a period of 3 s, 1 micro-batch.
    const Toy t = toy(nullptr);
    const EngineRun run = run_of(t.graph);
    const auto period = find_steady_period(t.graph, run, micro_batches, 1, 10);
    QVERIFY(period);
    QCOMPARE(period->micro_batches, 1);
    QCOMPARE(period->boundary_micro_batch, 7);
    QCOMPARE(period->period_s, 3.0);
    QVERIFY(period->boundary_s < 19.0 && period->boundary_s > 19.0 - 1e-9);
}

// The instants just before micro-batch 5's forward (13 s) and micro-batch 6's (16 s). At 13 s: the compute stream
// waits for f5 and still runs b3 [11, 13); the feature stream waits for s5 and runs s4 [11, 13.5); f4 is done and
// b4 still waits for it; 2 GB of activations (f0…f4 less b0…b2). At 16 s, the same a micro-batch on: f6, b4 [14, 16),
// s6, s5 [14, 16.5), f5 done, b5 waiting, 2 GB.
void TestRunStates::differences_data() {
    QTest::addColumn<int>("change");
    QTest::addColumn<StateDifference>("expected");
    QTest::newRow("none: the state recurs") << 0 << StateDifference::none;
    QTest::newRow("s6 started before 16 s: the feature stream waits for s7") << 1 << StateDifference::stream_head;
    QTest::newRow("s5 started 3.2 s after s4") << 2 << StateDifference::running_task;
    QTest::newRow("f5 ran on into b4's time: two tasks beside the running ones, not one") << 3
                                                                                          << StateDifference::what_ran_beside;
    QTest::newRow("half a GB more at 16 s") << 4 << StateDifference::memory;
    QTest::newRow("b5 does more work: b4, started between the instants, has no twin") << 5
                                                                                      << StateDifference::started_task;
    QTest::newRow("b6 waits for f1 too: f1's successors a micro-batch on are not f2's") << 6
                                                                                         << StateDifference::dependencies_left;
}

void TestRunStates::differences() {
    QFETCH(int, change);
    QFETCH(StateDifference, expected);
    const Toy t = toy([&](Toy& graph) {
        if (change == 5) graph.graph.tasks[static_cast<std::size_t>(graph.backward[5])].work_s = 2.5;
        if (change == 6) graph.graph.depend(graph.forward[1], graph.backward[6]);
    });
    EngineRun run = run_of(t.graph);
    QCOMPARE(run.end, EngineEnd::finished);
    if (change == 1) set_timing(run, t.send[6], 15.5, 15.8);
    if (change == 2) set_timing(run, t.send[5], 14.2, 16.5);
    if (change == 3) set_timing(run, t.forward[5], 13.0, 14.5);
    if (change == 4) {
        auto& timeline = run.memory[0].timeline;
        const auto at = std::lower_bound(timeline.begin(), timeline.end(), 15.9,
                                         [](const MemorySample& sample, double time) { return sample.time_s < time; });
        QVERIFY(at != timeline.begin());
        timeline.insert(at, MemorySample{15.9, std::prev(at)->bytes + 0.5e9});
    }
    const auto twins = TaskTwins::make(t.graph, micro_batches, 1);
    QVERIFY(twins);
    const RunStates states(t.graph, run);
    const double before_s = 1e-9;  // the instants fall just before the forwards' starts
    QCOMPARE(states.difference(13.0 - before_s, 16.0 - before_s, *twins, 1e-12), expected);
}

QTEST_GUILESS_MAIN(TestRunStates)
#include "test_run_states.moc"
