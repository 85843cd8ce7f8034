#pragma once
// Finding events in the timeline by what they are: words of the operation ("attention", "tp all-reduce",
// "backward"), all of which must appear in it, case aside, and "layer N" and "mb N" (or "micro-batch N") to narrow to
// one layer or micro-batch: "tp all-reduce layer 3 mb 0". The Timeline's search box and a lesson's events: targets
// (checked by lesson_check) find events so.

#include "analysis/timeline.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parasight {

struct EventQuery {
    std::vector<std::string> words;  // lower case
    std::optional<int> layer;
    std::optional<int> micro_batch;
};

// Nothing for a query with nothing to look for.
[[nodiscard]] std::optional<EventQuery> parse_event_query(std::string_view text);
// The matching events in time order (start, then device).
[[nodiscard]] std::vector<EventId> find_events(const Timeline& timeline, const EventQuery& query);
// Why no event matches `query`, in a sentence: a word no operation's name holds (with the word of an operation's
// name it probably meant), a layer or micro-batch the run does not have (with the ones it has), or parts that each
// match some events but never together.
[[nodiscard]] std::string why_nothing_matches(const Timeline& timeline, const EventQuery& query);

}  // namespace parasight
