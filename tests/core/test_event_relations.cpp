// How an event relates to others (analysis/event_relations.h) and which parts of a transfer are exposed
// (analysis/event_exposure.h), worked out on tests/data/cli/small_pipeline.yaml with
// every device simulated: tp 2 · dp 2 · pp 2, NPU = tp + 2·dp + 4·pp, so NPU 0's TP partner is NPU 1, its DP
// partner NPU 2, and its pipeline successor NPU 4.

#include "analysis/event_exposure.h"
#include "analysis/event_relations.h"
#include "analysis/range_summary.h"
#include "scenario_file/scenario_loader.h"
#include "simulation/simulate.h"

#include <QtTest>

#include <set>

using namespace parasight;

namespace {

std::shared_ptr<const Timeline> small_pipeline() {
    const LoadResult loaded = load_scenario_file(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml");
    if (!loaded.ok()) return nullptr;
    SimulateOptions options;
    options.all_devices = true;
    const auto simulation = simulate(*loaded.scenario, options);
    return simulation ? simulation->timeline : nullptr;
}

// The n-th (from 0) event of `operation` for layer and micro-batch on NPU `npu`'s lane.
std::optional<EventId> nth(const Timeline& timeline, std::size_t npu, Stream stream, std::string_view operation,
                           int layer, int micro_batch, int n) {
    for (const EventId id : timeline.lane(npu, stream)) {
        const TimelineEvent event = timeline.event(id);
        if (event.operation == operation && event.layer == layer && event.micro_batch == micro_batch && n-- == 0) {
            return id;
        }
    }
    return std::nullopt;
}

}  // namespace

class TestEventRelations : public QObject {
    Q_OBJECT
private slots:
    void aCollectiveIsFoundOnItsPeer_data();
    void aCollectiveIsFoundOnItsPeer();
    void computationHasNoCollective();
    void theReceiverWaitedForTheSend();
    void exposedPartsAreWhereTheDeviceDoesNotCompute();
    void offloadedStatesMoveExposed();
    void aRangeIsSummedByKind();
    void theCriticalPathGoesBackToTheStart();
    void theCriticalPathGoesOnFromAnEvent();
};

void TestEventRelations::aCollectiveIsFoundOnItsPeer_data() {
    QTest::addColumn<int>("occurrence");
    // Megatron's forward all-reduces twice per layer (after attention, after the MLP): each is matched with the
    // same one on the partner, not the first of the two.
    QTest::newRow("after attention") << 0;
    QTest::newRow("after the MLP") << 1;
}

void TestEventRelations::aCollectiveIsFoundOnItsPeer() {
    QFETCH(int, occurrence);
    const auto timeline = small_pipeline();
    QVERIFY(timeline != nullptr);
    const auto own = nth(*timeline, 0, Stream::feature_comm, "tp all-reduce", 0, 0, occurrence);
    QVERIFY(own.has_value());
    const std::vector<EventId> members = same_collective(*timeline, *own);
    // Its group is NPUs 0 and 1: the one other member, on device 1, is the same step of the same all-reduce.
    QCOMPARE(members.size(), std::size_t{1});
    const TimelineEvent mine = timeline->event(*own);
    const TimelineEvent theirs = timeline->event(members.front());
    QCOMPARE(theirs.device, std::size_t{1});
    QCOMPARE(members.front(), nth(*timeline, 1, Stream::feature_comm, "tp all-reduce", 0, 0, occurrence).value());
    // A collective completes for all its members at once.
    QCOMPARE(theirs.end_s, mine.end_s);
}

void TestEventRelations::computationHasNoCollective() {
    const auto timeline = small_pipeline();
    QVERIFY(timeline != nullptr);
    const auto attention = nth(*timeline, 0, Stream::compute, "attention", 0, 0, 0);
    QVERIFY(attention.has_value());
    QVERIFY(same_collective(*timeline, *attention).empty());
}

void TestEventRelations::theReceiverWaitedForTheSend() {
    const auto timeline = small_pipeline();
    QVERIFY(timeline != nullptr);
    // NPU 0 (stage 0) sends micro-batch 0's activations to NPU 4 (stage 1).
    const auto send = nth(*timeline, 0, Stream::feature_comm, "pp send activations", -1, 0, 0);
    QVERIFY(send.has_value());
    const std::vector<EventId> receivers = waited_on_elsewhere(*timeline, *send);
    QVERIFY(!receivers.empty());
    for (const EventId receiver : receivers) {
        const TimelineEvent event = timeline->event(receiver);
        QCOMPARE(timeline->devices()[event.device].npu, std::int64_t{4});
        QCOMPARE(event.micro_batch, 0);
        // And from the receiver's side, the send is among what it waited for, ended no later than it started.
        const std::vector<Wait> waits = waits_of(*timeline, receiver);
        const auto found = std::find_if(waits.begin(), waits.end(), [&](const Wait& w) { return w.event == *send; });
        QVERIFY(found != waits.end());
        QVERIFY(found->ended_before_s >= 0.0);
        QVERIFY(!found->on_same_lane);
        // The last to end comes first: what it started after.
        QVERIFY(waits.front().ended_before_s <= found->ended_before_s);
    }
}

void TestEventRelations::exposedPartsAreWhereTheDeviceDoesNotCompute() {
    const auto timeline = small_pipeline();
    QVERIFY(timeline != nullptr);
    // Megatron's forward TP all-reduce blocks the layer: nothing computes on its device meanwhile, so all of it is
    // exposed — one part, start to end.
    const auto all_reduce = nth(*timeline, 0, Stream::feature_comm, "tp all-reduce", 0, 0, 0);
    QVERIFY(all_reduce.has_value());
    const TimelineEvent event = timeline->event(*all_reduce);
    const std::vector<TimeInterval> parts = exposed_parts(*timeline, *all_reduce);
    QCOMPARE(parts.size(), std::size_t{1});
    QCOMPARE(parts.front().start_s, event.start_s);
    QCOMPARE(parts.front().end_s, event.end_s);
    // Computation is never "exposed".
    QVERIFY(exposed_parts(*timeline, nth(*timeline, 0, Stream::compute, "attention", 0, 0, 0).value()).empty());
    // Every transfer of every device: its exposed parts lie inside it, in order, each where no compute event runs.
    for (std::size_t device = 0; device < timeline->devices().size(); ++device) {
        const auto compute = timeline->lane(device, Stream::compute);
        for (const Stream stream : {Stream::feature_comm, Stream::gradient_comm}) {
            for (const EventId id : timeline->lane(device, stream)) {
                const TimelineEvent transfer = timeline->event(id);
                double previous_end_s = transfer.start_s;
                double exposed_s = 0.0;
                for (const TimeInterval& part : exposed_parts(*timeline, id)) {
                    exposed_s += part.end_s - part.start_s;
                    QVERIFY(part.start_s >= previous_end_s && part.end_s > part.start_s);
                    QVERIFY(part.end_s <= transfer.end_s);
                    previous_end_s = part.end_s;
                    for (const EventId c : compute) {
                        const TimelineEvent busy = timeline->event(c);
                        QVERIFY(busy.end_s <= part.start_s || busy.start_s >= part.end_s);
                    }
                }
                // And nothing is missed: exposed plus computed-over time is the whole transfer.
                double computed_s = 0.0;
                for (const EventId c : compute) {
                    const TimelineEvent busy = timeline->event(c);
                    computed_s += std::max(0.0, std::min(busy.end_s, transfer.end_s) - std::max(busy.start_s, transfer.start_s));
                }
                const double duration_s = transfer.end_s - transfer.start_s;
                QVERIFY(std::abs(exposed_s + computed_s - duration_s) <= 1e-12 * std::max(1.0, duration_s));
            }
        }
    }
}

void TestEventRelations::offloadedStatesMoveExposed() {
    // tests/data/memory_system/offload-host.yaml: GPT-2 small's optimizer states in host memory, loaded once the
    // backward is done and stored after the step (docs/model.md §7). Nothing computes during either, so each is
    // exposed from start to end — remote memory, which the timeline hatches as it hatches exposed communication.
    const LoadResult loaded = load_scenario_file(PARASIGHT_TEST_DATA_DIR "/memory_system/offload-host.yaml");
    QVERIFY(loaded.ok());
    const auto simulation = simulate(*loaded.scenario, SimulateOptions{});
    QVERIFY(simulation.has_value());
    const Timeline& timeline = *simulation->timeline;
    for (const Stream stream : {Stream::memory_in, Stream::memory_out}) {
        const auto lane = timeline.lane(0, stream);
        QCOMPARE(lane.size(), std::size_t{1});
        const TimelineEvent move = timeline.event(lane.front());
        const std::vector<TimeInterval> parts = exposed_parts(timeline, lane.front());
        QCOMPARE(parts.size(), std::size_t{1});
        QCOMPARE(parts.front().start_s, move.start_s);
        QCOMPARE(parts.front().end_s, move.end_s);
    }
    // The optimizer step computes nothing and streams 28 B a parameter: all of it waits on device memory.
    const auto step = nth(timeline, 0, Stream::compute, "optimizer step", -1, -1, 0);
    QVERIFY(step.has_value());
    QCOMPARE(timeline.event(*step).memory_bound_share, 1.0);
}

void TestEventRelations::aRangeIsSummedByKind() {
    const auto timeline = small_pipeline();
    QVERIFY(timeline != nullptr);
    // Exactly NPU 0's first attention (layer 0, micro-batch 0). Stage 0's four devices (NPUs 0-3: two TP ranks of
    // two DP replicas) run it side by side; stage 1's four wait for their first input. Mean over the 8 devices:
    // forward = 4 x its duration / 8, nothing else.
    const TimelineEvent attention = timeline->event(nth(*timeline, 0, Stream::compute, "attention", 0, 0, 0).value());
    const double duration_s = attention.end_s - attention.start_s;
    const RangeSummary summary = summarize_range(*timeline, attention.start_s, attention.end_s);
    QCOMPARE(summary.mean_s_by_kind[static_cast<std::size_t>(TaskKind::forward)], duration_s / 2.0);
    for (std::size_t kind = 0; kind < task_kind_count; ++kind) {
        if (kind != static_cast<std::size_t>(TaskKind::forward)) QCOMPARE(summary.mean_s_by_kind[kind], 0.0);
    }
    QCOMPARE(summary.events, std::size_t{4});
    // The whole iteration: every event counted once, and a device is never busier on one stream than the range.
    const RangeSummary whole = summarize_range(*timeline, 0.0, timeline->iteration_time_s());
    QCOMPARE(whole.events, timeline->event_count());
    const double compute_s = whole.mean_s_by_kind[static_cast<std::size_t>(TaskKind::forward)] +
                             whole.mean_s_by_kind[static_cast<std::size_t>(TaskKind::backward)] +
                             whole.mean_s_by_kind[static_cast<std::size_t>(TaskKind::recompute)] +
                             whole.mean_s_by_kind[static_cast<std::size_t>(TaskKind::optimizer)];
    QVERIFY(compute_s > 0.0 && compute_s <= timeline->iteration_time_s());
    // The range given backwards is the same range.
    QCOMPARE(summarize_range(*timeline, attention.end_s, attention.start_s).events, std::size_t{4});
}

void TestEventRelations::theCriticalPathGoesBackToTheStart() {
    const auto timeline = small_pipeline();
    QVERIFY(timeline != nullptr);
    // Into NPU 0's optimizer step, the iteration's last work on stage 0: each step of the path is the last of what
    // the step before waited for, and it ends at an event that waited for nothing, at the iteration's start.
    const auto optimizer = nth(*timeline, 0, Stream::compute, "optimizer step", -1, -1, 0);
    QVERIFY(optimizer.has_value());
    const std::vector<EventId> path = critical_path_into(*timeline, *optimizer);
    QVERIFY(path.size() > 10);
    EventId after = *optimizer;
    std::set<std::int64_t> npus;
    for (const EventId step : path) {
        const std::vector<Wait> waits = waits_of(*timeline, after);
        QVERIFY(!waits.empty());
        QCOMPARE(step, waits.front().event);
        QVERIFY(timeline->event(step).end_s <= timeline->event(after).start_s + 1e-15);
        npus.insert(timeline->devices()[timeline->event(step).device].npu);
        after = step;
    }
    QVERIFY(waits_of(*timeline, path.back()).empty());
    QCOMPARE(timeline->event(path.back()).start_s, 0.0);
    // Stage 0's last backward waits for stage 1's gradients: the path crosses to stage 1 (NPUs 4-7).
    QVERIFY(std::any_of(npus.begin(), npus.end(), [](std::int64_t npu) { return npu >= 4; }));
}

void TestEventRelations::theCriticalPathGoesOnFromAnEvent() {
    const auto timeline = small_pipeline();
    QVERIFY(timeline != nullptr);
    // On from NPU 0's first computation (micro-batch 0's embedding), the iteration's first work: each step is an
    // event the step before held back (it ended last of what that event waited for) and starts when it ended.
    const std::optional<EventId> first = timeline->lane(0, Stream::compute).front();
    QCOMPARE(timeline->event(*first).start_s, 0.0);
    const std::vector<EventId> path = critical_path_onward(*timeline, *first);
    QVERIFY(path.size() > 10);
    EventId before = *first;
    std::set<std::int64_t> npus;
    for (const EventId step : path) {
        const std::vector<Wait> waits = waits_of(*timeline, step);
        QVERIFY(!waits.empty());
        const auto held = std::find_if(waits.begin(), waits.end(), [&](const Wait& w) { return w.event == before; });
        QVERIFY(held != waits.end());
        QCOMPARE(held->ended_before_s, waits.front().ended_before_s);
        QVERIFY(timeline->event(step).start_s >= timeline->event(before).end_s - 1e-15);
        npus.insert(timeline->devices()[timeline->event(step).device].npu);
        before = step;
    }
    // Micro-batch 0's activations go on to stage 1 (NPUs 4-7): so does the path.
    QVERIFY(std::any_of(npus.begin(), npus.end(), [](std::int64_t npu) { return npu >= 4; }));
    // Its last step held nothing back: nothing waited for it last.
    const std::vector<EventId> after_last = critical_path_onward(*timeline, path.back());
    QVERIFY(after_last.empty());
    // Into and onward are one path: back from where it ends, the critical path passes through the first event.
    const std::vector<EventId> back = critical_path_into(*timeline, path.back());
    QVERIFY(std::find(back.begin(), back.end(), *first) != back.end());
}

QTEST_APPLESS_MAIN(TestEventRelations)
#include "test_event_relations.moc"
