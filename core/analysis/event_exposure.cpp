#include "analysis/event_exposure.h"

#include <algorithm>

namespace parasight {

std::vector<TimeInterval> exposed_parts(const Timeline& timeline, EventId id) {
    const TimelineEvent event = timeline.event(id);
    std::vector<TimeInterval> parts;
    if (!(is_communication(event.kind) || is_remote_memory_work(event.kind)) || !(event.end_s > event.start_s)) return parts;
    const std::span<const EventId> compute = timeline.lane(event.device, Stream::compute);
    // A lane runs one event at a time, so ends are in order too: start at the first compute event ending after the
    // transfer starts.
    auto next = std::partition_point(compute.begin(), compute.end(), [&](EventId c) {
        return timeline.event(c).end_s <= event.start_s;
    });
    double uncovered_from_s = event.start_s;
    for (; next != compute.end(); ++next) {
        const TimelineEvent busy = timeline.event(*next);
        if (busy.start_s >= event.end_s) break;
        if (busy.start_s > uncovered_from_s) parts.push_back(TimeInterval{uncovered_from_s, busy.start_s});
        uncovered_from_s = std::max(uncovered_from_s, busy.end_s);
        if (uncovered_from_s >= event.end_s) break;
    }
    if (uncovered_from_s < event.end_s) parts.push_back(TimeInterval{uncovered_from_s, event.end_s});
    return parts;
}

}  // namespace parasight
