#include "analysis/range_summary.h"

#include <algorithm>

namespace parasight {

RangeSummary summarize_range(const Timeline& timeline, double from_s, double to_s) {
    RangeSummary summary;
    summary.from_s = std::min(from_s, to_s);
    summary.to_s = std::max(from_s, to_s);
    double weight_sum = 0.0;
    const auto& devices = timeline.devices();
    for (std::size_t device = 0; device < devices.size(); ++device) {
        const double weight = devices[device].weight;
        weight_sum += weight;
        for (const auto& stream : stream_names) {
            const std::span<const EventId> lane = timeline.lane(device, stream.value);
            // A lane's events do not overlap, so their ends are in order: start at the first ending in the range.
            auto next = std::partition_point(lane.begin(), lane.end(), [&](EventId id) {
                return timeline.event(id).end_s <= summary.from_s;
            });
            for (; next != lane.end(); ++next) {
                const TimelineEvent event = timeline.event(*next);
                if (event.start_s >= summary.to_s) break;
                const double inside_s = std::min(event.end_s, summary.to_s) - std::max(event.start_s, summary.from_s);
                summary.mean_s_by_kind[static_cast<std::size_t>(event.kind)] += weight * std::max(0.0, inside_s);
                ++summary.events;
            }
        }
    }
    if (weight_sum > 0.0) {
        for (double& seconds : summary.mean_s_by_kind) seconds /= weight_sum;
    }
    return summary;
}

}  // namespace parasight
