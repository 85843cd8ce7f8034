#include "timeline/timeline_geometry.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace parasight::gui {

const TimelineRow* TimelineGeometry::rowAt(const QPoint& point) const {
    if (point.y() < lanes_top_px) return nullptr;
    return rows.rowAt(point.y() - lanes_top_px + scroll_px);
}

std::optional<LaneBox> TimelineGeometry::boxAt(const TimelineLevels& levels, const QPoint& point,
                                               double min_box_width_px) const {
    if (point.x() < header_width_px || point.y() < lanes_top_px) return std::nullopt;
    const int y = point.y() - lanes_top_px + scroll_px;
    const TimelineRow* row = rows.rowAt(y);
    if (row == nullptr) return std::nullopt;
    const std::optional<Stream> lane = rows.laneAt(*row, y);
    if (!lane) return std::nullopt;
    const double x = point.x() - header_width_px;
    const double slack_s = scale.seconds_per_pixel();
    std::vector<LaneBox> boxes;
    levels.boxes(row->device, *lane, scale.time_at(x) - slack_s, scale.time_at(x) + slack_s,
                 min_box_width_px * scale.seconds_per_pixel(), boxes);
    const double time_s = scale.time_at(x);
    const LaneBox* nearest = nullptr;
    double nearest_s = 0.0;
    for (const LaneBox& box : boxes) {
        const double distance_s = time_s < box.start_s ? box.start_s - time_s : std::max(0.0, time_s - box.end_s);
        if (nearest == nullptr || distance_s < nearest_s) {
            nearest = &box;
            nearest_s = distance_s;
        }
    }
    if (nearest == nullptr) return std::nullopt;
    return *nearest;
}

std::optional<QRectF> TimelineGeometry::rectOf(const Timeline& timeline, EventId id) const {
    const TimelineEvent event = timeline.event(id);
    const std::optional<int> top = rows.laneTop(event.device, event.stream);
    if (!top) return std::nullopt;
    const double x0 = header_width_px + scale.x_of(event.start_s);
    const double x1 = std::max(header_width_px + scale.x_of(event.end_s), x0 + 1.0);
    const double y = lanes_top_px + *top - scroll_px;
    return QRectF(x0, y + 1.0, x1 - x0, rows.lane_height_px - 2.0);
}

std::optional<QPoint> TimelineGeometry::pointOf(const Timeline& timeline, EventId id) const {
    const TimelineEvent event = timeline.event(id);
    const std::optional<int> top = rows.laneTop(event.device, event.stream);
    if (!top) return std::nullopt;
    const double x = header_width_px + scale.x_of((event.start_s + event.end_s) / 2.0);
    const int y = lanes_top_px + *top - scroll_px + rows.lane_height_px / 2;
    return QPoint(static_cast<int>(std::floor(x)), y);
}

std::optional<QRect> TimelineGeometry::deviceRowRect(std::size_t device, int width_px) const {
    const TimelineRow* row = rows.deviceRow(device);
    if (row == nullptr) return std::nullopt;
    return QRect(0, lanes_top_px + row->top_px - scroll_px, width_px, row->height_px);
}

QRect TimelineGeometry::rangeRect(double from_s, double to_s, int height_px) const {
    const int left = header_width_px + static_cast<int>(std::floor(scale.x_of(from_s)));
    const int right = header_width_px + static_cast<int>(std::ceil(scale.x_of(to_s)));
    return QRect(left, lanes_top_px, std::max(right - left, 1), height_px - lanes_top_px);
}

TimelineSizes TimelineSizes::scaled(double factor) {
    const double by = std::max(1.0, factor);
    const auto times = [by](int size_px) { return static_cast<int>(std::lround(size_px * by)); };
    TimelineSizes sizes;
    sizes.header_width_px = times(sizes.header_width_px);
    sizes.lane_name_width_px = times(sizes.lane_name_width_px);
    sizes.legend_height_px = times(sizes.legend_height_px);
    sizes.axis_height_px = times(sizes.axis_height_px);
    sizes.lane_height_px = times(sizes.lane_height_px);
    sizes.band_height_px = times(sizes.band_height_px);
    sizes.memory_lane_height_px = times(sizes.memory_lane_height_px);
    return sizes;
}

}  // namespace parasight::gui
