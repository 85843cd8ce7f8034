// parasight-cli oracle end to end (docs/cli.md "oracle"): the built binary on tests/data/oracle/small-cnn.yaml, whose
// layers test_oracle_scenario.cpp works out by hand — conv 0 (3 × 8 × 8 → 4 × 8 × 8, 3 × 3) with FW 13.824 ns and
// BW 27.648 ns per sample, WU 0.224 / 0.813 ns; fc 1 (256 → 10) FW 5.12 ns, BW 10.24 ns, WU 5.14 / 0.813 ns (the fused
// optimizer step's 20 B per parameter at its measured 0.813 of the bandwidth). D 64, B 8 (8 iterations), S 4, δ 4 B,
// 40 000 B per PE; one ring of 4 at 1 GB/s with 10 µs a hop (α 10 µs, β 1 ns/B).
// Σ(FW + BW) = 56.832 ns, ΣWU = 5.364 / 0.813 ns, Σ|w| = 108 + 2 560 = 2 668.

#include "cli_runner.h"
#include "numeric_compare.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace {

using parasight::testing::data_path;
using parasight::testing::describe;

constexpr double kExact = 1e-12;  // the CLI prints shortest round-trip numbers; sums of a few terms
constexpr double kConvUpdate_s = 0.224e-9 / 0.813;  // WU of conv 0
constexpr double kFcUpdate_s = 5.14e-9 / 0.813;     // WU of fc 1
constexpr double kUpdates_s = kConvUpdate_s + kFcUpdate_s;

QStringList oracle_shape_problems(const QJsonObject& json) {
    QStringList problems;
    for (const auto key : {"model", "samples", "batch", "iterations_per_epoch", "micro_batches", "element_bytes",
                           "memory_capacity_bytes", "points"}) {
        if (!json.contains(QLatin1String(key))) problems << QStringLiteral("no key %1").arg(QLatin1String(key));
    }
    for (const QJsonValue point : json.value(QStringLiteral("points")).toArray()) {
        for (const auto key : {"p", "alpha_s", "beta_s_per_byte", "beyond_cluster", "best", "strategies"}) {
            if (!point.toObject().contains(QLatin1String(key))) {
                problems << QStringLiteral("a point without %1").arg(QLatin1String(key));
            }
        }
    }
    return problems;
}

QJsonObject strategy_at(const QJsonObject& json, int point, const QString& name) {
    const QJsonObject at = json.value(QStringLiteral("points")).toArray().at(point).toObject();
    const QJsonArray strategies = at.value(QStringLiteral("strategies")).toArray();
    for (const QJsonValue strategy : strategies) {
        if (strategy.toObject().value(QStringLiteral("strategy")).toString() == name) return strategy.toObject();
    }
    return {};
}

}  // namespace

class TestCliOracle : public QObject {
    Q_OBJECT

private slots:
    void jsonByHand() {
        RUN_CLI(run, {QStringLiteral("oracle"), data_path(QStringLiteral("oracle/small-cnn.yaml")),
                      QStringLiteral("--pes"), QStringLiteral("1,2,4,8"), QStringLiteral("--json")});
        EXPECT_EXIT(run, 0);
        PARSE_JSON_OBJECT(json, run, oracle_shape_problems);
        QCOMPARE(json.value(QStringLiteral("model")).toString(), QStringLiteral("small CNN"));
        QCOMPARE_EQ(json.value(QStringLiteral("iterations_per_epoch")).toDouble(), 8.0);
        QCOMPARE_EQ(json.value(QStringLiteral("memory_capacity_bytes")).toDouble(), 40000.0);
        const QJsonArray points = json.value(QStringLiteral("points")).toArray();
        QCOMPARE_EQ(points.size(), 4);

        // p 1: no links; serial keeps 4·((2·8·448 + 220) + (2·8·266 + 5 130)) = 67 096 B: it does not fit, nor does
        // anything else on one PE.
        QCOMPARE_EQ(points[0].toObject().value(QStringLiteral("alpha_s")).toDouble(), 0.0);
        QVERIFY(points[0].toObject().value(QStringLiteral("best")).isNull());
        const QJsonObject serial = strategy_at(json, 0, QStringLiteral("serial"));
        QCOMPARE_EQ(serial.value(QStringLiteral("memory_bytes")).toDouble(), 67096.0);
        QCOMPARE(serial.value(QStringLiteral("fits_memory")).toBool(), false);

        // p 2: only the layer pipeline fits (its larger group, fc 1, keeps 4·9 386 = 37 544 B; data 44 248 B). Compute
        // D(p + S − 1)/S·(max FW + max BW) + (D/B)·max WU = 64·5/4·41.472 + 8·5.14/0.813 ns; communication
        // 2D(p + S − 2)/B·(α + (B/S)·|y_0|·δβ) = 64·(10 µs + 2·256·4 ns) = 771.072 µs.
        QCOMPARE(points[1].toObject().value(QStringLiteral("best")).toString(), QStringLiteral("layer"));
        const QJsonObject layer = strategy_at(json, 1, QStringLiteral("layer"));
        PS_COMPARE_RELATIVE(layer.value(QStringLiteral("compute_s")).toDouble(), 3317.76e-9 + 8.0 * kFcUpdate_s, kExact);
        PS_COMPARE_RELATIVE(layer.value(QStringLiteral("communication_s")).toDouble(), 771.072e-6, kExact);
        QCOMPARE_EQ(layer.value(QStringLiteral("memory_bytes")).toDouble(), 37544.0);
        QCOMPARE(strategy_at(json, 1, QStringLiteral("data")).value(QStringLiteral("fits_memory")).toBool(), false);

        // p 4, data: 64/4·56.832 + 8·5.364/0.813 = 909.312 + 8·ΣWU ns; 8·2·3·(10 µs + 2 668/4·4 ns) = 8·76.008 =
        // 608.064 µs;
        // per iteration an eighth; memory 4·((2·2·448 + 220) + (2·2·266 + 5 130)) = 32 824 B.
        const QJsonObject data = strategy_at(json, 2, QStringLiteral("data"));
        PS_COMPARE_RELATIVE(data.value(QStringLiteral("compute_s")).toDouble(), 909.312e-9 + 8.0 * kUpdates_s, kExact);
        PS_COMPARE_RELATIVE(data.value(QStringLiteral("communication_s")).toDouble(), 608.064e-6, kExact);
        PS_COMPARE_RELATIVE(data.value(QStringLiteral("iteration_s")).toDouble(),
                            (909.312e-9 + 8.0 * kUpdates_s + 608.064e-6) / 8.0, kExact);
        QCOMPARE_EQ(data.value(QStringLiteral("memory_bytes")).toDouble(), 32824.0);
        QVERIFY(data.value(QStringLiteral("ruled_out")).isNull());

        // p 4, spatial 2 × 2: the conv's halo, 3·16 (input) + 4·16 (output gradient) = 112 values a sample, twice an
        // iteration: 2·(2α + 8·112·4 ns) = 47.168 µs; with data's 76.008 µs, 8·123.176 = 985.408 µs. fc 1 is not split.
        const QJsonObject spatial = strategy_at(json, 2, QStringLiteral("spatial"));
        QCOMPARE_EQ(spatial.value(QStringLiteral("pw")).toInt(), 2);
        QCOMPARE_EQ(spatial.value(QStringLiteral("ph")).toInt(), 2);
        PS_COMPARE_RELATIVE(spatial.value(QStringLiteral("communication_s")).toDouble(), 985.408e-6, kExact);

        // Limits at p 4 and 8: C = 3 of conv 0 bounds channel parallelism, B = 8 data parallelism, and p 8 is past
        // the ring's 4 NPUs.
        QCOMPARE(strategy_at(json, 2, QStringLiteral("channel")).value(QStringLiteral("ruled_out")).toString(),
                 QStringLiteral("p = 4 > min C = 3 (conv 0): every PE needs a channel of every layer"));
        QCOMPARE(strategy_at(json, 2, QStringLiteral("channel")).value(QStringLiteral("limit")).toString(),
                 QStringLiteral("p ≤ min C = 3"));
        QVERIFY(data.value(QStringLiteral("limit")).isNull());
        QCOMPARE(points[3].toObject().value(QStringLiteral("beyond_cluster")).toBool(), true);
        QVERIFY(strategy_at(json, 3, QStringLiteral("data")).value(QStringLiteral("ruled_out")).isNull());
        QCOMPARE(strategy_at(json, 3, QStringLiteral("filter")).value(QStringLiteral("ruled_out")).toString(),
                 QStringLiteral("p = 8 > min F = 4 (conv 0): every PE needs a filter of every layer"));
    }

    // The scenario's own strategy, data over its 4 PEs, beside its simulation (overlap slowdown 0, so that computation
    // beside communication runs at full speed). Per iteration the oracle computes 909.312 ns / 8 + ΣWU = 113.664 ns +
    // ΣWU; the simulation runs each replica's one micro-batch of 2 through the same roofline — conv 0 27.648 + fc 1
    // 10.24 ns forward, 55.296 + 20.48 ns backward, the optimizer ΣWU — the same. The oracle's ring moves the
    // weights, 6·(10 µs + 2 668/4·4 ns) = 76.008 µs; the simulated one the biases too: 6·(10 µs + 2 682/4·4 ns) =
    // 76.092 µs, all of it exposed (one bucket, after backward).
    void compareData() {
        QTemporaryDir folder;
        const QString file = folder.filePath(QStringLiteral("small-cnn.yaml"));
        QFile original(data_path(QStringLiteral("oracle/small-cnn.yaml")));
        QVERIFY(original.open(QIODevice::ReadOnly));
        QVERIFY(parasight::testing::write_file(file, original.readAll() + "simulation: {overlap_slowdown: 0}\n"));
        RUN_CLI(run, {QStringLiteral("oracle"), file, QStringLiteral("--pes"), QStringLiteral("4"),
                      QStringLiteral("--compare"), QStringLiteral("--json")});
        EXPECT_EXIT(run, 0);
        PARSE_JSON_OBJECT(json, run, oracle_shape_problems);
        const QJsonObject comparison = json.value(QStringLiteral("comparison")).toObject();
        QCOMPARE(comparison.value(QStringLiteral("strategy")).toString(), QStringLiteral("data"));
        QCOMPARE(comparison.value(QStringLiteral("p")).toInt(), 4);
        const QJsonObject oracle = comparison.value(QStringLiteral("oracle")).toObject();
        const QJsonObject simulated = comparison.value(QStringLiteral("simulated")).toObject();
        PS_COMPARE_RELATIVE(oracle.value(QStringLiteral("compute_s")).toDouble(), 113.664e-9 + kUpdates_s, kExact);
        PS_COMPARE_RELATIVE(simulated.value(QStringLiteral("compute_s")).toDouble(), 113.664e-9 + kUpdates_s, 1e-9);
        PS_COMPARE_RELATIVE(oracle.value(QStringLiteral("communication_s")).toDouble(), 76.008e-6, kExact);
        PS_COMPARE_RELATIVE(simulated.value(QStringLiteral("communication_s")).toDouble(), 76.092e-6, 1e-9);
        PS_COMPARE_RELATIVE(simulated.value(QStringLiteral("exposed_communication_s")).toDouble(), 76.092e-6, 1e-9);
        QCOMPARE_EQ(simulated.value(QStringLiteral("bubble_s")).toDouble(), 0.0);
        PS_COMPARE_RELATIVE(simulated.value(QStringLiteral("iteration_s")).toDouble(),
                            113.664e-9 + kUpdates_s + 76.092e-6, 1e-9);
        const QJsonArray reasons = comparison.value(QStringLiteral("reasons")).toArray();
        QCOMPARE(reasons.size(), 2);  // nothing overlaps, no pipeline: the collectives' cost, then computation
        QVERIFY(reasons[0].toString().startsWith(QStringLiteral("the collectives' cost: ")));
        QVERIFY(reasons[1].toString().startsWith(QStringLiteral("computation: the same roofline")));
    }

    // Two replicas of a two-stage pipeline (conv 0 | fc 1): the oracle's data + layer. Per epoch D/p1 = 32 samples
    // each in S/p1 = 2 segments of 2: 32·(2 + 2 − 1)/2·(13.824 + 27.648) ns + 8·5.14/0.813 ns = 1 990.656 ns + 8 WU, of it the fill
    // and drain 32·1/2·41.472 = 663.552 ns; exchanges 32·(10 µs + 2·256·4 ns) = 385.536 µs and the all-reduce of fc
    // 1's 2 560 weights over 2 replicas 8·2·(10 µs + 1 280·4 ns) = 241.92 µs. Per iteration an eighth of each.
    void compareDataAndLayer() {
        QTemporaryDir folder;
        const QString file = folder.filePath(QStringLiteral("small-cnn.yaml"));
        QFile original(data_path(QStringLiteral("oracle/small-cnn.yaml")));
        QVERIFY(original.open(QIODevice::ReadOnly));
        QByteArray text = original.readAll();
        text.replace("parallelism: {dp: 4}", "parallelism: {dp: 2, pp: 2}");
        QVERIFY(parasight::testing::write_file(file, text));
        RUN_CLI(run, {QStringLiteral("oracle"), file, QStringLiteral("--pes"), QStringLiteral("4"),
                      QStringLiteral("--compare"), QStringLiteral("--json")});
        EXPECT_EXIT(run, 0);
        PARSE_JSON_OBJECT(json, run, oracle_shape_problems);
        const QJsonObject comparison = json.value(QStringLiteral("comparison")).toObject();
        QCOMPARE(comparison.value(QStringLiteral("strategy")).toString(), QStringLiteral("data+layer"));
        QCOMPARE(comparison.value(QStringLiteral("p1")).toInt(), 2);
        QCOMPARE(comparison.value(QStringLiteral("p2")).toInt(), 2);
        const QJsonObject oracle = comparison.value(QStringLiteral("oracle")).toObject();
        PS_COMPARE_RELATIVE(oracle.value(QStringLiteral("compute_s")).toDouble(),
                            (1990.656e-9 + 8.0 * kFcUpdate_s) / 8.0, kExact);
        PS_COMPARE_RELATIVE(oracle.value(QStringLiteral("bubble_s")).toDouble(), 663.552e-9 / 8.0, kExact);
        PS_COMPARE_RELATIVE(oracle.value(QStringLiteral("communication_s")).toDouble(), 627.456e-6 / 8.0, kExact);
        const QJsonObject simulated = comparison.value(QStringLiteral("simulated")).toObject();
        QVERIFY(simulated.value(QStringLiteral("bubble_s")).toDouble() > 0.0);  // stage 1 waits for stage 0
        bool fill_and_drain = false;
        for (const QJsonValue reason : comparison.value(QStringLiteral("reasons")).toArray()) {
            fill_and_drain = fill_and_drain || reason.toString().startsWith(QStringLiteral("the pipeline's fill"));
        }
        QVERIFY2(fill_and_drain, qPrintable(describe(run)));
        // The text version says the same, with the bubble marked as the oracle's computation.
        RUN_CLI(text_run, {QStringLiteral("oracle"), file, QStringLiteral("--pes"), QStringLiteral("4"),
                           QStringLiteral("--compare")});
        EXPECT_EXIT(text_run, 0);
        QVERIFY2(text_run.out.contains(QStringLiteral("the scenario's own strategy, data+layer on 2 × 2 PEs")),
                 qPrintable(describe(text_run)));
        QVERIFY2(text_run.out.contains(QStringLiteral("* counted in the oracle's computation")),
                 qPrintable(describe(text_run)));
    }

    void tableNamesLimitsAndBest() {
        RUN_CLI(run, {QStringLiteral("oracle"), data_path(QStringLiteral("oracle/small-cnn.yaml")),
                      QStringLiteral("--pes"), QStringLiteral("2,16"), QStringLiteral("--strategy"),
                      QStringLiteral("data,layer")});
        EXPECT_EXIT(run, 0);
        QVERIFY2(run.out.contains(QStringLiteral("64 samples per epoch, B = 8 (8.0 iterations per epoch)")),
                 qPrintable(describe(run)));
        QVERIFY2(run.out.contains(QStringLiteral("  best: layer (")), qPrintable(describe(run)));
        QVERIFY2(run.out.contains(QStringLiteral("data          ruled out: p = 16 > B = 8: every PE needs a sample")),
                 qPrintable(describe(run)));
        QVERIFY2(run.out.contains(QStringLiteral("beyond the cluster")), qPrintable(describe(run)));
        QVERIFY2(!run.out.contains(QStringLiteral("spatial")), qPrintable(describe(run)));
    }

    void badInput_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        const QString cnn = data_path(QStringLiteral("oracle/small-cnn.yaml"));
        QTest::newRow("no file") << QStringList{} << QStringLiteral("name exactly one scenario FILE");
        QTest::newRow("pes not a number")
            << QStringList{cnn, QStringLiteral("--pes"), QStringLiteral("1,two")}
            << QStringLiteral("--pes: 'two' is not a PE count from 1 to 10000000");
        QTest::newRow("pes zero") << QStringList{cnn, QStringLiteral("--pes"), QStringLiteral("0")}
                                  << QStringLiteral("--pes: '0' is not a PE count from 1 to 10000000");
        QTest::newRow("pes decreasing")
            << QStringList{cnn, QStringLiteral("--pes"), QStringLiteral("4,2")}
            << QStringLiteral("--pes: list PE counts in increasing order, each once (2 after 4)");
        QTest::newRow("pes trailing comma") << QStringList{cnn, QStringLiteral("--pes"), QStringLiteral("2,")}
                                            << QStringLiteral("--pes: '' is not a PE count");
        QTest::newRow("strategy typo")
            << QStringList{cnn, QStringLiteral("--strategy"), QStringLiteral("spacial")}
            << QStringLiteral("--strategy: unknown strategy 'spacial' (did you mean 'spatial'?)");
        QTest::newRow("strategy twice") << QStringList{cnn, QStringLiteral("--strategy"), QStringLiteral("data,data")}
                                        << QStringLiteral("--strategy: 'data' is listed twice");
        QTest::newRow("unknown option") << QStringList{cnn, QStringLiteral("--pe"), QStringLiteral("2")}
                                        << QStringLiteral("--pe");
    }

    void badInput() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        RUN_CLI(run, QStringList{QStringLiteral("oracle")} + arguments);
        EXPECT_EXIT(run, 2);
        QVERIFY2(run.err.contains(message), qPrintable(describe(run)));
        QVERIFY2(run.out.isEmpty(), qPrintable(describe(run)));
    }

    void tooManyPeCounts() {
        QStringList counts;
        for (int p = 1; p <= 65; ++p) counts << QString::number(p);
        RUN_CLI(run, {QStringLiteral("oracle"), data_path(QStringLiteral("oracle/small-cnn.yaml")),
                      QStringLiteral("--pes"), counts.join(u',')});
        EXPECT_EXIT(run, 2);
        QVERIFY2(run.err.contains(QStringLiteral("--pes: at most 64 PE counts, not 65")), qPrintable(describe(run)));
    }

    void transformerScenario() {
        const QString file = QStringLiteral(PARASIGHT_SOURCE_DIR "/presets/scenarios/pipeline-gpipe.yaml");
        RUN_CLI(run, {QStringLiteral("oracle"), file});
        EXPECT_EXIT(run, 2);
        QCOMPARE(run.err, file + QStringLiteral(": the oracle's closed forms are for CNN models (ParaDL); GPT-2 medium "
                                                "is a transformer\n"));
    }

    void invalidScenario() {
        const QString file = data_path(QStringLiteral("bad/dataset-samples-below-batch.yaml"));
        RUN_CLI(run, {QStringLiteral("oracle"), file});
        EXPECT_EXIT(run, 2);
        QVERIFY2(run.err.startsWith(file + QStringLiteral(":6:48: dataset_samples 100")), qPrintable(describe(run)));
    }
};

QTEST_GUILESS_MAIN(TestCliOracle)
#include "test_cli_oracle.moc"
