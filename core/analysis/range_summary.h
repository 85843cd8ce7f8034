#pragma once
// What the devices did over a stretch of an iteration (the timeline's range selection, like Perfetto's area
// selection): per kind of event, the time spent in it inside [from_s, to_s] — events cut at the range's ends —
// as the mean over the real devices (each simulated device weighted by those it stands for, as the Breakdown).

#include "analysis/timeline.h"

#include <array>

namespace parasight {

struct RangeSummary {
    double from_s = 0.0;
    double to_s = 0.0;
    std::array<double, task_kind_count> mean_s_by_kind{};  // by TaskKind
    std::size_t events = 0;                                 // simulated events overlapping the range
};

[[nodiscard]] RangeSummary summarize_range(const Timeline& timeline, double from_s, double to_s);

}  // namespace parasight
