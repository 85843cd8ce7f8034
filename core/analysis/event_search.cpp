#include "analysis/event_search.h"

#include "common/did_you_mean.h"
#include "common/message_text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>
#include <tuple>

namespace parasight {

namespace {

std::string lower(std::string_view text) {
    std::string lowered(text);
    std::transform(lowered.begin(), lowered.end(), lowered.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return lowered;
}

std::vector<std::string> split_words(std::string_view text) {
    std::vector<std::string> words;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t start = text.find_first_not_of(' ', at);
        if (start == std::string_view::npos) break;
        const std::size_t end = std::min(text.find(' ', start), text.size());
        words.emplace_back(text.substr(start, end - start));
        at = end;
    }
    return words;
}

std::optional<int> whole_number(std::string_view text) {
    int value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

}  // namespace

std::optional<EventQuery> parse_event_query(std::string_view text) {
    EventQuery query;
    const std::vector<std::string> tokens = split_words(lower(text));
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const std::string& token = tokens[i];
        const std::optional<int> number = i + 1 < tokens.size() ? whole_number(tokens[i + 1]) : std::nullopt;
        if (number && token == "layer") {
            query.layer = *number;
            ++i;
        } else if (number && (token == "mb" || token == "micro-batch")) {
            query.micro_batch = *number;
            ++i;
        } else {
            query.words.push_back(token);
        }
    }
    if (query.words.empty() && !query.layer && !query.micro_batch) return std::nullopt;
    return query;
}

std::vector<EventId> find_events(const Timeline& timeline, const EventQuery& query) {
    struct Found {
        double start_s;
        std::size_t device;
        EventId id;
    };
    std::vector<Found> found;
    for (std::size_t device = 0; device < timeline.devices().size(); ++device) {
        for (const auto& stream : stream_names) {
            for (const EventId id : timeline.lane(device, stream.value)) {
                const TimelineEvent event = timeline.event(id);
                if (query.layer && event.layer != *query.layer) continue;
                if (query.micro_batch && event.micro_batch != *query.micro_batch) continue;
                const std::string operation = lower(event.operation);
                const bool all_words = std::all_of(query.words.begin(), query.words.end(), [&](const std::string& word) {
                    return operation.find(word) != std::string::npos;
                });
                if (all_words) found.push_back(Found{event.start_s, device, id});
            }
        }
    }
    std::sort(found.begin(), found.end(), [](const Found& a, const Found& b) {
        return std::tie(a.start_s, a.device, a.id) < std::tie(b.start_s, b.device, b.id);
    });
    std::vector<EventId> ids;
    ids.reserve(found.size());
    for (const Found& f : found) ids.push_back(f.id);
    return ids;
}

std::string why_nothing_matches(const Timeline& timeline, const EventQuery& query) {
    // What the run has: the words of its operations' names, its layers and its micro-batches.
    std::set<std::string> words;
    std::string operations;  // every name, lower case, one per line
    int highest_layer = -1;
    int highest_micro_batch = -1;
    std::set<std::string> seen;
    for (std::size_t device = 0; device < timeline.devices().size(); ++device) {
        for (const auto& stream : stream_names) {
            for (const EventId id : timeline.lane(device, stream.value)) {
                const TimelineEvent event = timeline.event(id);
                highest_layer = std::max(highest_layer, static_cast<int>(event.layer));
                highest_micro_batch = std::max(highest_micro_batch, static_cast<int>(event.micro_batch));
                if (!seen.insert(std::string(event.operation)).second) continue;
                const std::string name = lower(event.operation);
                operations += name + '\n';
                for (std::string& word : split_words(name)) words.insert(std::move(word));
            }
        }
    }
    for (const std::string& word : query.words) {
        if (operations.find(word) != std::string::npos) continue;
        const std::vector<std::string_view> known(words.begin(), words.end());
        return "no operation's name holds " + in_quotes(word) + did_you_mean_suffix(word, known);
    }
    if (query.layer && (*query.layer < 0 || *query.layer > highest_layer)) {
        return highest_layer < 0 ? std::string("no event of this run belongs to a layer")
                                 : "no layer " + std::to_string(*query.layer) + ": the layers are 0 to " +
                                       std::to_string(highest_layer);
    }
    if (query.micro_batch && (*query.micro_batch < 0 || *query.micro_batch > highest_micro_batch)) {
        return highest_micro_batch < 0 ? std::string("no event of this run belongs to a micro-batch")
                                       : "no micro-batch " + std::to_string(*query.micro_batch) +
                                             ": the micro-batches are 0 to " + std::to_string(highest_micro_batch);
    }
    return "each part matches some events, but no event has them all";
}

}  // namespace parasight
