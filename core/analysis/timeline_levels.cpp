#include "analysis/timeline_levels.h"

#include <algorithm>
#include <cmath>

namespace parasight {

// Why merging a level's boxes at a width m gives what merging the events at m would. A box of the level of width
// w <= m holds a run of events each narrower than w, with gaps narrower than w, so each narrower than m with gaps
// narrower than m: merging the events at m puts all of them into one box, and so does merging the level's boxes
// (a box with count > 1 merges on as a narrow item). A single event of the level is the event itself. So a run of
// events merged at m is a run of the level's items merged at m, and conversely.

namespace {

constexpr int finest_level_divisions = 1 << 24;  // the finest width: the iteration over this
constexpr double level_factor = 4.0;
constexpr std::uint32_t progress_every_events = 1U << 16;

[[nodiscard]] bool is_narrow(const LaneBox& item, double min_width_s) {
    return item.count > 1 || item.end_s - item.start_s < min_width_s;
}

}  // namespace

void merge_lane_boxes(std::span<const LaneBox> items, double min_width_s, std::vector<LaneBox>& out) {
    bool open_is_narrow = false;
    double representative_span_s = 0.0;
    for (const LaneBox& item : items) {
        const bool narrow = is_narrow(item, min_width_s);
        const double span_s = item.end_s - item.start_s;
        if (!out.empty() && open_is_narrow && narrow && item.start_s - out.back().end_s < min_width_s) {
            LaneBox& open = out.back();
            open.end_s = std::max(open.end_s, item.end_s);
            open.count += item.count;
            open.kinds |= item.kinds;
            if (span_s > representative_span_s) {
                representative_span_s = span_s;
                open.representative = item.representative;
            }
            continue;
        }
        out.push_back(item);
        open_is_narrow = narrow;
        representative_span_s = span_s;
    }
}

TimelineLevels::TimelineLevels(std::shared_ptr<const Timeline> timeline) : timeline_(std::move(timeline)) {}

std::shared_ptr<const TimelineLevels> TimelineLevels::build(std::shared_ptr<const Timeline> timeline,
                                                            const PhaseProgress& progress) {
    auto levels = std::make_shared<TimelineLevels>(std::move(timeline));
    const Timeline& source = *levels->timeline_;
    const double finest_s = source.iteration_time_s() / finest_level_divisions;
    const std::size_t lane_count = source.devices().size() * stream_count;
    levels->lanes_.resize(lane_count);
    std::vector<LaneBox> events;
    std::vector<LaneBox> merged;
    std::uint32_t since_poll = 0;
    std::size_t done = 0;
    const double total = std::max<double>(1.0, static_cast<double>(source.event_count()));
    for (std::size_t lane = 0; lane < lane_count; ++lane) {
        const std::size_t device = lane / stream_count;
        const auto stream = static_cast<Stream>(lane % stream_count);
        const std::span<const EventId> ids = source.lane(device, stream);
        events.clear();
        events.reserve(ids.size());
        for (const EventId id : ids) {
            const TimelineEvent event = source.event(id);
            events.push_back(LaneBox{event.start_s, event.end_s, 1, id, kind_bit(event.kind)});
            if (++since_poll == progress_every_events) {
                since_poll = 0;
                if (progress.report(static_cast<double>(done) / total)) return nullptr;
            }
        }
        done += ids.size();
        LaneLevels& lane_levels = levels->lanes_[lane];
        lane_levels.first_level = static_cast<std::uint32_t>(levels->levels_.size());
        // Level 0 is the events themselves; each next level merges the last kept one at 4 times the width.
        auto keep = [&](double width_s, const std::vector<LaneBox>& boxes) {
            levels->levels_.push_back(Level{width_s, static_cast<std::uint32_t>(levels->boxes_.size()),
                                            static_cast<std::uint32_t>(boxes.size())});
            levels->boxes_.insert(levels->boxes_.end(), boxes.begin(), boxes.end());
            ++lane_levels.level_count;
        };
        keep(0.0, events);
        std::vector<LaneBox> kept = events;
        for (double width_s = finest_s; kept.size() > 1 && width_s < source.iteration_time_s() * level_factor;
             width_s *= level_factor) {
            merged.clear();
            merge_lane_boxes(kept, width_s, merged);
            if (merged.size() * 2 <= kept.size()) {
                keep(width_s, merged);
                kept.swap(merged);
            }
        }
    }
    return levels;
}

void TimelineLevels::boxes(std::size_t device, Stream stream, double from_s, double to_s, double min_width_s,
                           std::vector<LaneBox>& out) const {
    const std::size_t lane = device * stream_count + static_cast<std::size_t>(stream);
    if (lane >= lanes_.size()) return;
    const LaneLevels& lane_levels = lanes_[lane];
    // The coarsest level not coarser than asked for.
    const Level* level = &levels_[lane_levels.first_level];
    for (std::uint32_t k = 1; k < lane_levels.level_count; ++k) {
        const Level& candidate = levels_[lane_levels.first_level + k];
        if (candidate.min_width_s > min_width_s) break;
        level = &candidate;
    }
    const std::span<const LaneBox> all(boxes_.data() + level->first_box, level->box_count);
    // Items overlapping the range (a lane's items do not overlap one another, so their ends are in order too),
    // widened to whole merges: a run of narrow items crossing either end of the range is taken whole, so that its
    // box and count are what merging the whole lane would give.
    auto first = std::lower_bound(all.begin(), all.end(), from_s,
                                  [](const LaneBox& box, double t) { return box.end_s < t; });
    auto last = std::upper_bound(first, all.end(), to_s, [](double t, const LaneBox& box) { return t < box.start_s; });
    auto joins = [min_width_s](const LaneBox& earlier, const LaneBox& later) {
        return is_narrow(earlier, min_width_s) && is_narrow(later, min_width_s) &&
               later.start_s - earlier.end_s < min_width_s;
    };
    while (first != all.begin() && first != all.end() && joins(*(first - 1), *first)) --first;
    while (last != all.begin() && last != all.end() && joins(*(last - 1), *last)) ++last;
    const std::size_t before = out.size();
    merge_lane_boxes(std::span<const LaneBox>(first, last), min_width_s, out);
    // Drop what merged into nothing inside the range.
    out.erase(std::remove_if(out.begin() + static_cast<std::ptrdiff_t>(before), out.end(),
                             [&](const LaneBox& box) { return box.end_s < from_s || box.start_s > to_s; }),
              out.end());
}

std::size_t TimelineLevels::memory_bytes() const noexcept {
    return lanes_.capacity() * sizeof(LaneLevels) + levels_.capacity() * sizeof(Level) +
           boxes_.capacity() * sizeof(LaneBox);
}

}  // namespace parasight
