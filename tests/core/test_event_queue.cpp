// The engine's event queue (core/engine/event_queue.h): ends come out earliest first, ends of one time in the order
// they were scheduled, and an end scheduled again is moved — earlier or later — not kept twice. Each row schedules
// (activity, time) pairs in order and states the order the activities must come out in, worked by hand.

#include "engine/event_queue.h"

#include <QTest>

#include <algorithm>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

using parasight::EventQueue;

using Schedule = std::vector<std::pair<int, double>>;  // (activity, end time), in the order scheduled
using Order = std::vector<int>;                        // the activities as they come out
Q_DECLARE_METATYPE(Schedule)
Q_DECLARE_METATYPE(Order)

class TestEventQueue : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void endsComeOutInOrder_data();
    void endsComeOutInOrder();
    void manyMovesKeepTheHeapInOrder();
};

void TestEventQueue::endsComeOutInOrder_data() {
    QTest::addColumn<Schedule>("schedule");
    QTest::addColumn<Order>("order");
    QTest::newRow("earliest first") << Schedule{{0, 3.0}, {1, 1.0}, {2, 2.0}} << Order{1, 2, 0};
    // Equal times: as scheduled, whatever the activities' numbers.
    QTest::newRow("a tie in the order scheduled") << Schedule{{5, 1.0}, {2, 1.0}, {7, 1.0}} << Order{5, 2, 7};
    // 0 at 3 s moved to 0.5 s: first; 1 at 1 s moved to 4 s: last.
    QTest::newRow("moved earlier and later") << Schedule{{0, 3.0}, {1, 1.0}, {2, 2.0}, {0, 0.5}, {1, 4.0}}
                                             << Order{0, 2, 1};
    // A move counts as scheduled anew: 1 re-scheduled at the same 1 s now comes after 2's 1 s.
    QTest::newRow("a move joins the end of its tie") << Schedule{{1, 1.0}, {2, 1.0}, {1, 1.0}} << Order{2, 1};
    QTest::newRow("time zero") << Schedule{{3, 0.0}, {4, 1e-300}, {5, 0.0}} << Order{3, 5, 4};
    QTest::newRow("one activity") << Schedule{{9, 2.0}} << Order{9};
}

void TestEventQueue::endsComeOutInOrder() {
    QFETCH(Schedule, schedule);
    QFETCH(Order, order);
    EventQueue queue;
    for (int a = 0; a < 10; ++a) queue.add_activity();
    for (const auto& [activity, time_s] : schedule) queue.schedule(activity, time_s);
    QCOMPARE(queue.size(), order.size());  // one end an activity, however often scheduled
    Order out;
    double last_s = 0.0;
    while (!queue.empty()) {
        const EventQueue::Event event = queue.pop();
        QVERIFY(!queue.scheduled(event.activity));
        QVERIFY(event.time_s() >= last_s);
        last_s = event.time_s();
        out.push_back(event.activity);
    }
    QCOMPARE(out, order);
}

// 200 activities scheduled and moved at random (a fixed seed) against a plain list sorted by (time, the order of the
// last scheduling): the same order out.
void TestEventQueue::manyMovesKeepTheHeapInOrder() {
    std::mt19937 random(32);
    std::uniform_real_distribution<double> time(0.0, 10.0);
    std::uniform_int_distribution<int> activity(0, 199);
    EventQueue queue;
    for (int a = 0; a < 200; ++a) queue.add_activity();
    std::vector<std::pair<double, int>> latest(200, {-1.0, -1});  // by activity: time, scheduling
    for (int scheduling = 0; scheduling < 2000; ++scheduling) {
        const int a = activity(random);
        const double t = scheduling % 7 == 0 ? 5.0 : time(random);  // ties, too
        queue.schedule(a, t);
        latest[static_cast<std::size_t>(a)] = {t, scheduling};
    }
    std::vector<std::tuple<double, int, int>> expected;
    for (int a = 0; a < 200; ++a) {
        if (latest[static_cast<std::size_t>(a)].second >= 0) {
            expected.emplace_back(latest[static_cast<std::size_t>(a)].first, latest[static_cast<std::size_t>(a)].second, a);
        }
    }
    std::sort(expected.begin(), expected.end());
    QCOMPARE(queue.size(), expected.size());
    for (const auto& [t, scheduling, a] : expected) {
        const EventQueue::Event event = queue.pop();
        QCOMPARE(event.activity, a);
        QCOMPARE(event.time_s(), t);
    }
    QVERIFY(queue.empty());
}

QTEST_APPLESS_MAIN(TestEventQueue)
#include "test_event_queue.moc"
