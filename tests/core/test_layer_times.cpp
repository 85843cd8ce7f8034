// Each layer's compute time in an iteration (analysis/layer_times.h), on tests/data/cli/small_pipeline.yaml: a
// 4-layer transformer on 2 pipeline stages (layers 0-1 on stage 0's NPU 0, layers 2-3 on stage 1's NPU 4), 4
// micro-batches of 2 sequences per stage.

#include "analysis/layer_times.h"
#include "scenario_file/scenario_loader.h"
#include "simulation/simulate.h"

#include <QtTest>

using namespace parasight;

namespace {

std::optional<Simulation> small_pipeline(Recompute recompute) {
    const LoadResult loaded = load_scenario_file(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml");
    if (!loaded.ok()) return std::nullopt;
    Scenario scenario = loaded.scenario->value();
    scenario.parallelism.recompute = recompute;
    Validation validated = validate(scenario);
    if (!validated.scenario) return std::nullopt;
    auto simulation = simulate(*validated.scenario, SimulateOptions{});
    if (!simulation) return std::nullopt;
    return std::move(simulation).value();
}

// The sum of a device's compute events of `kind` for `layer`, added up here event by event.
double summed(const Timeline& timeline, std::size_t device, int layer, TaskKind kind) {
    double seconds = 0.0;
    for (const EventId id : timeline.lane(device, Stream::compute)) {
        const TimelineEvent event = timeline.event(id);
        if (event.layer == layer && event.kind == kind) seconds += event.end_s - event.start_s;
    }
    return seconds;
}

}  // namespace

class TestLayerTimes : public QObject {
    Q_OBJECT
private slots:
    void eachLayerIsTimedOnItsStage();
    void recomputeIsCountedApart();
};

void TestLayerTimes::eachLayerIsTimedOnItsStage() {
    const auto simulation = small_pipeline(Recompute::none);
    QVERIFY(simulation.has_value());
    const Timeline& timeline = *simulation->timeline;
    const std::vector<LayerTimes> times = layer_times(timeline);
    QCOMPARE(times.size(), std::size_t{4});
    for (int layer = 0; layer < 4; ++layer) {
        const LayerTimes& t = times[static_cast<std::size_t>(layer)];
        const std::size_t device = layer < 2 ? 0 : 1;  // stage 0's NPU 0, stage 1's NPU 4
        QCOMPARE(t.layer.forward_s, summed(timeline, device, layer, TaskKind::forward));
        QCOMPARE(t.layer.backward_s, summed(timeline, device, layer, TaskKind::backward));
        QVERIFY(t.layer.forward_s > 0.0);
        // Backward computes the input and the weight gradients: two matmuls for each one of forward.
        QVERIFY(t.layer.backward_s > t.layer.forward_s);
        QCOMPARE(t.layer.recompute_s, 0.0);
        // Every operation of a transformer layer belongs to its attention block or its MLP block.
        QVERIFY(qFuzzyCompare(t.attention.forward_s + t.mlp.forward_s, t.layer.forward_s));
        QVERIFY(qFuzzyCompare(t.attention.backward_s + t.mlp.backward_s, t.layer.backward_s));
        QVERIFY(t.attention.forward_s > 0.0 && t.mlp.forward_s > 0.0);
    }
    // The layers' work is part of their stage's computation, compute and local memory (with the embedding, the logits
    // and the optimizer).
    for (const DeviceReport& device : simulation->report.per_device) {
        double layers_s = 0.0;
        for (int layer = device.stage * 2; layer < device.stage * 2 + 2; ++layer) {
            layers_s += times[static_cast<std::size_t>(layer)].layer.forward_s +
                        times[static_cast<std::size_t>(layer)].layer.backward_s;
        }
        const double computing_s = device.breakdown.compute_s + device.breakdown.exposed_local_memory_s;
        QVERIFY(layers_s <= computing_s * (1.0 + 1e-12));
        QVERIFY(layers_s > 0.5 * computing_s);
    }
}

void TestLayerTimes::recomputeIsCountedApart() {
    // Full recompute runs each layer's forward again before its backward: recompute time appears, as long as the
    // forward within the slowdown of overlapped communication (γ = 0.1 either way).
    const auto plain = small_pipeline(Recompute::none);
    const auto full = small_pipeline(Recompute::full);
    QVERIFY(plain.has_value() && full.has_value());
    const std::vector<LayerTimes> times = layer_times(*full->timeline);
    QCOMPARE(times.size(), std::size_t{4});
    for (const LayerTimes& t : times) {
        QVERIFY(t.layer.recompute_s > 0.0);
        QVERIFY(t.layer.recompute_s >= t.layer.forward_s / 1.1 - 1e-15);
        QVERIFY(t.layer.recompute_s <= t.layer.forward_s * 1.1 + 1e-15);
        QVERIFY(qFuzzyCompare(t.attention.recompute_s + t.mlp.recompute_s, t.layer.recompute_s));
    }
}

QTEST_APPLESS_MAIN(TestLayerTimes)
#include "test_layer_times.moc"
