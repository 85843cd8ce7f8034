#include "style/axis_scale.h"

#include <algorithm>
#include <array>

namespace parasight::gui {

namespace {
template <std::size_t N>
AxisScale largest_below(double max, const std::array<AxisScale, N>& scales) {
    AxisScale chosen = scales.front();
    for (const AxisScale& scale : scales) {
        if (max >= scale.unit_value) chosen = scale;
    }
    return chosen;
}
}  // namespace

AxisScale time_axis_scale(double max_s) {
    static const std::array<AxisScale, 4> scales{{{1e-9, QStringLiteral("ns")},
                                                  {1e-6, QStringLiteral("µs")},
                                                  {1e-3, QStringLiteral("ms")},
                                                  {1.0, QStringLiteral("s")}}};
    return largest_below(max_s, scales);
}

AxisScale bytes_axis_scale(double max_bytes) {
    static const std::array<AxisScale, 5> scales{{{1.0, QStringLiteral("B")},
                                                  {1024.0, QStringLiteral("KiB")},
                                                  {1024.0 * 1024.0, QStringLiteral("MiB")},
                                                  {1024.0 * 1024.0 * 1024.0, QStringLiteral("GiB")},
                                                  {1024.0 * 1024.0 * 1024.0 * 1024.0, QStringLiteral("TiB")}}};
    return largest_below(max_bytes, scales);
}

MemoryAxisTop memory_axis_top(double peak_bytes, double capacity_bytes) {
    // A tenth above the highest value drawn, so that it does not touch the top.
    constexpr double headroom = 1.1;
    constexpr double capacity_in_range = 2.0;  // the capacity within this factor of the peak is drawn
    if (capacity_bytes > 0.0 && capacity_bytes <= capacity_in_range * peak_bytes) {
        return {headroom * std::max(peak_bytes, capacity_bytes), true};
    }
    return {peak_bytes > 0.0 ? headroom * peak_bytes : std::max(capacity_bytes, 1.0), false};
}

}  // namespace parasight::gui
