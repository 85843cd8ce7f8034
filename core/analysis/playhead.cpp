#include "analysis/playhead.h"

#include <algorithm>

namespace parasight {

ScheduleSteps::ScheduleSteps(const Timeline& timeline) {
    for (std::size_t device = 0; device < timeline.devices().size(); ++device) {
        for (const EventId id : timeline.lane(device, Stream::compute)) {
            const TimelineEvent event = timeline.event(id);
            stops_.push_back(event.start_s);
            stops_.push_back(event.end_s);
        }
    }
    std::sort(stops_.begin(), stops_.end());
    stops_.erase(std::unique(stops_.begin(), stops_.end()), stops_.end());
}

std::optional<double> ScheduleSteps::after(double time_s) const {
    const auto next = std::upper_bound(stops_.begin(), stops_.end(), time_s);
    if (next == stops_.end()) return std::nullopt;
    return *next;
}

std::optional<double> ScheduleSteps::before(double time_s) const {
    const auto next = std::lower_bound(stops_.begin(), stops_.end(), time_s);
    if (next == stops_.begin()) return std::nullopt;
    return *std::prev(next);
}

std::vector<DeviceAtTime> devices_at(const Timeline& timeline, double time_s) {
    std::vector<DeviceAtTime> devices;
    for (std::size_t device = 0; device < timeline.devices().size(); ++device) {
        DeviceAtTime at;
        at.device = device;
        at.stage = timeline.devices()[device].stage;
        at.npu = timeline.devices()[device].npu;
        // A lane runs one event at a time, in time order: the first ending after `time_s` is under way if it has
        // started.
        const auto lane = timeline.lane(device, Stream::compute);
        const auto first = std::partition_point(lane.begin(), lane.end(),
                                                [&](EventId id) { return timeline.event(id).end_s <= time_s; });
        if (first != lane.end() && timeline.event(*first).start_s <= time_s) at.computing = timeline.event(*first);
        const auto samples = timeline.memory(device);
        if (!samples.empty()) {
            const auto last = std::partition_point(samples.begin(), samples.end(),
                                                   [&](const MemorySample& sample) { return sample.time_s <= time_s; });
            at.memory_bytes = last == samples.begin() ? 0.0 : std::prev(last)->bytes;
        }
        devices.push_back(std::move(at));
    }
    return devices;
}

}  // namespace parasight
