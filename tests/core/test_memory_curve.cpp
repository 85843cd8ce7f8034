// A device's memory over the iteration reduced for drawing (analysis/memory_curve.h): the exact step line while it
// is small, intervals at their highest level past it, and the level per pixel column — a peak is never lost.

#include "analysis/memory_curve.h"

#include <QtTest>

using namespace parasight;

class TestMemoryCurve : public QObject {
    Q_OBJECT
private slots:
    void memoryCurveSteps();
    void memoryCurveKeepsThePeak();
    void memoryLevels_data();
    void memoryLevels();
};

void TestMemoryCurve::memoryCurveSteps() {
    // 1 GiB from the start, 3 GiB from 2 s, 2 GiB from 5 s, to the end at 8 s: three levels, two points each.
    const MemorySample samples[] = {{0.0, 1.0}, {2.0, 3.0}, {5.0, 2.0}};
    const std::vector<CurvePoint> points = memory_curve(samples, 8.0, 100);
    const std::vector<CurvePoint> expected = {{0.0, 1.0}, {2.0, 1.0}, {2.0, 3.0}, {5.0, 3.0}, {5.0, 2.0}, {8.0, 2.0}};
    QVERIFY(points == expected);
    QVERIFY(memory_curve({}, 8.0, 100).empty());
}

void TestMemoryCurve::memoryCurveKeepsThePeak() {
    // 100 000 samples at 1 byte, one of them at 1000 bytes for a moment: reduced to 50 intervals of 2 points, the
    // spike survives as an interval's level and the curve still spans the iteration.
    std::vector<MemorySample> samples;
    for (int i = 0; i < 100000; ++i) samples.push_back({i * 1e-3, i == 61234 ? 1000.0 : 1.0});
    const std::vector<CurvePoint> points = memory_curve(samples, 100.0, 100);
    QCOMPARE(points.size(), std::size_t{100});
    double highest = 0.0;
    for (const CurvePoint& point : points) highest = std::max(highest, point.bytes);
    QCOMPARE(highest, 1000.0);
    QCOMPARE(points.front().time_s, 0.0);
    QCOMPARE(points.back().time_s, 100.0);
    // The spike at 61.234 s lies in the interval [60, 62): its level is 1000 there and 1 in the others.
    for (std::size_t i = 0; i < points.size(); i += 2) {
        const bool spike = points[i].time_s <= 61.234 && points[i + 1].time_s > 61.234;
        QCOMPARE(points[i].bytes, spike ? 1000.0 : 1.0);
    }
}

void TestMemoryCurve::memoryLevels_data() {
    QTest::addColumn<double>("from");
    QTest::addColumn<double>("to");
    QTest::addColumn<int>("columns");
    QTest::addColumn<QList<double>>("levels");
    // 10 bytes from 1 s, 30 from 2 s, 20 from 3 s, 5 from 4 s (nothing allocated before 1 s).
    QTest::newRow("a column a second") << 0.0 << 5.0 << 5 << QList<double>{0, 10, 30, 20, 5};
    // [0, 2.5) holds 0, 10 and 30 (from 2 s): 30; [2.5, 5) holds 30 (still at 2.5 s), 20 and 5: 30.
    QTest::newRow("two columns") << 0.0 << 5.0 << 2 << QList<double>{30, 30};
    // From inside a level: at 2.5 s the level is 30, at 3 s it drops to 20.
    QTest::newRow("from inside") << 2.5 << 3.5 << 2 << QList<double>{30, 20};
    // After the last sample its level holds.
    QTest::newRow("after the last") << 6.0 << 8.0 << 2 << QList<double>{5, 5};
    QTest::newRow("before the first") << 0.0 << 0.5 << 1 << QList<double>{0};
}

void TestMemoryCurve::memoryLevels() {
    QFETCH(double, from);
    QFETCH(double, to);
    QFETCH(int, columns);
    QFETCH(QList<double>, levels);
    const MemorySample samples[] = {{1.0, 10.0}, {2.0, 30.0}, {3.0, 20.0}, {4.0, 5.0}};
    const std::vector<double> got = memory_levels(samples, from, to, columns);
    QCOMPARE(QList<double>(got.begin(), got.end()), levels);
}

QTEST_APPLESS_MAIN(TestMemoryCurve)
#include "test_memory_curve.moc"
