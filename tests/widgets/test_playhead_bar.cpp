// The Timeline tab's playhead (widgets/timeline/playhead_bar.h) on tests/data/cli/small_pipeline.yaml simulated on
// every device (2 stages of 4, 1F1B): shown at 0 s, where the first stage computes micro-batch 0 and the second waits;
// stepped stop by stop and back; played; hidden with no run; and ← / → in the chart asking to step it.

#include "timeline/playhead_bar.h"

#include "small_pipeline_timeline.h"
#include "timeline/timeline_view.h"

#include <QSignalSpy>
#include <QTest>

using namespace parasight;
using namespace parasight::gui;

using parasight::testing::small_pipeline_timeline;

class TestPlayheadBar : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void stepsThroughTheSchedule();
    void plays();
    void theChartsArrowsStepIt();
};

void TestPlayheadBar::stepsThroughTheSchedule() {
    const auto timeline = small_pipeline_timeline();
    QVERIFY(timeline);
    PlayheadBar bar;
    QSignalSpy moved(&bar, &PlayheadBar::moved);
    QVERIFY(!bar.step(1));  // nothing to step before a timeline
    bar.setTimeline(timeline);
    QVERIFY(!bar.isShown());
    bar.setShown(true);
    QCOMPARE(bar.time(), std::optional<double>(0.0));
    QCOMPARE(moved.back().front().value<std::optional<double>>(), std::optional<double>(0.0));
    // At 0 s: stage 0's NPUs compute micro-batch 0; stage 1's (NPU 4 to 7: NPU = tp + 2·dp + 4·pp) wait.
    const QString state = bar.stateText();
    QVERIFY2(state.contains(QStringLiteral("stage 0 · NPU 0: ")) && state.contains(QStringLiteral("micro-batch 0")),
             qPrintable(state));
    QVERIFY2(state.contains(QStringLiteral("stage 1 · NPU 4: waits")), qPrintable(state));
    const ScheduleSteps steps(*timeline);
    QVERIFY(bar.step(1));
    QCOMPARE(bar.time(), std::optional<double>(steps.stops()[1]));
    QVERIFY(bar.step(1));
    QVERIFY(bar.step(-1));
    QCOMPARE(bar.time(), std::optional<double>(steps.stops()[1]));
    QVERIFY(bar.step(-1));
    QVERIFY(!bar.step(-1));  // the first stop
    QCOMPARE(bar.time(), std::optional<double>(0.0));
    bar.setShown(false);
    QVERIFY(!bar.time());
    QVERIFY(!moved.back().front().value<std::optional<double>>());
    bar.setShown(true);
    bar.setTimeline(nullptr);
    QVERIFY(!bar.isShown());
}

// At 4× a stop every 100 ms: playing moves the playhead on; at the last stop it pauses by itself.
void TestPlayheadBar::plays() {
    const auto timeline = small_pipeline_timeline();
    PlayheadBar bar;
    bar.setTimeline(timeline);
    bar.setSpeed(4.0);
    bar.setPlaying(true);
    QVERIFY(bar.isShown() && bar.isPlaying());
    QTRY_VERIFY_WITH_TIMEOUT(bar.time().value_or(0.0) > 0.0, 2000);
    bar.setPlaying(false);
    const std::optional<double> paused = bar.time();
    QTest::qWait(250);
    QCOMPARE(bar.time(), paused);
    // From the last stop, playing ends at once.
    const ScheduleSteps steps(*timeline);
    while (bar.step(1)) {
    }
    QCOMPARE(bar.time(), std::optional<double>(steps.stops().back()));
    bar.setPlaying(true);
    QTRY_VERIFY_WITH_TIMEOUT(!bar.isPlaying(), 2000);
}

void TestPlayheadBar::theChartsArrowsStepIt() {
    TimelineView view;
    QSignalSpy requested(&view, &TimelineView::playheadStepRequested);
    QTest::keyClick(&view, Qt::Key_Right);
    QCOMPARE(requested.size(), 0);  // no playhead: the arrows are the view's own
    view.setPlayhead(0.001);
    QTest::keyClick(&view, Qt::Key_Right);
    QTest::keyClick(&view, Qt::Key_Left);
    QCOMPARE(requested.size(), 2);
    QCOMPARE(requested[0].front().toInt(), 1);
    QCOMPARE(requested[1].front().toInt(), -1);
}

QTEST_MAIN(TestPlayheadBar)
#include "test_playhead_bar.moc"
