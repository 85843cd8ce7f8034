// The timeline view (widgets/timeline/): time ↔ pixel mapping and zoom at the pointer keep the time under the
// pointer fixed; axis ticks come at 1-2-5 steps in the unit of their step; rows are a band per stage and a row per
// device with its coordinates and ranks; hit-testing at an event's pixel finds that event; the view draws.
// Headless (offscreen).

#include "style/time_scale.h"
#include "style/activity_colors.h"
#include "timeline/event_details.h"
#include "analysis/event_search.h"
#include "timeline/timeline_export.h"
#include "timeline/timeline_overview.h"
#include "timeline/timeline_page.h"
#include "timeline/timeline_view.h"

#include "analysis/event_relations.h"
#include "scenario_file/scenario_loader.h"
#include "simulation/simulate.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QScrollBar>
#include <QSet>
#include <QSignalSpy>
#include <QApplication>
#include <QTest>

using namespace parasight;
using parasight::gui::TimeScale;
using parasight::gui::TimelineOverview;
using parasight::gui::TimelinePage;
using parasight::gui::TimelineView;

namespace {

// tests/data/cli/small_pipeline.yaml with every device simulated: 8 NPUs, tp 2 · dp 2 · pp 2, mapping [tp, dp, pp]
// on two 4-NPU switches, so NPU = tp + 2·dp + 4·pp and its coordinates are (NPU mod 4, NPU div 4).
std::shared_ptr<const TimelineLevels> small_pipeline_levels(bool with_memory = false) {
    const LoadResult loaded = load_scenario_file(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml");
    if (!loaded.ok()) return nullptr;
    SimulateOptions options;
    options.all_devices = true;
    options.record_memory_timeline = with_memory;
    const auto simulation = simulate(*loaded.scenario, options);
    if (!simulation) return nullptr;
    return TimelineLevels::build(simulation->timeline, PhaseProgress(nullptr, SimulationPhase::analysis));
}

// Which of the timeline's devices did the same (as the runner builds them with the levels).
std::shared_ptr<const IdenticalDevices> classes_of(const std::shared_ptr<const TimelineLevels>& levels) {
    return std::make_shared<const IdenticalDevices>(IdenticalDevices::of(levels->timeline()));
}

TimelineView& view_of(TimelineView& view) { return view; }
TimelineView& view_of(TimelinePage& page) { return *page.view(); }

// Shows `widget` (a TimelinePage or TimelineView) at `width` x `height` on the offscreen screen and gives it the
// small pipeline with every device listed (each stage's four are alike, so they start folded into one row); false
// if it was not exposed.
template <typename Widget>
bool show_with_small_pipeline(Widget& widget, int width, int height, std::shared_ptr<const TimelineLevels> levels) {
    widget.resize(width, height);
    widget.show();
    if (!QTest::qWaitForWindowExposed(&widget)) return false;
    widget.showTimeline(levels, classes_of(levels));
    view_of(widget).setEveryClassUnfolded(true);
    return true;
}

}  // namespace

class TestTimelineView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aLargerFontWidensTheHeaders();
    void zoomKeepsTheTimeUnderThePointer_data();
    void zoomKeepsTheTimeUnderThePointer();
    void theViewStaysInsideTheIteration();
    void ticks_data();
    void ticks();
    void rowsAreStagesAndDevices();
    void hitTestingFindsTheEvent();
    void drawsTheIteration();
    void clickingAnEventShowsWhatItWaitedFor();
    void theOverviewMovesTheView();
    void exportsAreWhole();
    void memoryLanesShowAllocationAgainstCapacity();
    void shiftDragMeasuresARange();
    void queriesAreRead_data();
    void queriesAreRead();
    void searchFindsEventsInTimeOrder_data();
    void searchFindsEventsInTimeOrder();
    void aSearchThatFindsNothingSaysWhy_data();
    void aSearchThatFindsNothingSaysWhy();
    void enterSelectsTheNextMatch();
    void clickingABandFoldsItsStage();
    void identicalDevicesAreGroupedByNode();
    void aRepresentativeSaysWhatItStandsFor();
};

void TestTimelineView::zoomKeepsTheTimeUnderThePointer_data() {
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("factor");
    QTest::newRow("in at the left edge") << 0.0 << 2.0;
    QTest::newRow("in at the middle") << 500.0 << 1.25;
    QTest::newRow("in a lot near the right") << 990.0 << 1e6;
    QTest::newRow("out at a third") << 333.0 << 0.5;
}

void TestTimelineView::zoomKeepsTheTimeUnderThePointer() {
    QFETCH(double, x);
    QFETCH(double, factor);
    TimeScale scale;
    scale.setBounds(20.0, 1000.0);  // a 20 s iteration on 1000 px
    scale.show(5.0, 15.0);          // 10 ms a pixel, from 5 s
    QCOMPARE(scale.time_at(0.0), 5.0);
    QCOMPARE(scale.time_at(1000.0), 15.0);
    const double before_s = scale.time_at(x);
    scale.zoomAt(x, factor);
    // 5..15 s zoomed out by 2 at a third (x 333: 8.33 s) is 1.67..21.67 s, past the end: the view is clamped
    // to 0..20 s and the point moves; every other row keeps it exactly.
    if (factor < 1.0) {
        QCOMPARE(scale.start_s(), 0.0);
        QCOMPARE(scale.end_s(1000.0), 20.0);
        return;
    }
    QCOMPARE(scale.time_at(x), before_s);
    QCOMPARE(scale.seconds_per_pixel(), std::max(0.01 / factor, TimeScale::min_seconds_per_pixel));
}

void TestTimelineView::theViewStaysInsideTheIteration() {
    TimeScale scale;
    scale.setBounds(20.0, 1000.0);
    scale.fit();
    scale.zoomAt(500.0, 0.1);  // cannot show more than the iteration
    QCOMPARE(scale.start_s(), 0.0);
    QCOMPARE(scale.seconds_per_pixel(), 0.02);
    scale.zoomAt(500.0, 4.0);  // 5 ms a pixel, 7.5..12.5 s
    QCOMPARE(scale.start_s(), 7.5);
    scale.panBy(-10000.0);  // 50 s to the left: stops at 0
    QCOMPARE(scale.start_s(), 0.0);
    scale.panBy(1e9);  // far to the right: stops with the end at 20 s
    QCOMPARE(scale.end_s(1000.0), 20.0);
    scale.zoomAt(0.0, 1e30);  // at most a nanosecond over 100 pixels
    QCOMPARE(scale.seconds_per_pixel(), TimeScale::min_seconds_per_pixel);
}

void TestTimelineView::ticks_data() {
    QTest::addColumn<double>("from");
    QTest::addColumn<double>("to");
    QTest::addColumn<QStringList>("labels");
    // 20 s on 1000 px with ticks at least 90 px apart: at least 1.8 s, so every 2 s.
    QTest::newRow("whole iteration") << 0.0 << 20.0
                                     << QStringList{"0 s", "2 s", "4 s", "6 s", "8 s", "10 s", "12 s", "14 s", "16 s",
                                                    "18 s", "20 s"};
    // 6.5085..6.5151 s (6.6 ms): at least 0.594 ms, so every 1 ms, labelled in ms.
    QTest::newRow("milliseconds") << 6.5085 << 6.5151
                                  << QStringList{"6509 ms", "6510 ms", "6511 ms", "6512 ms", "6513 ms", "6514 ms",
                                                 "6515 ms"};
    // 1.00000..1.00001 s (10 µs): at least 0.9 µs, so every 1 µs.
    QTest::newRow("microseconds") << 1.0 << 1.00001
                                  << QStringList{"1000000 µs", "1000001 µs", "1000002 µs", "1000003 µs", "1000004 µs",
                                                 "1000005 µs", "1000006 µs", "1000007 µs", "1000008 µs", "1000009 µs",
                                                 "1000010 µs"};
    // 0..250 ns: at least 22.5 ns, so every 50 ns.
    QTest::newRow("nanoseconds") << 0.0 << 250e-9
                                 << QStringList{"0 ns", "50 ns", "100 ns", "150 ns", "200 ns", "250 ns"};
    // 0..0.5 s: at least 45 ms, so every 50 ms — a step under a second, labelled in ms.
    QTest::newRow("half a second") << 0.0 << 0.5
                                   << QStringList{"0 ms",   "50 ms",  "100 ms", "150 ms", "200 ms", "250 ms",
                                                  "300 ms", "350 ms", "400 ms", "450 ms", "500 ms"};
}

void TestTimelineView::ticks() {
    QFETCH(double, from);
    QFETCH(double, to);
    QFETCH(QStringList, labels);
    TimeScale scale;
    scale.setBounds(20.0, 1000.0);
    scale.show(from, to);
    QStringList got;
    for (const auto& tick : parasight::gui::time_ticks(scale, 1000.0, 90.0)) got << tick.label;
    QCOMPARE(got, labels);
}

void TestTimelineView::rowsAreStagesAndDevices() {
    const auto levels = small_pipeline_levels();
    QVERIFY(levels != nullptr);
    TimelineView view;
    view.showTimeline(levels, classes_of(levels));
    // A stage's four devices did the same: at first each stage is its band and one row standing for the four.
    QCOMPARE(view.rows().rows.size(), std::size_t{4});
    QCOMPARE(view.rows().rows[1].title, QStringLiteral("▸ NPU 0 ×4"));
    QCOMPARE(view.rows().rows[1].class_size, std::size_t{4});
    QCOMPARE(view.rows().rows[3].title, QStringLiteral("▸ NPU 4 ×4"));
    QVERIFY(view.headerToolTip(view.rows().rows[3]).contains(QStringLiteral("(NPUs 4, 5, 6, 7)")));
    // Listed: stage 0's band, its class's band, NPUs 0-3 (all in node 0: no node bands), then stage 1 alike.
    view.setEveryClassUnfolded(true);
    const auto& rows = view.rows().rows;
    QCOMPARE(rows.size(), std::size_t{12});
    QCOMPARE(rows[0].kind, parasight::gui::RowKind::stage_band);
    QCOMPARE(rows[0].title, QStringLiteral("▾ Stage 0 · 4 devices"));
    QCOMPARE(rows[1].kind, parasight::gui::RowKind::class_band);
    QCOMPARE(rows[1].title, QStringLiteral("▾ 4 identical devices"));
    QCOMPARE(rows[6].kind, parasight::gui::RowKind::stage_band);
    QCOMPARE(rows[6].title, QStringLiteral("▾ Stage 1 · 4 devices"));
    // NPU 5 = tp 1 + 2·dp 0 + 4·pp 1, at (5 mod 4, 5 div 4) = (1, 1); every device was simulated: no ×N.
    const auto& npu5 = rows[9];
    QCOMPARE(npu5.depth, 2);
    QCOMPARE(npu5.title, QStringLiteral("NPU 5"));
    QCOMPARE(npu5.detail, QStringLiteral("(1, 1) · tp 1 · dp 0"));  // its pp rank is its stage
    QCOMPARE(view.headerToolTip(npu5),
             QStringLiteral("NPU 5 at (1, 1) in the topology, node 1 · ranks: tp 1, cp 0, ep 0, dp 0, pp 1"));
    // Each computes, exchanges features (tp, pp) and reduces gradients (dp): three lanes.
    QCOMPARE(npu5.lanes.size(), std::size_t{3});
    QCOMPARE(view.rows().rowAt(npu5.top_px + 1), &npu5);
}

void TestTimelineView::hitTestingFindsTheEvent() {
    const auto levels = small_pipeline_levels();
    QVERIFY(levels != nullptr);
    TimelineView view;
    view.resize(1200, 2000);  // every row in view
    view.showTimeline(levels, classes_of(levels));
    view.setEveryClassUnfolded(true);
    const Timeline& timeline = levels->timeline();
    int tested = 0;
    for (std::size_t device = 0; device < timeline.devices().size(); device += 3) {
        for (const auto& stream : stream_names) {
            const auto lane = timeline.lane(device, stream.value);
            if (lane.empty()) continue;
            for (const EventId id : {lane.front(), lane[lane.size() / 2], lane.back()}) {
                view.zoomToEvent(id);  // the event fills most of the width: its middle is its own pixel
                const std::optional<QPoint> point = view.pointOf(id);
                QVERIFY(point.has_value());
                const auto box = view.boxAt(*point);
                QVERIFY(box.has_value());
                QCOMPARE(box->count, 1U);
                QCOMPARE(box->representative, id);
                ++tested;
            }
        }
    }
    QVERIFY(tested >= 12);
    // The header column and the gap above the first lane hold no event.
    QVERIFY(!view.boxAt(QPoint(10, 200)).has_value());
    QVERIFY(!view.boxAt(QPoint(600, 5)).has_value());
}

void TestTimelineView::drawsTheIteration() {
    const auto levels = small_pipeline_levels();
    QVERIFY(levels != nullptr);
    TimelineView view;
    view.resize(1000, 600);
    view.showTimeline(levels, classes_of(levels));
    QImage image(view.size(), QImage::Format_ARGB32);
    view.render(&image);
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2) {
        for (int x = TimelineView::header_width_px; x < image.width(); x += 2) colours.insert(image.pixel(x, y));
    }
    // Forward, backward, TP, PP and DP boxes at least, over the background, gridlines and text.
    QVERIFY2(colours.size() > 8, qPrintable(QString::number(colours.size())));
}

void TestTimelineView::clickingAnEventShowsWhatItWaitedFor() {
    const auto levels = small_pipeline_levels();
    QVERIFY(levels != nullptr);
    TimelinePage page;
    QVERIFY(show_with_small_pipeline(page, 1200, 1400, levels));
    const Timeline& timeline = levels->timeline();
    // NPU 0's first TP all-reduce (layer 0, micro-batch 0), clicked where it is drawn.
    EventId all_reduce = 0;
    for (const EventId id : timeline.lane(0, Stream::feature_comm)) {
        if (timeline.event(id).operation == "tp all-reduce") {
            all_reduce = id;
            break;
        }
    }
    TimelineView* view = page.view();
    view->zoomToEvent(all_reduce);
    const std::optional<QPoint> point = view->pointOf(all_reduce);
    QVERIFY(point.has_value());
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, *point);
    QCOMPARE(view->selected(), std::optional<EventId>(all_reduce));
    // Its partner NPU 1 runs the same all-reduce: outlined, and listed under the details.
    const std::vector<EventId> members = same_collective(timeline, all_reduce);
    QCOMPARE(members.size(), std::size_t{1});
    QVERIFY(view->relations().same_collective == members);
    QVERIFY(page.details()->isVisible());
    const QStringList lines = page.details()->lines();
    QVERIFY2(lines.contains(QStringLiteral("The same collective on")), qPrintable(lines.join(u'|')));
    QVERIFY2(lines.contains(QStringLiteral("tp all-reduce · micro-batch 0 on NPU 1")), qPrintable(lines.join(u'|')));
    QCOMPARE(lines.front(), QStringLiteral("Waited for (the last to end first)"));
    // Choosing the partner's line selects it in the view.
    Q_EMIT page.details()->eventChosen(static_cast<qint64>(members.front()));
    QCOMPARE(view->selected(), std::optional<EventId>(members.front()));
    // A click on empty space clears the selection and hides the details.
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, QPoint(view->viewport()->width() - 5,
                                                                       view->viewport()->height() - 5));
    QCOMPARE(view->selected(), std::nullopt);
    QVERIFY(!page.details()->isVisible());
}

void TestTimelineView::theOverviewMovesTheView() {
    const auto levels = small_pipeline_levels();
    QVERIFY(levels != nullptr);
    TimelinePage page;
    QVERIFY(show_with_small_pipeline(page, 1200, 800, levels));
    TimelineView* view = page.view();
    TimelineOverview* overview = page.overview();
    const double total_s = levels->timeline().iteration_time_s();
    // A tenth of the iteration, at its start.
    view->showRange(0.0, total_s / 10.0);
    const double shown_s = view->scale().end_s(view->viewport()->width() - TimelineView::header_width_px) -
                           view->scale().start_s();
    QVERIFY(std::abs(shown_s - total_s / 10.0) < 1e-9 * total_s);
    // Clicking the overview at the middle of the iteration centres the view there, at the same zoom.
    const double middle_x = overview->xOf(total_s / 2.0);
    QTest::mouseClick(overview, Qt::LeftButton, {}, QPoint(static_cast<int>(std::lround(middle_x)), 20));
    const double start_s = view->scale().start_s();
    const double one_pixel_s = total_s / (overview->width() - TimelineView::header_width_px - 2);
    QVERIFY2(std::abs(start_s + shown_s / 2.0 - total_s / 2.0) <= one_pixel_s,
             qPrintable(QStringLiteral("centre %1, expected %2").arg(start_s + shown_s / 2.0).arg(total_s / 2.0)));
    QVERIFY(std::abs(view->scale().end_s(view->viewport()->width() - TimelineView::header_width_px) - start_s -
                     shown_s) < 1e-9 * total_s);
    // Clicking at the very end keeps the view inside the iteration.
    QTest::mouseClick(overview, Qt::LeftButton, {}, QPoint(overview->width() - 1, 20));
    QVERIFY(std::abs(view->scale().end_s(view->viewport()->width() - TimelineView::header_width_px) - total_s) <
            1e-9 * total_s);
}

void TestTimelineView::exportsAreWhole() {
    const auto levels = small_pipeline_levels();
    QVERIFY(levels != nullptr);
    TimelineView view;
    QVERIFY(show_with_small_pipeline(view, 900, 500, levels));
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    // PNG: the visible range at twice the viewport's pixels.
    const QString png = folder.filePath(QStringLiteral("range.png"));
    QCOMPARE(parasight::gui::export_timeline_png(view, png), std::nullopt);
    QCOMPARE(QImage(png).size(), view.viewport()->size() * 2);
    // SVG: vectors, with the events' labels as text.
    const QString svg = folder.filePath(QStringLiteral("range.svg"));
    QCOMPARE(parasight::gui::export_timeline_svg(view, svg), std::nullopt);
    QFile svg_file(svg);
    QVERIFY(svg_file.open(QIODevice::ReadOnly));
    const QByteArray svg_text = svg_file.readAll();
    QVERIFY(svg_text.contains("<svg"));
    QVERIFY(svg_text.contains("Stage 1"));
    // Chrome trace: every event once, as a complete event.
    const QString json = folder.filePath(QStringLiteral("run.json"));
    QCOMPARE(parasight::gui::export_chrome_trace(levels->timeline(), json), std::nullopt);
    QFile json_file(json);
    QVERIFY(json_file.open(QIODevice::ReadOnly));
    const QJsonArray events = QJsonDocument::fromJson(json_file.readAll()).object().value(QStringLiteral("traceEvents")).toArray();
    qsizetype complete = 0;
    for (const QJsonValue& event : events) complete += event.toObject().value(QStringLiteral("ph")).toString() == QStringLiteral("X");
    QCOMPARE(static_cast<std::size_t>(complete), levels->timeline().event_count());
    // A folder that does not exist: the reason, and nothing written.
    const auto error = parasight::gui::export_timeline_png(view, folder.filePath(QStringLiteral("none/range.png")));
    QVERIFY(error.has_value());
    QCOMPARE(QDir(folder.path()).entryList(QDir::Files | QDir::Hidden).size(), 3);
}

namespace {

// Pixels of exactly `colour` right of the row headers.
int pixels_of(const QImage& image, const QColor& colour) {
    int count = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = TimelineView::header_width_px; x < image.width(); ++x) count += image.pixelColor(x, y) == colour;
    }
    return count;
}

}  // namespace

void TestTimelineView::memoryLanesShowAllocationAgainstCapacity() {
    const auto levels = small_pipeline_levels(true);
    QVERIFY(levels != nullptr);
    const Timeline& timeline = levels->timeline();
    TimelineView view;
    view.resize(1000, 1400);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    double peak = 0.0;
    for (std::size_t d = 0; d < timeline.devices().size(); ++d) peak = std::max(peak, timeline.peak_memory_bytes(d));
    view.showTimeline(levels, classes_of(levels), 2.0 * peak);
    view.setEveryClassUnfolded(true);
    const int height_without = view.rows().height_px;
    QCOMPARE(view.rows().rows[2].memory_top_px, -1);  // hidden at first
    view.setMemoryLanesShown(true);
    // Every device row gains a 30-pixel lane under its three stream lanes (3 x 18 = 54 pixels down).
    for (const auto& row : view.rows().rows) {
        if (row.isBand()) continue;
        QCOMPARE(row.memory_top_px, 54);
    }
    QCOMPARE(view.rows().height_px, height_without + 8 * TimelineView::memory_lane_height_px);
    // The memory lane holds no event.
    const auto& npu0 = view.rows().rows[2];
    const int lane_y = TimelineView::legend_height_px + TimelineView::axis_height_px + npu0.top_px + npu0.memory_top_px + 15;
    QVERIFY(!view.boxAt(QPoint(500, lane_y)).has_value());
    // Against twice the peak nothing passes the capacity: red is only its dashed line. Against half the peak, the
    // columns above it are red and out of memory.
    QImage roomy(view.viewport()->size(), QImage::Format_ARGB32);
    view.viewport()->render(&roomy);
    view.showTimeline(levels, classes_of(levels), 0.5 * peak);
    view.setMemoryLanesShown(true);
    QImage tight(view.viewport()->size(), QImage::Format_ARGB32);
    view.viewport()->render(&tight);
    const QColor red = parasight::gui::over_capacity_color();
    QVERIFY2(pixels_of(tight, red) > 10 * std::max(1, pixels_of(roomy, red)),
             qPrintable(QStringLiteral("%1 vs %2").arg(pixels_of(tight, red)).arg(pixels_of(roomy, red))));
}

void TestTimelineView::shiftDragMeasuresARange() {
    const auto levels = small_pipeline_levels();
    QVERIFY(levels != nullptr);
    TimelinePage page;
    QVERIFY(show_with_small_pipeline(page, 1200, 900, levels));
    TimelineView* view = page.view();
    QWidget* area = view->viewport();
    // Shift+drag from a quarter to three quarters of the lanes' width: half of the iteration shown.
    const int lanes_width = area->width() - TimelineView::header_width_px;
    const int y = 200;
    const QPoint from(TimelineView::header_width_px + lanes_width / 4, y);
    const QPoint to(TimelineView::header_width_px + 3 * lanes_width / 4, y);
    QTest::mousePress(area, Qt::LeftButton, Qt::ShiftModifier, from);
    QTest::mouseMove(area, to);
    QTest::mouseRelease(area, Qt::LeftButton, Qt::ShiftModifier, to);
    const auto range = view->selectedRange();
    QVERIFY(range.has_value());
    QCOMPARE(range->first, view->scale().time_at(lanes_width / 4));
    QCOMPARE(range->second, view->scale().time_at(3 * lanes_width / 4));
    // Dragging with Shift measures: the view did not pan.
    QCOMPARE(view->scale().start_s(), 0.0);
    // The details list the time per kind inside it: the middle half of a pipelined iteration holds forward and
    // backward work at least.
    QVERIFY(page.details()->isVisible());
    const QStringList lines = page.details()->lines();
    QVERIFY2(lines.filter(QRegularExpression(QStringLiteral("^Forward — "))).size() == 1, qPrintable(lines.join(u'|')));
    QVERIFY2(lines.filter(QRegularExpression(QStringLiteral("^Backward — "))).size() == 1, qPrintable(lines.join(u'|')));
    // A plain click clears it.
    QTest::mouseClick(area, Qt::LeftButton, {}, QPoint(area->width() - 5, area->height() - 5));
    QVERIFY(!view->selectedRange().has_value());
    QVERIFY(!page.details()->isVisible());
}

void TestTimelineView::queriesAreRead_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("words");
    QTest::addColumn<int>("layer");  // -1: any
    QTest::addColumn<int>("microBatch");
    QTest::newRow("words") << "TP All-Reduce" << QStringList{"tp", "all-reduce"} << -1 << -1;
    QTest::newRow("layer and mb") << "attention layer 3 mb 0" << QStringList{"attention"} << 3 << 0;
    QTest::newRow("micro-batch spelled out") << "micro-batch 7" << QStringList{} << -1 << 7;
    QTest::newRow("layer without a number is a word") << "layer norm" << QStringList{"layer", "norm"} << -1 << -1;
}

void TestTimelineView::queriesAreRead() {
    QFETCH(QString, text);
    QFETCH(QStringList, words);
    QFETCH(int, layer);
    QFETCH(int, microBatch);
    const auto query = parasight::parse_event_query(text.toStdString());
    QVERIFY(query.has_value());
    QStringList read;
    for (const std::string& word : query->words) read << QString::fromStdString(word);
    QCOMPARE(read, words);
    QCOMPARE(query->layer.value_or(-1), layer);
    QCOMPARE(query->micro_batch.value_or(-1), microBatch);
    QVERIFY(!parasight::parse_event_query("   ").has_value());
}

void TestTimelineView::searchFindsEventsInTimeOrder_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("count");
    // Stage 0's four devices (NPUs 0-3) embed each micro-batch and, in backward, take the embedding's gradient:
    // "embedding" is in both names, 8 events for micro-batch 3; "embedding backward" only the 4 of the second.
    QTest::newRow("embedding mb 3") << "embedding mb 3" << 8;
    QTest::newRow("embedding backward mb 3") << "embedding backward mb 3" << 4;
    // Stage 0's four devices each send micro-batch 0's activations to stage 1 once.
    QTest::newRow("pp send activations mb 0") << "pp send activations mb 0" << 4;
    QTest::newRow("nothing") << "allgather of dreams" << 0;
}

void TestTimelineView::searchFindsEventsInTimeOrder() {
    QFETCH(QString, text);
    QFETCH(int, count);
    const auto levels = small_pipeline_levels();
    QVERIFY(levels != nullptr);
    const Timeline& timeline = levels->timeline();
    const std::vector<EventId> found =
        parasight::find_events(timeline, parasight::parse_event_query(text.toStdString()).value());
    QCOMPARE(static_cast<int>(found.size()), count);
    for (std::size_t i = 1; i < found.size(); ++i) {
        QVERIFY(timeline.event(found[i - 1]).start_s <= timeline.event(found[i]).start_s);
    }
}

// "no events match" said nothing of why. small_pipeline: 4 layers (0-3), 4 micro-batches per pipeline (0-3).
void TestTimelineView::aSearchThatFindsNothingSaysWhy_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("why");
    QTest::newRow("a misspelt word") << "atention"
                                     << "no operation's name holds 'atention' (did you mean 'attention'?)";
    QTest::newRow("a layer past the model") << "layer 9" << "no layer 9: the layers are 0 to 3";
    QTest::newRow("a micro-batch past the run") << "embedding mb 7" << "no micro-batch 7: the micro-batches are 0 to 3";
    // The optimizer runs once, for no micro-batch; micro-batch 0 exists, only not with it.
    QTest::newRow("parts never together") << "optimizer mb 0"
                                          << "each part matches some events, but no event has them all";
}

void TestTimelineView::aSearchThatFindsNothingSaysWhy() {
    QFETCH(QString, text);
    QFETCH(QString, why);
    const auto levels = small_pipeline_levels();
    QVERIFY(levels != nullptr);
    const auto query = parasight::parse_event_query(text.toStdString()).value();
    QVERIFY(parasight::find_events(levels->timeline(), query).empty());
    QCOMPARE(QString::fromStdString(parasight::why_nothing_matches(levels->timeline(), query)), why);
}

// Presentation mode's ×1.5 text: the row headers, lane names, lanes and bands about 1.5 times as large (210 → 315 px
// wide, 18 → 27 px lanes, by the fonts' heights), the overview's time 0 moved under the view's; back at the
// application's font, back to 210.
void TestTimelineView::aLargerFontWidensTheHeaders() {
    const auto levels = small_pipeline_levels();
    QVERIFY(levels != nullptr);
    TimelinePage page;
    QVERIFY(show_with_small_pipeline(page, 1200, 900, levels));
    TimelineView* view = page.view();
    QCOMPARE(view->sizes().header_width_px, TimelineView::header_width_px);
    QSignalSpy changed(view, &TimelineView::sizesChanged);
    QFont larger = page.font();
    larger.setPointSizeF(larger.pointSizeF() * 1.5);
    page.setFont(larger);
    QCOMPARE(changed.size(), 1);
    // The factor is the ratio of the fonts' heights — 1.5 but for the rounding of a font's height to pixels.
    const double ratio = static_cast<double>(QFontMetrics(larger).height()) / QFontMetrics(QApplication::font()).height();
    QVERIFY(ratio > 1.4 && ratio < 1.6);
    QCOMPARE(view->sizes().header_width_px, static_cast<int>(std::lround(210 * ratio)));
    QCOMPARE(view->sizes().lane_height_px, static_cast<int>(std::lround(18 * ratio)));
    QCOMPARE(page.overview()->leftMargin(), view->sizes().header_width_px);
    page.setFont(QApplication::font());
    QCOMPARE(view->sizes().header_width_px, TimelineView::header_width_px);
    QCOMPARE(page.overview()->leftMargin(), TimelineView::header_width_px);
}

void TestTimelineView::enterSelectsTheNextMatch() {
    const auto levels = small_pipeline_levels();
    QVERIFY(levels != nullptr);
    TimelinePage page;
    QVERIFY(show_with_small_pipeline(page, 1200, 900, levels));
    QLineEdit* search = page.searchBox();
    search->setText(QStringLiteral("pp send activations mb 0"));
    const std::vector<EventId> found =
        parasight::find_events(levels->timeline(), parasight::parse_event_query(search->text().toStdString()).value());
    QCOMPARE(found.size(), std::size_t{4});
    // Enter selects the first match, then the next, and wraps around after the last.
    for (const std::size_t expected : {0, 1, 2, 3, 0}) {
        QTest::keyClick(search, Qt::Key_Return);
        QCOMPARE(page.view()->selected(), std::optional<EventId>(found[expected]));
    }
    search->setText(QStringLiteral("allgather of dreams"));
    QTest::keyClick(search, Qt::Key_Return);
    const QList<QLabel*> labels = page.findChildren<QLabel*>();
    QVERIFY(std::any_of(labels.begin(), labels.end(), [](QLabel* label) {
        return label->text() == QStringLiteral("no events match: no operation's name holds 'allgather'");
    }));
}

void TestTimelineView::clickingABandFoldsItsStage() {
    const auto levels = small_pipeline_levels();
    QVERIFY(levels != nullptr);
    TimelineView view;
    QVERIFY(show_with_small_pipeline(view, 1200, 900, levels));
    const int full_height = view.rows().height_px;
    QCOMPARE(view.rows().rows.size(), std::size_t{12});
    // Stage 0's band is the first row: a click on it folds its class band and four devices away.
    const int band_y = TimelineView::legend_height_px + TimelineView::axis_height_px + 5;
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, QPoint(100, band_y));
    QCOMPARE(view.rows().rows.size(), std::size_t{7});  // two stage bands, stage 1's class band and four devices
    QCOMPARE(view.rows().rows[0].title, QStringLiteral("▸ Stage 0 · 4 devices"));
    QCOMPARE(view.rows().rows[1].kind, parasight::gui::RowKind::stage_band);
    QCOMPARE(view.rows().height_px,
             full_height - TimelineView::band_height_px - 4 * view.rows().rows[3].height_px);
    // Another click unfolds it.
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, QPoint(100, band_y));
    QCOMPARE(view.rows().rows.size(), std::size_t{12});
    QCOMPARE(view.rows().height_px, full_height);
    // A click on the class's band folds the four into NPU 0's row; a click on that row's header lists them again.
    const int class_y = band_y + TimelineView::band_height_px;
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, QPoint(100, class_y));
    QCOMPARE(view.rows().rows.size(), std::size_t{8});
    QCOMPARE(view.rows().rows[1].title, QStringLiteral("▸ NPU 0 ×4"));
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, QPoint(100, class_y + 5));
    QCOMPARE(view.rows().rows.size(), std::size_t{12});
}

void TestTimelineView::identicalDevicesAreGroupedByNode() {
    // 64 NPUs in 8 nodes of 8, tp 2 · pp 2 · dp 16, every device simulated. Mapping [tp, cp, ep, dp, pp]:
    // NPU = tp + 2·dp + 32·pp, so stage 0 is NPUs 0-31, nodes 0-3 (NPU / 8), and stage 1 nodes 4-7.
    const LoadResult loaded = load_scenario_text(
        "schema: 1\nmodel: {preset: gpt2-small, layers: 2}\ntraining: {global_batch: 16, micro_batch: 1}\n"
        "cluster: {device: a100-80gb, topology: [{kind: switch, size: 8, bandwidth: 300 GB/s, latency: 1 us},"
        " {kind: switch, size: 8, bandwidth: 25 GB/s, latency: 5 us}]}\n"
        "parallelism: {tp: 2, pp: 2, dp: auto}\n",
        "sixty-four.yaml");
    QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.diagnostics.front().to_string().c_str());
    SimulateOptions options;
    options.all_devices = true;
    const auto simulation = simulate(*loaded.scenario, options);
    QVERIFY(simulation.has_value());
    const auto levels = TimelineLevels::build(simulation->timeline, PhaseProgress(nullptr, SimulationPhase::analysis));
    TimelineView view;
    view.showTimeline(levels, classes_of(levels));
    // Each stage's 32 devices did the same: a band and one row each.
    QCOMPARE(view.rows().rows.size(), std::size_t{4});
    QCOMPARE(view.rows().rows[1].title, QStringLiteral("▸ NPU 0 ×32"));
    QCOMPARE(view.rows().rows[3].title, QStringLiteral("▸ NPU 32 ×32"));
    // Revealing NPU 13 (node 1) lists stage 0's class: its band, then per node a band and its 8 devices —
    // 1 + 1 + 4 × (1 + 8) rows — and stage 1's band and row after them.
    const auto npu13 = static_cast<std::size_t>(13);  // devices are in NPU order
    QCOMPARE(levels->timeline().devices()[npu13].npu, std::int64_t{13});
    view.revealDevice(npu13);
    const auto& rows = view.rows().rows;
    QCOMPARE(rows.size(), std::size_t{2 + 4 * 9 + 2});
    QCOMPARE(rows[1].title, QStringLiteral("▾ 32 identical devices"));
    QCOMPARE(rows[11].kind, parasight::gui::RowKind::node_band);
    QCOMPARE(rows[11].title, QStringLiteral("▾ Node 1 · 8 devices"));
    QCOMPARE(rows[11].depth, 2);
    QCOMPARE(rows[17].title, QStringLiteral("NPU 13"));
    QCOMPARE(rows[17].depth, 3);
    // It is scrolled to the top: 3 bands of 20 px and node 0's 8 rows of 54 px (3 lanes of 18), node 1's band and
    // NPUs 8-12 above it: 3·20 + 8·54 + 20 + 5·54 = 782 px.
    QCOMPARE(rows[17].top_px, 782);
    QCOMPARE(view.verticalScrollBar()->value(), 782);
    QCOMPARE(view.revealedDevice(), std::optional<std::size_t>(npu13));
    // NPU 8, first in node 1, is scrolled there under the band that heads it: 3·20 + 8·54 = 492 px.
    view.revealDevice(8);
    QCOMPARE(view.verticalScrollBar()->value(), 492);
    QCOMPARE(rows[11].top_px, 492);
    // Folding node 1 hides its 8 rows; folding the class brings back the one row.
    view.toggleGroup(rows[11]);
    QCOMPARE(view.rows().rows.size(), std::size_t{2 + 4 * 9 + 2 - 8});
    QCOMPARE(view.rows().rows[11].title, QStringLiteral("▸ Node 1 · 8 devices"));
    view.toggleGroup(view.rows().rows[1]);
    QCOMPARE(view.rows().rows.size(), std::size_t{4});
}

void TestTimelineView::aRepresentativeSaysWhatItStandsFor() {
    // One device per stage simulated: NPU 0 and NPU 4, each for its stage's four; nothing else to list.
    const LoadResult loaded = load_scenario_file(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml");
    QVERIFY(loaded.ok());
    const auto simulation = simulate(*loaded.scenario, SimulateOptions{});
    QVERIFY(simulation.has_value());
    const auto levels = TimelineLevels::build(simulation->timeline, PhaseProgress(nullptr, SimulationPhase::analysis));
    TimelineView view;
    view.showTimeline(levels, classes_of(levels));
    QCOMPARE(view.rows().rows.size(), std::size_t{4});
    const auto& npu4 = view.rows().rows[3];
    QCOMPARE(npu4.title, QStringLiteral("NPU 4 ×4"));
    QCOMPARE(npu4.class_size, std::size_t{1});
    QVERIFY(view.headerToolTip(npu4).contains(QStringLiteral("Simulate Every Device")));
    view.toggleGroup(npu4);  // nothing to list
    QCOMPARE(view.rows().rows.size(), std::size_t{4});
}

QTEST_MAIN(TestTimelineView)
#include "test_timeline_view.moc"
