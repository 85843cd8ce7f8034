// The steady state simulated once (docs/model.md §4, "Steady state"; core/engine/steady_period.h): a short run of a
// few micro-batches, its period found and repeated, against the whole schedule simulated event by event — every
// task's start and end, every device's memory peak and timeline, and the report, on every bundled scenario and on each
// schedule (1F1B, interleaved with groups, ZB-H1, GPipe), ZeRO-3, what-if rules, every device simulated, a device
// that runs out of memory, and a schedule that never settles. Where the schedule has a closed form, the repeated run
// is also held to it.

#include "analysis/report.h"
#include "engine/steady_period.h"
#include "export/report_json.h"
#include "scenario_file/scenario_loader.h"
#include "simulation/simulate.h"
#include "simulation/steady_state_run.h"
#include "validation/validate.h"

#include "bubble_scenario.h"
#include "numeric_compare.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>
#include <filesystem>
#include <functional>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <tuple>
#include <array>
#include <algorithm>

using parasight::Scenario;
using parasight::SimulatedGraph;
using parasight::testing::bubble_yaml;
using parasight::testing::qs;

namespace {

std::string file_text(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// The scenario with steady_state as given, or the loader's or validator's message.
struct Loaded {
    std::optional<parasight::ValidatedScenario> scenario;
    QString error;
};
Loaded load(const std::string& yaml, const std::string& path, bool steady_state,
            const std::function<void(Scenario&)>& edit = {}) {
    Loaded result;
    const auto loaded = parasight::load_scenario_text(yaml, path);
    if (!loaded.ok()) {
        for (const auto& diagnostic : loaded.diagnostics) result.error += qs(diagnostic.to_string()) + QLatin1Char('\n');
        return result;
    }
    Scenario scenario = loaded.scenario->value();
    scenario.simulation.steady_state = steady_state;
    if (edit) edit(scenario);
    auto validation = parasight::validate(scenario);
    if (!validation.scenario) {
        result.error = QStringLiteral("not valid once steady_state was set");
        return result;
    }
    result.scenario = std::move(validation.scenario);
    return result;
}

// Every number of two report JSONs within `relative` of each other (or 1e-12 absolute), strings and flags equal —
// but the wall time and the steady state's own figures, which differ by design.
void compare_json(const QJsonValue& a, const QJsonValue& b, const QString& path, double relative) {
    if (path == QStringLiteral(".simulation.wall_s") || path == QStringLiteral(".simulation.steady_state")) return;
    QVERIFY2(a.type() == b.type(), qPrintable(path));
    if (a.isObject()) {
        const QJsonObject x = a.toObject();
        const QJsonObject y = b.toObject();
        QCOMPARE(x.keys(), y.keys());
        for (const QString& key : x.keys()) {
            compare_json(x.value(key), y.value(key), path + QLatin1Char('.') + key, relative);
            if (QTest::currentTestFailed()) return;
        }
    } else if (a.isArray()) {
        const QJsonArray x = a.toArray();
        const QJsonArray y = b.toArray();
        QCOMPARE(x.size(), y.size());
        for (qsizetype i = 0; i < x.size(); ++i) {
            compare_json(x.at(i), y.at(i), path + QStringLiteral("[%1]").arg(i), relative);
            if (QTest::currentTestFailed()) return;
        }
    } else if (a.isDouble()) {
        const double x = a.toDouble();
        const double y = b.toDouble();
        QVERIFY2(std::abs(x - y) <= std::max(relative * std::max(std::abs(x), std::abs(y)), 1e-12),
                 qPrintable(path + QStringLiteral(": %1 against %2").arg(x, 0, 'g', 17).arg(y, 0, 'g', 17)));
    } else {
        QCOMPARE(a, b);
    }
}

// The repeated run against the whole one: the same graph, every task within 1e-9 of the iteration, memory peaks
// within 1e-9 and at a time the whole run is at that peak too (a level every period reaches may be named at any
// of them; the repeated run names the first), the memory timelines sample for sample, the reports number for number.
void compare_runs(const SimulatedGraph& steady, const SimulatedGraph& whole) {
    QCOMPARE(steady.graph.tasks.size(), whole.graph.tasks.size());
    const double tolerance_s = 1e-9 * whole.run.makespan_s;
    PS_COMPARE_RELATIVE(steady.run.makespan_s, whole.run.makespan_s, 1e-9);
    QCOMPARE(steady.run.events, whole.run.events);
    QCOMPARE(steady.run.end, whole.run.end);
    for (std::size_t t = 0; t < whole.graph.tasks.size(); ++t) {
        const auto& a = steady.run.timings[t];
        const auto& b = whole.run.timings[t];
        if (std::abs(a.start_s - b.start_s) > tolerance_s || std::abs(a.end_s - b.end_s) > tolerance_s) {
            const auto& task = whole.graph.tasks[t];
            QFAIL(qPrintable(QStringLiteral("task %1 (%2, device %3, micro-batch %4): %5–%6 s against %7–%8 s")
                                 .arg(t)
                                 .arg(qs(whole.graph.labels[static_cast<std::size_t>(task.label)]))
                                 .arg(task.device)
                                 .arg(task.micro_batch)
                                 .arg(a.start_s, 0, 'g', 17)
                                 .arg(a.end_s, 0, 'g', 17)
                                 .arg(b.start_s, 0, 'g', 17)
                                 .arg(b.end_s, 0, 'g', 17)));
        }
    }
    QCOMPARE(steady.run.memory.size(), whole.run.memory.size());
    for (std::size_t d = 0; d < whole.run.memory.size(); ++d) {
        const auto& a = steady.run.memory[d];
        const auto& b = whole.run.memory[d];
        PS_COMPARE_RELATIVE(a.peak_bytes, b.peak_bytes, 1e-9);
        for (std::size_t c = 0; c < a.at_peak_bytes.size(); ++c) {
            QVERIFY(std::abs(a.at_peak_bytes[c] - b.at_peak_bytes[c]) <= 1e-9 * b.peak_bytes);
        }
        QCOMPARE(a.over_capacity_task, b.over_capacity_task);
        QVERIFY(std::abs(a.over_capacity_time_s - b.over_capacity_time_s) <= tolerance_s);
        QCOMPARE(a.timeline.size(), b.timeline.size());
        double whole_level_at_peak = 0.0;
        for (std::size_t i = 0; i < a.timeline.size(); ++i) {
            QVERIFY2(std::abs(a.timeline[i].time_s - b.timeline[i].time_s) <= tolerance_s,
                     qPrintable(QStringLiteral("device %1, memory sample %2").arg(d).arg(i)));
            QVERIFY(std::abs(a.timeline[i].bytes - b.timeline[i].bytes) <= 1e-9 * b.peak_bytes);
            if (std::abs(b.timeline[i].time_s - a.peak_time_s) <= tolerance_s) {
                whole_level_at_peak = std::max(whole_level_at_peak, b.timeline[i].bytes);
            }
        }
        if (!a.timeline.empty() && a.peak_task >= 0) {
            PS_COMPARE_RELATIVE(whole_level_at_peak, b.peak_bytes, 1e-9);
            QVERIFY(std::abs(a.peak_time_s - steady.run.timings[static_cast<std::size_t>(a.peak_task)].start_s) <=
                    tolerance_s);
        }
    }
    QCOMPARE(steady.report.per_device.size(), whole.report.per_device.size());
    compare_json(QJsonDocument::fromJson(QByteArray::fromStdString(parasight::report_json(steady.report))).object(),
                 QJsonDocument::fromJson(QByteArray::fromStdString(parasight::report_json(whole.report))).object(),
                 QString(), 1e-9);
}

struct Pair {
    std::optional<SimulatedGraph> steady;
    std::optional<SimulatedGraph> whole;
    // The steady state's report alone, as the command line and sweeps ask for it: from the short run, the whole
    // graph never built where the period repeats.
    std::optional<parasight::Report> report_only;
    QString error;
};

Pair simulate_both(const std::string& yaml, const std::string& path, bool all_devices, bool memory_timeline) {
    Pair pair;
    parasight::SimulateOptions options;
    options.all_devices = all_devices;
    options.record_memory_timeline = memory_timeline;
    for (const bool steady_state : {true, false}) {
        const Loaded loaded = load(yaml, path, steady_state);
        if (!loaded.scenario) {
            pair.error = loaded.error;
            return pair;
        }
        auto simulated = parasight::simulate_graph(*loaded.scenario, options);
        if (!simulated) {
            pair.error = qs(simulated.error().message);
            return pair;
        }
        (steady_state ? pair.steady : pair.whole) = std::move(simulated).value();
        if (!steady_state) continue;
        parasight::SimulateOptions report_only = options;
        report_only.timeline = parasight::TimelineDetail::none;
        auto reported = parasight::simulate(*loaded.scenario, report_only);
        if (!reported) {
            pair.error = qs(reported.error().message);
            return pair;
        }
        pair.report_only = std::move(reported.value().report);
    }
    return pair;
}

// Every event where it is in the timeline: its device, stream and place on that lane.
struct LanePlace {
    std::size_t device = 0;
    int stream = 0;
    std::size_t index = 0;
    friend bool operator<(const LanePlace& a, const LanePlace& b) {
        return std::tie(a.device, a.stream, a.index) < std::tie(b.device, b.stream, b.index);
    }
    friend bool operator==(const LanePlace&, const LanePlace&) = default;
};
std::vector<LanePlace> lane_places(const parasight::Timeline& timeline) {
    std::vector<LanePlace> places(timeline.event_count());
    for (std::size_t d = 0; d < timeline.devices().size(); ++d) {
        for (int s = 0; s < static_cast<int>(parasight::stream_count); ++s) {
            const auto lane = timeline.lane(d, static_cast<parasight::Stream>(s));
            for (std::size_t k = 0; k < lane.size(); ++k) places.at(lane[k]) = LanePlace{d, s, k};
        }
    }
    return places;
}
std::vector<LanePlace> sorted_places(const std::vector<parasight::EventId>& ids, const std::vector<LanePlace>& places) {
    std::vector<LanePlace> result;
    for (const parasight::EventId id : ids) result.push_back(places.at(id));
    std::sort(result.begin(), result.end());
    return result;
}

// The timeline made from the short run against the whole run's, lane by lane: the same events in the same order
// (operation, layer, micro-batch, bytes, FLOPs, peers, transfer), each within 1e-9 of the iteration; what each
// waited for and what waited for it, as places on the lanes; every device's memory samples.
void compare_timelines(const parasight::Timeline& steady, const parasight::Timeline& whole) {
    QCOMPARE(steady.event_count(), whole.event_count());
    PS_COMPARE_RELATIVE(steady.iteration_time_s(), whole.iteration_time_s(), 1e-9);
    QCOMPARE(steady.devices().size(), whole.devices().size());
    QCOMPARE(steady.has_dependencies(), whole.has_dependencies());
    const double tolerance_s = 1e-9 * whole.iteration_time_s();
    const std::vector<LanePlace> steady_places = lane_places(steady);
    const std::vector<LanePlace> whole_places = lane_places(whole);
    for (std::size_t d = 0; d < whole.devices().size(); ++d) {
        for (int s = 0; s < static_cast<int>(parasight::stream_count); ++s) {
            const auto a_lane = steady.lane(d, static_cast<parasight::Stream>(s));
            const auto b_lane = whole.lane(d, static_cast<parasight::Stream>(s));
            QCOMPARE(a_lane.size(), b_lane.size());
            for (std::size_t k = 0; k < b_lane.size(); ++k) {
                const parasight::TimelineEvent a = steady.event(a_lane[k]);
                const parasight::TimelineEvent b = whole.event(b_lane[k]);
                const QString where = QStringLiteral("device %1 stream %2 event %3 (%4, micro-batch %5)")
                                          .arg(d).arg(s).arg(k).arg(qs(std::string(b.operation))).arg(b.micro_batch);
                QVERIFY2(a.device == b.device && a.stream == b.stream && a.kind == b.kind &&
                             a.operation == b.operation && a.layer == b.layer && a.micro_batch == b.micro_batch &&
                             a.bytes == b.bytes && a.flops == b.flops &&
                             a.memory_bound_share == b.memory_bound_share && a.peers == b.peers,
                         qPrintable(where + QStringLiteral(": another event, micro-batch %1").arg(a.micro_batch)));
                QVERIFY2(std::abs(a.start_s - b.start_s) <= tolerance_s && std::abs(a.end_s - b.end_s) <= tolerance_s,
                         qPrintable(where + QStringLiteral(": %1-%2 s against %3-%4 s")
                                                .arg(a.start_s, 0, 'g', 17).arg(a.end_s, 0, 'g', 17)
                                                .arg(b.start_s, 0, 'g', 17).arg(b.end_s, 0, 'g', 17)));
                QCOMPARE(steady.peers(a.id), whole.peers(b.id));
                QCOMPARE(steady.transfer_shape(a.id) == nullptr, whole.transfer_shape(b.id) == nullptr);
                QVERIFY2(sorted_places(steady.waited_for(a.id), steady_places) ==
                             sorted_places(whole.waited_for(b.id), whole_places),
                         qPrintable(where + QStringLiteral(": waited for other events")));
            }
        }
        const auto a_memory = steady.memory(d);
        const auto b_memory = whole.memory(d);
        QCOMPARE(a_memory.size(), b_memory.size());
        for (std::size_t i = 0; i < b_memory.size(); ++i) {
            QVERIFY(std::abs(a_memory[i].time_s - b_memory[i].time_s) <= tolerance_s);
            QVERIFY(std::abs(a_memory[i].bytes - b_memory[i].bytes) <= 1e-9 * whole.peak_memory_bytes(d));
        }
        PS_COMPARE_RELATIVE(steady.peak_memory_bytes(d), whole.peak_memory_bytes(d), 1e-9);
    }
    // What waited for each event, once what each waited for is known to be the same everywhere.
    for (std::size_t d = 0; d < whole.devices().size(); ++d) {
        for (int s = 0; s < static_cast<int>(parasight::stream_count); ++s) {
            const auto a_lane = steady.lane(d, static_cast<parasight::Stream>(s));
            const auto b_lane = whole.lane(d, static_cast<parasight::Stream>(s));
            for (std::size_t k = 0; k < b_lane.size(); ++k) {
                QVERIFY2(sorted_places(steady.waited_on_by(a_lane[k]), steady_places) ==
                             sorted_places(whole.waited_on_by(b_lane[k]), whole_places),
                         qPrintable(QStringLiteral("device %1 stream %2 event %3: other events waited for it")
                                        .arg(d).arg(s).arg(k)));
            }
        }
    }
}

// Small transformer pipelines whose schedules settle quickly: 4 stages on one NVLink switch.
std::string pipeline_yaml(const std::string& parallelism, int global_batch, const std::string& extra = {}) {
    return "schema: 1\nname: steady pipeline\n"
           "model: {kind: transformer, layers: 8, hidden: 512, heads: 8, seq_len: 512, vocab: 4096}\n"
           "training: {global_batch: " + std::to_string(global_batch) + ", micro_batch: 1, dtype: bf16}\n"
           "cluster:\n  device: a100-80gb\n"
           "  topology: [{kind: switch, size: 4, bandwidth: 300 GB/s, latency: 1 us}, "
           "{kind: switch, size: 2, bandwidth: 25 GB/s, latency: 5 us}]\n"
           "parallelism: " + parallelism + "\n" + extra;
}

}  // namespace

class TestSteadyState : public QObject {
    Q_OBJECT

private slots:
    void sameAsTheWholeRun_data();
    void sameAsTheWholeRun();
    void timelineShowsTheWholeRun_data();
    void timelineShowsTheWholeRun();
    void bubbleKeepsItsClosedForm_data();
    void bubbleKeepsItsClosedForm();
    void outOfMemoryStopsWhereTheWholeRunStops();
    void offRunsEveryMicroBatch();
    void firstRunMicroBatches_data();
    void firstRunMicroBatches();
    void reportSaysHowItRan();
};

void TestSteadyState::sameAsTheWholeRun_data() {
    QTest::addColumn<QString>("yaml");
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("all_devices");
    QTest::addColumn<bool>("memory_timeline");
    QTest::addColumn<QString>("expected");  // "used", or the start of the reason it was not

    // Every bundled scenario and the test data's scenarios that simulate, as shipped.
    const std::map<std::string, QString> bundled{
        {"bert-large-dp8-delay.yaml", QStringLiteral("too few micro-batches (1)")},
        {"bert-large-dp8.yaml", QStringLiteral("too few micro-batches (1)")},
        {"default.yaml", QStringLiteral("used")},
        {"llama3-405b-16k.yaml", QStringLiteral("too few micro-batches (16)")},
        {"moe-1t-hiermem.yaml", QStringLiteral("too few micro-batches (1)")},
        {"moe-1t-zero-infinity.yaml", QStringLiteral("too few micro-batches (1)")},
        {"optimizer-offload-host.yaml", QStringLiteral("used")},
        // 8 micro-batches on 4 stages: the warm-up (4 + 1) and two steps simulated, the last micro-batch repeated.
        {"pipeline-1f1b.yaml", QStringLiteral("used")},
        // 13/13/13/9 layers and the logits: stages of nearly equal time settle into a period of three micro-batches.
        {"pipeline-balanced.yaml", QStringLiteral("used")},
        {"pipeline-gpipe.yaml", QStringLiteral("GPipe runs every forward before any backward")},
        {"pipeline-interleaved.yaml", QStringLiteral("too few micro-batches (16)")},
        {"pipeline-zb-h1.yaml", QStringLiteral("used")},
        {"resnet50-abci.yaml", QStringLiteral("too few micro-batches (1)")},
        // ZeRO-2 stores and reduce-scatters every micro-batch's gradients, 115.6 ms a micro-batch against the
        // 105.9 ms the micro-batch computes in: those streams fall further behind every step, so no period ever
        // repeats — told from the second short run (the first is too short to follow its steps past the warm-up).
        {"zero-offload-cpu-adam.yaml", QStringLiteral("part of the schedule falls further behind every step")},
    };
    std::size_t listed = 0;
    for (const auto& entry : std::filesystem::directory_iterator(PARASIGHT_SOURCE_DIR "/presets/scenarios")) {
        const std::string name = entry.path().filename().string();
        const auto expected = bundled.find(name);
        QVERIFY2(expected != bundled.end(), qPrintable(qs("a bundled scenario this test does not list: " + name)));
        ++listed;
        QTest::newRow(name.c_str()) << qs(file_text(entry.path().string())) << qs(entry.path().string()) << false
                                    << false << expected->second;
    }
    QCOMPARE(listed, bundled.size());
    for (const char* file : {"tests/data/cli/small_pipeline.yaml",
                             "tests/data/golden/sweep.yaml"}) {
        const std::string path = std::string(PARASIGHT_SOURCE_DIR "/") + file;
        const std::string text = file_text(path);
        QTest::newRow(file) << qs(text) << qs(path) << false << false
                            << (std::string(file).find("sweep") != std::string::npos ? QStringLiteral("used")
                                                                                     : QStringLiteral("too few"));
    }
    // The what-if pipeline with 40 micro-batches: every send delayed, one device slowed, one link degraded.
    // (The measured table named by its full path: the text is read without its folder.)
    const std::string delayed = std::regex_replace(
        std::regex_replace(file_text(PARASIGHT_SOURCE_DIR "/tests/data/what_if/pipeline-delayed.yaml"),
                           std::regex("global_batch: 2"), "global_batch: 40"),
        std::regex("round-ops.csv"), PARASIGHT_SOURCE_DIR "/tests/data/what_if/round-ops.csv");
    QTest::newRow("what-if delays, 40 micro-batches")
        << qs(delayed) << qs(PARASIGHT_SOURCE_DIR "/tests/data/what_if/pipeline-delayed.yaml") << false << false
        << QStringLiteral("used");

    const std::string hybrid = "{tp: 2, pp: 4, schedule: 1f1b, mapping: [tp, pp]}";
    QTest::newRow("1f1b tp2 pp4, memory timeline") << qs(pipeline_yaml(hybrid, 48)) << QStringLiteral("s.yaml")
                                                   << false << true << QStringLiteral("used");
    QTest::newRow("1f1b tp2 pp4, every device") << qs(pipeline_yaml(hybrid, 48)) << QStringLiteral("s.yaml") << true
                                                << true << QStringLiteral("used");
    QTest::newRow("1f1b capped at 2 in flight")
        << qs(pipeline_yaml("{dp: 2, pp: 4, schedule: 1f1b}", 40,
                            "strategy_tree: [{node: \"stage[0]\", max_ongoing_micro_batches: 2}]\n"))
        << QStringLiteral("s.yaml")
        << false << true << QStringLiteral("used");
    QTest::newRow("interleaved v2, groups of 4")
        << qs(pipeline_yaml("{dp: 2, pp: 4, schedule: interleaved, virtual_stages: 2}", 128)) << QStringLiteral("s.yaml")
        << false << true << QStringLiteral("used");
    // 70 = 11 groups of 6 and a last group of 4 (≥ pp): the short run keeps the same last group.
    QTest::newRow("interleaved v2, groups of 6, a last group of 4")
        << qs(pipeline_yaml("{dp: 2, pp: 4, schedule: interleaved, virtual_stages: 2, micro_batch_group: 6}", 140))
        << QStringLiteral("s.yaml") << false << true << QStringLiteral("used");
    QTest::newRow("zb-h1") << qs(pipeline_yaml("{dp: 2, pp: 4, schedule: zb-h1}", 80)) << QStringLiteral("s.yaml") << false
                           << true << QStringLiteral("used");
    QTest::newRow("zero-3 dp2 pp4, every device")
        << qs(pipeline_yaml("{dp: 2, pp: 4, zero: 3, schedule: 1f1b, mapping: [dp, pp]}", 80))
        << QStringLiteral("s.yaml") << true << true << QStringLiteral("used");
    QTest::newRow("zero-1 dp2 pp4, gradients reduced after the last micro-batch")
        << qs(pipeline_yaml("{dp: 2, pp: 4, zero: 1, schedule: 1f1b, mapping: [dp, pp]}", 80))
        << QStringLiteral("s.yaml") << false << true << QStringLiteral("used");
    QTest::newRow("what-if rules on a 1f1b pipeline")
        << qs(pipeline_yaml("{tp: 2, pp: 4, schedule: 1f1b, mapping: [tp, pp]}", 48,
                            "what_if:\n  collective_delays: [{group: tp, operation: all-reduce, delay: 20 us}]\n"
                            "  slow_devices: [{npus: [2], compute_time_factor: 1.3}]\n"
                            "  degraded_links: [{dimension: 1, npus: [0..3], bandwidth_factor: 0.5}]\n"))
        << QStringLiteral("s.yaml") << false << true << QStringLiteral("used");
    // Data parallelism alone, gradients accumulated over 24 micro-batches: a one-stage "pipeline" of F, B steps.
    QTest::newRow("dp8, 24 micro-batches")
        << qs(pipeline_yaml("{dp: 8}", 192)) << QStringLiteral("s.yaml") << false << true << QStringLiteral("used");
}

void TestSteadyState::sameAsTheWholeRun() {
    QFETCH(QString, yaml);
    QFETCH(QString, path);
    QFETCH(bool, all_devices);
    QFETCH(bool, memory_timeline);
    QFETCH(QString, expected);
    const Pair pair = simulate_both(yaml.toStdString(), path.toStdString(), all_devices, memory_timeline);
    QVERIFY2(pair.error.isEmpty(), qPrintable(pair.error));
    const auto& steady = pair.steady->report.steady_state;
    if (expected == QStringLiteral("used")) {
        QVERIFY2(steady.used, qPrintable(qs(steady.reason)));
        QVERIFY(steady.period_s > 0.0);
        QVERIFY(steady.repeated_micro_batches > 0);
        int micro_batches = 0;
        for (const auto& task : pair.whole->graph.tasks) micro_batches = std::max(micro_batches, task.micro_batch + 1);
        QCOMPARE(steady.simulated_micro_batches + steady.repeated_micro_batches, micro_batches);
        QCOMPARE(steady.repeated_micro_batches % steady.period_micro_batches, 0);
    } else {
        QVERIFY(!steady.used);
        QVERIFY2(qs(steady.reason).startsWith(expected), qPrintable(qs(steady.reason)));
    }
    QVERIFY(!pair.whole->report.steady_state.used);
    QCOMPARE(qs(pair.whole->report.steady_state.reason), QStringLiteral("simulation.steady_state is off"));
    compare_runs(*pair.steady, *pair.whole);
    if (QTest::currentTestFailed()) return;
    // The report alone says the same, and ran the same way.
    QCOMPARE(pair.report_only->steady_state, pair.steady->report.steady_state);
    compare_json(QJsonDocument::fromJson(QByteArray::fromStdString(parasight::report_json(*pair.report_only))).object(),
                 QJsonDocument::fromJson(QByteArray::fromStdString(parasight::report_json(pair.whole->report))).object(),
                 QString(), 1e-9);
}

void TestSteadyState::timelineShowsTheWholeRun_data() { sameAsTheWholeRun_data(); }

// The Timeline the window shows, made from the short run where the period repeats (its repeated events made on
// demand), against the Timeline of every micro-batch simulated.
void TestSteadyState::timelineShowsTheWholeRun() {
    QFETCH(QString, yaml);
    QFETCH(QString, path);
    QFETCH(bool, all_devices);
    QFETCH(bool, memory_timeline);
    QFETCH(QString, expected);
    parasight::SimulateOptions options;
    options.all_devices = all_devices;
    options.record_memory_timeline = memory_timeline;
    std::array<std::shared_ptr<const parasight::Timeline>, 2> timelines;
    for (const bool steady_state : {true, false}) {
        const Loaded loaded = load(yaml.toStdString(), path.toStdString(), steady_state);
        QVERIFY2(loaded.scenario, qPrintable(loaded.error));
        auto simulated = parasight::simulate(*loaded.scenario, options);
        QVERIFY2(simulated, simulated ? "" : qPrintable(qs(simulated.error().message)));
        QCOMPARE(simulated.value().report.steady_state.used, steady_state && expected == QStringLiteral("used"));
        timelines[steady_state ? 0 : 1] = simulated.value().timeline;
    }
    compare_timelines(*timelines[0], *timelines[1]);
}

void TestSteadyState::bubbleKeepsItsClosedForm_data() {
    QTest::addColumn<QString>("schedule");
    QTest::addColumn<int>("stages");
    QTest::addColumn<int>("micro_batches");
    QTest::addColumn<int>("chunks");
    QTest::addColumn<int>("group");
    QTest::addColumn<int>("period_micro_batches");
    // 1F1B: (p − 1)/(m + p − 1); interleaved with v chunks: (p − 1)/(v·m + p − 1), also in groups of N (the bubble is
    // still p − 1 chunk steps). A period is one step: a micro-batch for 1F1B, a group for interleaved.
    QTest::newRow("1f1b p=4 m=64: 3/67") << QStringLiteral("1f1b") << 4 << 64 << 1 << 0 << 1;
    QTest::newRow("1f1b p=8 m=100: 7/107") << QStringLiteral("1f1b") << 8 << 100 << 1 << 0 << 1;
    QTest::newRow("interleaved p=4 v=2 m=64: 3/131") << QStringLiteral("interleaved") << 4 << 64 << 2 << 0 << 4;
    QTest::newRow("interleaved p=4 v=2 m=70 N=6: 3/143") << QStringLiteral("interleaved") << 4 << 70 << 2 << 6 << 6;
}

void TestSteadyState::bubbleKeepsItsClosedForm() {
    QFETCH(QString, schedule);
    QFETCH(int, stages);
    QFETCH(int, micro_batches);
    QFETCH(int, chunks);
    QFETCH(int, group);
    QFETCH(int, period_micro_batches);
    const Loaded loaded = load(bubble_yaml(schedule.toUtf8().constData(), stages, micro_batches, chunks, 16, group),
                               "bubble.yaml", true);
    QVERIFY2(loaded.scenario, qPrintable(loaded.error));
    const auto simulated = parasight::simulate_graph(*loaded.scenario, parasight::SimulateOptions{});
    QVERIFY2(simulated, qPrintable(simulated ? QString() : qs(simulated.error().message)));
    const auto& report = simulated.value().report;
    QVERIFY2(report.steady_state.used, qPrintable(qs(report.steady_state.reason)));
    QCOMPARE(report.steady_state.period_micro_batches, period_micro_batches);
    const double p = stages, m = micro_batches, v = chunks;
    // To 1e-9 of the iteration (what the embedding, logits and sends leave over is ≈ 1/(2·s·L) of a step a step).
    QVERIFY(std::abs(report.breakdown.bubble_s / report.iteration_time_s - (p - 1.0) / (v * m + p - 1.0)) <= 1e-9);
    // Each period is one step of every stage: v·P chunk steps of equal time, (v·m + p − 1) of them in the iteration.
    PS_COMPARE_RELATIVE(report.steady_state.period_s,
                        report.iteration_time_s * v * period_micro_batches / (v * m + p - 1.0), 1e-9);
}

void TestSteadyState::outOfMemoryStopsWhereTheWholeRunStops() {
    // GPT-3's default run (18.93 GiB at its peak) on devices of 14 GiB: stage 0 passes its capacity during the warm-up. Sweeps stop there.
    const std::string yaml = file_text(PARASIGHT_SOURCE_DIR "/presets/scenarios/default.yaml");
    const auto small_devices = [](Scenario& scenario) { scenario.cluster.device.memory_bytes = 14.0 * (1ULL << 30); };
    std::optional<parasight::SimulationError> errors[2];
    std::optional<parasight::Report> reports[2];
    for (const bool steady_state : {true, false}) {
        const Loaded loaded =
            load(yaml, PARASIGHT_SOURCE_DIR "/presets/scenarios/default.yaml", steady_state, small_devices);
        QVERIFY2(loaded.scenario, qPrintable(loaded.error));
        parasight::SimulateOptions options;
        options.stop_at_out_of_memory = true;
        const auto stopped = parasight::simulate(*loaded.scenario, options);
        QVERIFY(!stopped);
        errors[steady_state ? 0 : 1] = stopped.error();
        const auto finished = parasight::simulate(*loaded.scenario, parasight::SimulateOptions{});
        QVERIFY(finished);
        reports[steady_state ? 0 : 1] = finished.value().report;
    }
    QCOMPARE(errors[0]->kind, parasight::SimulationErrorKind::out_of_memory);
    QCOMPARE(errors[0]->kind, errors[1]->kind);
    QCOMPARE(errors[0]->out_of_memory.npu, errors[1]->out_of_memory.npu);
    QCOMPARE(errors[0]->out_of_memory.needed_bytes, errors[1]->out_of_memory.needed_bytes);
    QCOMPARE(errors[0]->out_of_memory.time_s, errors[1]->out_of_memory.time_s);
    // Run to the end, the repeated run reports the same crossing.
    QVERIFY(reports[0]->out_of_memory.has_value());
    QVERIFY(reports[0]->steady_state.used);
    QCOMPARE(reports[0]->out_of_memory->npu, reports[1]->out_of_memory->npu);
    QCOMPARE(qs(reports[0]->out_of_memory->tensor), qs(reports[1]->out_of_memory->tensor));
    QVERIFY(std::abs(reports[0]->out_of_memory->time_s - reports[1]->out_of_memory->time_s) <=
            1e-9 * reports[1]->iteration_time_s);
}

void TestSteadyState::offRunsEveryMicroBatch() {
    // simulation.steady_state: false is read from the file, written back and obeyed.
    const std::string yaml = pipeline_yaml("{dp: 2, pp: 4, schedule: 1f1b}", 80, "simulation: {steady_state: false}\n");
    const auto loaded = parasight::load_scenario_text(yaml, "s.yaml");
    QVERIFY(loaded.ok());
    QVERIFY(!loaded.scenario->value().simulation.steady_state);
    const auto simulated = parasight::simulate(*loaded.scenario, parasight::SimulateOptions{});
    QVERIFY(simulated);
    QVERIFY(!simulated.value().report.steady_state.used);
    QCOMPARE(qs(simulated.value().report.steady_state.reason), QStringLiteral("simulation.steady_state is off"));
}

void TestSteadyState::firstRunMicroBatches_data() {
    QTest::addColumn<QString>("schedule");
    QTest::addColumn<int>("stages");
    QTest::addColumn<int>("micro_batches");
    QTest::addColumn<int>("chunks");
    QTest::addColumn<int>("expected");
    // 1F1B, 4 stages: (4 + 1) in flight + 2 periods of one step = 7 (reportSaysHowItRan: the short run the engine
    // ran); 8 are needed to repeat a period at all, so 6 run whole.
    QTest::newRow("1F1B, 40") << "1f1b" << 4 << 40 << 1 << 7;
    QTest::newRow("1F1B, too few") << "1f1b" << 4 << 6 << 1 << 6;
    // ZB-H1 settles first: 5 in flight + (4 settling steps + 2 periods) = 11. (On this machine it settles into no
    // period: after that first run comes a second, longer try, then the whole run.)
    QTest::newRow("ZB-H1, 40") << "zb-h1" << 4 << 40 << 1 << 11;
    // Interleaved, 2 chunks, groups of 4: (2·3 + 1·4 + 2 − 1) / 2 + 1 = 6 in flight + 2 periods of 4 = 14, and 2
    // more so that the 26 left are whole groups: 16.
    QTest::newRow("interleaved, 40") << "interleaved" << 4 << 40 << 2 << 16;
    QTest::newRow("GPipe runs whole") << "gpipe" << 4 << 40 << 1 << 40;
}

// The micro-batches a sweep orders its points by (the most work first): the short run's, or all.
void TestSteadyState::firstRunMicroBatches() {
    QFETCH(QString, schedule);
    QFETCH(int, stages);
    QFETCH(int, micro_batches);
    QFETCH(int, chunks);
    QFETCH(int, expected);
    const Loaded loaded = load(bubble_yaml(schedule.toUtf8().constData(), stages, micro_batches, chunks, 2),
                               "bubble.yaml", true);
    QVERIFY2(loaded.scenario, qPrintable(loaded.error));
    QCOMPARE(parasight::first_run_micro_batches(loaded.scenario->value()), std::int64_t{expected});
    // What the engine ran first is what was counted: the short run where its period repeated, every micro-batch
    // where the schedule cannot repeat one.
    const auto simulated = parasight::simulate(*loaded.scenario, parasight::SimulateOptions{});
    QVERIFY(simulated);
    const auto& steady = simulated.value().report.steady_state;
    if (steady.used) QCOMPARE(steady.simulated_micro_batches, std::int64_t{expected});
    if (!parasight::plan_steady_state(loaded.scenario->value()).repeatable) QCOMPARE(expected, micro_batches);
}

void TestSteadyState::reportSaysHowItRan() {
    // 40 micro-batches, 4 stages, 1F1B: the short run is (4 + 1) + 2 = 7 micro-batches (the warm-up and two periods:
    // 1F1B settles on its first try, with no steps to settle), the other 33 repeat its period — on the ideal machine,
    // where the schedule is periodic from its first steady step. (Where links are shared, the steps converge to their
    // period geometrically, and the short run may need its second, longer try, which has four steps to settle: test
    // sameAsTheWholeRun.)
    const Loaded loaded = load(bubble_yaml("1f1b", 4, 40, 1, 16), "s.yaml", true);
    QVERIFY(loaded.scenario);
    const auto simulated = parasight::simulate(*loaded.scenario, parasight::SimulateOptions{});
    QVERIFY(simulated);
    const auto& steady = simulated.value().report.steady_state;
    QVERIFY(steady.used);
    QCOMPARE(steady.simulated_micro_batches, 7);
    QCOMPARE(steady.repeated_micro_batches, 33);
    QCOMPARE(steady.period_micro_batches, 1);
    const QJsonObject json =
        QJsonDocument::fromJson(QByteArray::fromStdString(parasight::report_json(simulated.value().report)))
            .object()
            .value(QStringLiteral("simulation"))
            .toObject()
            .value(QStringLiteral("steady_state"))
            .toObject();
    QCOMPARE(json.value(QStringLiteral("used")).toBool(), true);
    QCOMPARE(json.value(QStringLiteral("simulated_micro_batches")).toInt(), 7);
    QCOMPARE(json.value(QStringLiteral("repeated_micro_batches")).toInt(), 33);
    QCOMPARE(json.value(QStringLiteral("period_micro_batches")).toInt(), 1);
    PS_COMPARE_RELATIVE(json.value(QStringLiteral("period_s")).toDouble(), steady.period_s, 1e-15);
    QVERIFY(!json.contains(QStringLiteral("reason")));
}

QTEST_GUILESS_MAIN(TestSteadyState)
#include "test_steady_state.moc"
