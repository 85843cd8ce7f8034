#pragma once
// The rows of the timeline, top to bottom: a band per pipeline stage, then a row per simulated device of that stage
// (in NPU order) with a lane per stream it used — compute, feature communication, gradient communication — and, when
// shown, a memory lane (allocated bytes over time). A device
// standing for a symmetry class says how many real devices it is (×N). A stage's band can collapse its rows. The header of a row names the NPU, its
// coordinates in the topology and its ranks.

#include "analysis/timeline.h"

#include <QString>

#include <cstddef>
#include <optional>
#include <set>
#include <vector>

namespace parasight::gui {

struct TimelineRow {
    bool is_stage_band = false;
    int stage = 0;
    std::size_t device = 0;  // into Timeline::devices(); a device row's
    QString title;           // "▾ Stage 3 · 4 devices", or "NPU 64 ×64"
    QString detail;          // a device's "(0, 8) · tp 0 · dp 0 · pp 1"
    std::vector<Stream> lanes;
    int memory_top_px = -1;  // the memory lane's top within the row, under the stream lanes; -1: none
    int top_px = 0;          // from the top of all rows
    int height_px = 0;
};

struct TimelineRowLayout {
    std::vector<TimelineRow> rows;
    int height_px = 0;
    int lane_height_px = 0;

    // The row at `y` (from the top of all rows), if any.
    [[nodiscard]] const TimelineRow* rowAt(int y) const;
    // The lane of a device row at `y`, if `y` is on one.
    [[nodiscard]] std::optional<Stream> laneAt(const TimelineRow& row, int y) const;
    // The top of the lane `stream` of `device`'s row, if it has one.
    [[nodiscard]] std::optional<int> laneTop(std::size_t device, Stream stream) const;
};

// `memory_lane_height_px` 0 leaves the memory lanes out; a device without memory samples has none either. The
// stages in `collapsed` show their band only.
[[nodiscard]] TimelineRowLayout layout_timeline_rows(const Timeline& timeline, int lane_height_px,
                                                     int band_height_px, int min_row_height_px,
                                                     int memory_lane_height_px, const std::set<int>& collapsed = {});

}  // namespace parasight::gui
