#pragma once
// Collectives on groups that span several topology dimensions (ASTRA-sim 2.0 §II-C, multi-rail hierarchical):
// reduce-scatter runs over the dimensions in ascending order, all-gather descending, all-reduce is reduce-scatter up to
// the outermost dimension, an all-reduce there, and all-gather back down; the data shrinks by each dimension's
// membership on the way up. The buffer is cut into chunks that pipeline across dimensions, so the collective costs
// about its bottleneck dimension plus the time to fill and drain the pipeline.

#include "collective/collective_op.h"
#include "collective/phase_cost.h"
#include "topology/parallel_layout.h"
#include "topology/topology.h"

#include <span>
#include <vector>

namespace parasight {

struct DimensionCollectiveCost {
    std::size_t dimension = 0;
    DimensionKind kind = DimensionKind::switch_fabric;
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::ring;
    int members = 1;
    double bytes_sent = 0.0;  // by the busiest NPU, all phases on this dimension
    double time_s = 0.0;      // this dimension's phases alone, unpipelined

    friend bool operator==(const DimensionCollectiveCost&, const DimensionCollectiveCost&) = default;
};

struct CollectiveCost {
    CollectiveOp op = CollectiveOp::all_reduce;
    double size_bytes = 0.0;
    long long ranks = 1;
    double time_s = 0.0;      // pipelined over chunks
    double algbw_Bps = 0.0;   // size / time (0 for a one-member group)
    double busbw_Bps = 0.0;   // algbw × bus_bandwidth_factor(op, ranks)
    std::vector<DimensionCollectiveCost> per_dim;
};

// `chunks` ≥ 1: how many pieces the buffer is cut into for pipelining across dimensions.
[[nodiscard]] CollectiveCost hierarchical_collective(CollectiveOp op, double size_bytes, const Topology& topology,
                                                     std::span<const DimensionSpan> spans, int chunks);

// Every dimension of the topology, whole: the group of all devices.
[[nodiscard]] std::vector<DimensionSpan> whole_topology_spans(const Topology& topology);

}  // namespace parasight
