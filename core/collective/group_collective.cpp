#include "collective/group_collective.h"

#include "collective/flat_ring_collective.h"
#include "collective/hierarchical_collective.h"

namespace parasight {

CollectiveCost group_collective(CollectiveOp op, double size_bytes, const Topology& topology,
                                std::span<const DimensionSpan> spans, const CollectivePlan& plan) {
    if (spans.size() > 1 && plan.across_dimensions == MultiDimensionCollectives::flat_ring) {
        return flat_ring_collective(op, size_bytes, topology, spans);
    }
    return hierarchical_collective(op, size_bytes, topology, spans, plan.chunks);
}

std::vector<DimensionSpan> whole_topology_spans(const Topology& topology) {
    std::vector<DimensionSpan> spans;
    for (std::size_t d = 0; d < topology.dimension_count(); ++d) {
        if (topology.dimensions()[d].size > 1) spans.push_back(DimensionSpan{d, 1, topology.dimensions()[d].size});
    }
    return spans;
}

}  // namespace parasight
