// Ring algorithm (Patarasuk & Yuan 2009): n−1 steps per reduce-scatter or all-gather, each moving 1/n of the data to
// the next member.
#include "collective/phase_cost.h"

#include <algorithm>

namespace parasight {

int ring_step_hops(const GroupDimension& group) noexcept {
    const int size = group.link.size;
    const int forward = hops_between(group.link.kind, size, group.stride);
    if (group.link.kind != DimensionKind::ring) return forward;
    const int wrap_distance = size - (group.members - 1) * group.stride;
    return std::max(forward, hops_between(group.link.kind, size, wrap_distance));
}

PhaseCost ring_phase(CollectiveOp op, double data_bytes, const GroupDimension& group) {
    const int n = group.members;
    const double share = data_bytes / n;
    const int hops = ring_step_hops(group);
    switch (op) {
    case CollectiveOp::all_reduce:
        return make_phase_cost(CollectiveAlgorithm::ring, 2.0 * (n - 1) * share, 2 * (n - 1), hops, group);
    case CollectiveOp::reduce_scatter:
    case CollectiveOp::all_gather:
        return make_phase_cost(CollectiveAlgorithm::ring, (n - 1) * share, n - 1, hops, group);
    case CollectiveOp::all_to_all: {
        // Each 1/n share travels the shorter way round to its destination, relayed by the members between: an NPU
        // forwards Σ_j min(j, n−j) shares, over ⌊n/2⌋ dependent steps. With more than two members the shares go both
        // ways round, so each direction carries half of them; two members have one neighbour and one way.
        double relayed_shares = 0.0;
        for (int j = 1; j < n; ++j) relayed_shares += std::min(j, n - j);
        const double per_direction = n > 2 ? relayed_shares / 2.0 : relayed_shares;
        return make_phase_cost(CollectiveAlgorithm::ring, per_direction * share, n / 2, hops, group);
    }
    case CollectiveOp::broadcast:
        // A pipelined chain: the whole buffer passes every link once; the last member is n−1 steps from the root.
        return make_phase_cost(CollectiveAlgorithm::ring, data_bytes, n - 1, hops, group);
    }
    return {};
}

}  // namespace parasight
