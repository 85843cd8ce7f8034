#include "analysis/event_relations.h"

#include <algorithm>
#include <optional>

namespace parasight {
namespace {

// Where `event` is on its lane, which is in time order: found by its start, then among equal starts by id.
std::span<const EventId>::iterator lane_position(std::span<const EventId> lane, const Timeline& timeline,
                                                 const TimelineEvent& event) {
    const auto first = std::partition_point(lane.begin(), lane.end(), [&](EventId other) {
        return timeline.event(other).start_s < event.start_s;
    });
    return std::find(first, lane.end(), event.id);
}

}  // namespace

std::vector<Wait> waits_of(const Timeline& timeline, EventId id) {
    const TimelineEvent event = timeline.event(id);
    std::vector<Wait> waits;
    const std::span<const EventId> lane = timeline.lane(event.device, event.stream);
    const auto position = lane_position(lane, timeline, event);
    if (position != lane.end() && position != lane.begin()) {
        const TimelineEvent before = timeline.event(*(position - 1));
        waits.push_back(Wait{before.id, event.start_s - before.end_s, true});
    }
    for (const EventId dependency : timeline.waited_for(id)) {
        const TimelineEvent before = timeline.event(dependency);
        waits.push_back(Wait{dependency, event.start_s - before.end_s, false});
    }
    std::stable_sort(waits.begin(), waits.end(),
                     [](const Wait& a, const Wait& b) { return a.ended_before_s < b.ended_before_s; });
    return waits;
}

namespace {

bool same_step(const TimelineEvent& a, const TimelineEvent& b) {
    return a.operation == b.operation && a.layer == b.layer && a.micro_batch == b.micro_batch && a.kind == b.kind;
}

}  // namespace

std::vector<EventId> same_collective(const Timeline& timeline, EventId id) {
    const TimelineEvent event = timeline.event(id);
    std::vector<EventId> members;
    if (!is_communication(event.kind) || event.kind == TaskKind::pp_comm) return members;
    // A layer can run one operation twice (a TP all-reduce after attention and after the MLP): the k-th of its
    // kind on this lane is the k-th on every member's.
    std::size_t occurrence = 0;
    for (const EventId earlier : timeline.lane(event.device, event.stream)) {
        if (earlier == id) break;
        if (same_step(timeline.event(earlier), event)) ++occurrence;
    }
    const auto& devices = timeline.devices();
    for (const std::int64_t npu : timeline.peers(id)) {
        for (std::size_t device = 0; device < devices.size(); ++device) {
            if (devices[device].npu != npu || device == event.device) continue;
            std::size_t seen = 0;
            for (const EventId candidate : timeline.lane(device, event.stream)) {
                if (!same_step(timeline.event(candidate), event)) continue;
                if (seen++ == occurrence) {
                    members.push_back(candidate);
                    break;
                }
            }
        }
    }
    return members;
}

std::vector<EventId> critical_path_into(const Timeline& timeline, EventId id) {
    std::vector<EventId> path;
    EventId at = id;
    // Each step goes to an event that ended no later than the one before started: the path cannot loop, and it
    // holds at most every event once.
    for (std::size_t steps = 0; steps < timeline.event_count(); ++steps) {
        const std::vector<Wait> waits = waits_of(timeline, at);
        if (waits.empty()) break;
        at = waits.front().event;
        path.push_back(at);
    }
    return path;
}

namespace {

// Whether `id` is among what held `waiter` back: nothing it waited for ended later.
bool held_back(const Timeline& timeline, EventId waiter, EventId id) {
    const std::vector<Wait> waits = waits_of(timeline, waiter);
    if (waits.empty()) return false;
    const auto own = std::find_if(waits.begin(), waits.end(), [&](const Wait& wait) { return wait.event == id; });
    return own != waits.end() && own->ended_before_s <= waits.front().ended_before_s;
}

}  // namespace

std::vector<EventId> critical_path_onward(const Timeline& timeline, EventId id) {
    std::vector<EventId> path;
    if (!timeline.has_dependencies()) return path;
    EventId at = id;
    // Each step goes to an event that started no earlier than the one before ended: the path cannot loop.
    for (std::size_t steps = 0; steps < timeline.event_count(); ++steps) {
        const TimelineEvent event = timeline.event(at);
        std::vector<EventId> waiting = timeline.waited_on_by(at);
        const std::span<const EventId> lane = timeline.lane(event.device, event.stream);
        const auto position = lane_position(lane, timeline, event);
        if (position != lane.end() && position + 1 != lane.end()) waiting.push_back(*(position + 1));
        std::optional<EventId> next;
        double next_end_s = 0.0;
        for (const EventId candidate : waiting) {
            if (!held_back(timeline, candidate, at)) continue;
            const double end_s = timeline.event(candidate).end_s;
            if (!next || end_s > next_end_s) {
                next = candidate;
                next_end_s = end_s;
            }
        }
        if (!next) break;
        at = *next;
        path.push_back(at);
    }
    return path;
}

std::vector<EventId> waited_on_elsewhere(const Timeline& timeline, EventId id) {
    const std::size_t device = timeline.event(id).device;
    std::vector<EventId> waiting;
    for (const EventId successor : timeline.waited_on_by(id)) {
        if (timeline.event(successor).device != device) waiting.push_back(successor);
    }
    return waiting;
}

EventRelations relations_of(const Timeline& timeline, EventId id) {
    return EventRelations{waits_of(timeline, id), same_collective(timeline, id), waited_on_elsewhere(timeline, id),
                          critical_path_into(timeline, id), critical_path_onward(timeline, id)};
}

}  // namespace parasight
