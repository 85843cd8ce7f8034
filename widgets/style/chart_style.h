#pragma once
// What every chart of the result views shares: made without animation, antialiased, its legend below; cleared of
// series and axes before it is drawn anew; and following the application's palette (Qt Charts' themes do not) —
// background, text, axes and grid from the window's colours, so a chart reads in a dark desktop as in a light one.

class QAbstractAxis;
class QAbstractSeries;
class QChart;
class QChartView;
class QPalette;
class QWidget;

namespace parasight::gui {

// A view that owns `chart`; its legend (below the plot unless moved beside it) goes beside the plot while a row of its
// entries would not fit below, and is hidden while the view is too narrow to name every entry even so; the chart is
// coloured again (apply_chart_style) whenever the view is enabled or disabled.
[[nodiscard]] QChartView* make_chart_view(QChart* chart, QWidget* parent);
void clear_chart(QChart& chart);
// Adds `series` to `chart`, drawn against the axes `x` and `y` (already added to the chart).
void add_series(QChart& chart, QAbstractSeries* series, QAbstractAxis* x, QAbstractAxis* y);
// Keeps `series` out of the legend: a marker line or a label, not something the legend should name.
void hide_from_legend(QChart& chart, QAbstractSeries* series);

// Colours from `palette` and labels never elided; call after the axes are added, and again on a palette change.
void apply_chart_style(QChart& chart, const QPalette& palette);

}  // namespace parasight::gui
