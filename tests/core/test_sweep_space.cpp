// The points of a sweep (sweep/sweep_space.h): every combination of the axes' values, numbered with the last axis
// varying fastest, worked out by hand; and the sweeps refused.

#include "sweep/sweep_space.h"

#include <QtTest>

#include <set>

using namespace parasight;

namespace {

std::vector<std::string> values_of(const std::vector<AxisValue>& point) {
    std::vector<std::string> values;
    for (const AxisValue& value : point) values.push_back(value.value);
    return values;
}

}  // namespace

class TestSweepSpace : public QObject {
    Q_OBJECT
private slots:
    void pointsAreNumberedLikeNestedLoops();
    void sweepsThatCannotRunAreRefused();
};

void TestSweepSpace::pointsAreNumberedLikeNestedLoops() {
    // tp ∈ {1, 2, 4, 8} × schedule ∈ {1f1b, gpipe} × micro_batch ∈ {1, 2, 4}: 4 · 2 · 3 = 24 points.
    const auto space = SweepSpace::of({SweepAxis{"parallelism.tp", {"1", "2", "4", "8"}},
                                       SweepAxis{"parallelism.schedule", {"1f1b", "gpipe"}},
                                       SweepAxis{"training.micro_batch", {"1", "2", "4"}}});
    QVERIFY(space.has_value());
    QCOMPARE(space->point_count(), std::size_t{24});
    using Values = std::vector<std::string>;
    QCOMPARE(values_of(space->point(0)), (Values{"1", "1f1b", "1"}));
    // 1 = the micro-batch's second value; 3 = 1 · 3 + 0: the schedule's second, the micro-batch's first.
    QCOMPARE(values_of(space->point(1)), (Values{"1", "1f1b", "2"}));
    QCOMPARE(values_of(space->point(3)), (Values{"1", "gpipe", "1"}));
    // 17 = 2 · (2 · 3) + 1 · 3 + 2: tp's third (4), gpipe, micro-batch 4.
    QCOMPARE(values_of(space->point(17)), (Values{"4", "gpipe", "4"}));
    QCOMPARE(values_of(space->point(23)), (Values{"8", "gpipe", "4"}));
    QCOMPARE(space->point(17).front().path, std::string("parallelism.tp"));
    // Every combination once.
    std::set<Values> seen;
    for (std::size_t k = 0; k < space->point_count(); ++k) seen.insert(values_of(space->point(k)));
    QCOMPARE(seen.size(), std::size_t{24});
}

void TestSweepSpace::sweepsThatCannotRunAreRefused() {
    QCOMPARE(SweepSpace::of({}).error(), std::string("a sweep needs at least one axis (PATH=VALUES)"));
    QCOMPARE(SweepSpace::of({SweepAxis{"parallelism.tp", {}}}).error(),
             std::string("parallelism.tp: an axis needs at least one value"));
    QCOMPARE(SweepSpace::of({SweepAxis{"parallelism.tp", {"1"}}, SweepAxis{"parallelism.tp", {"2"}}}).error(),
             std::string("two axes vary 'parallelism.tp'; give its values once"));
    // 100 000 × 100 000 × 100 000 = 10^15 points, refused at the second axis (10^10 already).
    std::vector<std::string> many(100'000, "1");
    const auto huge = SweepSpace::of({SweepAxis{"a", many}, SweepAxis{"b", many}, SweepAxis{"c", many}});
    QCOMPARE(huge.error(), std::string("the axes make more than 10000000 points; sweep fewer values"));
}

QTEST_APPLESS_MAIN(TestSweepSpace)
#include "test_sweep_space.moc"
