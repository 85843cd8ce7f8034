// The ParaDL oracle (Kahira et al. 2021, Table 1) worked out by hand for a two-layer CNN, row by row, and each
// strategy's limit on p.
//
// The CNN is two_conv_oracle.h's: two 3 × 3 convolutions on 8 × 8 images (|w| 108 and 72, |b| 4 and 2), FW 1 ms and
// BW 2 ms per sample and WU 0.5 ms per iteration each; D 64, B 16, S 4, α 10 µs, β 1 ns/B, δ 4 B, γ 1. So
// Σ(FW + BW) = 6 ms, ΣWU = 1 ms, Σ|w| = 180.

#include "oracle/paradl_oracle.h"

#include "numeric_compare.h"
#include "two_conv_oracle.h"

#include <QTest>

using parasight::OracleEstimate;
using parasight::OraclePes;
using parasight::OracleStrategy;
using parasight::testing::two_conv_oracle_problem;

Q_DECLARE_METATYPE(OracleStrategy)
Q_DECLARE_METATYPE(OraclePes)

namespace {

OraclePes pes(std::int64_t p, std::int64_t p1 = 1, std::int64_t p2 = 1, std::int64_t pw = 1, std::int64_t ph = 1) {
    return OraclePes{p, p1, p2, pw, ph};
}

}  // namespace

class TestOracle : public QObject {
    Q_OBJECT

private slots:
    void tableOneByHand_data();
    void tableOneByHand();
    void limits_data();
    void limits();
    void haloOfATile();
    void fullyConnectedLayersAreNotSplitSpatially();
};

void TestOracle::tableOneByHand_data() {
    QTest::addColumn<OracleStrategy>("strategy");
    QTest::addColumn<OraclePes>("arrangement");
    QTest::addColumn<double>("compute_s");
    QTest::addColumn<double>("communication_s");
    QTest::addColumn<double>("memory_bytes");
    // Serial: D·Σ(FW + BW) + (D/B)·ΣWU = 64·6 + 4·1 = 388 ms. Memory γδΣ(2B(|x| + |y|) + 2|w| + |b|) =
    // 4·((32·448 + 216 + 4) + (32·384 + 144 + 2)) = 4·(14 556 + 12 434) = 107 960 B.
    QTest::newRow("serial") << OracleStrategy::serial << pes(1) << 388e-3 << 0.0 << 107960.0;
    // Data, p 4: 64/4·6 + 4·1 = 100 ms. Per iteration 2(p − 1)(α + Σ|w|/p·δβ) = 6·(10 µs + 45·4 ns) = 61.08 µs; 4
    // iterations: 244.32 µs. Memory 4·((8·448 + 220) + (8·384 + 146)) = 28 088 B.
    QTest::newRow("data p4") << OracleStrategy::data << pes(4) << 100e-3 << 244.32e-6 << 28088.0;
    // Spatial, p 4 on a 2 × 2 grid: compute and memory as data. Halo per sample (tiles of 4 × 4, a 3 × 3 kernel
    // reaches 1 pixel): conv 1 input 3·(8 + 8) = 48, output gradient 4·16 = 64; conv 2 input 64, output gradient 32.
    // Σ(2α + B·halo·δβ) = (20 + 16·112·4·10⁻³) + (20 + 16·96·4·10⁻³) µs = 27.168 + 26.144 = 53.312 µs. Per
    // iteration 61.08 + 2·53.312 = 167.704 µs; 4 iterations: 670.816 µs.
    QTest::newRow("spatial p4 (2 x 2)") << OracleStrategy::spatial << pes(4, 1, 1, 2, 2) << 100e-3 << 670.816e-6
                                        << 28088.0;
    // Layer (pipeline), p 2 (conv 1 | conv 2), S 4: D(p + S − 1)/S·(max FW + max BW) + (D/B)·max WU =
    // 64·5/4·3 ms + 4·0.5 ms = 242 ms. Exchange: α + (B/S)·|y_1|·δβ = 10 + 4·256·4·10⁻³ = 14.096 µs, times
    // 2·D(p + S − 2)/B = 2·64·4/16 = 32: 451.072 µs. Memory: the larger group, conv 1's 4·14 556 = 58 224 B.
    QTest::newRow("layer p2") << OracleStrategy::layer << pes(2) << 242e-3 << 451.072e-6 << 58224.0;
    // Filter, p 2: 64/2·6 + 64/(16·2)·1 = 194 ms. 3(p − 1)·Σ_{i<G}(α + B|y_i|/p·δβ) = 3·(10 + 16·128·4·10⁻³) µs =
    // 3·18.192 µs per iteration, 218.304 µs in all. Memory 4·((32·448 + 108 + 4) + (32·384 + 72 + 2)) = 107 240 B.
    QTest::newRow("filter p2") << OracleStrategy::filter << pes(2) << 194e-3 << 218.304e-6 << 107240.0;
    QTest::newRow("channel p2") << OracleStrategy::channel << pes(2) << 194e-3 << 218.304e-6 << 107240.0;
    // Data + filter, p 4 = 2 × 2: 64/4·6 + 64/(16·2)·1 = 98 ms. Per iteration 3(p2 − 1)·(α + B|y_1|/p·δβ) +
    // 2(p1 − 1)(α + Σ|w|/p·δβ) = 3·(10 + 4.096) + 2·10.18 = 62.648 µs; 250.592 µs in all. Memory
    // 4·((16·448 + 108 + 4) + (16·384 + 72 + 2)) = 53 992 B.
    QTest::newRow("data + filter p4 (2 x 2)") << OracleStrategy::data_filter << pes(4, 2, 2) << 98e-3 << 250.592e-6
                                              << 53992.0;
    // Data + spatial, p 8 = 2 groups × a 2 × 2 grid: 64/8·6 + 4·1 = 52 ms. Per iteration 2(p − 1)(α + Σ|w|/p·δβ)
    // = 14·10.09 = 141.26 µs, plus 2Σ(2α + (B/p1)·halo·δβ) = 2·((20 + 8·112·4·10⁻³) + (20 + 8·96·4·10⁻³)) =
    // 2·46.656 = 93.312 µs: 234.572 µs; 938.288 µs in all. Memory 4·((4·448 + 220) + (4·384 + 146)) = 14 776 B.
    QTest::newRow("data + spatial p8 (2 x 2 x 2)") << OracleStrategy::data_spatial << pes(8, 2, 4, 2, 2) << 52e-3
                                                   << 938.288e-6 << 14776.0;
    // Data + layer, p 4 = 2 replicas of a 2-stage pipeline (conv 1 | conv 2), each with D/2 = 32 samples in S/2 = 2
    // segments of B/S = 4: 32·(2 + 2 − 1)/2·(1 + 2) ms + (D/B)·max WU = 144 + 2 = 146 ms. The pipeline's exchanges
    // 2·32·(2 + 2 − 2)/8 = 16 times (10 + 4·256·4·10⁻³) µs = 225.536 µs, and per iteration the all-reduce of the larger
    // stage's 108 weights over 2 replicas, 2·1·(10 + 54·4·10⁻³) = 20.432 µs, 4 times: 81.728 µs; 307.264 µs in all.
    // Memory: conv 1's stage with 16/2 samples, 4·(2·8·448 + 2·108 + 4) = 29 552 B.
    QTest::newRow("data + layer p4 (2 x 2)") << OracleStrategy::data_layer << pes(4, 2, 2) << 146e-3 << 307.264e-6
                                             << 29552.0;
}

void TestOracle::tableOneByHand() {
    QFETCH(OracleStrategy, strategy);
    QFETCH(OraclePes, arrangement);
    QFETCH(double, compute_s);
    QFETCH(double, communication_s);
    QFETCH(double, memory_bytes);
    const OracleEstimate estimate = parasight::oracle_estimate(two_conv_oracle_problem(), strategy, arrangement);
    QVERIFY2(!estimate.ruled_out, estimate.ruled_out ? estimate.ruled_out->reason.c_str() : "");
    PS_COMPARE_RELATIVE(estimate.compute_s, compute_s, 1e-12);
    if (communication_s == 0.0) {
        QCOMPARE_EQ(estimate.communication_s, 0.0);
    } else {
        PS_COMPARE_RELATIVE(estimate.communication_s, communication_s, 1e-12);
    }
    QCOMPARE_EQ(estimate.memory_bytes, memory_bytes);
    PS_COMPARE_RELATIVE(estimate.epoch_s(), compute_s + communication_s, 1e-12);
}

void TestOracle::limits_data() {
    QTest::addColumn<OracleStrategy>("strategy");
    QTest::addColumn<OraclePes>("arrangement");
    QTest::addColumn<QString>("reason");
    QTest::addColumn<QString>("bound");
    QTest::newRow("serial on 2") << OracleStrategy::serial << pes(2) << QStringLiteral("serial training runs on p = 1")
                                 << QStringLiteral("p = 1");
    QTest::newRow("data past B") << OracleStrategy::data << pes(32)
                                 << QStringLiteral("p = 32 > B = 16: every PE needs a sample")
                                 << QStringLiteral("p ≤ B = 16");
    QTest::newRow("spatial past W x H") << OracleStrategy::spatial << pes(128, 1, 1, 16, 8)
                                        << QStringLiteral(
                                               "p = 128 > min W×H = 64 (conv 1): every PE needs a pixel "
                                               "of the smallest activation")
                                        << QStringLiteral("p ≤ min W×H = 64");
    // 16 PEs fit the 64 pixels, but a 16 × 1 grid cuts the 8 columns into slices under a pixel wide.
    QTest::newRow("spatial grid wider than the image")
        << OracleStrategy::spatial << pes(16, 1, 1, 16, 1)
        << QStringLiteral("the grid's 16 columns are more than the 8 of conv 1's input")
        << QStringLiteral("pw ≤ min W = 8");
    QTest::newRow("spatial grid taller than the image")
        << OracleStrategy::spatial << pes(16, 1, 1, 1, 16)
        << QStringLiteral("the grid's 16 rows are more than the 8 of conv 1's input")
        << QStringLiteral("ph ≤ min H = 8");
    QTest::newRow("spatial grid not p") << OracleStrategy::spatial << pes(4, 1, 1, 4, 2)
                                        << QStringLiteral("the grid pw × ph = 8 is not p")
                                        << QStringLiteral("the grid pw × ph = p");
    QTest::newRow("layer past G") << OracleStrategy::layer << pes(3) << QStringLiteral("p = 3 > G = 2 layers")
                                  << QStringLiteral("p ≤ G = 2");
    QTest::newRow("filter past F") << OracleStrategy::filter << pes(4)
                                   << QStringLiteral(
                                          "p = 4 > min F = 2 (conv 2): every PE needs a filter of every "
                                          "layer")
                                   << QStringLiteral("p ≤ min F = 2");
    QTest::newRow("channel past C") << OracleStrategy::channel << pes(4)
                                    << QStringLiteral(
                                           "p = 4 > min C = 3 (conv 1): every PE needs a channel of "
                                           "every layer")
                                    << QStringLiteral("p ≤ min C = 3");
    QTest::newRow("data + filter past F")
        << OracleStrategy::data_filter << pes(8, 2, 4) << QStringLiteral("p2 = 4 > min F = 2 (conv 2)")
        << QStringLiteral("p2 ≤ min F = 2");
    QTest::newRow("data + filter past B")
        << OracleStrategy::data_filter << pes(64, 32, 2)
        << QStringLiteral("p1 = 32 > B = 16: every data-parallel group needs a sample")
        << QStringLiteral("p1 ≤ B = 16");
    QTest::newRow("data + spatial grid") << OracleStrategy::data_spatial << pes(8, 2, 4, 4, 2)
                                         << QStringLiteral("p1 × pw × ph = 16 is not p")
                                         << QStringLiteral("p1 × pw × ph = p");
    QTest::newRow("data + layer past S") << OracleStrategy::data_layer << pes(16, 8, 2)
                                         << QStringLiteral("p1 = 8 > S = 4: every replica needs a segment")
                                         << QStringLiteral("p1 ≤ S = 4");
    QTest::newRow("data + layer past G") << OracleStrategy::data_layer << pes(6, 2, 3)
                                         << QStringLiteral("p = 3 > G = 2 layers") << QStringLiteral("p ≤ G = 2");
    QTest::newRow("data + layer past B") << OracleStrategy::data_layer << pes(64, 32, 2)
                                         << QStringLiteral("p1 = 32 > B = 16: every data-parallel group needs a sample")
                                         << QStringLiteral("p1 ≤ B = 16");
    QTest::newRow("data + spatial past W x H")
        << OracleStrategy::data_spatial << pes(256, 2, 128, 16, 8)
        << QStringLiteral("p2 = 128 > min W×H = 64 (conv 1): every PE needs a pixel of the smallest activation")
        << QStringLiteral("p2 ≤ min W×H = 64");
}

void TestOracle::limits() {
    QFETCH(OracleStrategy, strategy);
    QFETCH(OraclePes, arrangement);
    QFETCH(QString, reason);
    QFETCH(QString, bound);
    const OracleEstimate estimate = parasight::oracle_estimate(two_conv_oracle_problem(), strategy, arrangement);
    QVERIFY(estimate.ruled_out.has_value());
    QCOMPARE(QString::fromStdString(estimate.ruled_out->reason), reason);
    QCOMPARE(QString::fromStdString(estimate.ruled_out->bound), bound);
}

void TestOracle::haloOfATile() {
    // 16 channels of 32 × 32 on a 4 × 2 grid (tiles 8 wide, 16 high) with a 5 × 5 kernel (reach 2): rows from above
    // and below 2·2·8 = 32, columns from left and right 2·2·16 = 64: 16·96 = 1 536 elements.
    QCOMPARE_EQ(parasight::halo_elements(16, 32, 32, 5, 4, 2), 1536.0);
    // A 1 × 1 kernel, or one PE, needs no neighbour.
    QCOMPARE_EQ(parasight::halo_elements(16, 32, 32, 1, 4, 2), 0.0);
    QCOMPARE_EQ(parasight::halo_elements(16, 32, 32, 5, 1, 1), 0.0);
    // A grid of one row exchanges columns only: 16·2·2·32 = 2 048.
    QCOMPARE_EQ(parasight::halo_elements(16, 32, 32, 5, 4, 1), 2048.0);
}

void TestOracle::fullyConnectedLayersAreNotSplitSpatially() {
    // An fc layer after the two convolutions: 128 inputs, 10 outputs, a 1 × 1 "image". It bounds no grid and adds no
    // halo, so spatial p 4 (2 × 2) keeps its communication; its weights join the all-reduce: Σ|w| = 180 + 1 280.
    parasight::OracleProblem problem = two_conv_oracle_problem();
    parasight::OracleLayer fc;
    fc.name = "fc 3";
    fc.input_elements = 128.0;
    fc.output_elements = 10.0;
    fc.weights = 1280.0;
    fc.biases = 10.0;
    fc.filters = 10;
    fc.channels = 128;
    fc.spatial = false;
    problem.layers.push_back(fc);
    const OracleEstimate estimate = parasight::oracle_estimate(problem, OracleStrategy::spatial, pes(4, 1, 1, 2, 2));
    QVERIFY(!estimate.ruled_out);
    // Per iteration: all-reduce 2·3·(10 µs + 1 460/4·4·10⁻³ µs) = 6·11.46 = 68.76 µs; halo as for two convolutions,
    // 2·53.312 = 106.624 µs; 4 iterations: 4·175.384 = 701.536 µs.
    PS_COMPARE_RELATIVE(estimate.communication_s, 701.536e-6, 1e-12);
}

QTEST_APPLESS_MAIN(TestOracle)
#include "test_oracle.moc"
