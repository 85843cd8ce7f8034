// what_if: collective delays, slow devices and degraded links (scenario/what_if.h, docs/what-if.md).
#include "common/index_range_text.h"
#include "common/message_text.h"
#include "scenario_file/scenario_readers.h"

#include <algorithm>

namespace parasight {
namespace {

// One index or range at `path`, checked against `range` and in order; nothing after reporting a problem.
std::optional<std::pair<std::int64_t, std::int64_t>> read_index_range(const YAML::Node& node, YamlSource& source,
                                                                      const std::string& path, const char* what,
                                                                      IntegerRange range) {
    const SourceLocation at = source.location_at(path, node);
    const auto parsed = node.IsScalar() ? parse_index_range(node.Scalar()) : std::nullopt;
    if (!parsed) {
        const std::string found = node.IsScalar() ? in_quotes(node.Scalar()) : std::string(node_type_noun(node));
        source.error(at, path + " must be " + what + " or a range of them written first..last, such as 4..11, not " +
                             found);
        return std::nullopt;
    }
    for (const std::int64_t end : {parsed->first, parsed->second}) {
        if (const auto problem = integer_range_problem(path, end, range)) {
            source.error(at, *problem);
            return std::nullopt;
        }
    }
    if (parsed->first > parsed->second) {
        source.error(at, path + " runs from " + std::to_string(parsed->first) + " down to " +
                             std::to_string(parsed->second) + "; write the smaller end first");
        return std::nullopt;
    }
    return parsed;
}

// `npus: [17]`, `npus: [0, 8..15]` or `npus: 16..23`: each NPU once, in increasing order. `optional`: leaving the key
// out means every NPU, which an empty list then should say instead.
void read_npus(MapReader& reader, std::vector<std::int64_t>& npus, bool optional) {
    if (!reader.has("npus")) return;
    const YAML::Node value = reader.value("npus");
    YamlSource& source = reader.source();
    const std::string path = reader.path("npus");
    std::vector<std::pair<YAML::Node, std::string>> items;
    if (value.IsSequence()) {
        for (std::size_t i = 0; i < value.size(); ++i) {
            items.emplace_back(value[i], path + "[" + std::to_string(i) + "]");
        }
    } else {
        items.emplace_back(value, path);
    }
    if (items.empty()) {
        source.error(reader.value_location("npus"), path + " lists no NPU" +
                                                        (optional ? "; leave it out to mean every NPU" : ""));
        return;
    }
    std::vector<std::int64_t> listed;
    for (const auto& [item, item_path] : items) {
        const auto range = read_index_range(item, source, item_path, "an NPU id", limits::what_if_npu);
        if (!range) return;
        if (range->second - range->first + 1 + static_cast<std::int64_t>(listed.size()) > limits::max_what_if_npus) {
            source.error(reader.value_location("npus"), path + " lists more than " +
                                                            std::to_string(limits::max_what_if_npus) +
                                                            " NPUs; the limit is " +
                                                            std::to_string(limits::max_what_if_npus));
            return;
        }
        for (std::int64_t npu = range->first; npu <= range->second; ++npu) listed.push_back(npu);
    }
    std::sort(listed.begin(), listed.end());
    listed.erase(std::unique(listed.begin(), listed.end()), listed.end());
    npus = std::move(listed);
}

// A what_if list: each entry's path and node, or nothing when the list is not one.
std::vector<std::pair<std::string, YAML::Node>> entries(MapReader& reader, std::string_view key) {
    std::vector<std::pair<std::string, YAML::Node>> result;
    if (!reader.has(key)) return result;
    const YAML::Node list = reader.value(key);
    const std::string path = reader.path(key);
    YamlSource& source = reader.source();
    if (!list.IsSequence()) {
        source.error(reader.value_location(key), path + " must be a list of rules, found " +
                                                     std::string(node_type_noun(list)));
        return result;
    }
    if (list.size() > limits::max_what_if_rules) {
        source.error(reader.value_location(key),
                     path + " has " + count_phrase(static_cast<std::int64_t>(list.size()), "rule", "rules") +
                         "; the limit is " + std::to_string(limits::max_what_if_rules));
        return result;
    }
    for (std::size_t i = 0; i < list.size(); ++i) result.emplace_back(path + "[" + std::to_string(i) + "]", list[i]);
    return result;
}

void record_entry(const MapReader& reader, LocationIndex& locations, const std::vector<std::string_view>& keys) {
    locations.record(reader.what(), reader.location());
    for (const auto key : keys) {
        if (reader.has(key)) locations.record(reader.path(key), reader.key_location(key));
    }
}

void read_collective_delays(MapReader& section, YamlSource& source, LocationIndex& locations,
                            std::vector<CollectiveDelay>& delays) {
    const std::vector<std::string_view> keys{"group", "operation", "layers", "delay"};
    for (const auto& [path, node] : entries(section, "collective_delays")) {
        MapReader reader(node, source, path, keys);
        if (!reader.is_map()) continue;
        record_entry(reader, locations, keys);
        CollectiveDelay delay;
        delay.location = reader.location();
        ParallelAxis group = ParallelAxis::dp;
        if (reader.read_enum("group", group, parallel_axis_names)) delay.group = group;
        CommOperation operation = CommOperation::all_reduce;
        if (reader.read_enum("operation", operation, comm_operation_names)) delay.operation = operation;
        if (reader.has("layers")) {
            const auto layers = read_index_range(reader.value("layers"), source, reader.path("layers"),
                                                 "a layer number", limits::what_if_layer);
            if (layers) {
                delay.layers = LayerRange{static_cast<int>(layers->first), static_cast<int>(layers->second)};
            }
        }
        if (reader.require("delay")) {
            reader.read_quantity("delay", delay.delay_s, units::Dimension::time, limits::injected_delay);
        }
        delays.push_back(std::move(delay));
    }
}

void read_slow_devices(MapReader& section, YamlSource& source, LocationIndex& locations,
                       std::vector<SlowDevices>& slow) {
    const std::vector<std::string_view> keys{"npus", "compute_time_factor"};
    for (const auto& [path, node] : entries(section, "slow_devices")) {
        MapReader reader(node, source, path, keys);
        if (!reader.is_map()) continue;
        record_entry(reader, locations, keys);
        SlowDevices devices;
        devices.location = reader.location();
        if (reader.require("npus")) read_npus(reader, devices.npus, false);
        if (reader.require("compute_time_factor")) {
            reader.read_fraction("compute_time_factor", devices.compute_time_factor, limits::compute_time_factor);
        }
        slow.push_back(std::move(devices));
    }
}

void read_degraded_links(MapReader& section, YamlSource& source, LocationIndex& locations,
                         std::vector<DegradedLinks>& degraded) {
    const std::vector<std::string_view> keys{"dimension", "npus", "bandwidth_factor"};
    for (const auto& [path, node] : entries(section, "degraded_links")) {
        MapReader reader(node, source, path, keys);
        if (!reader.is_map()) continue;
        record_entry(reader, locations, keys);
        DegradedLinks links;
        links.location = reader.location();
        int dimension = 0;
        if (reader.read_integer("dimension", dimension, limits::what_if_dimension)) links.dimension = dimension;
        read_npus(reader, links.npus, true);
        if (reader.require("bandwidth_factor")) {
            reader.read_fraction("bandwidth_factor", links.bandwidth_factor, limits::bandwidth_factor);
        }
        degraded.push_back(std::move(links));
    }
}

}  // namespace

void read_what_if(const YAML::Node& node, YamlSource& source, LocationIndex& locations, WhatIfSpec& what_if) {
    const std::vector<std::string_view> keys{"collective_delays", "slow_devices", "degraded_links"};
    MapReader reader(node, source, "what_if", keys);
    if (!reader.is_map()) return;
    for (const auto key : keys) {
        if (reader.has(key)) locations.record(reader.path(key), reader.key_location(key));
    }
    read_collective_delays(reader, source, locations, what_if.collective_delays);
    read_slow_devices(reader, source, locations, what_if.slow_devices);
    read_degraded_links(reader, source, locations, what_if.degraded_links);
}

}  // namespace parasight
