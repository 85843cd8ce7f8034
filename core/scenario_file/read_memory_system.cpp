// cluster.memory_system: host memory, NVMe and a disaggregated pool (scenario/memory_system.h).
#include "scenario_file/scenario_readers.h"

namespace parasight {
namespace {

// Records where the tier and each of its keys were written, and whether the tier was there before (a cluster
// preset's), in which case the keys override its fields and none is required.
template <class Tier>
MapReader open_tier(MapReader& section, std::string_view key, const std::vector<std::string_view>& keys,
                    LocationIndex& locations, std::optional<Tier>& tier, bool& complete) {
    MapReader reader(section.value(key), section.source(), section.path(key), keys);
    locations.record(reader.what(), section.key_location(key));
    for (const auto field : keys) {
        if (reader.has(field)) locations.record(reader.path(field), reader.key_location(field));
    }
    complete = tier.has_value();
    if (reader.is_map() && !tier) tier.emplace();
    return reader;
}

void require_all(MapReader& reader, bool complete, std::initializer_list<std::string_view> keys) {
    if (complete) return;
    for (const auto key : keys) reader.require(key);
}

void read_host(MapReader& section, LocationIndex& locations, std::optional<HostMemory>& host) {
    const std::vector<std::string_view> keys{"capacity", "link_bandwidth", "latency", "memory_bandwidth"};
    bool complete = false;
    MapReader reader = open_tier(section, "host", keys, locations, host, complete);
    if (!reader.is_map()) return;
    require_all(reader, complete, {"capacity", "link_bandwidth"});
    reader.read_quantity("capacity", host->capacity_bytes, units::Dimension::size, limits::tier_capacity);
    reader.read_quantity("link_bandwidth", host->link_bandwidth_Bps, units::Dimension::bandwidth,
                         limits::tier_bandwidth);
    reader.read_quantity("latency", host->latency_s, units::Dimension::time, limits::tier_latency);
    reader.read_quantity("memory_bandwidth", host->memory_bandwidth_Bps, units::Dimension::bandwidth,
                         limits::tier_bandwidth);
}

void read_nvme(MapReader& section, LocationIndex& locations, std::optional<NvmeStorage>& nvme) {
    const std::vector<std::string_view> keys{"capacity", "bandwidth", "latency"};
    bool complete = false;
    MapReader reader = open_tier(section, "nvme", keys, locations, nvme, complete);
    if (!reader.is_map()) return;
    require_all(reader, complete, {"capacity", "bandwidth"});
    reader.read_quantity("capacity", nvme->capacity_bytes, units::Dimension::size, limits::tier_capacity);
    reader.read_quantity("bandwidth", nvme->bandwidth_Bps, units::Dimension::bandwidth, limits::tier_bandwidth);
    reader.read_quantity("latency", nvme->latency_s, units::Dimension::time, limits::tier_latency);
}

void read_pool(MapReader& section, LocationIndex& locations, std::optional<MemoryPool>& pool) {
    const std::vector<std::string_view> keys{"in_node_bandwidth",      "out_node_switches", "node_link_bandwidth",
                                             "remote_groups",          "remote_group_bandwidth",
                                             "group_capacity",         "chunk",             "latency",
                                             "in_switch_collectives"};
    bool complete = false;
    MapReader reader = open_tier(section, "pool", keys, locations, pool, complete);
    if (!reader.is_map()) return;
    require_all(reader, complete,
                {"in_node_bandwidth", "out_node_switches", "node_link_bandwidth", "remote_groups",
                 "remote_group_bandwidth", "group_capacity"});
    reader.read_quantity("in_node_bandwidth", pool->in_node_bandwidth_Bps, units::Dimension::bandwidth,
                         limits::tier_bandwidth);
    reader.read_integer("out_node_switches", pool->out_node_switches, limits::out_node_switches);
    reader.read_quantity("node_link_bandwidth", pool->node_link_bandwidth_Bps, units::Dimension::bandwidth,
                         limits::tier_bandwidth);
    reader.read_integer("remote_groups", pool->remote_groups, limits::remote_groups);
    reader.read_quantity("remote_group_bandwidth", pool->remote_group_bandwidth_Bps, units::Dimension::bandwidth,
                         limits::tier_bandwidth);
    reader.read_quantity("group_capacity", pool->group_capacity_bytes, units::Dimension::size,
                         limits::tier_capacity);
    reader.read_quantity("chunk", pool->chunk_bytes, units::Dimension::size, limits::pool_chunk);
    reader.read_quantity("latency", pool->latency_s, units::Dimension::time, limits::tier_latency);
    reader.read_bool("in_switch_collectives", pool->in_switch_collectives);
}

}  // namespace

void read_memory_system(const YAML::Node& node, YamlSource& source, LocationIndex& locations,
                        MemorySystemSpec& memory_system) {
    const std::vector<std::string_view> keys{"gpus_per_node", "host", "nvme", "pool"};
    MapReader reader(node, source, "cluster.memory_system", keys);
    if (!reader.is_map()) return;
    if (reader.has("gpus_per_node")) {
        locations.record(reader.path("gpus_per_node"), reader.key_location("gpus_per_node"));
        reader.read_integer("gpus_per_node", memory_system.gpus_per_node, limits::gpus_per_node);
    }
    if (reader.has("host")) read_host(reader, locations, memory_system.host);
    if (reader.has("nvme")) read_nvme(reader, locations, memory_system.nvme);
    if (reader.has("pool")) read_pool(reader, locations, memory_system.pool);
}

}  // namespace parasight
