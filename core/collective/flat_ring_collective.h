#pragma once
// A collective on a group spanning several dimensions as one ring through every member, the way NCCL runs its ring
// across nodes: members in layout order (innermost dimension fastest), one ring per channel, the channels rotated so
// that every NPU's link on every dimension carries an equal part. The ring's n edges fall on the dimensions as its
// coordinate changes do: span i (members m_i) holds (m_i − 1) · Π_{j>i} m_j of them, the outermost one more for the
// edge that closes the ring. Each edge carries what a ring step sends in total, so an NPU moves
// f · (n−1)/n · S · e_i / n bytes over dimension i (f = 2 for an all-reduce, 1 for a reduce-scatter or all-gather)
// and the links of all dimensions work at once: the time is the slowest dimension's plus every step's latency.
// On a DGX A100 pair (8 NVLink members, 2 InfiniBand members) that leaves the network the bottleneck at
// 8 × its achievable rate in bus bandwidth, as measured (docs/collectives.md).

#include "collective/collective_cost.h"
#include "topology/parallel_layout.h"
#include "topology/topology.h"

#include <span>

namespace parasight {

[[nodiscard]] CollectiveCost flat_ring_collective(CollectiveOp op, double size_bytes, const Topology& topology,
                                                  std::span<const DimensionSpan> spans);

}  // namespace parasight
