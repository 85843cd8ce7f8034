#include "interop/astra_sim_export.h"

#include "interop/astra_sim_import.h"
#include "interop/astra_sim_network.h"
#include "interop/astra_sim_system.h"
#include "interop/reading_back.h"
#include "units/quantity.h"


namespace parasight {
namespace {

using units::format_number;

constexpr double bytes_per_GiB = 1073741824.0;

}  // namespace

Expected<AstraSimExport> export_astra_sim(const Scenario& scenario) {
    AstraSimExport result;
    AstraSimNetwork network;
    AstraSimSystem system;
    std::optional<double> step_latency_s;
    const std::vector<Dimension>& topology = scenario.cluster.topology;
    for (std::size_t d = 0; d < topology.size(); ++d) {
        const Dimension& dimension = topology[d];
        const std::string which = "dimension " + std::to_string(d);
        if (dimension.size == 1) {
            result.not_modelled.push_back(which + " has one NPU, and ASTRA-sim needs more than one: it is left out");
            continue;
        }
        CollectiveAlgorithm algorithm = effective_algorithm(dimension);
        if (!astra_sim_algorithm_name(algorithm)) {
            result.not_modelled.push_back(
                which + " runs " +
                (algorithm == CollectiveAlgorithm::nccl ? std::string("NCCL's choice of algorithm and protocol by "
                                                                      "operation and size")
                                                        : std::string("in-switch reduction")) +
                ", which ASTRA-sim has not: it runs the ring there");
            algorithm = CollectiveAlgorithm::ring;
        }
        AstraSimDimension exported;
        exported.kind = dimension.kind;
        exported.npus = dimension.size;
        const int links = astra_sim_links_used(dimension.kind, algorithm, dimension.size);
        const double reached_Bps = achievable_bandwidth_Bps(dimension);
        if (dimension.efficiency != 1.0) {
            result.not_modelled.push_back(which + "'s collectives reach " + format_number(dimension.efficiency) +
                                          " of its line rate; ASTRA-sim has no such share, so its bandwidth is what "
                                          "they reach");
        }
        exported.bandwidth_GiBps = reading_back(reached_Bps / bytes_per_GiB / links, reached_Bps, [&](double per_link) {
            return read_as_written(per_link * links, "GiB/s", units::Dimension::bandwidth);
        });
        exported.latency_ns = reading_back(dimension.latency_s * 1e9, dimension.latency_s,
                                           [](double ns) { return read_as_written(ns, "ns", units::Dimension::time); });
        if (!step_latency_s) {
            step_latency_s = dimension.step_latency_s;
        } else if (*step_latency_s != dimension.step_latency_s) {
            result.not_modelled.push_back(which + "'s step latency differs from the first dimension's; ASTRA-sim has "
                                                  "one endpoint delay for every message, the first dimension's");
        }
        network.dimensions.push_back(exported);
        system.algorithms.push_back(algorithm);
    }
    if (network.dimensions.empty()) {
        return Error{"the cluster has no dimension of more than one NPU, and ASTRA-sim needs a network to simulate"};
    }
    if (*step_latency_s > 0.0) {
        system.endpoint_delay_ns = reading_back(*step_latency_s * 1e9, *step_latency_s,
                                                [](double ns) { return read_as_written(ns, "ns", units::Dimension::time); });
    }
    system.dataset_splits = scenario.simulation.collective_chunks;
    const DeviceSpec& device = scenario.cluster.device;
    const auto peak = device.peak_flops.find(scenario.training.dtype);
    if (peak != device.peak_flops.end()) {
        system.roofline = true;
        system.peak_TFLOPS = reading_back(peak->second / 1e12, peak->second,
                                          [](double t) { return read_as_written(t, "TFLOP/s", units::Dimension::flop_rate); });
        system.local_memory_GBps =
            reading_back(device.memory_bandwidth_Bps / 1e9, device.memory_bandwidth_Bps,
                         [](double g) { return read_as_written(g, "GB/s", units::Dimension::bandwidth); });
    }
    if (scenario.cluster.multi_dimension_collectives == MultiDimensionCollectives::flat_ring) {
        result.not_modelled.emplace_back(
            "a collective over several dimensions runs as NCCL's one ring through every member "
            "(multi_dimension_collectives: flat_ring); ASTRA-sim runs it dimension by dimension");
    }
    result.not_modelled.emplace_back(
        "the device's roofline is its peak and memory bandwidth alone: ASTRA-sim has none of ParaSight's matmul, "
        "attention and memory efficiencies or its kernel launch floor");
    result.not_modelled.emplace_back(
        "the model, training and strategy: ASTRA-sim takes a workload as a Chakra execution trace, which this export "
        "does not write");
    if (!scenario.cluster.memory_system.empty()) {
        result.not_modelled.emplace_back("the host, NVMe and pooled memory (cluster.memory_system): ASTRA-sim reads "
                                         "them from its own remote-memory file");
    }
    if (!scenario.what_if.empty()) {
        result.not_modelled.emplace_back("the what-if delays, slow devices and degraded links");
    }
    std::string title = scenario.name.empty() ? std::string("a ParaSight scenario") : scenario.name;
    for (char& c : title) {
        if (c == '\n' || c == '\r') c = ' ';  // one comment line
    }
    result.network_yaml =
        write_astra_sim_network(network, {"ASTRA-sim 2.0 analytical network, written by parasight-cli export astra-sim",
                                          "from " + title + ". Dimensions innermost first."});
    result.system_json = write_astra_sim_system(system);
    return result;
}

}  // namespace parasight
