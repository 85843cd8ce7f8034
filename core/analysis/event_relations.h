#pragma once
// How one event of a Timeline relates to others, for a view that explains it: what it waited for and how long
// before it started each of those ended (the last to end is what held it back), the same collective on the other
// simulated members of its group, and what waited for it on other devices (a send's receiver).

#include "analysis/timeline.h"

#include <vector>

namespace parasight {

struct Wait {
    EventId event = 0;
    double ended_before_s = 0.0;  // how long before the waiting event started this one ended (0: it started then)
    bool on_same_lane = false;    // the event before it on its own lane
};

// What `id` waited for — the event before it on its lane and its dependencies — the last to end first.
[[nodiscard]] std::vector<Wait> waits_of(const Timeline& timeline, EventId id);

// The same collective (operation, layer, micro-batch, stream) on the other simulated devices among its peers,
// in NPU order; empty for computation and for peers that were not simulated (a symmetry class's other members).
[[nodiscard]] std::vector<EventId> same_collective(const Timeline& timeline, EventId id);

// What held `id` back, step by step: the last of what it waited for to end, the last of what that waited for, and
// so on back to an event that waited for nothing (the iteration's start) — the critical path into it, nearest first.
[[nodiscard]] std::vector<EventId> critical_path_into(const Timeline& timeline, EventId id);

// What `id` held back, step by step: of the events it was the last wait of (it ended last of what they waited for),
// the one that ends last; then the same from there, until an event that held nothing back — the critical path on
// from it, nearest first. With critical_path_into, the path through it. Empty without dependencies.
[[nodiscard]] std::vector<EventId> critical_path_onward(const Timeline& timeline, EventId id);

// The events on other devices that waited for `id` (e.g. the receiver's first step after a pipeline send).
[[nodiscard]] std::vector<EventId> waited_on_elsewhere(const Timeline& timeline, EventId id);

// All of the above for one event, computed once for the views that show them.
struct EventRelations {
    std::vector<Wait> waits;
    std::vector<EventId> same_collective;
    std::vector<EventId> waited_on_elsewhere;
    std::vector<EventId> critical_path;          // into it, nearest first
    std::vector<EventId> critical_path_onward;  // on from it, nearest first
};
[[nodiscard]] EventRelations relations_of(const Timeline& timeline, EventId id);

}  // namespace parasight
