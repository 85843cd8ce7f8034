#include "timeline/timeline_rows.h"

#include <QCoreApplication>

#include <algorithm>
#include <map>

namespace parasight::gui {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("TimelineRows", text); }

QString fold_mark(bool folded) { return folded ? QStringLiteral("▸ ") : QStringLiteral("▾ "); }

QString coordinates_text(const std::vector<int>& coordinates) {
    QStringList parts;
    for (const int coordinate : coordinates) parts << QString::number(coordinate);
    return QLatin1Char('(') + parts.join(QStringLiteral(", ")) + QLatin1Char(')');
}

QString devices_text(std::size_t count) {
    return count == 1 ? tr("1 device") : tr("%1 devices").arg(count);
}

class RowBuilder {
public:
    RowBuilder(const Timeline& timeline, const RowHeights& heights, TimelineRowLayout& layout)
        : timeline_(timeline), heights_(heights), layout_(layout) {}

    void band(RowKind kind, int depth, int stage, std::size_t device, std::size_t class_index, QString title) {
        TimelineRow row;
        row.kind = kind;
        row.depth = depth;
        row.stage = stage;
        row.device = device;
        row.class_index = class_index;
        row.title = std::move(title);
        row.height_px = heights_.band_px;
        push(std::move(row));
    }

    void device(int depth, std::size_t index, std::size_t class_index, std::size_t class_size) {
        const TimelineDevice& device = timeline_.devices()[index];
        TimelineRow row;
        row.depth = depth;
        row.stage = device.stage;
        row.device = index;
        row.class_index = class_index;
        row.class_size = class_size;
        row.title = tr("NPU %1").arg(device.npu);
        if (class_size > 1) {
            row.title = fold_mark(true) + row.title + QStringLiteral(" ×%1").arg(class_size);
        } else if (device.weight > 1.0) {
            row.title += QStringLiteral(" ×%1").arg(device.weight, 0, 'f', 0);
        }
        const auto& r = device.ranks;  // tp, cp, ep, dp, pp
        // Its pp rank is its stage, named by the band above.
        row.detail = tr("%1 · tp %2 · dp %3").arg(coordinates_text(device.coordinates)).arg(r[0]).arg(r[3]);
        if (r[1] > 0) row.detail += tr(" · cp %1").arg(r[1]);
        if (r[2] > 0) row.detail += tr(" · ep %1").arg(r[2]);
        for (const auto& stream : stream_names) {
            if (!timeline_.lane(index, stream.value).empty()) row.lanes.push_back(stream.value);
        }
        int lanes_px = static_cast<int>(row.lanes.size()) * heights_.lane_px;
        if (heights_.memory_lane_px > 0 && !timeline_.memory(index).empty()) {
            row.memory_top_px = lanes_px;
            lanes_px += heights_.memory_lane_px;
        }
        row.height_px = std::max(heights_.min_row_px, lanes_px);
        push(std::move(row));
    }

    TimelineRow& last() { return layout_.rows.back(); }

private:
    void push(TimelineRow row) {
        row.top_px = layout_.height_px;
        layout_.height_px += row.height_px;
        layout_.rows.push_back(std::move(row));
    }

    const Timeline& timeline_;
    const RowHeights& heights_;
    TimelineRowLayout& layout_;
};

}  // namespace

void TimelineFolding::reveal(const Timeline& timeline, const IdenticalDevices& classes, std::size_t device) {
    folded_stages.erase(timeline.devices().at(device).stage);
    const std::size_t class_index = classes.class_of(device);
    if (classes.members(class_index).size() > 1) unfolded_classes.insert(class_index);
    folded_nodes.erase({class_index, timeline.devices()[device].node});
}

void TimelineFolding::toggle(const TimelineRow& row) {
    const auto flip = [](auto& set, const auto& key) {
        if (!set.erase(key)) set.insert(key);
    };
    switch (row.kind) {
    case RowKind::stage_band: flip(folded_stages, row.stage); break;
    case RowKind::class_band: unfolded_classes.erase(row.class_index); break;
    case RowKind::node_band: flip(folded_nodes, std::pair(row.class_index, row.node)); break;
    case RowKind::device:
        if (row.class_size > 1) unfolded_classes.insert(row.class_index);
        break;
    }
}

const TimelineRow* TimelineRowLayout::rowAt(int y) const {
    auto row = std::upper_bound(rows.begin(), rows.end(), y, [](int at, const TimelineRow& r) { return at < r.top_px; });
    if (row == rows.begin()) return nullptr;
    --row;
    return y < row->top_px + row->height_px ? &*row : nullptr;
}

std::optional<Stream> TimelineRowLayout::laneAt(const TimelineRow& row, int y) const {
    if (row.isBand() || lane_height_px <= 0) return std::nullopt;
    const int index = (y - row.top_px) / lane_height_px;
    if (index < 0 || index >= static_cast<int>(row.lanes.size())) return std::nullopt;
    return row.lanes[static_cast<std::size_t>(index)];
}

const TimelineRow* TimelineRowLayout::deviceRow(std::size_t device) const {
    for (const TimelineRow& row : rows) {
        if (!row.isBand() && row.device == device) return &row;
    }
    return nullptr;
}

std::optional<int> TimelineRowLayout::laneTop(std::size_t device, Stream stream) const {
    const TimelineRow* row = deviceRow(device);
    if (row == nullptr) return std::nullopt;
    const auto lane = std::find(row->lanes.begin(), row->lanes.end(), stream);
    if (lane == row->lanes.end()) return std::nullopt;
    return row->top_px + static_cast<int>(lane - row->lanes.begin()) * lane_height_px;
}

TimelineRowLayout layout_timeline_rows(const Timeline& timeline, const IdenticalDevices& classes,
                                       const RowHeights& heights, const TimelineFolding& folding) {
    TimelineRowLayout layout;
    layout.lane_height_px = heights.lane_px;
    RowBuilder builder(timeline, heights, layout);
    const auto& devices = timeline.devices();
    // Classes by stage, each in order of its first device's NPU; a class never spans two stages.
    std::map<int, std::vector<std::size_t>> stage_classes;
    std::map<int, std::size_t> stage_devices;
    for (std::size_t c = 0; c < classes.class_count(); ++c) {
        const int stage = devices[classes.members(c).front()].stage;
        stage_classes[stage].push_back(c);
        stage_devices[stage] += classes.members(c).size();
    }
    for (auto& [stage, in_stage] : stage_classes) {
        std::stable_sort(in_stage.begin(), in_stage.end(), [&](std::size_t a, std::size_t b) {
            return devices[classes.members(a).front()].npu < devices[classes.members(b).front()].npu;
        });
        const bool stage_folded = folding.folded_stages.contains(stage);
        const std::size_t count = stage_devices[stage];
        builder.band(RowKind::stage_band, 0, stage, classes.members(in_stage.front()).front(), in_stage.front(),
                     fold_mark(stage_folded) + (count == 1 ? tr("Stage %1").arg(stage)
                                                           : tr("Stage %1 · %2").arg(stage).arg(devices_text(count))));
        if (stage_folded) continue;
        for (const std::size_t c : in_stage) {
            const auto members = classes.members(c);
            if (members.size() == 1 || !folding.unfolded_classes.contains(c)) {
                builder.device(1, members.front(), c, members.size());
                continue;
            }
            builder.band(RowKind::class_band, 1, stage, members.front(), c,
                         fold_mark(false) + tr("%1 identical devices").arg(members.size()));
            // Members by node, each node's in NPU order; a band per node only when they span several.
            std::map<std::int64_t, std::vector<std::size_t>> by_node;
            for (const std::size_t device : members) by_node[devices[device].node].push_back(device);
            for (auto& [node, in_node] : by_node) {
                std::stable_sort(in_node.begin(), in_node.end(),
                                 [&](std::size_t a, std::size_t b) { return devices[a].npu < devices[b].npu; });
                int depth = 2;
                if (by_node.size() > 1) {
                    const bool node_folded = folding.folded_nodes.contains({c, node});
                    builder.band(RowKind::node_band, 2, stage, in_node.front(), c,
                                 fold_mark(node_folded) +
                                     tr("Node %1 · %2").arg(node).arg(devices_text(in_node.size())));
                    builder.last().node = node;
                    if (node_folded) continue;
                    depth = 3;
                }
                for (const std::size_t device : in_node) builder.device(depth, device, c, 1);
            }
        }
    }
    return layout;
}

}  // namespace parasight::gui
