#include "interop/astra_sim_import.h"

#include "interop/astra_sim_network.h"
#include "interop/astra_sim_system.h"
#include "interop/yaml_text.h"
#include "scenario_file/scenario_loader.h"
#include "units/quantity.h"

#include <filesystem>

namespace parasight {
namespace {

using units::format_number;

// ASTRA-sim 2.0's topology-aware collectives (Won et al. 2023, Table "collective algorithms per building block"): what
// runs on a dimension when no system file says.
CollectiveAlgorithm topology_aware_algorithm(DimensionKind kind) noexcept {
    switch (kind) {
    case DimensionKind::ring: return CollectiveAlgorithm::ring;
    case DimensionKind::fully_connected: return CollectiveAlgorithm::direct;
    case DimensionKind::switch_fabric: return CollectiveAlgorithm::halving_doubling;
    }
    return CollectiveAlgorithm::ring;
}

std::string algorithm_word(CollectiveAlgorithm algorithm) {
    return std::string(name_of(algorithm, collective_algorithm_names));
}

}  // namespace

int astra_sim_links_used(DimensionKind kind, CollectiveAlgorithm algorithm, int npus) noexcept {
    return kind == DimensionKind::fully_connected && algorithm == CollectiveAlgorithm::direct ? npus - 1 : 1;
}

Expected<PeerImport, Diagnostics> import_astra_sim(const PeerFile& network_file,
                                                    const std::optional<PeerFile>& system_file,
                                                    const PeerImportOptions& options) {
    Diagnostics diagnostics;
    const auto network = read_astra_sim_network(network_file.text, network_file.name, diagnostics);
    std::optional<AstraSimSystem> system;
    if (system_file) system = read_astra_sim_system(system_file->text, system_file->name, diagnostics);
    if (!network || (system_file && !system)) return diagnostics;
    const std::size_t dimensions = network->dimensions.size();
    const bool algorithms_given = system && !system->algorithms.empty();
    if (algorithms_given && system->algorithms.size() != dimensions) {
        diagnostics.push_back(Diagnostic{system->algorithms_at,
                                         "the implementation lists have " + std::to_string(system->algorithms.size()) +
                                             " entries and the network " + std::to_string(dimensions) +
                                             " dimensions (" + network_file.name + "): one per dimension",
                                         {}});
        return diagnostics;
    }

    std::int64_t devices = 1;
    for (const AstraSimDimension& dimension : network->dimensions) devices *= dimension.npus;
    const std::string title = std::filesystem::path(network_file.name).stem().string() + " (ASTRA-sim)";
    std::string yaml;
    yaml += "# A ParaSight scenario imported from ASTRA-sim 2.0's files:\n#   network: " + network_file.name + "\n";
    if (system_file) yaml += "#   system: " + system_file->name + "\n";
    yaml += "# ASTRA-sim describes a network and its collectives, not a model: the model (" + options.model_preset +
            "), the batch (one sequence per NPU)\n# and the device (" + options.device_preset +
            ") are placeholders; set your own before reading iteration times. Conversions: docs/interop.md.\n";
    yaml += "schema: 1\n";
    yaml += "name: " + yaml_string(title) + "\n";
    yaml += "model: {preset: " + options.model_preset + "}\n";
    yaml += "training:\n  global_batch: " + std::to_string(devices) + "  # one sequence per NPU\n";
    yaml += "cluster:\n  name: " + yaml_string(title) + "\n";
    if (system && system->roofline) {
        yaml += "  device:\n    preset: " + options.device_preset + "\n";
        yaml += "    peak: {bf16: " + format_number(*system->peak_TFLOPS) + " TFLOP/s}  # peak-perf: " +
                format_number(*system->peak_TFLOPS) + " TFLOPS, ASTRA-sim's roofline (roofline-enabled: 1)\n";
        yaml += "    memory_bandwidth: " + format_number(*system->local_memory_GBps) + " GB/s  # local-mem-bw: " +
                format_number(*system->local_memory_GBps) + " GB/s (10^9 bytes, as ASTRA-sim's Sys reads it)\n";
    } else {
        yaml += "  device: " + options.device_preset + "\n";
    }
    yaml += "  topology:  # innermost first, as ASTRA-sim lists them\n";
    for (std::size_t d = 0; d < dimensions; ++d) {
        const AstraSimDimension& dimension = network->dimensions[d];
        const std::string at = "[" + std::to_string(d) + "]";
        const CollectiveAlgorithm algorithm =
            algorithms_given ? system->algorithms[d] : topology_aware_algorithm(dimension.kind);
        if (!algorithm_fits(algorithm, dimension.kind)) {
            diagnostics.push_back(Diagnostic{system->algorithm_at[d],
                                             "the " + algorithm_word(algorithm) + " algorithm cannot run on dimension " +
                                                 std::to_string(d) + ", a " +
                                                 std::string(astra_sim_topology_name(dimension.kind)) +
                                                 " (" + network_file.name +
                                                 "): ParaSight runs only the ring algorithm on a ring, whose NPUs "
                                                 "reach the others through their neighbours",
                                             {}});
            continue;
        }
        const int links = astra_sim_links_used(dimension.kind, algorithm, dimension.npus);
        const std::string per_link = format_number(dimension.bandwidth_GiBps) + " GB/s per link";
        yaml += "    - kind: " + std::string(name_of(dimension.kind, dimension_kind_names)) + "  # topology" + at +
                ": " + std::string(astra_sim_topology_name(dimension.kind)) + "\n";
        yaml += "      size: " + std::to_string(dimension.npus) + "  # npus_count" + at + "\n";
        yaml += "      bandwidth: " + format_number(dimension.bandwidth_GiBps * links) + " GiB/s  # bandwidth" + at +
                ": " + per_link + ", ASTRA-sim's GB being 2^30 bytes" +
                (links > 1 ? "; direct sends to all " + std::to_string(links) + " other members at once, a link each"
                           : std::string(dimension.kind == DimensionKind::switch_fabric
                                             ? "; the NPU's one link to the switch"
                                             : "; each step sends over one link")) +
                "\n";
        yaml += "      latency: " + format_number(dimension.latency_ns) + " ns  # latency" + at + ": per link" +
                (dimension.kind == DimensionKind::switch_fabric ? ", two links between members as in ASTRA-sim"
                                                                 : std::string()) +
                "\n";
        yaml += "      algorithm: " + algorithm_word(algorithm) + "  # " +
                (algorithms_given ? "the system file's *-implementation" + at + ": " +
                                        std::string(*astra_sim_algorithm_name(algorithm)) + ", every operation"
                                  : "ASTRA-sim 2.0's topology-aware collective on a " +
                                        std::string(astra_sim_topology_name(dimension.kind))) +
                "\n";
        if (system && system->endpoint_delay_ns && *system->endpoint_delay_ns > 0.0) {
            yaml += "      step_latency: " + format_number(*system->endpoint_delay_ns) + " ns  # endpoint-delay: " +
                    format_number(*system->endpoint_delay_ns) + " ns added to every message\n";
        }
    }
    if (!diagnostics.empty()) return diagnostics;
    yaml += "parallelism: {dp: auto}\n";
    if (system && system->dataset_splits) {
        yaml += "simulation:\n  collective_chunks: " + std::to_string(*system->dataset_splits) +
                "  # preferred-dataset-splits: the chunks a collective is cut into\n";
    }
    if (system && !system->not_modelled.empty()) {
        yaml += "# Read from the system file, with no counterpart in ParaSight:\n";
        for (const std::string& note : system->not_modelled) yaml += "#   " + note + "\n";
    }
    LoadResult loaded = load_scenario_text(yaml, title);
    if (!loaded.ok()) return std::move(loaded.diagnostics);
    return PeerImport{std::move(yaml), system ? system->not_modelled : std::vector<std::string>{}};
}

}  // namespace parasight
