#pragma once
// Exposed communication and remote memory, event by event: the parts of a transfer (over the network, or to or from
// memory beyond the device) during which its device computes nothing, so the device waits on it — what the timeline
// marks so the eye finds it. (The Breakdown's exposed time per group and its exposed remote memory add up such parts
// per device, docs/model.md §5.)

#include "analysis/timeline.h"

#include <vector>

namespace parasight {

struct TimeInterval {
    double start_s = 0.0;
    double end_s = 0.0;
};

// The parts of `id` not overlapped by any event of its device's compute stream, in time order; empty for a
// computation or a transfer hidden entirely behind compute.
[[nodiscard]] std::vector<TimeInterval> exposed_parts(const Timeline& timeline, EventId id);

}  // namespace parasight
