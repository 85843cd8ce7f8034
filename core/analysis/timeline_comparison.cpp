#include "analysis/timeline_comparison.h"

#include "common/task_kind.h"
#include "units/quantity.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace parasight {

namespace {

// Each stage's simulated devices, in device order.
std::map<int, std::vector<std::size_t>> devices_by_stage(const Timeline& timeline) {
    std::map<int, std::vector<std::size_t>> stages;
    for (std::size_t device = 0; device < timeline.devices().size(); ++device) {
        stages[timeline.devices()[device].stage].push_back(device);
    }
    return stages;
}

// What an event is, apart from when: the k of its device within its stage, its stream, kind, operation, layer and
// micro-batch.
using EventKey = std::tuple<std::size_t, Stream, TaskKind, std::string_view, int, int>;

EventKey key_of(std::size_t k, const TimelineEvent& event) {
    return {k, event.stream, event.kind, event.operation, event.layer, event.micro_batch};
}

}  // namespace

TimelineComparison compare_timelines(const Timeline& a, const Timeline& b) {
    TimelineComparison comparison;
    comparison.a_partner.assign(a.event_count(), no_partner);
    comparison.b_partner.assign(b.event_count(), no_partner);
    const auto a_stages = devices_by_stage(a);
    const auto b_stages = devices_by_stage(b);
    std::map<int, std::pair<std::size_t, std::size_t>> sizes;  // stage: devices in A, in B
    for (const auto& [stage, devices] : a_stages) sizes[stage].first = devices.size();
    for (const auto& [stage, devices] : b_stages) sizes[stage].second = devices.size();
    std::vector<std::size_t> k_of_row;
    for (const auto& [stage, counts] : sizes) {
        for (std::size_t k = 0; k < std::max(counts.first, counts.second); ++k) {
            ComparedDevices row{stage, std::nullopt, std::nullopt};
            if (k < counts.first) row.a = a_stages.at(stage)[k];
            if (k < counts.second) row.b = b_stages.at(stage)[k];
            comparison.rows.push_back(row);
            k_of_row.push_back(k);
        }
    }
    // B's events by what they are, stage by stage and in time; A's take them in the same order. A second pass
    // matches what is left by all but the micro-batch (the key's last part, -2 for every event).
    std::size_t a_events = 0;
    std::size_t b_events = 0;
    for (const bool by_micro_batch : {true, false}) {
        const auto key_in_pass = [by_micro_batch](std::size_t k, const TimelineEvent& event) {
            EventKey key = key_of(k, event);
            if (!by_micro_batch) std::get<5>(key) = -2;
            return key;
        };
        std::map<EventKey, std::vector<EventId>> b_by_key;
        for (std::size_t row = 0; row < comparison.rows.size(); ++row) {
            if (const auto device = comparison.rows[row].b) {
                for (std::size_t stream = 0; stream < stream_count; ++stream) {
                    for (const EventId id : b.lane(*device, static_cast<Stream>(stream))) {
                        if (by_micro_batch) ++b_events;
                        if (comparison.b_partner[id] != no_partner) continue;
                        b_by_key[key_in_pass(k_of_row[row], b.event(id))].push_back(id);
                    }
                }
            }
        }
        std::map<EventKey, std::size_t> taken;
        for (std::size_t row = 0; row < comparison.rows.size(); ++row) {
            const auto device = comparison.rows[row].a;
            if (!device) continue;
            for (std::size_t stream = 0; stream < stream_count; ++stream) {
                for (const EventId id : a.lane(*device, static_cast<Stream>(stream))) {
                    if (by_micro_batch) ++a_events;
                    if (comparison.a_partner[id] != no_partner) continue;
                    const EventKey key = key_in_pass(k_of_row[row], a.event(id));
                    const auto found = b_by_key.find(key);
                    std::size_t& occurrence = taken[key];
                    if (found == b_by_key.end() || occurrence >= found->second.size()) continue;
                    const EventId partner = found->second[occurrence++];
                    comparison.a_partner[id] = partner;
                    comparison.b_partner[partner] = id;
                    ++comparison.matched;
                }
            }
        }
    }
    comparison.only_a = a_events - comparison.matched;
    comparison.only_b = b_events - comparison.matched;
    return comparison;
}

std::optional<double> duration_ratio(const TimelineEvent& a, const TimelineEvent& b) {
    const double before = a.end_s - a.start_s;
    if (before <= 0.0) return std::nullopt;
    return (b.end_s - b.start_s) / before;
}

std::vector<EventChange> largest_changes(const TimelineComparison& comparison, const Timeline& a, const Timeline& b,
                                         std::size_t count) {
    std::vector<EventChange> changes;
    for (EventId id = 0; id < comparison.a_partner.size(); ++id) {
        const EventId partner = comparison.a_partner[id];
        if (partner == no_partner) continue;
        const TimelineEvent before = a.event(id);
        const TimelineEvent after = b.event(partner);
        const double before_s = before.end_s - before.start_s;
        const double change = (after.end_s - after.start_s) - before_s;
        // Events that start at other times may end a rounding error apart: not a change.
        if (std::abs(change) > 1e-9 * before_s) changes.push_back({id, partner, change});
    }
    const auto larger = [](const EventChange& x, const EventChange& y) {
        const double dx = std::abs(x.change_s);
        const double dy = std::abs(y.change_s);
        return dx != dy ? dx > dy : x.a < y.a;
    };
    const std::size_t kept = std::min(count, changes.size());
    std::partial_sort(changes.begin(), changes.begin() + static_cast<std::ptrdiff_t>(kept), changes.end(), larger);
    changes.resize(kept);
    return changes;
}

std::string event_change_text(const Timeline& a, const Timeline& b, const EventChange& change) {
    const TimelineEvent before = a.event(change.a);
    const TimelineEvent after = b.event(change.b);
    std::string text(before.operation);
    if (before.layer >= 0) text += ", layer " + std::to_string(before.layer);
    if (before.micro_batch >= 0) text += ", micro-batch " + std::to_string(before.micro_batch);
    text += " on stage " + std::to_string(a.devices()[before.device].stage) + ": ";
    const auto duration = [](const TimelineEvent& event) {
        return units::format_readable(event.end_s - event.start_s, units::Dimension::time);
    };
    text += duration(before) + " → " + duration(after);
    if (const auto ratio = duration_ratio(before, after)) text += " (" + units::format_fixed(*ratio, 2) + "×)";
    return text;
}

}  // namespace parasight
