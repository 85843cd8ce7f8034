#include "timeline/timeline_rows.h"

#include <QCoreApplication>

#include <algorithm>
#include <numeric>

namespace parasight::gui {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("TimelineRows", text); }

QString coordinates_text(const std::vector<int>& coordinates) {
    QStringList parts;
    for (const int coordinate : coordinates) parts << QString::number(coordinate);
    return QLatin1Char('(') + parts.join(QStringLiteral(", ")) + QLatin1Char(')');
}

}  // namespace

const TimelineRow* TimelineRowLayout::rowAt(int y) const {
    auto row = std::upper_bound(rows.begin(), rows.end(), y, [](int at, const TimelineRow& r) { return at < r.top_px; });
    if (row == rows.begin()) return nullptr;
    --row;
    return y < row->top_px + row->height_px ? &*row : nullptr;
}

std::optional<Stream> TimelineRowLayout::laneAt(const TimelineRow& row, int y) const {
    if (row.is_stage_band || lane_height_px <= 0) return std::nullopt;
    const int index = (y - row.top_px) / lane_height_px;
    if (index < 0 || index >= static_cast<int>(row.lanes.size())) return std::nullopt;
    return row.lanes[static_cast<std::size_t>(index)];
}

std::optional<int> TimelineRowLayout::laneTop(std::size_t device, Stream stream) const {
    for (const TimelineRow& row : rows) {
        if (row.is_stage_band || row.device != device) continue;
        const auto lane = std::find(row.lanes.begin(), row.lanes.end(), stream);
        if (lane == row.lanes.end()) return std::nullopt;
        return row.top_px + static_cast<int>(lane - row.lanes.begin()) * lane_height_px;
    }
    return std::nullopt;
}

TimelineRowLayout layout_timeline_rows(const Timeline& timeline, int lane_height_px, int band_height_px,
                                       int min_row_height_px, int memory_lane_height_px,
                                       const std::set<int>& collapsed) {
    TimelineRowLayout layout;
    layout.lane_height_px = lane_height_px;
    const auto& devices = timeline.devices();
    std::vector<std::size_t> order(devices.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return std::pair(devices[a].stage, devices[a].npu) < std::pair(devices[b].stage, devices[b].npu);
    });
    int y = 0;
    int stage = -1;
    for (const std::size_t index : order) {
        const TimelineDevice& device = devices[index];
        if (device.stage != stage) {
            stage = device.stage;
            TimelineRow band;
            band.is_stage_band = true;
            band.stage = stage;
            const auto in_stage = std::count_if(order.begin(), order.end(),
                                                [&](std::size_t d) { return devices[d].stage == stage; });
            const bool folded = collapsed.contains(stage);
            band.title = (folded ? QStringLiteral("▸ ") : QStringLiteral("▾ ")) +
                         (in_stage == 1 ? tr("Stage %1").arg(stage)
                                        : tr("Stage %1 · %2 devices").arg(stage).arg(in_stage));
            band.top_px = y;
            band.height_px = band_height_px;
            y += band_height_px;
            layout.rows.push_back(std::move(band));
        }
        if (collapsed.contains(stage)) continue;
        TimelineRow row;
        row.stage = device.stage;
        row.device = index;
        row.title = tr("NPU %1").arg(device.npu);
        if (device.weight > 1.0) row.title += QStringLiteral(" ×%1").arg(device.weight, 0, 'f', 0);
        const auto& r = device.ranks;  // tp, cp, ep, dp, pp
        row.detail = tr("%1 · tp %2 · dp %3 · pp %4").arg(coordinates_text(device.coordinates)).arg(r[0]).arg(r[3]).arg(r[4]);
        for (const auto& stream : stream_names) {
            if (!timeline.lane(index, stream.value).empty()) row.lanes.push_back(stream.value);
        }
        row.top_px = y;
        int lanes_px = static_cast<int>(row.lanes.size()) * lane_height_px;
        if (memory_lane_height_px > 0 && !timeline.memory(index).empty()) {
            row.memory_top_px = lanes_px;
            lanes_px += memory_lane_height_px;
        }
        row.height_px = std::max(min_row_height_px, lanes_px);
        y += row.height_px;
        layout.rows.push_back(std::move(row));
    }
    layout.height_px = y;
    return layout;
}

}  // namespace parasight::gui
