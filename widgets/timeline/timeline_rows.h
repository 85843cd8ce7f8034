#pragma once
// The rows of the timeline, top to bottom, in groups that fold: a band per pipeline stage; inside it the stage's
// devices, those that did exactly the same thing (IdenticalDevices) as one row standing for the class ("▸ NPU 0 ×4")
// that unfolds into a band over its members, grouped by node when they span several; a device row has a lane per
// stream it used — compute, feature communication, gradient communication — and, when shown, a memory lane
// (allocated bytes over time). When one device per stage was simulated, its row says how many it stands for (×N).
// The header of a device row names the NPU, its coordinates in the topology and its ranks.

#include "analysis/identical_devices.h"
#include "analysis/timeline.h"

#include <QString>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <utility>
#include <vector>

namespace parasight::gui {

enum class RowKind : std::uint8_t {
    stage_band,  // "▾ Stage 3 · 256 devices"
    class_band,  // an unfolded class of identical devices: "▾ 256 identical devices"
    node_band,   // the members of an unfolded class in one node: "▾ Node 3 · 8 devices"
    device,      // a device's lanes; a folded class's first device standing for all of them: "▸ NPU 0 ×256"
};

struct TimelineRow {
    RowKind kind = RowKind::device;
    int depth = 0;              // nesting: 0 a stage's band, 1 what is in a stage, …
    int stage = 0;
    std::size_t device = 0;     // a device row's device; a class's first device for its bands
    std::size_t class_index = 0;
    std::size_t class_size = 1;  // a device row standing for its folded class: the devices in it
    std::int64_t node = 0;       // a node band's node
    QString title;               // "▾ Stage 3 · 4 devices", "▸ NPU 0 ×4", "NPU 64 ×64 (stands for)"
    QString detail;              // a device's "(0, 8) · tp 0 · dp 0 · pp 1"
    std::vector<Stream> lanes;
    int memory_top_px = -1;  // the memory lane's top within the row, under the stream lanes; -1: none
    int top_px = 0;          // from the top of all rows
    int height_px = 0;

    [[nodiscard]] bool isBand() const noexcept { return kind != RowKind::device; }
};

// What is folded. Stages start unfolded, classes of identical devices folded, nodes unfolded; the view keeps this
// across layouts (a new result of the same cluster keeps the user's folds).
struct TimelineFolding {
    std::set<int> folded_stages;
    std::set<std::size_t> unfolded_classes;
    std::set<std::pair<std::size_t, std::int64_t>> folded_nodes;  // (class, node)

    // Unfolds what hides `device`'s own row.
    void reveal(const Timeline& timeline, const IdenticalDevices& classes, std::size_t device);
    // Folds a band's group if open, unfolds it if folded; for a device row standing for a class, unfolds the class.
    void toggle(const TimelineRow& row);
};

struct TimelineRowLayout {
    std::vector<TimelineRow> rows;
    int height_px = 0;
    int lane_height_px = 0;

    // The row at `y` (from the top of all rows), if any.
    [[nodiscard]] const TimelineRow* rowAt(int y) const;
    // The lane of a device row at `y`, if `y` is on one.
    [[nodiscard]] std::optional<Stream> laneAt(const TimelineRow& row, int y) const;
    // The top of the lane `stream` of `device`'s row, if it has one (not when the device is folded away, nor a
    // class member standing behind its first device's row).
    [[nodiscard]] std::optional<int> laneTop(std::size_t device, Stream stream) const;
    // The row of `device`, if laid out.
    [[nodiscard]] const TimelineRow* deviceRow(std::size_t device) const;
};

struct RowHeights {
    int lane_px = 18;
    int band_px = 22;
    int min_row_px = 36;
    int memory_lane_px = 0;  // 0 leaves the memory lanes out; a device without memory samples has none either
};

[[nodiscard]] TimelineRowLayout layout_timeline_rows(const Timeline& timeline, const IdenticalDevices& classes,
                                                     const RowHeights& heights, const TimelineFolding& folding);

}  // namespace parasight::gui
