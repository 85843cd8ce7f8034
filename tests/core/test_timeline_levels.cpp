// Level of detail for drawing a timeline (analysis/timeline_levels.h): the merge rule worked out by hand; queries
// through the precomputed levels return exactly what merging the whole lane directly would, for any range and width;
// counts add up to the lane's events; and a query returns about two boxes per visible width, whatever the range holds.

#include "analysis/timeline_levels.h"
#include "scenario_file/scenario_loader.h"
#include "simulation/simulate.h"

#include <QtTest>

#include <random>

using namespace parasight;

namespace {

std::shared_ptr<const TimelineLevels> levels_of(const char* file, bool all_devices) {
    const LoadResult loaded = load_scenario_file(file);
    if (!loaded.ok()) return nullptr;
    SimulateOptions options;
    options.all_devices = all_devices;
    options.timeline = TimelineDetail::events;
    const auto simulation = simulate(*loaded.scenario, options);
    if (!simulation) return nullptr;
    return TimelineLevels::build(simulation->timeline, PhaseProgress(nullptr, SimulationPhase::analysis));
}

// The reference: the whole lane's events merged at `min_width_s`, the boxes overlapping [from_s, to_s] kept.
std::vector<LaneBox> merged_directly(const Timeline& timeline, std::size_t device, Stream stream, double from_s,
                                     double to_s, double min_width_s) {
    std::vector<LaneBox> events;
    for (const EventId id : timeline.lane(device, stream)) {
        const TimelineEvent event = timeline.event(id);
        events.push_back(LaneBox{event.start_s, event.end_s, 1, id, kind_bit(event.kind)});
    }
    std::vector<LaneBox> merged;
    merge_lane_boxes(events, min_width_s, merged);
    std::erase_if(merged, [&](const LaneBox& box) { return box.end_s < from_s || box.start_s > to_s; });
    return merged;
}

}  // namespace

class TestTimelineLevels : public QObject {
    Q_OBJECT
private slots:
    void mergeRuleByHand();
    void queriesEqualADirectMerge();
    void countsAddUp();
    void aQueryReturnsAboutTwoBoxesPerWidth();
};

void TestTimelineLevels::mergeRuleByHand() {
    // At a width of 1 s: [0,1] is not narrower than 1, so it is its own box; [1.5,2] is narrow but follows a wide
    // box, so it opens one; [2.2,2.3] is narrow and 0.2 s after it: merged, [1.5,2.3] holding 2; [5,10] is wide;
    // [10.5,10.6] is narrow but follows a wide box: its own.
    const std::uint16_t forward = kind_bit(TaskKind::forward);
    const std::uint16_t backward = kind_bit(TaskKind::backward);
    const std::vector<LaneBox> items{{0, 1, 1, 0, forward},
                                     {1.5, 2, 1, 1, forward},
                                     {2.2, 2.3, 1, 2, backward},
                                     {5, 10, 1, 3, backward},
                                     {10.5, 10.6, 1, 4, forward}};
    std::vector<LaneBox> out;
    merge_lane_boxes(items, 1.0, out);
    QCOMPARE(out.size(), std::size_t{4});
    QCOMPARE(out[1].start_s, 1.5);
    QCOMPARE(out[1].end_s, 2.3);
    QCOMPARE(out[1].count, 2U);
    QCOMPARE(out[1].representative, EventId{1});  // 0.5 s, longer than 0.1 s
    QCOMPARE(out[1].kinds, static_cast<std::uint16_t>(forward | backward));  // it holds one of each
    QCOMPARE(out[0].kinds, forward);
    QCOMPARE(out[3].start_s, 10.5);
    // At 3 s, [0,1] and [1.5,2] and [2.2,2.3] are all narrow with gaps under 3 s: one box of 3; [5,10] stays;
    // [10.5,10.6] follows a wide box.
    out.clear();
    merge_lane_boxes(items, 3.0, out);
    QCOMPARE(out.size(), std::size_t{3});
    QCOMPARE(out[0].count, 3U);
    QCOMPARE(out[0].end_s, 2.3);
    QCOMPARE(out[0].representative, EventId{0});
    // A box that is itself a merge merges on as a narrow item, however wide its span.
    out.clear();
    merge_lane_boxes(std::vector<LaneBox>{{0, 5, 7, 0, forward}, {5.5, 5.6, 1, 9, forward}}, 1.0, out);
    QCOMPARE(out.size(), std::size_t{1});
    QCOMPARE(out[0].count, 8U);
}

void TestTimelineLevels::queriesEqualADirectMerge() {
    // The default scenario, one device per symmetry class: GPT-3 175B on 1024 A100s, half a million events.
    const auto levels = levels_of(PARASIGHT_SOURCE_DIR "/presets/scenarios/default.yaml", false);
    QVERIFY(levels != nullptr);
    const Timeline& timeline = levels->timeline();
    const double total_s = timeline.iteration_time_s();
    std::mt19937_64 random(7);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    int compared = 0;
    for (int trial = 0; trial < 300; ++trial) {
        const std::size_t device = random() % timeline.devices().size();
        const auto stream = static_cast<Stream>(random() % stream_count);
        // Widths from a millionth of the iteration (deep zoom) to a tenth (the whole iteration on 10 pixels).
        const double min_width_s = total_s * std::pow(10.0, -6.0 + 5.0 * unit(random));
        const double from_s = total_s * unit(random) * 0.9;
        const double to_s = from_s + (total_s - from_s) * unit(random);
        std::vector<LaneBox> got;
        levels->boxes(device, stream, from_s, to_s, min_width_s, got);
        const std::vector<LaneBox> expected = merged_directly(timeline, device, stream, from_s, to_s, min_width_s);
        QCOMPARE(got.size(), expected.size());
        for (std::size_t i = 0; i < got.size(); ++i) {
            QCOMPARE(got[i].start_s, expected[i].start_s);
            QCOMPARE(got[i].end_s, expected[i].end_s);
            QCOMPARE(got[i].count, expected[i].count);
            QCOMPARE(got[i].kinds, expected[i].kinds);
        }
        compared += static_cast<int>(got.size());
    }
    QVERIFY(compared > 1000);  // the trials did look at boxes
}

void TestTimelineLevels::countsAddUp() {
    // Every device of the small pipeline (tests/data/cli/small_pipeline.yaml): over the whole iteration at any
    // width, the boxes of a lane hold each of its events once.
    const auto levels = levels_of(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml", true);
    QVERIFY(levels != nullptr);
    const Timeline& timeline = levels->timeline();
    for (const double fraction : {0.0, 1e-6, 1e-3, 1e-2, 0.1, 1.0}) {
        std::size_t total = 0;
        for (std::size_t device = 0; device < timeline.devices().size(); ++device) {
            for (const auto& stream : stream_names) {
                std::vector<LaneBox> boxes;
                levels->boxes(device, stream.value, 0.0, timeline.iteration_time_s(),
                              fraction * timeline.iteration_time_s(), boxes);
                for (const LaneBox& box : boxes) total += box.count;
                if (fraction == 0.0) QCOMPARE(boxes.size(), timeline.lane(device, stream.value).size());
            }
        }
        QCOMPARE(total, timeline.event_count());
    }
}

void TestTimelineLevels::aQueryReturnsAboutTwoBoxesPerWidth() {
    // Boxes do not overlap; a wide one is at least the width long, and two merged ones have a wide box or a gap of
    // at least the width between them — so a range of W widths holds at most 2·W + 2 boxes, however many events.
    const auto levels = levels_of(PARASIGHT_SOURCE_DIR "/presets/scenarios/default.yaml", false);
    QVERIFY(levels != nullptr);
    const Timeline& timeline = levels->timeline();
    const double total_s = timeline.iteration_time_s();
    for (const double widths : {10.0, 100.0, 1000.0, 10000.0}) {
        for (std::size_t device = 0; device < timeline.devices().size(); ++device) {
            std::vector<LaneBox> boxes;
            levels->boxes(device, Stream::compute, 0.0, total_s, total_s / widths, boxes);
            QVERIFY2(static_cast<double>(boxes.size()) <= 2.0 * widths + 2.0,
                     qPrintable(QStringLiteral("%1 boxes for %2 widths").arg(boxes.size()).arg(widths)));
        }
    }
}

QTEST_APPLESS_MAIN(TestTimelineLevels)
#include "test_timeline_levels.moc"
