// The result tabs following the run session (widgets/run/tabbed_run_follower.h): the tab in front is handed each
// state at once; the hidden ones catch up with the newest state only, one a turn of the event loop, in tab order; a
// tab brought to the front, or asked for, catches up at once; caughtUp() comes when every tab holds the newest.

#include "run/run_session.h"
#include "run/tabbed_run_follower.h"

#include <QCoreApplication>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

#include <array>
#include <vector>

using parasight::SimulationError;
using parasight::gui::RunSession;
using parasight::gui::RunState;
using parasight::gui::TabbedRunFollower;

namespace {

// Three tabs that record the message of every state they are handed.
struct Tabs {
    RunSession session;
    QTabWidget tabs;
    std::array<QWidget*, 3> pages{new QWidget, new QWidget, new QWidget};
    std::array<std::vector<QString>, 3> handed;
    TabbedRunFollower follower{session, tabs};

    Tabs() {
        for (std::size_t i = 0; i < pages.size(); ++i) {
            tabs.addTab(pages[i], QString::number(i));
            follower.follow(pages[i], [this, i](const RunState& state) { handed[i].push_back(state.message); });
        }
    }

    void fail(const char* why) {
        SimulationError error;
        error.message = why;
        session.setFailure(error);
    }

    // What each tab was handed, as "front|hidden|hidden" of their last messages (empty: nothing yet).
    [[nodiscard]] QString last() const {
        QStringList texts;
        for (const auto& list : handed) texts << (list.empty() ? QString() : list.back().mid(15));  // less "Not simulated: "
        return texts.join(u'|');
    }
};

}  // namespace

class TestTabbedRunFollower : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void theTabInFrontFirstThenOneATurn_data();
    void theTabInFrontFirstThenOneATurn();
    void hiddenTabsSeeOnlyTheNewest();
    void aTabBroughtToTheFrontOrAskedForCatchesUpAtOnce();
};

void TestTabbedRunFollower::theTabInFrontFirstThenOneATurn_data() {
    QTest::addColumn<int>("front");
    QTest::addColumn<QStringList>("turns");  // what the tabs hold after the change, then after each turn
    QTest::newRow("the first tab in front") << 0 << QStringList{"a||", "a|a|", "a|a|a"};
    QTest::newRow("the second in front: the hidden in tab order") << 1 << QStringList{"|a|", "a|a|", "a|a|a"};
    QTest::newRow("the last in front") << 2 << QStringList{"||a", "a||a", "a|a|a"};
}

void TestTabbedRunFollower::theTabInFrontFirstThenOneATurn() {
    QFETCH(int, front);
    QFETCH(QStringList, turns);
    Tabs tabs;
    tabs.tabs.setCurrentIndex(front);
    QSignalSpy caught_up(&tabs.follower, &TabbedRunFollower::caughtUp);
    tabs.fail("a");
    QCOMPARE(tabs.last(), turns[0]);
    QVERIFY(!tabs.follower.isCaughtUp());
    for (qsizetype turn = 1; turn < turns.size(); ++turn) {
        // One turn: the events posted before it (a turn's catching up posts the next for the turn after).
        QCoreApplication::sendPostedEvents(&tabs.follower, QEvent::MetaCall);
        QCOMPARE(tabs.last(), turns[turn]);
    }
    QVERIFY(tabs.follower.isCaughtUp());
    QCOMPARE(caught_up.size(), 0);  // said at the turn after the last tab's
    QCoreApplication::sendPostedEvents(&tabs.follower, QEvent::MetaCall);
    QCOMPARE(caught_up.size(), 1);
    for (const auto& list : tabs.handed) QCOMPARE(list.size(), std::size_t{1});  // each handed it once
}

void TestTabbedRunFollower::hiddenTabsSeeOnlyTheNewest() {
    Tabs tabs;
    QSignalSpy caught_up(&tabs.follower, &TabbedRunFollower::caughtUp);
    tabs.fail("a");
    tabs.fail("b");
    tabs.fail("c");
    QCOMPARE(tabs.last(), QStringLiteral("c||"));
    QVERIFY(caught_up.wait(5000));
    QCOMPARE(tabs.last(), QStringLiteral("c|c|c"));
    QCOMPARE(tabs.handed[0].size(), std::size_t{3});  // the front saw every state
    QCOMPARE(tabs.handed[1].size(), std::size_t{1});  // the hidden ones only the newest
    QCOMPARE(tabs.handed[2].size(), std::size_t{1});
    QCOMPARE(caught_up.size(), 1);
    // Nothing new: nothing handed again, nothing said again.
    QTest::qWait(20);
    QCOMPARE(tabs.handed[1].size(), std::size_t{1});
    QCOMPARE(caught_up.size(), 1);
}

void TestTabbedRunFollower::aTabBroughtToTheFrontOrAskedForCatchesUpAtOnce() {
    Tabs tabs;
    tabs.fail("a");
    QCOMPARE(tabs.last(), QStringLiteral("a||"));
    tabs.tabs.setCurrentIndex(2);  // before its turn
    QCOMPARE(tabs.last(), QStringLiteral("a||a"));
    tabs.follower.catchUp(tabs.pages[1]);
    QCOMPARE(tabs.last(), QStringLiteral("a|a|a"));
    QVERIFY(tabs.follower.isCaughtUp());
    // Asked again, or brought to the front again, with nothing new: not handed again.
    tabs.follower.catchUp(tabs.pages[1]);
    tabs.tabs.setCurrentIndex(1);
    QCOMPARE(tabs.handed[1].size(), std::size_t{1});
    QSignalSpy caught_up(&tabs.follower, &TabbedRunFollower::caughtUp);
    QVERIFY(caught_up.wait(5000));  // the turn queued by the change finds none behind
    for (const auto& list : tabs.handed) QCOMPARE(list.size(), std::size_t{1});
}

QTEST_MAIN(TestTabbedRunFollower)
#include "test_tabbed_run_follower.moc"
