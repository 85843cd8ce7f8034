#pragma once
// The cost of a collective on a group of NPUs: on one dimension, that dimension's algorithm; across several, composed
// as the cluster says (MultiDimensionCollectives: hierarchical phases or one flat ring).

#include "collective/collective_cost.h"
#include "topology/parallel_layout.h"
#include "topology/topology.h"

#include <span>
#include <vector>

namespace parasight {

struct CollectivePlan {
    MultiDimensionCollectives across_dimensions = MultiDimensionCollectives::hierarchical;
    int chunks = 64;  // ≥ 1: pieces a hierarchical collective pipelines across dimensions
};

[[nodiscard]] CollectiveCost group_collective(CollectiveOp op, double size_bytes, const Topology& topology,
                                              std::span<const DimensionSpan> spans, const CollectivePlan& plan);

// Every dimension of the topology, whole: the group of all devices.
[[nodiscard]] std::vector<DimensionSpan> whole_topology_spans(const Topology& topology);

}  // namespace parasight
