// The Timeline value (analysis/timeline.h): what a Gantt view reads of a simulated iteration. It must hold exactly
// the events the simulation ran — each once, in time order on its lane — with the right devices, coordinates, ranks,
// peers, dependencies and memory, worked out by hand for tests/data/cli/small_pipeline.yaml: a 4-layer transformer
// with tp 2, dp 2, pp 2 on two 4-NPU switches, mapping [tp, dp, pp], so NPU = tp rank + 2·dp rank + 4·pp rank.

#include "scenario_file/scenario_loader.h"
#include "simulation/simulate.h"

#include <QtTest>

#include <algorithm>
#include <set>

using namespace parasight;

namespace {

const ValidatedScenario& small_pipeline() {
    static const LoadResult loaded = load_scenario_file(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml");
    return *loaded.scenario;
}

std::shared_ptr<const Timeline> every_device_timeline(TimelineDetail detail = TimelineDetail::events_and_dependencies) {
    SimulateOptions options;
    options.all_devices = true;
    options.record_memory_timeline = true;
    options.timeline = detail;
    const auto simulation = simulate(small_pipeline(), options);
    return simulation ? simulation->timeline : nullptr;
}

// The first event on `npu`'s lane with this operation and micro-batch (any micro-batch: -2).
std::optional<TimelineEvent> find_event(const Timeline& timeline, std::int64_t npu, Stream stream,
                                        std::string_view operation, int micro_batch) {
    for (const EventId id : timeline.lane(static_cast<std::size_t>(npu), stream)) {
        const TimelineEvent event = timeline.event(id);
        if (event.operation == operation && (micro_batch == -2 || event.micro_batch == micro_batch)) return event;
    }
    return std::nullopt;
}

QList<qint64> as_list(const std::vector<std::int64_t>& npus) { return QList<qint64>(npus.begin(), npus.end()); }

}  // namespace

class TestTimeline : public QObject {
    Q_OBJECT
private slots:
    void holdsEveryEventOnceInTimeOrder();
    void eventsAreTheSimulatedTasks();
    void devicesHaveCoordinatesAndRanks_data();
    void devicesHaveCoordinatesAndRanks();
    void peersOfCommunication_data();
    void peersOfCommunication();
    void dependenciesSayWhatAnEventWaitedFor();
    void detailIsChosen();
    void memorySamplesReachThePeak();
};

void TestTimeline::holdsEveryEventOnceInTimeOrder() {
    const auto timeline = every_device_timeline();
    QVERIFY(timeline != nullptr);
    QCOMPARE(timeline->devices().size(), std::size_t{8});
    std::vector<int> seen(timeline->event_count(), 0);
    for (std::size_t d = 0; d < timeline->devices().size(); ++d) {
        for (const auto& stream : stream_names) {
            double previous_end_s = 0.0;
            for (const EventId id : timeline->lane(d, stream.value)) {
                const TimelineEvent event = timeline->event(id);
                ++seen[id];
                QCOMPARE(event.device, d);
                QCOMPARE(event.stream, stream.value);
                // One event at a time on a stream, in order, inside the iteration.
                QVERIFY(event.start_s >= previous_end_s);
                QVERIFY(event.end_s >= event.start_s);
                QVERIFY(event.end_s <= timeline->iteration_time_s());
                previous_end_s = event.end_s;
            }
        }
    }
    QVERIFY(std::all_of(seen.begin(), seen.end(), [](int count) { return count == 1; }));
}

void TestTimeline::eventsAreTheSimulatedTasks() {
    // The same simulation through simulate_graph(): each event is its task, with the engine's times.
    SimulateOptions options;
    options.all_devices = true;
    const auto graph = simulate_graph(small_pipeline(), options);
    const auto timeline = every_device_timeline();
    QVERIFY(graph.has_value() && timeline != nullptr);
    QCOMPARE(timeline->event_count(), graph->graph.tasks.size());
    QCOMPARE(timeline->iteration_time_s(), graph->report.iteration_time_s);
    for (EventId id = 0; id < timeline->event_count(); ++id) {
        const Task& task = graph->graph.tasks[id];
        const TimelineEvent event = timeline->event(id);
        QCOMPARE(event.kind, task.kind);
        QCOMPARE(std::string(event.operation), graph->graph.labels[static_cast<std::size_t>(task.label)]);
        QCOMPARE(event.layer, task.layer);
        QCOMPARE(event.micro_batch, task.micro_batch);
        QCOMPARE(event.start_s, graph->run.timings[id].start_s);
        QCOMPARE(event.end_s, graph->run.timings[id].end_s);
        QCOMPARE(event.bytes, task.bytes);
        QCOMPARE(event.flops, task.flops);
    }
}

void TestTimeline::devicesHaveCoordinatesAndRanks_data() {
    QTest::addColumn<qint64>("npu");
    QTest::addColumn<QList<int>>("coordinates");  // dimension 0 (4 NPUs a switch) first
    QTest::addColumn<QList<int>>("ranks");        // tp, cp, ep, dp, pp
    // NPU n sits at (n mod 4, n div 4); its ranks are tp = n mod 2, dp = (n div 2) mod 2, pp = n div 4.
    QTest::newRow("NPU 0") << qint64{0} << QList<int>{0, 0} << QList<int>{0, 0, 0, 0, 0};
    QTest::newRow("NPU 3") << qint64{3} << QList<int>{3, 0} << QList<int>{1, 0, 0, 1, 0};
    QTest::newRow("NPU 5") << qint64{5} << QList<int>{1, 1} << QList<int>{1, 0, 0, 0, 1};
    QTest::newRow("NPU 6") << qint64{6} << QList<int>{2, 1} << QList<int>{0, 0, 0, 1, 1};
}

void TestTimeline::devicesHaveCoordinatesAndRanks() {
    QFETCH(qint64, npu);
    QFETCH(QList<int>, coordinates);
    QFETCH(QList<int>, ranks);
    const auto timeline = every_device_timeline();
    QVERIFY(timeline != nullptr);
    // Every device is simulated, in NPU order, each standing for itself.
    const TimelineDevice& device = timeline->devices()[static_cast<std::size_t>(npu)];
    QCOMPARE(device.npu, npu);
    QCOMPARE(device.weight, 1.0);
    QCOMPARE(device.stage, ranks.back());
    QCOMPARE(QList<int>(device.coordinates.begin(), device.coordinates.end()), coordinates);
    QCOMPARE(QList<int>(device.ranks.begin(), device.ranks.end()), ranks);
}

void TestTimeline::peersOfCommunication_data() {
    QTest::addColumn<qint64>("npu");
    QTest::addColumn<int>("stream");
    QTest::addColumn<QString>("operation");
    QTest::addColumn<int>("micro_batch");
    QTest::addColumn<QList<qint64>>("peers");
    const int feature = static_cast<int>(Stream::feature_comm);
    const int gradient = static_cast<int>(Stream::gradient_comm);
    // tp pairs are NPUs 2k and 2k + 1; dp pairs differ by 2; stages by 4.
    QTest::newRow("tp all-reduce on NPU 5") << qint64{5} << feature << QStringLiteral("tp all-reduce") << 0
                                            << QList<qint64>{4, 5};
    QTest::newRow("dp all-reduce on NPU 5") << qint64{5} << gradient << QStringLiteral("dp all-reduce") << -2
                                            << QList<qint64>{5, 7};
    QTest::newRow("activations from stage 0") << qint64{1} << feature << QStringLiteral("pp send activations") << 0
                                              << QList<qint64>{5};
    QTest::newRow("gradients from stage 1") << qint64{6} << feature << QStringLiteral("pp send gradients") << 3
                                            << QList<qint64>{2};
    // The tied embedding's copies live on the first and the last stage.
    QTest::newRow("tied embedding, first stage") << qint64{2} << gradient
                                                 << QStringLiteral("tied embedding all-reduce") << -1
                                                 << QList<qint64>{6};
    QTest::newRow("tied embedding, last stage") << qint64{6} << gradient
                                                << QStringLiteral("tied embedding all-reduce") << -1
                                                << QList<qint64>{2};
    QTest::newRow("computation has none") << qint64{0} << static_cast<int>(Stream::compute) << QStringLiteral("mlp")
                                          << 0 << QList<qint64>{};
}

void TestTimeline::peersOfCommunication() {
    QFETCH(qint64, npu);
    QFETCH(int, stream);
    QFETCH(QString, operation);
    QFETCH(int, micro_batch);
    QFETCH(QList<qint64>, peers);
    const auto timeline = every_device_timeline();
    QVERIFY(timeline != nullptr);
    const auto event =
        find_event(*timeline, npu, static_cast<Stream>(stream), operation.toStdString(), micro_batch);
    QVERIFY2(event.has_value(), qPrintable(operation));
    QCOMPARE(as_list(timeline->peers(event->id)), peers);
}

void TestTimeline::dependenciesSayWhatAnEventWaitedFor() {
    const auto timeline = every_device_timeline();
    QVERIFY(timeline != nullptr && timeline->has_dependencies());
    // Stage 1's first computation of micro-batch 0 on NPU 5 waited for the activations NPU 1 sent it.
    const auto first = find_event(*timeline, 5, Stream::compute, "attention", 0);
    QVERIFY(first.has_value());
    bool waited_for_send = false;
    for (const EventId before : timeline->waited_for(first->id)) {
        const TimelineEvent event = timeline->event(before);
        QVERIFY(event.end_s <= first->start_s);  // a dependency ends before the event starts
        if (event.operation == "pp send activations" && timeline->devices()[event.device].npu == 1) {
            waited_for_send = event.micro_batch == 0;
        }
    }
    QVERIFY(waited_for_send);
    // And every dependency of every event ended before it began.
    for (EventId id = 0; id < timeline->event_count(); ++id) {
        const double start_s = timeline->event(id).start_s;
        for (const EventId before : timeline->waited_for(id)) QVERIFY(timeline->event(before).end_s <= start_s);
    }
}

void TestTimeline::detailIsChosen() {
    QVERIFY(every_device_timeline(TimelineDetail::none) == nullptr);
    const auto events_only = every_device_timeline(TimelineDetail::events);
    QVERIFY(events_only != nullptr);
    QVERIFY(!events_only->has_dependencies());
    QVERIFY(events_only->waited_for(0).empty());
}

void TestTimeline::memorySamplesReachThePeak() {
    const auto timeline = every_device_timeline();
    QVERIFY(timeline != nullptr);
    for (std::size_t d = 0; d < timeline->devices().size(); ++d) {
        const auto samples = timeline->memory(d);
        QVERIFY(!samples.empty());
        double highest = 0.0;
        double previous_s = 0.0;
        for (const MemorySample& sample : samples) {
            QVERIFY(sample.time_s >= previous_s);
            previous_s = sample.time_s;
            highest = std::max(highest, sample.bytes);
        }
        QCOMPARE(highest, timeline->peak_memory_bytes(d));
    }
}

QTEST_APPLESS_MAIN(TestTimeline)
#include "test_timeline.moc"
