// The oracle applied to a scenario (docs/oracle.md §2–3): the problem read from a CNN scenario, worked out by hand
// for tests/data/oracle/small-cnn.yaml; the links p PEs span; the arrangement chosen for each strategy and the best
// strategy at each p, with and without a memory capacity.
//
// small-cnn.yaml: conv 0 takes 3 × 8 × 8 to 4 × 8 × 8 (3 × 3 kernel, padding 1), fc 1 takes 256 values to 10; micro-
// batch 2, fp32, SGD; a device of 1 TFLOP/s for every matmul (efficiency 1, no size penalty) and 10 TB/s of memory.
// Per micro-batch of b = 2 samples:
//   conv 0 forward 2·b·64 positions·27 (k²C)·4 (F) = 27 648 FLOP = 27.648 ns; it streams (b·192 + 108 + 5·b·64·4)·4
//     = 12 208 B = 1.22 ns, so compute-bound; backward twice both: 55.296 ns. Per sample FW 13.824 ns, BW 27.648 ns.
//   fc 1 forward 2·b·256·10 = 10 240 FLOP = 10.24 ns (streams (b·256 + 2 560 + b·10)·4 = 12 368 B = 1.24 ns);
//     per sample FW 5.12 ns, BW 10.24 ns.
//   WU: SGD with momentum streams 20 B per parameter, in one fused kernel at 0.813 of the bandwidth (its measured share,
//     core/model/model_states.h): conv 0 (108 + 4)·20 = 2 240 B, 0.224 ns / 0.813; fc 1 (2 560 + 10)·20 = 51 400 B,
//     5.14 ns / 0.813.

#include "oracle/oracle_problem.h"
#include "oracle/strong_scaling.h"
#include "scenario_file/scenario_loader.h"

#include "numeric_compare.h"
#include "test_dimension.h"
#include "two_conv_oracle.h"

#include <QTest>

using parasight::OracleProblem;
using parasight::OracleStrategy;
using parasight::testing::two_conv_oracle_problem;

namespace {

OracleProblem small_cnn() {
    const parasight::LoadResult loaded =
        parasight::load_scenario_file(PARASIGHT_SOURCE_DIR "/tests/data/oracle/small-cnn.yaml");
    if (!loaded.ok()) qFatal("small-cnn.yaml does not load");
    auto problem = parasight::oracle_problem(*loaded.scenario);
    if (!problem) qFatal("%s", problem.error().c_str());
    return *problem;
}

}  // namespace

class TestOracleScenario : public QObject {
    Q_OBJECT

private slots:
    void layersOfTheScenario();
    void trainingAndDevice();
    void transformerIsRefused();
    void linksThePesSpan();
    void arrangementOfEachStrategy();
    void bestStrategyFitsInMemory();
};

void TestOracleScenario::layersOfTheScenario() {
    const OracleProblem problem = small_cnn();
    QCOMPARE_EQ(problem.layers.size(), std::size_t{2});
    const parasight::OracleLayer& conv = problem.layers[0];
    QCOMPARE(QString::fromStdString(conv.name), QStringLiteral("conv 0"));
    QCOMPARE_EQ(conv.input_elements, 192.0);   // 3·8·8
    QCOMPARE_EQ(conv.output_elements, 256.0);  // 4·8·8
    QCOMPARE_EQ(conv.weights, 108.0);          // 3·3·3·4
    QCOMPARE_EQ(conv.biases, 4.0);
    QCOMPARE_EQ(conv.channels, 3);
    QCOMPARE_EQ(conv.filters, 4);
    QCOMPARE_EQ(conv.width, 8);
    QCOMPARE_EQ(conv.output_height, 8);
    QCOMPARE_EQ(conv.kernel, 3);
    QVERIFY(conv.spatial);
    PS_COMPARE_RELATIVE(conv.forward_s, 13.824e-9, 1e-12);
    PS_COMPARE_RELATIVE(conv.backward_s, 27.648e-9, 1e-12);
    PS_COMPARE_RELATIVE(conv.update_s, 0.224e-9 / 0.813, 1e-12);

    const parasight::OracleLayer& fc = problem.layers[1];
    QCOMPARE(QString::fromStdString(fc.name), QStringLiteral("fc 1"));
    QCOMPARE_EQ(fc.input_elements, 256.0);
    QCOMPARE_EQ(fc.output_elements, 10.0);
    QCOMPARE_EQ(fc.weights, 2560.0);
    QCOMPARE_EQ(fc.biases, 10.0);
    QCOMPARE_EQ(fc.channels, 256);  // an fc layer's inputs
    QCOMPARE_EQ(fc.filters, 10);    // its outputs
    QCOMPARE_EQ(fc.kernel, 1);
    QVERIFY(!fc.spatial);
    PS_COMPARE_RELATIVE(fc.forward_s, 5.12e-9, 1e-12);
    PS_COMPARE_RELATIVE(fc.backward_s, 10.24e-9, 1e-12);
    PS_COMPARE_RELATIVE(fc.update_s, 5.14e-9 / 0.813, 1e-12);
}

void TestOracleScenario::trainingAndDevice() {
    const OracleProblem problem = small_cnn();
    QCOMPARE_EQ(problem.samples, 64.0);        // dataset_samples
    QCOMPARE_EQ(problem.batch, 8.0);           // global_batch
    QCOMPARE_EQ(problem.iterations(), 8.0);    // 64 / 8
    QCOMPARE_EQ(problem.micro_batches, 4.0);   // 8 / micro_batch 2
    QCOMPARE_EQ(problem.element_bytes, 4.0);   // fp32
    QCOMPARE_EQ(problem.memory_overhead, 1.0);
    QCOMPARE_EQ(problem.memory_capacity_bytes, 40000.0);
    QCOMPARE_EQ(problem.alpha_s, 0.0);         // set for each p by oracle_strong_scaling
}

void TestOracleScenario::transformerIsRefused() {
    const parasight::LoadResult loaded =
        parasight::load_scenario_file(PARASIGHT_SOURCE_DIR "/presets/scenarios/pipeline-gpipe.yaml");
    QVERIFY(loaded.ok());
    const auto problem = parasight::oracle_problem(*loaded.scenario);
    QVERIFY(!problem);
    QCOMPARE(QString::fromStdString(problem.error()),
             QStringLiteral("the oracle's closed forms are for CNN models (ParaDL); GPT-2 medium is a transformer"));
}

void TestOracleScenario::linksThePesSpan() {
    using parasight::DimensionKind;
    // 4 GPUs at 20 GB/s inside a node (1 µs), 16 nodes through a switch at 6.25 GB/s (2 µs, 96% of it reached, 5 µs
    // per step), a size-1 dimension between them that no message crosses.
    using parasight::testing::make_dimension;
    std::vector<parasight::Dimension> topology{make_dimension(DimensionKind::fully_connected, 4, 20e9, 1e-6),
                                               make_dimension(DimensionKind::ring, 1, 1e9, 1.0),
                                               make_dimension(DimensionKind::switch_fabric, 16, 6.25e9, 2e-6)};
    topology[2].efficiency = 0.96;
    topology[2].step_latency_s = 5e-6;

    const auto one = parasight::oracle_network(topology, 1);
    QCOMPARE_EQ(one.dimensions, std::size_t{0});
    QCOMPARE_EQ(one.alpha_s, 0.0);
    QCOMPARE_EQ(one.beta_s_per_byte, 0.0);

    const auto node = parasight::oracle_network(topology, 4);  // inside one node
    QCOMPARE_EQ(node.dimensions, std::size_t{1});
    QCOMPARE_EQ(node.alpha_s, 1e-6);
    PS_COMPARE_RELATIVE(node.beta_s_per_byte, 1.0 / 20e9, 1e-15);
    QVERIFY(!node.beyond_cluster);

    // 8 PEs cross the switch: α = 2 µs + 5 µs, β = 1 / (6.25 GB/s · 0.96) = 1 / 6 GB/s.
    const auto nodes = parasight::oracle_network(topology, 8);
    QCOMPARE_EQ(nodes.dimensions, std::size_t{2});
    PS_COMPARE_RELATIVE(nodes.alpha_s, 7e-6, 1e-15);
    PS_COMPARE_RELATIVE(nodes.beta_s_per_byte, 1.0 / 6e9, 1e-15);
    QVERIFY(!nodes.beyond_cluster);
    QVERIFY(!parasight::oracle_network(topology, 64).beyond_cluster);

    const auto beyond = parasight::oracle_network(topology, 128);  // 64 NPUs in all
    QVERIFY(beyond.beyond_cluster);
    PS_COMPARE_RELATIVE(beyond.beta_s_per_byte, 1.0 / 6e9, 1e-15);
}

void TestOracleScenario::arrangementOfEachStrategy() {
    const OracleProblem problem = two_conv_oracle_problem();
    // Spatial p 8 on 8 × 8 images: a 4 × 2 grid (tiles 2 wide, 4 high) needs 2·2 + 2·4 = 12 halo values a channel,
    // 2 × 4 as many, 8 × 1 2·8 = 16: the squarest, first of the two equals, wins.
    const auto spatial = parasight::oracle_choice(problem, OracleStrategy::spatial, 8);
    QVERIFY(!spatial.estimate.ruled_out);
    QCOMPARE_EQ(spatial.pes.pw, 4);
    QCOMPARE_EQ(spatial.pes.ph, 2);

    // Data + filter p 32 with B 16 and min F 2: 16 × 2 is the one split both limits allow.
    const auto split = parasight::oracle_choice(problem, OracleStrategy::data_filter, 32);
    QVERIFY(!split.estimate.ruled_out);
    QCOMPARE_EQ(split.pes.p1, 16);
    QCOMPARE_EQ(split.pes.p2, 2);

    // p 64: p1 ≤ 16 leaves p2 ≥ 4 > min F. The reason given is that of the split with the most data parallelism.
    const auto none = parasight::oracle_choice(problem, OracleStrategy::data_filter, 64);
    QVERIFY(none.estimate.ruled_out);
    QCOMPARE_EQ(none.pes.p1, 16);
    QCOMPARE(QString::fromStdString(none.estimate.ruled_out->reason), QStringLiteral("p2 = 4 > min F = 2 (conv 2)"));

    // Spatial p 128 > 64 pixels: every grid is ruled out; the squarest one's reason.
    const auto past = parasight::oracle_choice(problem, OracleStrategy::spatial, 128);
    QCOMPARE_EQ(past.pes.pw, 16);
    QCOMPARE_EQ(past.pes.ph, 8);
    QVERIFY(past.estimate.ruled_out);
}

void TestOracleScenario::bestStrategyFitsInMemory() {
    const std::vector<parasight::Dimension> topology{
        parasight::Dimension{parasight::DimensionKind::ring, 64, 4e9, 10e-6, {}, 1.0, {}, 0.0}};
    const std::vector<std::int64_t> pes{4};
    const std::vector<OracleStrategy> strategies{OracleStrategy::data, OracleStrategy::spatial,
                                                 OracleStrategy::data_filter};
    // Unbounded memory, p 4 (α 10 µs, β 1/4 GB/s = 0.25 ns/B). Data: 64/4·6 + 4·1 = 100 ms compute,
    // 4·2·3·(10 + 45·4·0.25·10⁻³) µs = 4·60.27 = 241.08 µs. Data + filter 2 × 2: 64/4·6 + 64/(16·2)·1 = 98 ms, and
    // per iteration 3·1·(10 + 16·256/4·4·0.25·10⁻³) + 2·1·(10 + 180/4·4·0.25·10⁻³) = 3·11.024 + 2·10.045 =
    // 53.162 µs, 212.648 µs in all: 98.213 ms beats data's 100.241 ms.
    OracleProblem problem = two_conv_oracle_problem();
    auto points = parasight::oracle_strong_scaling(problem, topology, pes, strategies);
    QCOMPARE_EQ(points.size(), std::size_t{1});
    QVERIFY(points[0].best.has_value());
    const auto& fastest = points[0].choices[*points[0].best];
    QCOMPARE(fastest.strategy, OracleStrategy::data_filter);
    QCOMPARE_EQ(fastest.pes.p2, 2);
    PS_COMPARE_RELATIVE(fastest.estimate.epoch_s(), 98.212648e-3, 1e-12);
    PS_COMPARE_RELATIVE(points[0].choices[0].estimate.epoch_s(), 100.24108e-3, 1e-12);

    // 30 000 B per PE: data + filter 2 × 2 keeps 4·((2·8·448 + 112) + (2·8·384 + 74)) = 53 992 B and no longer fits;
    // its 4 × 1 split (data's 28 088 B) does, and ties data, listed first.
    problem.memory_capacity_bytes = 30000.0;
    points = parasight::oracle_strong_scaling(problem, topology, pes, strategies);
    QCOMPARE_EQ(points[0].choices[2].pes.p1, 4);
    QCOMPARE(points[0].choices[*points[0].best].strategy, OracleStrategy::data);

    // 20 000 B: nothing fits, no best.
    problem.memory_capacity_bytes = 20000.0;
    points = parasight::oracle_strong_scaling(problem, topology, pes, strategies);
    QVERIFY(!points[0].best.has_value());
}

QTEST_APPLESS_MAIN(TestOracleScenario)
#include "test_oracle_scenario.moc"
