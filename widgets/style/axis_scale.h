#pragma once
// The unit a chart axis counts in: the largest in which the axis's maximum is at least 1 ("12.5" ms, not
// "0.0125" s), so tick labels stay short.

#include <QString>

namespace parasight::gui {

struct AxisScale {
    double unit_value = 1.0;  // what one unit is worth in seconds or bytes: a value reads value / unit_value
    QString unit;             // "ms", "GiB"
};

[[nodiscard]] AxisScale time_axis_scale(double max_s);
// Binary units, as memory capacities are given.
[[nodiscard]] AxisScale bytes_axis_scale(double max_bytes);

}  // namespace parasight::gui
