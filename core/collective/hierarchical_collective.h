#pragma once
// Collectives on groups that span several topology dimensions (ASTRA-sim 2.0 §II-C, multi-rail hierarchical):
// reduce-scatter runs over the dimensions in ascending order, all-gather descending, all-reduce is reduce-scatter up to
// the outermost dimension, an all-reduce there, and all-gather back down; the data shrinks by each dimension's
// membership on the way up. The buffer is cut into chunks that pipeline across dimensions, so the collective costs
// about its bottleneck dimension plus the time to fill and drain the pipeline.

#include "collective/collective_cost.h"
#include "collective/collective_op.h"
#include "collective/phase_cost.h"
#include "topology/parallel_layout.h"
#include "topology/topology.h"

#include <span>
#include <vector>

namespace parasight {

// `chunks` ≥ 1: how many pieces the buffer is cut into for pipelining across dimensions.
[[nodiscard]] CollectiveCost hierarchical_collective(CollectiveOp op, double size_bytes, const Topology& topology,
                                                     std::span<const DimensionSpan> spans, int chunks);

}  // namespace parasight
