#pragma once
// Level of detail for drawing a Timeline: what to draw of one lane over a time range when anything narrower than
// `min_width_s` (a pixel or two at the zoom) cannot be seen. Consecutive events that are each narrower than that,
// with gaps between them narrower than that, merge into one box that says how many events it holds (Tracy's rule);
// an event at least that wide is its own box. A query costs about the number of boxes it returns, however many
// events the range holds: each lane keeps its events merged in advance at widths 4^k apart (Perfetto's and Tracy's
// per-zoom summaries), and a query starts from the coarsest level not coarser than it needs. Merging a level's
// boxes again gives exactly what merging the events would (timeline_levels.cpp says why), so the boxes and their
// counts are the same at any zoom as a direct merge would give.
//
// Built from a Timeline on the worker that simulated it; immutable, so the GUI thread only queries it.

#include "analysis/timeline.h"
#include "common/progress.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace parasight {

// One drawn box: a single event (count 1), or consecutive events of a lane merged because each is too narrow.
struct LaneBox {
    double start_s = 0.0;
    double end_s = 0.0;
    std::uint32_t count = 1;  // events it holds
    // The event itself when count is 1; else the longest member as far as the merges could tell (a member that was
    // itself a merge counts by its span): its kind colours the box.
    EventId representative = 0;
    std::uint16_t kinds = 0;  // a bit per TaskKind among the events it holds: a merge of forward and backward says so
};

class TimelineLevels {
public:
    // One level per factor of 4 from the finest width (the iteration over 2^24) up; a level is kept only where it
    // at most halves the boxes of the one below it. nullptr when `progress` asks to stop.
    [[nodiscard]] static std::shared_ptr<const TimelineLevels> build(std::shared_ptr<const Timeline> timeline,
                                                                     const PhaseProgress& progress);

    [[nodiscard]] const Timeline& timeline() const noexcept { return *timeline_; }

    // Appends to `out` the boxes of the lane (device, stream) that overlap [from_s, to_s], merged at `min_width_s`,
    // in time order. A merged box reaching outside the range is given whole.
    void boxes(std::size_t device, Stream stream, double from_s, double to_s, double min_width_s,
               std::vector<LaneBox>& out) const;

    // Bytes held by the levels (the Timeline not counted).
    [[nodiscard]] std::size_t memory_bytes() const noexcept;

    explicit TimelineLevels(std::shared_ptr<const Timeline> timeline);  // use build()

private:
    struct Level {
        double min_width_s = 0.0;
        std::uint32_t first_box = 0;  // into boxes_
        std::uint32_t box_count = 0;
    };
    struct LaneLevels {
        std::uint32_t first_level = 0;  // into levels_
        std::uint32_t level_count = 0;
    };

    std::shared_ptr<const Timeline> timeline_;
    std::vector<LaneLevels> lanes_;  // by device × stream
    std::vector<Level> levels_;
    std::vector<LaneBox> boxes_;
};

// The bit of `kind` in LaneBox::kinds.
[[nodiscard]] constexpr std::uint16_t kind_bit(TaskKind kind) noexcept {
    return static_cast<std::uint16_t>(1U << static_cast<unsigned>(kind));
}

// Merges `items` (in time order, a lane's events or a coarser view of them) at `min_width_s` into `out`. An item
// with count > 1 is already a merge of events narrower than a finer width, so it merges on like a narrow event.
// The function the levels and the queries share, and the reference the tests compare them with.
void merge_lane_boxes(std::span<const LaneBox> items, double min_width_s, std::vector<LaneBox>& out);

}  // namespace parasight
