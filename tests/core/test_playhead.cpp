// A playhead stepping through an iteration (analysis/playhead.h), on tests/data/cli/small_pipeline.yaml simulated on
// every device: 2 stages of 4 devices, 4 micro-batches of 2 sequences per pipeline, 1F1B.

#include "analysis/playhead.h"
#include "small_pipeline_timeline.h"

#include <QtTest>

using namespace parasight;

using parasight::testing::small_pipeline_timeline;

class TestPlayhead : public QObject {
    Q_OBJECT
private slots:
    void stopsAtEveryStartAndEndOfAComputation();
    void atTheStartOnlyTheFirstStageComputes();
    void theComputationUnderWayAndTheMemoryHeld();
};

// The stops are the starts and ends of computations on every device: walking from before the first with after()
// visits each once, in increasing order, and before() walks them back.
void TestPlayhead::stopsAtEveryStartAndEndOfAComputation() {
    const auto timeline = small_pipeline_timeline();
    QVERIFY(timeline);
    const ScheduleSteps steps(*timeline);
    QVERIFY(steps.stops().size() > 10);
    QCOMPARE(steps.after(-1.0), std::optional<double>(0.0));  // the first forward starts the iteration
    QVERIFY(!steps.before(0.0));
    std::size_t visited = 0;
    for (std::optional<double> at = steps.after(-1.0); at; at = steps.after(*at)) {
        QCOMPARE(*at, steps.stops()[visited]);
        ++visited;
    }
    QCOMPARE(visited, steps.stops().size());
    QCOMPARE(steps.before(steps.stops().back()), std::optional<double>(steps.stops()[steps.stops().size() - 2]));
    // Every start and end of a computation is a stop.
    for (const EventId id : timeline->lane(5, Stream::compute)) {
        const TimelineEvent event = timeline->event(id);
        QVERIFY(std::binary_search(steps.stops().begin(), steps.stops().end(), event.start_s));
        QVERIFY(std::binary_search(steps.stops().begin(), steps.stops().end(), event.end_s));
    }
}

// At 0 s the first stage's 4 devices compute micro-batch 0; the second stage's 4 wait for its activations.
void TestPlayhead::atTheStartOnlyTheFirstStageComputes() {
    const auto timeline = small_pipeline_timeline();
    const std::vector<DeviceAtTime> devices = devices_at(*timeline, 0.0);
    QCOMPARE(devices.size(), std::size_t{8});
    for (const DeviceAtTime& device : devices) {
        QCOMPARE(device.computing.has_value(), device.stage == 0);
        if (device.computing) QCOMPARE(device.computing->micro_batch, 0);
    }
}

// Device 0's third computation is under way from its start to just before its end; at its end the lane has moved
// on. The memory held is the last sample at or before the moment.
void TestPlayhead::theComputationUnderWayAndTheMemoryHeld() {
    const auto timeline = small_pipeline_timeline();
    const auto lane = timeline->lane(0, Stream::compute);
    QVERIFY(lane.size() > 3);
    const TimelineEvent third = timeline->event(lane[2]);
    const double middle = (third.start_s + third.end_s) / 2.0;
    QCOMPARE(devices_at(*timeline, third.start_s)[0].computing->id, third.id);
    QCOMPARE(devices_at(*timeline, middle)[0].computing->id, third.id);
    const auto at_end = devices_at(*timeline, third.end_s)[0].computing;
    QVERIFY(!at_end || at_end->id != third.id);
    const auto samples = timeline->memory(0);
    QVERIFY(samples.size() > 2);
    const MemorySample& sample = samples[samples.size() / 2];
    QCOMPARE(devices_at(*timeline, sample.time_s)[0].memory_bytes, std::optional<double>(sample.bytes));
    QCOMPARE(devices_at(*timeline, -1.0)[0].memory_bytes, std::optional<double>(0.0));
}

QTEST_GUILESS_MAIN(TestPlayhead)
#include "test_playhead.moc"
