// The heatmap of a stored sweep (widgets/sweeps/heatmap_view.h), headless: viridis at its published stops, the colour
// of a value with the best end yellow, what a cell says and its tooltip, and the picture itself — each cell painted
// in its value's colour, a cell without a fitting point hatched with its status, the best one outlined.

#include "sweeps/heatmap_view.h"

#include "style/activity_colors.h"
#include "style/sequential_colors.h"

#include <QImage>
#include <QSet>
#include <QTest>

using namespace parasight;
using namespace parasight::gui;

namespace {

GridCell fitting(double value, std::int64_t point) {
    GridCell cell;
    cell.points = 2;
    cell.fitting = 2;
    cell.value = value;
    cell.point = point;
    return cell;
}

// tp 1, 2 across; pp 1, 2 down; iteration times 4 s, 1 s / 2.5 s, and a cell estimated not to fit.
SweepGrid two_by_two() {
    SweepGrid grid;
    grid.x_values = {std::int64_t{1}, std::int64_t{2}};
    grid.y_values = {std::int64_t{1}, std::int64_t{2}};
    GridCell out;
    out.points = 1;
    out.point = 3;
    out.status = PointStatus::oom_estimated;
    out.reason = "stage 0 needs at least 90 GB (90 GB of model states), more than the 80 GB of a device";
    grid.cells = {fitting(4.0, 0), fitting(1.0, 1), fitting(2.5, 2), out};
    grid.best = 1;
    return grid;
}

}  // namespace

class TestHeatmapView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void viridisAtItsStops_data();
    void viridisAtItsStops();
    void colorsCellsAndTooltips();
    void paintsEachCellInItsColour();
    void textReadsOnTheScale();
    void ratiosToABaseline();
    void aLogScale();
    void aGlyphSaysWhereTheTimeWent();
};

void TestHeatmapView::viridisAtItsStops_data() {
    QTest::addColumn<double>("t");
    QTest::addColumn<QString>("colour");
    QTest::newRow("0") << 0.0 << "#440154";
    QTest::newRow("1/2") << 0.5 << "#21908c";
    QTest::newRow("1") << 1.0 << "#fde725";
    // Halfway between the first two stops: 0x44/0x47 → 0x46 (69.5 rounds to 70), 0x01/0x2D → 0x17,
    // 0x54/0x7B → 0x68.
    QTest::newRow("1/16") << 1.0 / 16.0 << "#461768";
    QTest::newRow("below 0 is 0") << -3.0 << "#440154";
    QTest::newRow("not a number is 0") << std::nan("") << "#440154";
}

void TestHeatmapView::viridisAtItsStops() {
    QFETCH(double, t);
    QFETCH(QString, colour);
    QCOMPARE(viridis(t).name(), colour);
}

void TestHeatmapView::colorsCellsAndTooltips() {
    HeatmapView view;
    view.showGrid(two_by_two(), grid_metric("iteration_time_s").value(), QStringLiteral("parallelism.tp"),
                  QStringLiteral("parallelism.pp"), QStringLiteral("iteration time, best over micro-batch"));
    // Times from 1 s (best: yellow) to 4 s (worst: dark purple); 2.5 s is halfway.
    QCOMPARE(view.colorOf(1.0), viridis(1.0));
    QCOMPARE(view.colorOf(4.0), viridis(0.0));
    QCOMPARE(view.colorOf(2.5), viridis(0.5));
    QCOMPARE(view.cellText(view.grid()->at(1, 0)), QStringLiteral("1 s"));
    QCOMPARE(view.cellText(view.grid()->at(1, 1)), QStringLiteral("OOM (est.)"));
    QCOMPARE(view.cellToolTip(1, 1),
             QStringLiteral("parallelism.tp = 2, parallelism.pp = 2\nOOM (est.) (point 3)\nstage 0 needs at least "
                            "90 GB (90 GB of model states), more than the 80 GB of a device"));
    QCOMPARE(view.cellToolTip(0, 0), QStringLiteral("parallelism.tp = 1, parallelism.pp = 1\niteration_time_s: 4 s "
                                                    "(point 0; 2 of 2 points here fit)"));
    // A metric where more is better: the largest value is yellow.
    view.showGrid(two_by_two(), grid_metric("samples_per_s").value(), QStringLiteral("tp"), QStringLiteral("pp"), {});
    QCOMPARE(view.colorOf(4.0), viridis(1.0));
}

void TestHeatmapView::paintsEachCellInItsColour() {
    HeatmapView view;
    view.resize(640, 420);
    view.showGrid(two_by_two(), grid_metric("iteration_time_s").value(), QStringLiteral("parallelism.tp"),
                  QStringLiteral("parallelism.pp"), QStringLiteral("iteration time"));
    const QImage image = view.grab().toImage();
    // Near each cell's top left corner, clear of its text and of the best cell's outline: the value's colour.
    const auto inside = [&](std::size_t x, std::size_t y) {
        return image.pixelColor(view.cellRect(x, y).topLeft() + QPoint(8, 8));
    };
    QCOMPARE(inside(0, 0), viridis(0.0));
    QCOMPARE(inside(1, 0), viridis(1.0));
    QCOMPARE(inside(0, 1), viridis(0.5));
    // The cell that does not fit is hatched: not one colour over its area.
    const QRect out = view.cellRect(1, 1);
    QSet<QRgb> colours;
    for (int x = out.left() + 4; x < out.left() + 40; ++x) colours.insert(image.pixel(x, out.top() + 20));
    QVERIFY(colours.size() >= 2);
    // The best cell's outline, in the text colour, along its top edge.
    const QRect best = view.cellRect(1, 0);
    QCOMPARE(image.pixelColor(best.center().x(), best.top() + 2), view.palette().color(QPalette::Text));
    // A point of a cell maps back to it.
    QCOMPARE(view.cellAt(view.cellRect(0, 1).center()), std::optional(std::pair<std::size_t, std::size_t>(0, 1)));
    QVERIFY(!view.cellAt(QPoint(1, 1)));
}

// Black on the light end (yellow: relative luminance 0.78, contrast 16.6 with black, 1.3 with white) and on teal
// (#21908C: luminance 0.22, 5.4 against 3.9); white on the dark end (#440154: 0.014, 1.3 against 16.4).
void TestHeatmapView::textReadsOnTheScale() {
    QCOMPARE(text_color_on_scale(viridis(1.0)), QColor(Qt::black));
    QCOMPARE(text_color_on_scale(viridis(0.5)), QColor(Qt::black));
    QCOMPARE(text_color_on_scale(viridis(0.0)), QColor(Qt::white));
}

// Ratios to the first cell with a value (4 s), then to another chosen; a cell without a value is no baseline.
void TestHeatmapView::ratiosToABaseline() {
    HeatmapView view;
    view.showGrid(two_by_two(), grid_metric("iteration_time_s").value(), QStringLiteral("tp"), QStringLiteral("pp"), {});
    view.setScale(HeatmapScale::ratio);
    QCOMPARE(view.baseline(), std::optional<std::size_t>(0));
    QCOMPARE(view.cellText(view.grid()->at(1, 0)), QStringLiteral("0.25×"));  // 1 s / 4 s
    QCOMPARE(view.cellText(view.grid()->at(0, 1)), QStringLiteral("0.625×"));  // 2.5 s / 4 s
    QVERIFY(view.setBaseline(1, 0));
    QCOMPARE(view.cellText(view.grid()->at(0, 0)), QStringLiteral("4×"));
    QVERIFY(view.cellToolTip(0, 0).contains(QStringLiteral("4× the baseline's (tp = 2, pp = 1)")));
    QVERIFY(!view.setBaseline(1, 1));  // estimated not to fit: no value
    QCOMPARE(view.baseline(), std::optional<std::size_t>(1));
    // Shown again (a sweep filling in), the baseline stays.
    view.showGrid(two_by_two(), grid_metric("iteration_time_s").value(), QStringLiteral("tp"), QStringLiteral("pp"), {});
    QCOMPARE(view.baseline(), std::optional<std::size_t>(1));
    // Colours do not change with the ratio: they are the values'.
    QCOMPARE(view.colorOf(2.5), viridis(0.5));
}

// 1 s to 4 s on a log scale: 2 s is halfway (log 2 / log 4); a grid with a 0 stays linear.
void TestHeatmapView::aLogScale() {
    HeatmapView view;
    view.showGrid(two_by_two(), grid_metric("iteration_time_s").value(), QStringLiteral("tp"), QStringLiteral("pp"), {});
    view.setScale(HeatmapScale::log);
    QCOMPARE(view.colorOf(2.0), viridis(0.5));
    QCOMPARE(view.colorOf(1.0), viridis(1.0));
    SweepGrid with_zero = two_by_two();
    with_zero.cells[0] = fitting(0.0, 0);
    view.showGrid(with_zero, grid_metric("bubble_share").value(), QStringLiteral("tp"), QStringLiteral("pp"), {});
    QCOMPARE(view.colorOf(1.25), viridis(0.5));  // linear over 0 … 2.5
}

// The best cell's point spent 0.75 s computing and 0.25 s in the bubble: its glyph is three quarters the compute
// colour and one quarter the bubble's, and its tooltip says so.
void TestHeatmapView::aGlyphSaysWhereTheTimeWent() {
    SweepGrid grid = two_by_two();
    TimeBreakdown times;
    times.compute_s = 0.75;
    times.bubble_s = 0.25;
    grid.cells[1].time_breakdown = times;
    HeatmapView view;
    view.resize(640, 420);
    view.showGrid(grid, grid_metric("iteration_time_s").value(), QStringLiteral("tp"), QStringLiteral("pp"), {});
    QVERIFY(view.glyphRect(1, 0).isEmpty());  // not asked for
    view.setGlyphsShown(true);
    const QRect bar = view.glyphRect(1, 0);
    QVERIFY(!bar.isEmpty());
    QVERIFY(view.glyphRect(0, 0).isEmpty());  // no breakdown stored
    QVERIFY(view.cellRect(1, 0).contains(bar));
    const QImage image = view.grab().toImage();
    const int middle = bar.center().y();
    QCOMPARE(image.pixelColor(bar.left() + bar.width() / 4, middle), compute_color());
    QCOMPARE(image.pixelColor(bar.right() - 2, middle), bubble_color());
    // Where the colours meet: three quarters of the way along (±1 px of rounding).
    const int meet = bar.left() + static_cast<int>(std::lround(bar.width() * 0.75));
    QCOMPARE(image.pixelColor(meet - 2, middle), compute_color());
    QCOMPARE(image.pixelColor(meet + 1, middle), bubble_color());
    QVERIFY(view.cellToolTip(1, 0).endsWith(QStringLiteral("\nCompute 75% · Bubble 25%")));
}

QTEST_MAIN(TestHeatmapView)
#include "test_heatmap_view.moc"
