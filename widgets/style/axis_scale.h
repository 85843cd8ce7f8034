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

// How far a memory axis reaches: scaled to the data, so that 1.5 GiB and 4 GiB on an 80 GiB device read as the
// different heights they are rather than two flat lines, with the device's capacity on it when it is in range — the
// data passes it, or it is at most twice the data's peak — and left off (said in words instead) when not.
struct MemoryAxisTop {
    double bytes = 0.0;
    bool capacity_shown = false;
};
[[nodiscard]] MemoryAxisTop memory_axis_top(double peak_bytes, double capacity_bytes);

}  // namespace parasight::gui
