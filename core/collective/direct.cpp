// Direct algorithm for fully connected dimensions (ASTRA-sim 2.0 Table "topology-aware collectives"): every member
// exchanges its shares with all others at once, one step per phase.
#include "collective/phase_cost.h"

namespace parasight {

PhaseCost direct_phase(CollectiveOp op, double data_bytes, const GroupDimension& group) {
    const int n = group.members;
    const double others_share = data_bytes * (n - 1) / n;
    // On a physical ring (not a fit, but computable) the farthest member bounds the step.
    const int hops = hops_between(group.link.kind, group.link.size, group.stride * (n / 2));
    switch (op) {
    case CollectiveOp::all_reduce:
        return make_phase_cost(CollectiveAlgorithm::direct, 2.0 * others_share, 2, hops, group);
    case CollectiveOp::reduce_scatter:
    case CollectiveOp::all_gather:
    case CollectiveOp::all_to_all:
        return make_phase_cost(CollectiveAlgorithm::direct, others_share, 1, hops, group);
    case CollectiveOp::broadcast:
        // Scatter from the root, then all-gather: the root sends (n−1)/n twice.
        return make_phase_cost(CollectiveAlgorithm::direct, 2.0 * others_share, 2, hops, group);
    }
    return {};
}

}  // namespace parasight
