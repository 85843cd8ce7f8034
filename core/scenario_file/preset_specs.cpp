#include "scenario_file/preset_specs.h"

#include "scenario_file/scenario_readers.h"

namespace parasight {

namespace {

// Reads `id` as the scenario file would read it written as a plain preset id; nothing if the reader objects.
template <typename Spec, typename Read>
std::optional<Spec> read_preset(PresetKind kind, std::string_view id, Read read) {
    if (find_preset(kind, id) == nullptr) return std::nullopt;
    Diagnostics diagnostics;
    YamlSource source("preset", diagnostics);
    LocationIndex locations;
    Spec spec;
    read(YAML::Node(std::string(id)), source, locations, spec);
    if (!diagnostics.empty()) return std::nullopt;
    return spec;
}

}  // namespace

std::optional<ModelSpec> model_preset_spec(std::string_view id) {
    return read_preset<ModelSpec>(PresetKind::model, id, [](const YAML::Node& node, YamlSource& source,
                                                             LocationIndex& locations, ModelSpec& spec) {
        read_model(node, source, locations, spec);
    });
}

std::optional<DeviceSpec> device_preset_spec(std::string_view id) {
    return read_preset<DeviceSpec>(PresetKind::device, id, [](const YAML::Node& node, YamlSource& source,
                                                               LocationIndex& locations, DeviceSpec& spec) {
        read_device(node, source, locations, "cluster.device", spec);
    });
}

std::optional<ClusterSpec> cluster_preset_spec(std::string_view id) {
    return read_preset<ClusterSpec>(PresetKind::cluster, id, [](const YAML::Node& node, YamlSource& source,
                                                                 LocationIndex& locations, ClusterSpec& spec) {
        read_cluster(node, source, locations, spec);
    });
}

}  // namespace parasight
