// A sweep axis as a user writes it (sweep/sweep_axis.h): lists, geometric and arithmetic ranges expanded to the
// values a scenario file would hold, worked out by hand; and every way of writing one wrong, with its message.

#include "sweep/sweep_axis.h"

#include <QtTest>

using namespace parasight;

using Values = std::vector<std::string>;
Q_DECLARE_METATYPE(Values)

class TestSweepAxis : public QObject {
    Q_OBJECT
private slots:
    void axesExpand_data();
    void axesExpand();
    void badAxesSayWhy_data();
    void badAxesSayWhy();
};

void TestSweepAxis::axesExpand_data() {
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("path");
    QTest::addColumn<Values>("values");
    QTest::newRow("a list") << "parallelism.tp=1,2,4,8" << "parallelism.tp" << Values{"1", "2", "4", "8"};
    QTest::newRow("a list with spaces") << " parallelism.schedule = 1f1b , gpipe " << "parallelism.schedule"
                                        << Values{"1f1b", "gpipe"};
    QTest::newRow("one value") << "training.micro_batch=2" << "training.micro_batch" << Values{"2"};
    // 1, 2, 4, …, 64: 2^0 … 2^6, seven values.
    QTest::newRow("powers of two") << "parallelism.pp=1..64 x2" << "parallelism.pp"
                                   << Values{"1", "2", "4", "8", "16", "32", "64"};
    // 1, 3, 9, 27; 81 is past 50.
    QTest::newRow("a factor past the end") << "parallelism.dp=1..50 x3" << "parallelism.dp" << Values{"1", "3", "9", "27"};
    // 100, 150, …, 400 GB/s: (400 − 100) / 50 + 1 = 7 values, in the range's unit.
    QTest::newRow("bandwidths") << "cluster.topology[1].bandwidth=100..400 GB/s +50 GB/s"
                                << "cluster.topology[1].bandwidth"
                                << Values{"100 GB/s", "150 GB/s", "200 GB/s", "250 GB/s", "300 GB/s", "350 GB/s",
                                          "400 GB/s"};
    // A step in another unit of the same kind: 1 us to 2 us by 500 ns, written in the range's unit.
    QTest::newRow("latencies") << "cluster.topology[0].latency=1..2 us +500 ns" << "cluster.topology[0].latency"
                               << Values{"1 us", "1.5 us", "2 us"};
    // The step glued to the end's unit, as whatif's --delay is often written: 0, 0.5, 1 ms.
    QTest::newRow("glued step") << "what_if.collective_delays[0].delay=0..1ms+0.5ms"
                                << "what_if.collective_delays[0].delay" << Values{"0 ms", "0.5 ms", "1 ms"};
    // A '+' after an exponent's 'e' is its sign, not a step: 1e+3 to 4e+3 by 1000.
    QTest::newRow("exponent sign") << "parallelism.dp=1e+3..4e+3 +1000" << "parallelism.dp"
                                   << Values{"1000", "2000", "3000", "4000"};
    // 0.1 steps reach their end despite rounding: 0, 0.1, 0.2, 0.3.
    QTest::newRow("fractions") << "simulation.overlap_slowdown=0..0.3 +0.1" << "simulation.overlap_slowdown"
                               << Values{"0", "0.1", "0.2", "0.30000000000000004"};
}

void TestSweepAxis::axesExpand() {
    QFETCH(QString, spec);
    QFETCH(QString, path);
    QFETCH(Values, values);
    const auto axis = parse_sweep_axis(spec.toStdString());
    QVERIFY2(axis.has_value(), axis ? "" : axis.error().c_str());
    QCOMPARE(QString::fromStdString(axis->path), path);
    QCOMPARE(axis->values, values);
}

void TestSweepAxis::badAxesSayWhy_data() {
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("message");
    QTest::newRow("no '='") << "parallelism.tp"
                            << "an axis is written PATH=VALUES (e.g. parallelism.tp=1,2,4,8), not 'parallelism.tp'";
    QTest::newRow("no path") << "=1,2" << "an axis needs a scenario path before '=' (e.g. parallelism.tp)";
    QTest::newRow("no values") << "parallelism.tp="
                               << "parallelism.tp: no values after '='; write a list (1,2,4) or a range (1..64 x2)";
    QTest::newRow("an empty value") << "parallelism.tp=1,,4" << "parallelism.tp: an empty value in the list '1,,4'";
    QTest::newRow("no step") << "parallelism.tp=1..8"
                             << "parallelism.tp: a range needs a step: 'xK' to multiply (1..64 x2) or '+S' to add "
                                "(100..400 GB/s +50 GB/s)";
    QTest::newRow("an empty range") << "parallelism.tp=8..1 x2"
                                    << "parallelism.tp: the range is empty: its end comes before its start";
    QTest::newRow("a factor of 1") << "parallelism.tp=1..8 x1"
                                   << "parallelism.tp: a range's factor must be a number above 1, not '1'";
    QTest::newRow("multiplying from 0") << "parallelism.tp=0..8 x2"
                                        << "parallelism.tp: a range that multiplies must start above 0";
    QTest::newRow("a step of 0") << "parallelism.tp=1..8 +0" << "parallelism.tp: a range's step must be above 0, not '0'";
    QTest::newRow("a start that is no number") << "parallelism.tp=one..8 x2"
                                               << "parallelism.tp: the range's start 'one' is not a number";
    QTest::newRow("an unknown unit") << "x.bandwidth=1..4 GBps +1 GB/s"
                                     << "x.bandwidth: the range's unit 'GBps' is not a unit of size, bandwidth, time "
                                        "or FLOP/s";
    QTest::newRow("a step of another kind") << "x.bandwidth=1..4 GB/s +1 us"
                                            << "x.bandwidth: the range's step '1 us': ";
    QTest::newRow("a step without the unit") << "x.bandwidth=1..4 GB/s +1"
                                             << "x.bandwidth: the range's step '1': ";
    QTest::newRow("a unit on the step only") << "parallelism.tp=1..4 +1 GB/s"
                                             << "parallelism.tp: the range's step '1 GB/s' needs the range's unit (the "
                                                "range has none)";
    // 1..1e9 +1 would be 10^9 values.
    QTest::newRow("too many values") << "training.global_batch=1..1000000000 +1"
                                     << "training.global_batch: the range has more than 100000 values";
}

void TestSweepAxis::badAxesSayWhy() {
    QFETCH(QString, spec);
    QFETCH(QString, message);
    const auto axis = parse_sweep_axis(spec.toStdString());
    QVERIFY(!axis.has_value());
    QVERIFY2(QString::fromStdString(axis.error()).startsWith(message), axis.error().c_str());
}

QTEST_APPLESS_MAIN(TestSweepAxis)
#include "test_sweep_axis.moc"
