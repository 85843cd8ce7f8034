#include "document/topology_edits.h"

#include <algorithm>

namespace parasight::gui {

void add_outer_dimension(Scenario& scenario, DimensionKind kind) {
    std::vector<Dimension>& topology = scenario.cluster.topology;
    Dimension outer = topology.empty() ? Dimension{} : topology.back();
    outer.kind = kind;
    outer.algorithm.reset();  // the natural one of its kind
    outer.size = 2;
    topology.push_back(outer);
}

void remove_dimension(Scenario& scenario, std::size_t dimension) {
    std::vector<Dimension>& topology = scenario.cluster.topology;
    if (topology.size() > 1 && dimension < topology.size()) {
        topology.erase(topology.begin() + static_cast<std::ptrdiff_t>(dimension));
    }
}

void swap_with_outer(Scenario& scenario, std::size_t inner) {
    std::vector<Dimension>& topology = scenario.cluster.topology;
    if (inner + 1 < topology.size()) std::swap(topology[inner], topology[inner + 1]);
}

void reorder_mapping(Scenario& scenario, const std::vector<ParallelAxis>& order) {
    std::vector<ParallelAxis> mapping = order;
    for (const ParallelAxis axis : scenario.parallelism.mapping) {
        if (std::find(mapping.begin(), mapping.end(), axis) == mapping.end()) mapping.push_back(axis);
    }
    scenario.parallelism.mapping = std::move(mapping);
}

}  // namespace parasight::gui
