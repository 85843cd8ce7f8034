#include "analysis/identical_devices.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <unordered_map>

namespace parasight {
namespace {

constexpr double picosecond_s = 1e-12;

bool same_time(double a_s, double b_s) {
    return std::abs(a_s - b_s) <= std::max(picosecond_s, 1e-9 * std::max(std::abs(a_s), std::abs(b_s)));
}

bool same_event(const TimelineEvent& a, const TimelineEvent& b) {
    return a.kind == b.kind && a.layer == b.layer && a.micro_batch == b.micro_batch && a.operation == b.operation &&
           same_time(a.start_s, b.start_s) && same_time(a.end_s, b.end_s);
}

// A hash of what same_event compares, times rounded to whole picoseconds: alike devices almost always hash alike
// (two times a hair apart across a picosecond boundary split a class in two, which shows as two rows, no more).
std::size_t device_hash(const Timeline& timeline, std::size_t device) {
    std::size_t hash = std::hash<int>{}(timeline.devices()[device].stage);
    const auto mix = [&hash](std::size_t value) { hash ^= value + 0x9e3779b97f4a7c15ULL + (hash << 6) + (hash >> 2); };
    for (const auto& stream : stream_names) {
        const auto lane = timeline.lane(device, stream.value);
        mix(lane.size());
        for (const EventId id : lane) {
            const TimelineEvent event = timeline.event(id);
            mix(static_cast<std::size_t>(event.kind));
            mix(std::hash<std::string_view>{}(event.operation));
            mix(static_cast<std::size_t>(event.layer) * 31U + static_cast<std::size_t>(event.micro_batch));
            mix(std::hash<double>{}(std::round(event.start_s / picosecond_s)));
            mix(std::hash<double>{}(std::round(event.end_s / picosecond_s)));
        }
    }
    return hash;
}

bool alike(const Timeline& timeline, std::size_t a, std::size_t b) {
    if (timeline.devices()[a].stage != timeline.devices()[b].stage) return false;
    for (const auto& stream : stream_names) {
        const auto lane_a = timeline.lane(a, stream.value);
        const auto lane_b = timeline.lane(b, stream.value);
        if (lane_a.size() != lane_b.size()) return false;
        for (std::size_t i = 0; i < lane_a.size(); ++i) {
            if (!same_event(timeline.event(lane_a[i]), timeline.event(lane_b[i]))) return false;
        }
    }
    return true;
}

}  // namespace

IdenticalDevices IdenticalDevices::of(const Timeline& timeline) {
    const std::size_t device_count = timeline.devices().size();
    IdenticalDevices classes;
    classes.class_of_.resize(device_count);
    std::vector<std::vector<std::size_t>> groups;                    // devices by class
    std::unordered_map<std::size_t, std::vector<std::size_t>> by_hash;  // hash → its classes
    for (std::size_t device = 0; device < device_count; ++device) {
        std::vector<std::size_t>& candidates = by_hash[device_hash(timeline, device)];
        std::size_t found = groups.size();
        for (const std::size_t candidate : candidates) {
            if (alike(timeline, groups[candidate].front(), device)) {
                found = candidate;
                break;
            }
        }
        if (found == groups.size()) {
            candidates.push_back(found);
            groups.emplace_back();
        }
        groups[found].push_back(device);
        classes.class_of_[device] = found;
    }
    classes.members_.reserve(device_count);
    for (const auto& group : groups) {
        classes.members_.insert(classes.members_.end(), group.begin(), group.end());
        classes.class_offsets_.push_back(classes.members_.size());
    }
    return classes;
}

std::span<const std::size_t> IdenticalDevices::members(std::size_t class_index) const {
    return std::span(members_).subspan(class_offsets_.at(class_index),
                                       class_offsets_.at(class_index + 1) - class_offsets_[class_index]);
}

std::vector<DeviceToRead> devices_to_read(const Timeline& timeline, const IdenticalDevices* classes) {
    std::vector<DeviceToRead> read;
    if (classes != nullptr) {
        for (std::size_t c = 0; c < classes->class_count(); ++c) {
            double weight = 0.0;
            for (const std::size_t member : classes->members(c)) weight += timeline.devices()[member].weight;
            read.push_back({classes->members(c).front(), weight});
        }
        return read;
    }
    for (std::size_t device = 0; device < timeline.devices().size(); ++device) {
        read.push_back({device, timeline.devices()[device].weight});
    }
    return read;
}

}  // namespace parasight
