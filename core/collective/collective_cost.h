#pragma once
// What a collective on a group costs: its time, bandwidths as nccl-tests reports them, and each dimension's share.

#include "collective/collective_op.h"
#include "topology/dimension.h"

#include <cstddef>
#include <vector>

namespace parasight {

struct DimensionCollectiveCost {
    std::size_t dimension = 0;
    DimensionKind kind = DimensionKind::switch_fabric;
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::ring;  // of its first phase
    CollectiveProtocol protocol = CollectiveProtocol::simple;
    int members = 1;
    double bytes_sent = 0.0;  // by the busiest NPU, all phases on this dimension
    double time_s = 0.0;      // this dimension's phases alone, unpipelined

    friend bool operator==(const DimensionCollectiveCost&, const DimensionCollectiveCost&) = default;
};

struct CollectiveCost {
    CollectiveOp op = CollectiveOp::all_reduce;
    double size_bytes = 0.0;
    long long ranks = 1;
    double time_s = 0.0;      // hierarchical: pipelined over chunks
    double algbw_Bps = 0.0;   // size / time (0 for a one-member group)
    double busbw_Bps = 0.0;   // algbw × bus_bandwidth_factor(op, ranks)
    std::vector<DimensionCollectiveCost> per_dim;
};

// Sets algbw and busbw from size and time (both 0 when the time is).
void set_bandwidths(CollectiveCost& cost) noexcept;

}  // namespace parasight
