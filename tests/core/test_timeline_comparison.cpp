// Two simulated iterations event by event (analysis/timeline_comparison.h), on tests/data/cli/small_pipeline.yaml:
// a 4-layer transformer with tp 2, dp 2, pp 2 on two 4-NPU switches joined by a 25 GB/s switch, mapping [tp, dp, pp],
// so the two pipeline stages sit on different nodes and only the pipeline's sends cross between them.

#include "analysis/timeline_comparison.h"
#include "scenario_file/scenario_loader.h"
#include "simulation/simulate.h"

#include <QtTest>

#include <fstream>
#include <sstream>
#include <string>

using namespace parasight;

namespace {

std::string small_pipeline_text() {
    std::ifstream file(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml");
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

// The small pipeline with `from` replaced by `to` in its text, simulated on every device.
std::shared_ptr<const Timeline> simulated(const std::string& from = {}, const std::string& to = {}) {
    std::string text = small_pipeline_text();
    if (!from.empty()) {
        const std::size_t at = text.find(from);
        if (at == std::string::npos) return nullptr;
        text.replace(at, from.size(), to);
    }
    const LoadResult loaded = load_scenario_text(text, "small_pipeline.yaml");
    if (!loaded.scenario) return nullptr;
    SimulateOptions options;
    options.all_devices = true;
    options.timeline = TimelineDetail::events;
    const auto simulation = simulate(*loaded.scenario, options);
    return simulation ? simulation->timeline : nullptr;
}

}  // namespace

class TestTimelineComparison : public QObject {
    Q_OBJECT
private slots:
    void anIterationWithItselfMatchesEveryEvent();
    void aFasterLinkBetweenNodesShortensOnlyThePipelinesSends();
    void stagesOneRunLacksAreUnmatched();
};

// The same scenario twice: 8 devices, 4 on each stage, paired in order; every event with itself, none changed.
void TestTimelineComparison::anIterationWithItselfMatchesEveryEvent() {
    const auto a = simulated();
    const auto b = simulated();
    QVERIFY(a && b);
    const TimelineComparison comparison = compare_timelines(*a, *b);
    QCOMPARE(comparison.rows.size(), std::size_t{8});
    QCOMPARE(comparison.rows[4].stage, 1);
    QCOMPARE(comparison.rows[4].a, std::optional<std::size_t>(comparison.rows[4].b));
    QCOMPARE(comparison.matched, a->event_count());
    QCOMPARE(comparison.only_a, std::size_t{0});
    QCOMPARE(comparison.only_b, std::size_t{0});
    for (EventId id = 0; id < a->event_count(); ++id) {
        const EventId partner = comparison.a_partner[id];
        QVERIFY(partner != no_partner);
        QCOMPARE(b->event(partner).operation, a->event(id).operation);
        QCOMPARE(b->event(partner).start_s, a->event(id).start_s);
    }
    QVERIFY(largest_changes(comparison, *a, *b, 5).empty());
}

// The link between the nodes from 25 GB/s to 50 GB/s: computation (but for the overlap factor) and the tp and dp
// collectives (inside a node) take as long as before; what crosses between the nodes is shorter: the all-reduce of the tied embedding's gradient
// between the first and last stage, and the pipeline's sends. A pipeline send of B bytes takes B / 25 GB/s − B / 50 GB/s = B / 50 GB/s less (the hops'
// latency unchanged), up to the overlap factor where it overlaps computation. An activation of micro-batch 2 × 256 tokens × 256 hidden in bf16 is 262 144 B: 5.24288 µs less.
void TestTimelineComparison::aFasterLinkBetweenNodesShortensOnlyThePipelinesSends() {
    const auto a = simulated();
    const auto b = simulated("bandwidth: 25 GB/s", "bandwidth: 50 GB/s");
    QVERIFY(a && b);
    const TimelineComparison comparison = compare_timelines(*a, *b);
    QCOMPARE(comparison.matched, a->event_count());
    QCOMPARE(comparison.only_b, std::size_t{0});
    std::size_t shorter = 0;
    for (EventId id = 0; id < a->event_count(); ++id) {
        const TimelineEvent before = a->event(id);
        const TimelineEvent after = b->event(comparison.a_partner[id]);
        const auto ratio = duration_ratio(before, after);
        if (before.stream == Stream::compute) {
            // The same work: as long as before, but for the overlap factor γ = 0.1 where a send that now ends
            // sooner overlapped part of it.
            QVERIFY(ratio);
            QVERIFY2(*ratio >= 1.0 / 1.1 && *ratio <= 1.1, std::to_string(*ratio).c_str());
            continue;
        }
        // Events that start at other times may end a rounding error apart (1e-20 s): not a change.
        if (ratio && *ratio < 1.0 - 1e-9) {
            ++shorter;
            if (before.operation == "tied embedding all-reduce") continue;
            QVERIFY2(before.kind == TaskKind::pp_comm, before.operation.data());
            QCOMPARE(before.bytes, 262144.0);
            // Shorter by B / 50 GB/s, stretched by at most the overlap factor γ = 0.1 where the send overlaps
            // computation for a different share of its time in the two runs (the engine's Proteus §6.3 rule).
            const double saved_s = (before.end_s - before.start_s) - (after.end_s - after.start_s);
            QVERIFY2(saved_s >= 262144.0 / 50e9 * (1.0 - 1e-9) && saved_s <= 1.1 * 262144.0 / 50e9,
                     std::to_string(saved_s).c_str());
        }
    }
    // 4 micro-batches' activations forward from each of stage 0's 4 devices and their gradients back from stage 1's
    // (32 sends), and the tied embedding's all-reduce on each of the 8 devices.
    QCOMPARE(shorter, std::size_t{2 * 4 * 4 + 8});
    const std::vector<EventChange> changes = largest_changes(comparison, *a, *b, 3);
    QCOMPARE(changes.size(), std::size_t{3});
    // The largest change is a send's: at least B / 50 GB/s, stretched by at most γ.
    QVERIFY2(-changes[0].change_s >= 262144.0 / 50e9 * (1.0 - 1e-9) && -changes[0].change_s <= 1.1 * 262144.0 / 50e9,
             std::to_string(changes[0].change_s).c_str());
    QVERIFY2(QString::fromStdString(event_change_text(*a, *b, changes[0])).contains(QStringLiteral(" → ")),
             event_change_text(*a, *b, changes[0]).c_str());
}

// pp 2 → pp 1 with dp 4: B has one stage of 8 devices holding all 4 layers. Stage 0's first 4 rows pair A's devices
// with B's, the next 4 are B's alone, and stage 1's 4 rows A's alone. A layer's events are matched wherever it sits:
// layers 2 and 3, on A's stage 1, with the same layers on B's stage 0 (the k-th device of A's stage 1 with the k-th
// of B's stage 0) — for micro-batches 0 and 1: a replica of B takes 16 / 4 = 4 sequences, 2 micro-batches, where A's
// take 4. B's last 4 devices have no k-th device in A on any stage, so none of their events is matched.
void TestTimelineComparison::stagesOneRunLacksAreUnmatched() {
    const auto a = simulated();
    const auto b = simulated("{tp: 2, dp: 2, pp: 2, mapping: [tp, dp, pp]}", "{tp: 2, dp: 4, pp: 1, mapping: [tp, dp]}");
    QVERIFY(a && b);
    const TimelineComparison comparison = compare_timelines(*a, *b);
    QCOMPARE(comparison.rows.size(), std::size_t{12});
    for (std::size_t row = 0; row < 12; ++row) {
        QCOMPARE(comparison.rows[row].stage, row < 8 ? 0 : 1);
        QCOMPARE(comparison.rows[row].a.has_value(), row < 4 || row >= 8);
        QCOMPARE(comparison.rows[row].b.has_value(), row < 8);
    }
    std::size_t layer_events = 0;
    for (EventId id = 0; id < a->event_count(); ++id) {
        const TimelineEvent event = a->event(id);
        if (a->devices()[event.device].stage != 1 || event.layer < 2 || event.stream != Stream::compute) continue;
        if (event.micro_batch >= 2) {
            QCOMPARE(comparison.a_partner[id], no_partner);
            continue;
        }
        ++layer_events;
        const EventId partner = comparison.a_partner[id];
        QVERIFY(partner != no_partner);
        const TimelineEvent matched = b->event(partner);
        QCOMPARE(b->devices()[matched.device].stage, 0);
        QCOMPARE(matched.layer, event.layer);
        QCOMPARE(matched.micro_batch, event.micro_batch);
        QCOMPARE(matched.operation, event.operation);
    }
    QVERIFY(layer_events > 0);
    for (std::size_t row = 4; row < 8; ++row) {
        const std::size_t device = *comparison.rows[row].b;
        for (std::size_t stream = 0; stream < stream_count; ++stream) {
            for (const EventId id : b->lane(device, static_cast<Stream>(stream))) {
                QCOMPARE(comparison.b_partner[id], no_partner);
            }
        }
    }
    QCOMPARE(comparison.matched + comparison.only_a, a->event_count());
    QCOMPARE(comparison.matched + comparison.only_b, b->event_count());
}

QTEST_GUILESS_MAIN(TestTimelineComparison)
#include "test_timeline_comparison.moc"
