#pragma once
// Two simulated iterations event by event — what the compare view's timelines draw on one time axis. Devices are
// paired by pipeline stage, then by their order among the stage's simulated devices (the k-th of stage s in A with
// the k-th of stage s in B), so runs with other degrees still line up stage by stage; a stage one run lacks leaves
// its devices alone in their rows. Events are matched by what they are — the k of their device, stream, kind,
// operation, layer and micro-batch — and which occurrence of these they are (counted stage by stage, then in time),
// wherever their stage: with other pipeline degrees a layer sits on another stage, and layer 10's attention forward
// of micro-batch 0 is still matched with layer 10's. Events still alone are then matched the same way leaving out the
// micro-batch: the data-parallel all-reduce follows the last micro-batch, micro-batch 3 in one run and 7 in another.
// Whatever finds no partner belongs to one run only.

#include "analysis/timeline.h"

#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace parasight {

inline constexpr EventId no_partner = std::numeric_limits<EventId>::max();

struct ComparedDevices {
    int stage = 0;
    std::optional<std::size_t> a;  // index into A's devices(); none when A has no k-th device on this stage
    std::optional<std::size_t> b;
};

struct TimelineComparison {
    std::vector<ComparedDevices> rows;  // by stage, then by order within the stage
    std::vector<EventId> a_partner;     // by A's event id: B's matching event, or no_partner
    std::vector<EventId> b_partner;     // by B's event id
    std::size_t matched = 0;            // pairs of events
    std::size_t only_a = 0;             // A's events on simulated devices without a partner
    std::size_t only_b = 0;
};

[[nodiscard]] TimelineComparison compare_timelines(const Timeline& a, const Timeline& b);

// How much a matched event changed: B's duration over A's (1: the same; none when A's took no time).
[[nodiscard]] std::optional<double> duration_ratio(const TimelineEvent& a, const TimelineEvent& b);

struct EventChange {
    EventId a = 0;
    EventId b = 0;
    double change_s = 0.0;  // B's duration − A's
};

// The `count` matched pairs whose duration changed most (by |B − A|, longest first; ties by A's event id); a change
// under a billionth of A's duration is rounding, not a change.
[[nodiscard]] std::vector<EventChange> largest_changes(const TimelineComparison& comparison, const Timeline& a,
                                                       const Timeline& b, std::size_t count);

// "attention forward, layer 3, micro-batch 0 on stage 0: 1.2 ms → 2.4 ms (2.00×)" — an event change in words.
[[nodiscard]] std::string event_change_text(const Timeline& a, const Timeline& b, const EventChange& change);

}  // namespace parasight
