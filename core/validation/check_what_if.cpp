// what_if: each rule's values, then its targets against the cluster and the model.
#include "model/model_structure.h"
#include "validation/checks.h"

namespace parasight {
namespace {

void check_rule_count(std::size_t count, const char* list, ProblemList& problems) {
    if (count > limits::max_what_if_rules) {
        problems.add("what_if." + std::string(list), "what_if." + std::string(list) + " has " +
                                                         std::to_string(count) + " rules; the limit is " +
                                                         std::to_string(limits::max_what_if_rules));
    }
}

void check_npu_list(const std::vector<std::int64_t>& npus, const std::string& path, bool required,
                    ProblemList& problems) {
    if (npus.empty() && required) problems.add(path, path + " lists no NPU");
    if (static_cast<std::int64_t>(npus.size()) > limits::max_what_if_npus) {
        problems.add(path, path + " lists " + std::to_string(npus.size()) + " NPUs; the limit is " +
                               std::to_string(limits::max_what_if_npus));
        return;
    }
    for (const std::int64_t npu : npus) problems.integer(path, npu, limits::what_if_npu);
}

// Every listed NPU is one of the cluster's.
void check_npus_exist(const std::vector<std::int64_t>& npus, const std::string& path, std::int64_t devices,
                      ProblemList& problems) {
    for (const std::int64_t npu : npus) {
        if (npu >= devices) {
            problems.add(path, path + ": NPU " + std::to_string(npu) + " is not in the cluster, whose NPUs are 0.." +
                                   std::to_string(devices - 1));
            return;
        }
    }
}

}  // namespace

void check_what_if_fields(const WhatIfSpec& what_if, ProblemList& problems) {
    check_rule_count(what_if.collective_delays.size(), "collective_delays", problems);
    check_rule_count(what_if.slow_devices.size(), "slow_devices", problems);
    check_rule_count(what_if.degraded_links.size(), "degraded_links", problems);
    for (std::size_t i = 0; i < what_if.collective_delays.size(); ++i) {
        const CollectiveDelay& delay = what_if.collective_delays[i];
        const std::string path = what_if_rule_path("collective_delays", i);
        if (delay.group) known(problems, path + ".group", *delay.group, parallel_axis_names);
        if (delay.operation) known(problems, path + ".operation", *delay.operation, comm_operation_names);
        if (delay.layers) {
            problems.integer(path + ".layers", delay.layers->first, limits::what_if_layer);
            problems.integer(path + ".layers", delay.layers->last, limits::what_if_layer);
            if (delay.layers->first > delay.layers->last) {
                problems.add(path + ".layers", path + ".layers runs from " + std::to_string(delay.layers->first) +
                                                   " down to " + std::to_string(delay.layers->last) +
                                                   "; write the smaller end first");
            }
        }
        problems.quantity(path + ".delay", delay.delay_s, units::Dimension::time, limits::injected_delay);
    }
    for (std::size_t i = 0; i < what_if.slow_devices.size(); ++i) {
        const SlowDevices& slow = what_if.slow_devices[i];
        const std::string path = what_if_rule_path("slow_devices", i);
        check_npu_list(slow.npus, path + ".npus", true, problems);
        problems.number(path + ".compute_time_factor", slow.compute_time_factor, limits::compute_time_factor);
    }
    for (std::size_t i = 0; i < what_if.degraded_links.size(); ++i) {
        const DegradedLinks& links = what_if.degraded_links[i];
        const std::string path = what_if_rule_path("degraded_links", i);
        if (links.dimension) problems.integer(path + ".dimension", *links.dimension, limits::what_if_dimension);
        check_npu_list(links.npus, path + ".npus", false, problems);
        problems.number(path + ".bandwidth_factor", links.bandwidth_factor, limits::bandwidth_factor);
    }
}

void check_what_if_targets(const Scenario& scenario, ProblemList& problems) {
    const WhatIfSpec& what_if = scenario.what_if;
    if (what_if.empty()) return;
    const int layers = pipeline_layer_count(scenario.model);
    for (std::size_t i = 0; i < what_if.collective_delays.size(); ++i) {
        const CollectiveDelay& delay = what_if.collective_delays[i];
        if (delay.layers && delay.layers->last >= layers) {
            const std::string path = what_if_rule_path("collective_delays", i) + ".layers";
            problems.add(path, path + ": layer " + std::to_string(delay.layers->last) +
                                   " is not in the model, whose layers are 0.." + std::to_string(layers - 1));
        }
    }
    const std::int64_t devices = scenario.device_count();
    for (std::size_t i = 0; i < what_if.slow_devices.size(); ++i) {
        check_npus_exist(what_if.slow_devices[i].npus, what_if_rule_path("slow_devices", i) + ".npus", devices, problems);
    }
    const auto dimensions = static_cast<int>(scenario.cluster.topology.size());
    for (std::size_t i = 0; i < what_if.degraded_links.size(); ++i) {
        const DegradedLinks& links = what_if.degraded_links[i];
        const std::string path = what_if_rule_path("degraded_links", i);
        if (links.dimension && *links.dimension >= dimensions) {
            problems.add(path + ".dimension",
                         path + ".dimension: the cluster has no dimension " + std::to_string(*links.dimension) +
                             (dimensions == 1 ? "; its only dimension is 0"
                                              : "; its dimensions are 0.." + std::to_string(dimensions - 1) +
                                                    ", innermost first"));
        }
        check_npus_exist(links.npus, path + ".npus", devices, problems);
    }
}

}  // namespace parasight
