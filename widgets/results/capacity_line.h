#pragma once
// A device's memory capacity on a result chart: a dashed line in the over-capacity colour, across a row-bar chart's
// bars (row_bars.h) or along a chart's time axis.

#include <QPen>

class QChart;
class QString;
class QValueAxis;

namespace parasight::gui {

[[nodiscard]] QPen capacity_pen();

// A vertical line at `value` (in `values`' unit) across the `rows` bars of a row-bar chart, on its own hidden axis
// spanning the bars' slots; named `name` in the legend.
void add_capacity_across_bars(QChart& chart, QValueAxis* values, int rows, double value, const QString& name);

}  // namespace parasight::gui
