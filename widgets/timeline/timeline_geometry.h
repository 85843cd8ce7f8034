#pragma once
// Where the timeline view draws what, and what lies under a point of its viewport: viewport coordinates from the row
// layout, the time scale and the vertical scroll, and back. The view makes one for each question, so that the answers
// are tested without a widget (test_timeline_geometry).

#include "analysis/timeline_levels.h"
#include "style/time_scale.h"
#include "timeline/timeline_rows.h"

#include <QPoint>
#include <QRect>
#include <QRectF>

#include <cstddef>
#include <optional>

namespace parasight::gui {

// The timeline view's fixed sizes.
namespace timeline_metrics {
inline constexpr int header_width_px = 210;
inline constexpr int lane_name_width_px = 64;  // "compute", "features", "gradients", "memory out" at the right
inline constexpr int legend_height_px = 22;
inline constexpr int axis_height_px = 22;
inline constexpr int lane_height_px = 18;
inline constexpr int band_height_px = 20;  // a stage's, a class's or a node's band
inline constexpr double min_box_width_px = 2.0;  // narrower events merge
inline constexpr int memory_lane_height_px = 30;
}  // namespace timeline_metrics

// The view's sizes: timeline_metrics' at the application's font, scaled with a larger one (presentation mode's ×1.5
// text) so that the row headers, lane names, legend and axis keep their text.
struct TimelineSizes {
    int header_width_px = timeline_metrics::header_width_px;
    int lane_name_width_px = timeline_metrics::lane_name_width_px;
    int legend_height_px = timeline_metrics::legend_height_px;
    int axis_height_px = timeline_metrics::axis_height_px;
    int lane_height_px = timeline_metrics::lane_height_px;
    int band_height_px = timeline_metrics::band_height_px;
    int memory_lane_height_px = timeline_metrics::memory_lane_height_px;

    // Every size times `factor` (at least 1: never smaller than at the application's font), rounded.
    [[nodiscard]] static TimelineSizes scaled(double factor);
};

struct TimelineGeometry {
    const TimelineRowLayout& rows;
    const TimeScale& scale;
    int header_width_px = 0;  // the row headers, left of time 0's column
    int lanes_top_px = 0;     // where the rows start, under the legend and the time axis
    int scroll_px = 0;        // how far the rows are scrolled up

    // The row at a point (a header or its lanes), if any.
    [[nodiscard]] const TimelineRow* rowAt(const QPoint& point) const;
    // The box of `levels` drawn under a point — within a pixel: a one-pixel box is hard to hit exactly — at the
    // level of detail that merges boxes narrower than `min_box_width_px`; the nearest when several are.
    [[nodiscard]] std::optional<LaneBox> boxAt(const TimelineLevels& levels, const QPoint& point,
                                               double min_box_width_px) const;
    // Where `event` is drawn (at least a pixel wide), and its middle, if its row is laid out.
    [[nodiscard]] std::optional<QRectF> rectOf(const Timeline& timeline, EventId event) const;
    [[nodiscard]] std::optional<QPoint> pointOf(const Timeline& timeline, EventId event) const;
    // `device`'s row across a viewport `width_px` wide, if it has one.
    [[nodiscard]] std::optional<QRect> deviceRowRect(std::size_t device, int width_px) const;
    // A stretch of time over the lanes of a viewport `height_px` tall, at least a pixel wide.
    [[nodiscard]] QRect rangeRect(double from_s, double to_s, int height_px) const;
};

}  // namespace parasight::gui
