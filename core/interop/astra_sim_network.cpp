#include "interop/astra_sim_network.h"

#include "common/did_you_mean.h"
#include "common/enum_names.h"
#include "common/message_text.h"
#include "common/number_text.h"
#include "interop/peer_file_lists.h"
#include "scenario/scenario_limits.h"
#include "scenario_file/yaml_reader.h"
#include "units/quantity.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace parasight {
namespace {

constexpr std::array<EnumName<DimensionKind>, 3> astra_sim_topology_names{{{DimensionKind::ring, "Ring"},
                                                                            {DimensionKind::fully_connected, "FullyConnected"},
                                                                            {DimensionKind::switch_fabric, "Switch"}}};

constexpr double bytes_per_astra_sim_GB = 1073741824.0;  // bw_GBps_to_Bpns: bw * (1 << 30) / 1e9 B/ns

}  // namespace

std::string_view astra_sim_topology_name(DimensionKind kind) noexcept {
    return name_of(kind, astra_sim_topology_names);
}

std::optional<AstraSimNetwork> read_astra_sim_network(std::string_view text, const std::string& file_name,
                                                      Diagnostics& diagnostics) {
    const std::size_t errors_before = diagnostics.size();
    YamlSource source(file_name, diagnostics);
    const auto root = load_yaml_document(text, source);
    if (!root) return std::nullopt;
    MapReader reader(MapReader::DocumentRoot{"the network file"}, *root, source, {"topology", "npus_count", "bandwidth", "latency"});
    if (!reader.is_map()) return std::nullopt;
    PeerListReader lists(reader);
    const auto topology = lists.entries("topology");
    const auto npus = lists.entries("npus_count");
    const auto bandwidth = lists.entries("bandwidth");
    const auto latency = lists.entries("latency");
    if (!topology || !npus || !bandwidth || !latency) return std::nullopt;
    if (topology->empty()) {
        source.error(reader.value_location("topology"), "topology lists no dimension; ASTRA-sim needs at least one");
        return std::nullopt;
    }
    if (topology->size() > limits::max_topology_dimensions) {
        source.error(reader.value_location("topology"),
                     "topology lists " + std::to_string(topology->size()) + " dimensions; ParaSight takes at most " +
                         std::to_string(limits::max_topology_dimensions));
        return std::nullopt;
    }
    for (const auto& [key, list] : {std::pair{"npus_count", npus}, {"bandwidth", bandwidth}, {"latency", latency}}) {
        if (list->size() != topology->size()) {
            source.error(reader.value_location(key), std::string(key) + " has " + std::to_string(list->size()) +
                                                         " entries and topology " + std::to_string(topology->size()) +
                                                         ": one per dimension, innermost first");
        }
    }
    if (diagnostics.size() > errors_before) return std::nullopt;

    AstraSimNetwork network;
    std::int64_t devices = 1;
    for (std::size_t d = 0; d < topology->size(); ++d) {
        AstraSimDimension dimension;
        const std::string at = "[" + std::to_string(d) + "]";
        const YAML::Node& kind = (*topology)[d];
        if (const auto parsed = value_of(kind.Scalar(), astra_sim_topology_names)) {
            dimension.kind = *parsed;
        } else {
            const auto names = names_of(astra_sim_topology_names);
            source.error(kind, "topology" + at + ": " + in_quotes(kind.Scalar()) + " is not a topology ASTRA-sim has" +
                                   did_you_mean_suffix(kind.Scalar(), names) + "; expected " + join_alternatives(names));
        }
        if (const auto count = lists.integer("npus_count", d, IntegerRange{2, limits::max_devices})) {
            dimension.npus = static_cast<int>(*count);
            devices = std::min(devices * *count, limits::max_devices + 1);
        }
        if (const auto rate = lists.number("bandwidth", d, NumberRange{0.0, 1e300})) {
            dimension.bandwidth_GiBps = *rate;
            const double bytes = *rate * bytes_per_astra_sim_GB;
            if (bytes < limits::link_bandwidth.min || bytes > limits::link_bandwidth.max) {
                source.error((*bandwidth)[d], "bandwidth" + at + ": " + units::format_number(*rate) +
                                                  " GB/s is outside what a link can be (1 kB/s to 1000 TB/s)");
            }
        }
        if (const auto delay = lists.number("latency", d, NumberRange{0.0, 1e9})) dimension.latency_ns = *delay;
        network.dimensions.push_back(dimension);
        network.written_at.push_back(source.location(kind));
    }
    // In the file's order, not dimension by dimension.
    std::stable_sort(diagnostics.begin() + static_cast<std::ptrdiff_t>(errors_before), diagnostics.end(),
                     [](const Diagnostic& a, const Diagnostic& b) {
                         return std::pair(a.location.line, a.location.column) <
                                std::pair(b.location.line, b.location.column);
                     });
    if (devices > limits::max_devices) {
        source.error(reader.value_location("npus_count"),
                     "npus_count makes more than " + std::to_string(limits::max_devices) +
                         " NPUs (the product of the dimensions); that is beyond any real cluster");
    }
    if (diagnostics.size() > errors_before) return std::nullopt;
    return network;
}

std::string write_astra_sim_network(const AstraSimNetwork& network, const std::vector<std::string>& comment) {
    std::string text;
    for (const std::string& line : comment) text += line.empty() ? "#\n" : "# " + line + "\n";
    auto column = [&](std::string_view key, auto value_of_dimension, std::string_view unit) {
        text += std::string(key) + ": [ ";
        for (std::size_t d = 0; d < network.dimensions.size(); ++d) {
            text += (d == 0 ? "" : ", ") + value_of_dimension(network.dimensions[d]);
        }
        text += " ]";
        if (!unit.empty()) text += "  # " + std::string(unit);
        text += '\n';
    };
    column("topology", [](const AstraSimDimension& d) { return std::string(astra_sim_topology_name(d.kind)); }, "");
    column("npus_count", [](const AstraSimDimension& d) { return std::to_string(d.npus); }, "");
    column("bandwidth", [](const AstraSimDimension& d) { return units::format_number(d.bandwidth_GiBps); },
           "GB/s (ASTRA-sim's GB: 2^30 bytes), per link and direction");
    column("latency", [](const AstraSimDimension& d) { return units::format_number(d.latency_ns); }, "ns, per link");
    return text;
}

}  // namespace parasight
