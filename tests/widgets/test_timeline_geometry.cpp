// Where the timeline view draws what, what lies under a point (widgets/timeline/timeline_geometry.h) and the picture
// itself (timeline_painter.h), without a widget: rows by y, a stretch of time and a device's row as rectangles worked
// out from the scale and the layout, every event found again under the point where it is drawn, and drawn there in
// its kind's colour.

#include "timeline/timeline_geometry.h"
#include "timeline/timeline_painter.h"

#include "style/activity_colors.h"

#include "analysis/identical_devices.h"
#include "scenario_file/scenario_loader.h"
#include "simulation/simulate.h"

#include <QImage>
#include <QTest>

using namespace parasight;
using namespace parasight::gui;

namespace {

// tests/data/cli/small_pipeline.yaml with every device simulated (8 NPUs, pp 2).
std::shared_ptr<const TimelineLevels> small_pipeline_levels() {
    const LoadResult loaded = load_scenario_file(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml");
    if (!loaded.ok()) return nullptr;
    SimulateOptions options;
    options.all_devices = true;
    const auto simulation = simulate(*loaded.scenario, options);
    if (!simulation) return nullptr;
    return TimelineLevels::build(simulation->timeline, PhaseProgress(nullptr, SimulationPhase::analysis));
}

}  // namespace

class TestTimelineGeometry : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void rowsAndRectangles();
    void everyEventIsFoundWhereItIsDrawn();
    void computeIsPaintedInItsKindsColourWhereItIsDrawn();
    void withoutATimelineItSaysWhy();

private:
    std::shared_ptr<const TimelineLevels> levels_;
    TimelineRowLayout rows_;
    TimeScale scale_;
};

void TestTimelineGeometry::initTestCase() {
    levels_ = small_pipeline_levels();
    QVERIFY(levels_ != nullptr);
    const IdenticalDevices classes = IdenticalDevices::of(levels_->timeline());
    TimelineFolding folding;
    for (std::size_t c = 0; c < 8; ++c) folding.unfolded_classes.insert(c);  // every device its own row
    rows_ = layout_timeline_rows(levels_->timeline(), classes, RowHeights{}, folding);
    // The whole iteration across 1000 pixels.
    scale_.setBounds(levels_->timeline().iteration_time_s(), 1000.0);
    scale_.fit();
}

void TestTimelineGeometry::rowsAndRectangles() {
    // Rows start 44 px down (legend and axis), scrolled up by 10, after 200 px of headers.
    const TimelineGeometry geometry{rows_, scale_, 200, 44, 10};
    QVERIFY(geometry.rowAt(QPoint(300, 43)) == nullptr);  // over the axis
    const TimelineRow* device_0 = rows_.deviceRow(0);
    QVERIFY(device_0 != nullptr);
    // Its row's first pixel: 44 + top − 10.
    QCOMPARE(geometry.rowAt(QPoint(5, 44 + device_0->top_px - 10)), device_0);
    QCOMPARE(geometry.deviceRowRect(0, 1200), QRect(0, 44 + device_0->top_px - 10, 1200, device_0->height_px));
    QVERIFY(!geometry.deviceRowRect(99, 1200));
    // A quarter to a half of the iteration: 250 px to 500 px after the headers (to the pixel: the left edge rounds
    // down and the right up, so that the stretch is covered), over the lanes of a 600 px view, 556 px under them.
    const double end_s = levels_->timeline().iteration_time_s();
    const QRect range = geometry.rangeRect(end_s / 4.0, end_s / 2.0, 600);
    QVERIFY2(std::abs(range.left() - 450) <= 1 && std::abs(range.left() + range.width() - 700) <= 1,
             qPrintable(QStringLiteral("%1 + %2").arg(range.left()).arg(range.width())));
    QCOMPARE(range.top(), 44);
    QCOMPARE(range.height(), 556);
    // A stretch narrower than a pixel is still one wide.
    QCOMPARE(geometry.rangeRect(end_s / 4.0, end_s / 4.0, 600).width(), 1);
}

void TestTimelineGeometry::everyEventIsFoundWhereItIsDrawn() {
    const TimelineGeometry geometry{rows_, scale_, 200, 44, 0};
    const Timeline& timeline = levels_->timeline();
    int checked = 0;
    for (EventId id = 0; id < static_cast<EventId>(timeline.event_count()); id += 7) {
        const std::optional<QPoint> point = geometry.pointOf(timeline, id);
        const std::optional<QRectF> rect = geometry.rectOf(timeline, id);
        QVERIFY(point && rect);
        // The middle of the event lies in its rectangle (whose x is its start and end on the scale).
        QVERIFY(rect->adjusted(-1, -1, 1, 1).contains(*point));
        const TimelineEvent event = timeline.event(id);
        QCOMPARE(rect->left(), 200.0 + scale_.x_of(event.start_s));
        // Under that point is the box that holds it: the event itself, or a merge of events it belongs to.
        const std::optional<LaneBox> box = geometry.boxAt(*levels_, *point, 2.0);
        QVERIFY2(box, qPrintable(QStringLiteral("nothing under event %1").arg(id)));
        const double middle_s = (event.start_s + event.end_s) / 2.0;
        const double pixel_s = scale_.seconds_per_pixel();
        QVERIFY(box->start_s <= middle_s + pixel_s && middle_s - pixel_s <= box->end_s);
        ++checked;
    }
    QVERIFY(checked > 10);
}

void TestTimelineGeometry::computeIsPaintedInItsKindsColourWhereItIsDrawn() {
    // The whole iteration over 1000 px of lanes, no scroll: every row of a 600 px tall picture that fits.
    const QSize size(timeline_metrics::header_width_px + 1000, 600);
    TimelinePicture picture{levels_.get(), {}, TimelineGeometry{rows_, scale_, timeline_metrics::header_width_px, 44, 0},
                            size};
    QImage image(size, QImage::Format_RGB32);
    QPainter painter(&image);
    paint_timeline(painter, picture, QPalette(), QFont());
    painter.end();
    const Timeline& timeline = levels_->timeline();
    int checked = 0;
    for (EventId id = 0; id < static_cast<EventId>(timeline.event_count()); ++id) {
        const TimelineEvent event = timeline.event(id);
        if (event.kind != TaskKind::forward && event.kind != TaskKind::backward) continue;
        const std::optional<QRectF> rect = picture.geometry.rectOf(timeline, id);
        // Wide enough that no merge hides it, inside the picture: its first pixels under the top edge are its colour
        // (its label is drawn in the middle).
        if (!rect || rect->width() < 8.0 || rect->bottom() > size.height()) continue;
        const QPoint inside(static_cast<int>(rect->left()) + 2, static_cast<int>(rect->top()) + 2);
        QCOMPARE(image.pixelColor(inside), task_kind_color(event.kind));
        ++checked;
    }
    QVERIFY(checked > 4);
}

void TestTimelineGeometry::withoutATimelineItSaysWhy() {
    const QSize size(600, 300);
    TimelinePicture picture{nullptr, QStringLiteral("Not simulated: too large"),
                            TimelineGeometry{rows_, scale_, timeline_metrics::header_width_px, 44, 0}, size};
    QImage image(size, QImage::Format_RGB32);
    QPainter painter(&image);
    const QPalette palette;
    paint_timeline(painter, picture, palette, QFont());
    painter.end();
    // The base colour everywhere but where the message is written, in the middle.
    const QColor base = palette.color(QPalette::Base);
    QCOMPARE(image.pixelColor(5, 5), base);
    int written = 0;
    for (int x = 0; x < size.width(); ++x) written += image.pixelColor(x, size.height() / 2) != base ? 1 : 0;
    QVERIFY(written > 20);
}

QTEST_MAIN(TestTimelineGeometry)
#include "test_timeline_geometry.moc"
