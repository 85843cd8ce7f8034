// cluster: a device and a topology of ring / fully_connected / switch dimensions (ASTRA-sim 2.0 §III-A).
#include "scenario_file/scenario_readers.h"

namespace parasight {
namespace {


const std::vector<std::string_view> device_keys{"preset",           "name",           "peak",
                                                "memory",           "memory_bandwidth", "matmul_efficiency",
                                                "matmul_half_dim",  "streaming_multiprocessors",
                                                "memory_efficiency", "attention_efficiency",
                                                "fp8_matmul_efficiency", "kernel_launch",
                                                "graph_kernel_launch", "context_memory"};
const std::vector<std::string_view> cluster_keys{"preset", "name", "device", "topology",
                                                 "multi_dimension_collectives", "memory_system"};
const std::vector<std::string_view> dimension_keys{"kind",       "size",         "bandwidth",           "latency",
                                                   "algorithm",  "efficiency",   "in_switch_efficiency",
                                                   "in_switch_reduction", "step_latency"};

// A preset id as a plain string, or the `preset` key of a mapping; empty when there is none.
std::string preset_id_of(const YAML::Node& node, YamlSource& source, const std::string& path, SourceLocation& at) {
    at = source.location_at(path, node);
    if (node.IsScalar()) return node.Scalar();
    if (!node.IsMap() || !node["preset"]) return {};
    const YAML::Node preset = node["preset"];
    at = source.location_at(path + ".preset", preset);
    if (!preset.IsScalar()) {
        source.error(at, path + ".preset must be a preset id");
        return {};
    }
    return preset.Scalar();
}

void read_device_fields(MapReader& reader, DeviceSpec& device, bool complete) {
    YamlSource& source = reader.source();
    if (!complete) {
        for (const auto key : {"name", "peak", "memory", "memory_bandwidth"}) reader.require(key);
    }
    reader.read_string("name", device.name);
    if (reader.has("peak")) {
        const auto dtypes = names_of(dtype_names);
        MapReader peaks(reader.value("peak"), source, reader.path("peak"), dtypes, dtype_suggestion_aliases);
        if (peaks.is_map()) {
            // Dtypes given here override the preset's one by one.
            for (const auto& entry : dtype_names) {
                double flops = 0.0;
                if (peaks.read_quantity(entry.name, flops, units::Dimension::flop_rate, limits::peak_flops)) {
                    device.peak_flops[entry.value] = flops;
                }
            }
            if (reader.value("peak").size() == 0) {
                source.error(peaks.location(), reader.path("peak") + " needs at least one dtype: " +
                                                   join_alternatives(dtypes));
            }
        }
    }
    reader.read_quantity("memory", device.memory_bytes, units::Dimension::size, limits::memory_bytes);
    reader.read_quantity("memory_bandwidth", device.memory_bandwidth_Bps, units::Dimension::bandwidth,
                         limits::memory_bandwidth);
    reader.read_fraction("matmul_efficiency", device.matmul_efficiency, limits::matmul_efficiency);
    reader.read_fraction("fp8_matmul_efficiency", device.fp8_matmul_efficiency, limits::fp8_matmul_efficiency);
    reader.read_fraction("matmul_half_dim", device.matmul_half_dim, limits::matmul_half_dim);
    reader.read_integer("streaming_multiprocessors", device.streaming_multiprocessors,
                        limits::streaming_multiprocessors);
    reader.read_fraction("memory_efficiency", device.memory_efficiency, limits::memory_efficiency);
    reader.read_fraction("attention_efficiency", device.attention_efficiency, limits::attention_efficiency);
    reader.read_quantity("kernel_launch", device.kernel_launch_s, units::Dimension::time, limits::kernel_launch);
    reader.read_quantity("graph_kernel_launch", device.graph_kernel_launch_s, units::Dimension::time,
                         limits::kernel_launch);
    reader.read_quantity("context_memory", device.context_memory_bytes, units::Dimension::size, limits::context_memory);
}

void read_dimension(const YAML::Node& node, YamlSource& source, const std::string& path, Dimension& dimension) {
    MapReader reader(node, source, path, dimension_keys);
    if (!reader.is_map()) return;
    for (const auto key : {"kind", "size", "bandwidth", "latency"}) reader.require(key);
    reader.read_enum("kind", dimension.kind, dimension_kind_names);
    reader.read_integer("size", dimension.size, limits::dimension_size);
    reader.read_quantity("bandwidth", dimension.bandwidth_Bps, units::Dimension::bandwidth, limits::link_bandwidth);
    reader.read_quantity("latency", dimension.latency_s, units::Dimension::time, limits::link_latency);
    reader.read_quantity("step_latency", dimension.step_latency_s, units::Dimension::time, limits::link_latency);
    reader.read_fraction("efficiency", dimension.efficiency, limits::link_efficiency);
    double in_switch_efficiency = 1.0;
    if (reader.read_fraction("in_switch_efficiency", in_switch_efficiency, limits::link_efficiency)) {
        dimension.in_switch_efficiency = in_switch_efficiency;
    }
    bool in_switch_reduction = false;
    if (reader.read_bool("in_switch_reduction", in_switch_reduction)) {
        if (in_switch_reduction && dimension.kind != DimensionKind::switch_fabric) {
            source.error(reader.value_location("in_switch_reduction"),
                         "only a switch can reduce; a " + std::string(to_string(dimension.kind)) +
                             " dimension has none (in_switch_reduction needs kind: switch)");
        } else {
            dimension.in_switch_reduction = in_switch_reduction;
        }
    }
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::ring;
    if (reader.read_enum("algorithm", algorithm, collective_algorithm_names)) {
        if (!algorithm_fits(algorithm, dimension.kind)) {
            source.error(reader.value_location("algorithm"),
                         "the " + std::string(to_string(algorithm)) + " algorithm cannot run on a " +
                             std::string(to_string(dimension.kind)) + " dimension" +
                             (dimension.kind == DimensionKind::ring ? " (a ring runs only the ring algorithm)"
                                                                    : " (in-switch reduction needs a switch)"));
        } else {
            dimension.algorithm = algorithm;
        }
    }
}

void read_topology(const YAML::Node& node, YamlSource& source, LocationIndex& locations,
                   std::vector<Dimension>& topology) {
    if (!node.IsSequence() || node.size() == 0) {
        const std::string found = node.IsSequence() ? "an empty list" : std::string(node_type_noun(node));
        source.error(source.location_at("cluster.topology", node),
                     "cluster.topology must be a non-empty list of dimensions (innermost first), found " + found);
        return;
    }
    if (node.size() > limits::max_topology_dimensions) {
        source.error(source.location_at("cluster.topology", node),
                     "cluster.topology has " + std::to_string(node.size()) + " dimensions; the limit is 16");
        return;
    }
    std::vector<Dimension> dimensions(node.size());
    std::int64_t devices = 1;
    const std::size_t problems_before = source.diagnostics().size();
    for (std::size_t i = 0; i < node.size(); ++i) {
        const std::string path = "cluster.topology[" + std::to_string(i) + "]";
        locations.record(path, source.location_at(path, node[i]));
        read_dimension(node[i], source, path, dimensions[i]);
        devices = std::min<std::int64_t>(devices * dimensions[i].size, limits::max_devices + 1);
    }
    // Only when every dimension was read: a size out of range is kept as written and already reported.
    if (devices > limits::max_devices && source.diagnostics().size() == problems_before) {
        source.error(source.location_at("cluster.topology", node),
                     "the topology has more than " + std::to_string(limits::max_devices) +
                         " devices (the product of the dimension sizes); that is beyond any real cluster");
    }
    topology = std::move(dimensions);
}

void read_cluster_fields(MapReader& reader, LocationIndex& locations, ClusterSpec& cluster, bool complete) {
    YamlSource& source = reader.source();
    if (!complete) {
        reader.require("device");
        reader.require("topology");
    }
    for (const auto key : cluster_keys) {
        if (reader.has(key)) locations.record("cluster." + std::string(key), reader.key_location(key));
    }
    reader.read_string("name", cluster.name);
    if (reader.has("device")) read_device(reader.value("device"), source, locations, "cluster.device", cluster.device);
    if (reader.has("topology")) read_topology(reader.value("topology"), source, locations, cluster.topology);
    reader.read_enum("multi_dimension_collectives", cluster.multi_dimension_collectives,
                     multi_dimension_collectives_names);
    if (reader.has("memory_system")) {
        read_memory_system(reader.value("memory_system"), source, locations, cluster.memory_system);
    }
}

}  // namespace

void read_device(const YAML::Node& node, YamlSource& source, LocationIndex& locations, const std::string& path,
                 DeviceSpec& device) {
    SourceLocation preset_at;
    const std::string preset_id = preset_id_of(node, source, path, preset_at);
    if (!preset_id.empty()) {
        device = DeviceSpec{};  // a named preset replaces the device it overrides, e.g. a cluster preset's
        auto preset = read_preset_fields<DeviceSpec>(
            PresetKind::device, preset_id, preset_at, source,
            [](const YAML::Node& yaml, YamlSource& preset_source, DeviceSpec& fields) {
                MapReader preset_reader(yaml, preset_source, "device", device_keys);
                if (!preset_reader.is_map()) return false;
                read_device_fields(preset_reader, fields, false);
                return true;
            });
        if (!preset) return;
        device = std::move(*preset);
        device.preset = preset_id;
    }
    if (node.IsScalar()) return;
    // Fields override the preset named here, or the device a cluster preset brought.
    const bool device_given = !preset_id.empty() || !device.name.empty();
    MapReader reader(node, source, path, device_keys);
    if (!reader.is_map()) return;
    for (const auto key : device_keys) {
        if (reader.has(key)) locations.record(path + "." + std::string(key), reader.key_location(key));
    }
    read_device_fields(reader, device, device_given);
}

void read_cluster(const YAML::Node& node, YamlSource& source, LocationIndex& locations, ClusterSpec& cluster) {
    SourceLocation preset_at;
    const std::string preset_id = preset_id_of(node, source, "cluster", preset_at);
    if (!preset_id.empty()) {
        cluster = ClusterSpec{};
        auto preset = read_preset_fields<ClusterSpec>(
            PresetKind::cluster, preset_id, preset_at, source,
            [](const YAML::Node& yaml, YamlSource& preset_source, ClusterSpec& fields) {
                LocationIndex preset_locations;
                MapReader preset_reader(yaml, preset_source, "cluster", cluster_keys);
                if (!preset_reader.is_map()) return false;
                read_cluster_fields(preset_reader, preset_locations, fields, false);
                return true;
            });
        if (!preset) return;
        cluster = std::move(*preset);
        cluster.preset = preset_id;
    }
    if (node.IsScalar()) return;
    MapReader reader(node, source, "cluster", cluster_keys);
    if (!reader.is_map()) return;
    read_cluster_fields(reader, locations, cluster, !preset_id.empty());
}

}  // namespace parasight
