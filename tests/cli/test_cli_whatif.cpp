// parasight-cli whatif end to end (docs/cli.md "whatif"): the delay sweep on tests/data/what_if/bert-dp.yaml, whose
// knee tests/core/test_what_if.cpp works out by hand — each layer's all-reduce 0.5 ms with 2 ms of backward to hide
// behind, so delays up to 1.5 ms add only the last two calls' (slope 2), and past that all 5 (slope 5) — and every
// bad argument.

#include "cli_runner.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace {

using parasight::testing::data_path;
using parasight::testing::describe;

QStringList whatif_shape_problems(const QJsonObject& json) {
    QStringList problems;
    for (const auto key : {"group", "operation", "layers", "delayed_calls", "baseline_s", "hidden_delay_s",
                           "hidden_beyond_range", "hides_nothing", "initial_slope", "slope", "points"}) {
        if (!json.contains(QLatin1String(key))) problems << QStringLiteral("no key %1").arg(QLatin1String(key));
    }
    for (const QJsonValue point : json.value(QStringLiteral("points")).toArray()) {
        for (const auto key : {"delay_s", "iteration_time_s", "exposed_comm_s"}) {
            if (!point.toObject().contains(QLatin1String(key))) {
                problems << QStringLiteral("a point without %1").arg(QLatin1String(key));
            }
        }
    }
    return problems;
}

}  // namespace

class TestCliWhatIf : public QObject {
    Q_OBJECT

private slots:
    void jsonByHand() {
        RUN_CLI(run, {QStringLiteral("whatif"), data_path(QStringLiteral("what_if/bert-dp.yaml")),
                      QStringLiteral("--delay"), QStringLiteral("0.5..3ms +0.5ms"), QStringLiteral("--group"),
                      QStringLiteral("dp"), QStringLiteral("--json")});
        EXPECT_EXIT(run, 0);
        PARSE_JSON_OBJECT(json, run, whatif_shape_problems);
        QCOMPARE(json.value(QStringLiteral("group")).toString(), QStringLiteral("dp"));
        QVERIFY(json.value(QStringLiteral("operation")).isNull());
        QVERIFY(json.value(QStringLiteral("layers")).isNull());
        QCOMPARE(json.value(QStringLiteral("delayed_calls")).toInt(), 5);
        // Delay 0 comes first though the range starts at 0.5 ms: 7 points.
        const QJsonArray points = json.value(QStringLiteral("points")).toArray();
        QCOMPARE(points.size(), 7);
        QCOMPARE(points.at(0).toObject().value(QStringLiteral("delay_s")).toDouble(), 0.0);
        const double t0 = json.value(QStringLiteral("baseline_s")).toDouble();
        QCOMPARE(points.at(0).toObject().value(QStringLiteral("iteration_time_s")).toDouble(), t0);
        // d = 1 ms hides all but 2 ms; d = 3 ms: T0 − 4.5 + ε + 15 (ε = 81 ns, the final LayerNorm's gradients).
        QVERIFY(std::abs(points.at(2).toObject().value(QStringLiteral("iteration_time_s")).toDouble() - (t0 + 2e-3)) <=
                1e-12);
        QVERIFY(std::abs(points.at(6).toObject().value(QStringLiteral("iteration_time_s")).toDouble() -
                         (t0 + 10.5e-3)) <= 1e-7);
        QCOMPARE(json.value(QStringLiteral("hidden_delay_s")).toDouble(), 1.5e-3);
        QCOMPARE(json.value(QStringLiteral("hidden_beyond_range")).toBool(), false);
        QCOMPARE(json.value(QStringLiteral("hides_nothing")).toBool(), false);  // 2 of the 5 calls, not all
        QVERIFY(std::abs(json.value(QStringLiteral("initial_slope")).toDouble() - 2.0) <= 1e-6);
        QVERIFY(std::abs(json.value(QStringLiteral("slope")).toDouble() - 5.0) <= 1e-6);
        // Past the knee the iteration's extra time is exposed dp communication.
        const QJsonObject exposed = points.at(6).toObject().value(QStringLiteral("exposed_comm_s")).toObject();
        QVERIFY(exposed.value(QStringLiteral("dp")).toDouble() > 10e-3);
        QCOMPARE(exposed.value(QStringLiteral("tp")).toDouble(), 0.0);
    }

    void table() {
        RUN_CLI(run, {QStringLiteral("whatif"), data_path(QStringLiteral("what_if/pipeline.yaml")),
                      QStringLiteral("--delay"), QStringLiteral("1ms,2ms,3ms"), QStringLiteral("--operation"),
                      QStringLiteral("send")});
        EXPECT_EXIT(run, 0);
        // 11 + 2d up to the knee at 2 ms, 9 + 3d past it (test_what_if.cpp works the events out).
        QVERIFY2(run.out.startsWith(QStringLiteral("delay added to every send: 2 delayed calls per "
                                                   "iteration on the busiest simulated device\n")),
                 qPrintable(describe(run)));
        for (const auto row : {"0 s         11 ms       +0.0%", "1 ms        13 ms       +18.2%",
                               "2 ms        15 ms       +36.4%", "3 ms        18 ms       +63.6%"}) {
            QVERIFY2(run.out.contains(QLatin1String(row)), qPrintable(QLatin1String(row) + describe(run)));
        }
        QVERIFY2(run.out.contains(QStringLiteral("hidden delay: 2 ms (the largest swept delay the overlap absorbs")),
                 qPrintable(describe(run)));
        QVERIFY2(run.out.contains(QStringLiteral("below the knee: 2.00 s")), qPrintable(describe(run)));
        QVERIFY2(run.out.contains(QStringLiteral("past the knee: 3.00 s")), qPrintable(describe(run)));
    }

    void nothingHidesOnTheCriticalPath() {
        // bert-tp.yaml: the same 4 layers split over tp 2, no data parallelism. Each layer's tensor-parallel
        // all-reduces — 2 in its forward, 2 in its backward, for each of the 2 micro-batches: 4 × 4 × 2 = 32 — are
        // waited for by the next computation, so every delay adds whole: 32 ms per ms, from the first.
        RUN_CLI(run, {QStringLiteral("whatif"), data_path(QStringLiteral("what_if/bert-tp.yaml")),
                      QStringLiteral("--delay"), QStringLiteral("1ms,2ms"), QStringLiteral("--group"),
                      QStringLiteral("tp")});
        EXPECT_EXIT(run, 0);
        QVERIFY2(run.out.contains(QStringLiteral("32 delayed calls per iteration")), qPrintable(describe(run)));
        QVERIFY2(run.out.contains(QStringLiteral("below the knee: 32.00 s of iteration per s of delay")),
                 qPrintable(describe(run)));
        QVERIFY2(run.out.contains(QStringLiteral("hidden delay: none (each of the 32 delayed calls adds its whole "
                                                 "delay from the smallest on: the overlap hides none of it)\n")),
                 qPrintable(describe(run)));
        QVERIFY(!run.out.contains(QStringLiteral("at least")));
        RUN_CLI(json_run, {QStringLiteral("whatif"), data_path(QStringLiteral("what_if/bert-tp.yaml")),
                           QStringLiteral("--delay"), QStringLiteral("1ms,2ms"), QStringLiteral("--group"),
                           QStringLiteral("tp"), QStringLiteral("--json")});
        EXPECT_EXIT(json_run, 0);
        PARSE_JSON_OBJECT(json, json_run, whatif_shape_problems);
        QCOMPARE(json.value(QStringLiteral("hides_nothing")).toBool(), true);
    }

    void delayAsASweepAxis() {
        // A rule's delay is a scenario path like any other: the sweep stores 11, 13, 15 and 18 ms (11 + 2d up to
        // the knee at 2 ms, 9 + 3d past it).
        QTemporaryDir folder;
        QVERIFY(folder.isValid());
        RUN_CLI(run, {QStringLiteral("sweep"), data_path(QStringLiteral("what_if/pipeline-delayed.yaml")),
                      QStringLiteral("--axis"), QStringLiteral("what_if.collective_delays[0].delay=0..3ms+1ms"),
                      QStringLiteral("--db"), folder.filePath(QStringLiteral("delays.db"))});
        EXPECT_EXIT(run, 0);
        QVERIFY2(run.out.contains(QStringLiteral("4 of 4 points stored")), qPrintable(describe(run)));
        for (const auto row : {"0 ms                               11 ms", "1 ms                               13 ms",
                               "2 ms                               15 ms", "3 ms                               18 ms"}) {
            QVERIFY2(run.out.contains(QLatin1String(row)), qPrintable(QLatin1String(row) + describe(run)));
        }
    }

    void badInput_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        const QString file = data_path(QStringLiteral("what_if/bert-dp.yaml"));
        const QString delay = QStringLiteral("--delay");
        QTest::newRow("no file") << QStringList{delay, QStringLiteral("1ms")}
                                 << QStringLiteral("name exactly one scenario FILE");
        QTest::newRow("no delay") << QStringList{file} << QStringLiteral("--delay is required");
        QTest::newRow("delay without unit") << QStringList{file, delay, QStringLiteral("3")}
                                            << QStringLiteral("--delay: '3':");
        QTest::newRow("delay negative") << QStringList{file, delay, QStringLiteral("-1ms")}
                                        << QStringLiteral("--delay: '-1ms' is not a delay from 0 s to 1 h");
        QTest::newRow("delay past an hour") << QStringList{file, delay, QStringLiteral("3601 s")}
                                            << QStringLiteral("--delay: '3601 s' is not a delay from 0 s to 1 h");
        QTest::newRow("too many delays") << QStringList{file, delay, QStringLiteral("0..1s +1ms")}
                                         << QStringLiteral("--delay: 1001 delays; at most 1000");
        QTest::newRow("group typo") << QStringList{file, delay, QStringLiteral("1ms"), QStringLiteral("--group"),
                                                   QStringLiteral("dpp")}
                                    << QStringLiteral("--group: unknown group 'dpp' (did you mean 'dp'?)");
        QTest::newRow("operation spelt as NCCL does")
            << QStringList{file, delay, QStringLiteral("1ms"), QStringLiteral("--operation"),
                           QStringLiteral("allreduce")}
            << QStringLiteral("--operation: unknown operation 'allreduce' (did you mean 'all-reduce'?)");
        QTest::newRow("layers backwards") << QStringList{file, delay, QStringLiteral("1ms"),
                                                         QStringLiteral("--layers"), QStringLiteral("3..1")}
                                          << QStringLiteral("--layers: '3..1' is not a layer or a range");
        QTest::newRow("nothing matches")
            << QStringList{file, delay, QStringLiteral("1ms"), QStringLiteral("--group"), QStringLiteral("tp")}
            << QStringLiteral("bert-dp.yaml: the delay matches no communication of this run");
        QTest::newRow("only delay 0") << QStringList{file, delay, QStringLiteral("0s")}
                                      << QStringLiteral("bert-dp.yaml: no delay above 0 to sweep");
        QTest::newRow("invalid scenario")
            << QStringList{data_path(QStringLiteral("bad/what-if-unknown-group.yaml")), delay, QStringLiteral("1ms")}
            << QStringLiteral("what-if-unknown-group.yaml:13:15: 'dpp' is not a valid what_if.collective_delays[0]");
    }

    void badInput() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        RUN_CLI(run, QStringList{QStringLiteral("whatif")} + arguments);
        EXPECT_EXIT(run, 2);
        QVERIFY2(run.err.contains(message), qPrintable(describe(run)));
        QVERIFY2(run.out.isEmpty(), qPrintable(describe(run)));
    }
};

QTEST_GUILESS_MAIN(TestCliWhatIf)
#include "test_cli_whatif.moc"
