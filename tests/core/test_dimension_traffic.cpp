// What each topology dimension carried (analysis/dimension_traffic.h), worked out by hand on
// tests/data/cli/small_pipeline.yaml: a 4-layer transformer (h 256, s 256, vocabulary 1024, bf16), micro-batches of
// 2, tp 2 · dp 2 · pp 2 on two 4-NPU switches (300 GB/s, 1 us) joined by a switch of 2 (25 GB/s, 5 us); mapping
// [tp, dp, pp], so tp and dp stay inside dimension 0 and the pipeline crosses dimension 1. One device per stage.
//
// An activation (or its gradient) is s · b · h · 2 B = 256 · 2 · 256 · 2 = 262 144 B.
// Dimension 1, per NPU: a stage sends 4 micro-batches' activations (stage 0) or gradients (stage 1), and the tied
//   embedding's gradient (V · h / tp · 2 B = 1024 · 256 / 2 · 2 = 262 144 B) once: 5 · 262 144 = 1 310 720 B.
// Dimension 0, per NPU: Megatron's tp all-reduces, 2 in forward and 2 in backward per layer and micro-batch, a ring
//   of 2 sending 2(n−1)/n = 1 × 262 144 B each: 2 layers · 4 micro-batches · 4 · 262 144 = 8 388 608 B; then the dp
//   all-reduce of the stage's gradients, a ring of 2 sending its whole buffer once: 2 layers of about 12 h² / tp
//   = 393 216 parameters and the embedding's 131 072 (or the logits' on stage 1), 2 B each, about 1.84 MB.

#include "analysis/dimension_traffic.h"
#include "scenario_file/scenario_loader.h"
#include "simulation/simulate.h"

#include <QtTest>

using namespace parasight;

class TestDimensionTraffic : public QObject {
    Q_OBJECT
private slots:
    void eachDimensionCarriesItsGroups();
    void identicalDevicesAreReadOnce();
};

void TestDimensionTraffic::eachDimensionCarriesItsGroups() {
    const LoadResult loaded = load_scenario_file(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml");
    QVERIFY(loaded.ok());
    const auto simulation = simulate(*loaded.scenario, SimulateOptions{});
    QVERIFY(simulation.has_value());
    const Timeline& timeline = *simulation->timeline;
    const TrafficReport traffic = dimension_traffic(timeline, 2);
    QCOMPARE(traffic.dimensions.size(), std::size_t{2});
    QCOMPARE(traffic.dimensions[1].bytes_per_npu, 1310720.0);
    const double tp_bytes = 8388608.0;
    const double dp_bytes = traffic.dimensions[0].bytes_per_npu - tp_bytes;
    QVERIFY2(dp_bytes > 1.8e6 && dp_bytes < 1.9e6, qPrintable(QString::number(dp_bytes)));
    // Busy at least as long as its transfers take alone: on dimension 1, 5 of (5 us + 262 144 B / 25 GB/s).
    const double alone_s = 5 * (5e-6 + 262144.0 / 25e9);
    QVERIFY(traffic.dimensions[1].busy_fraction >= alone_s / timeline.iteration_time_s());
    QVERIFY(traffic.dimensions[1].busy_fraction < 1.0);
    QVERIFY(traffic.dimensions[0].busy_fraction > 0.0 && traffic.dimensions[0].busy_fraction < 1.0);
    // tp and dp live in dimension 0, the pipeline crosses dimension 1; no cp or ep transfers at all.
    using Bottleneck = std::optional<std::size_t>;
    QCOMPARE(traffic.bottleneck_dimension[static_cast<std::size_t>(CommGroup::tp)], Bottleneck(0));
    QCOMPARE(traffic.bottleneck_dimension[static_cast<std::size_t>(CommGroup::dp)], Bottleneck(0));
    QCOMPARE(traffic.bottleneck_dimension[static_cast<std::size_t>(CommGroup::pp)], Bottleneck(1));
    QCOMPARE(traffic.bottleneck_dimension[static_cast<std::size_t>(CommGroup::cp)], Bottleneck());
    QCOMPARE(traffic.bottleneck_dimension[static_cast<std::size_t>(CommGroup::ep)], Bottleneck());
}

void TestDimensionTraffic::identicalDevicesAreReadOnce() {
    // Every device simulated: each stage's 4 devices are alike, so reading one per class gives what reading all 8
    // does, and what one device per stage (each standing for 4) gives.
    const LoadResult loaded = load_scenario_file(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml");
    QVERIFY(loaded.ok());
    SimulateOptions options;
    options.all_devices = true;
    const auto every = simulate(*loaded.scenario, options);
    const auto representatives = simulate(*loaded.scenario, SimulateOptions{});
    QVERIFY(every.has_value() && representatives.has_value());
    const IdenticalDevices classes = IdenticalDevices::of(*every->timeline);
    QCOMPARE(classes.class_count(), std::size_t{2});
    const TrafficReport all = dimension_traffic(*every->timeline, 2);
    const TrafficReport once = dimension_traffic(*every->timeline, 2, &classes);
    const TrafficReport stood_for = dimension_traffic(*representatives->timeline, 2);
    for (std::size_t d = 0; d < 2; ++d) {
        QVERIFY(qFuzzyCompare(once.dimensions[d].bytes_per_npu, all.dimensions[d].bytes_per_npu));
        QVERIFY(qFuzzyCompare(once.dimensions[d].busy_fraction, all.dimensions[d].busy_fraction));
        QVERIFY(qFuzzyCompare(once.dimensions[d].bytes_per_npu, stood_for.dimensions[d].bytes_per_npu));
    }
    QVERIFY(once.bottleneck_dimension == all.bottleneck_dimension);
}

QTEST_APPLESS_MAIN(TestDimensionTraffic)
#include "test_dimension_traffic.moc"
