#include "analysis/collective_probe.h"

#include "collective/group_collective.h"
#include "common/did_you_mean.h"
#include "common/message_text.h"
#include "common/number_text.h"
#include "scenario/scenario_limits.h"
#include "topology/parallel_layout.h"

#include <algorithm>
#include <sstream>

namespace parasight {
namespace {

Expected<std::vector<DimensionSpan>> group_spans(std::string_view group, const Scenario& scenario) {
    const Topology topology = scenario.topology();
    if (group == "all") return whole_topology_spans(topology);
    if (const auto axis = value_of(group, parallel_axis_names)) {
        const auto layout = ParallelLayout::make(topology, scenario.parallelism.layout_order());
        if (!layout) return Error{layout.error()};
        return layout->spans(*axis);
    }
    std::vector<DimensionSpan> spans;
    std::stringstream list{std::string(group)};
    std::string item;
    while (std::getline(list, item, ',')) {
        if (item.empty()) return Error{"an empty item in " + in_quotes(group) + "; write dimensions like 0,2"};
        const auto index = parse_integer(item);
        if (!index || *index < 0 || static_cast<std::size_t>(*index) >= topology.dimension_count()) {
            return Error{in_quotes(item) + " is not a dimension of this topology (0 to " +
                         std::to_string(topology.dimension_count() - 1) + "), an axis (tp, cp, ep, dp, pp) or 'all'"};
        }
        const auto dimension = static_cast<std::size_t>(*index);
        if (!spans.empty() && spans.back().dimension >= dimension) {
            return Error{"list dimensions once each, innermost first, e.g. 0,2"};
        }
        spans.push_back(DimensionSpan{dimension, 1, topology.dimensions()[dimension].size});
    }
    if (spans.empty() || group.back() == ',') return Error{"give 'all', an axis or dimension indices like 0,2"};
    return spans;
}

}  // namespace

std::vector<std::string_view> collective_probe_ops() { return names_of(collective_op_names); }

Expected<CollectiveProbe> probe_collective(const Scenario& scenario, std::string_view op_name, double size_bytes,
                                           std::string_view group, int chunks) {
    const auto op = value_of(op_name, collective_op_names);
    if (!op) {
        const auto ops = collective_probe_ops();
        return Error{"unknown operation " + in_quotes(op_name) + did_you_mean_suffix(op_name, ops) + "; expected " +
                     join_alternatives(ops)};
    }
    // A scenario in the middle of an edit: no topology to time on yet.
    std::int64_t devices = 1;
    for (std::size_t d = 0; d < scenario.cluster.topology.size(); ++d) {
        const Dimension& dimension = scenario.cluster.topology[d];
        if (dimension.size < 1) return Error{"dimension " + std::to_string(d) + " has no NPU"};
        devices = std::min(devices * dimension.size, limits::max_devices + 1);
    }
    if (scenario.cluster.topology.empty()) return Error{"the cluster has no dimension"};
    if (devices > limits::max_devices) {
        return Error{"the topology has more than " + std::to_string(limits::max_devices) + " NPUs"};
    }
    const auto spans = group_spans(group, scenario);
    if (!spans) return Error{spans.error()};
    const CollectivePlan plan{scenario.cluster.multi_dimension_collectives, chunks};
    const CollectiveCost cost = group_collective(*op, size_bytes, scenario.topology(), *spans, plan);
    CollectiveProbe probe;
    probe.op = std::string(op_name);
    probe.size_bytes = cost.size_bytes;
    probe.ranks = cost.ranks;
    probe.time_s = cost.time_s;
    probe.algbw_Bps = cost.algbw_Bps;
    probe.busbw_Bps = cost.busbw_Bps;
    for (const DimensionCollectiveCost& dimension : cost.per_dim) {
        probe.per_dim.push_back(CollectiveProbeDimension{
            dimension.dimension, std::string(to_string(dimension.kind)), dimension.members,
            std::string(to_string(dimension.algorithm)), std::string(to_string(dimension.protocol)),
            dimension.bytes_sent, dimension.time_s});
    }
    return probe;
}

}  // namespace parasight
