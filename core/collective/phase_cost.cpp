#include "collective/phase_cost.h"

#include <algorithm>

namespace parasight {

int hops_between(DimensionKind kind, int dimension_size, int coordinate_distance) noexcept {
    const int distance = dimension_size > 0 ? coordinate_distance % dimension_size : 0;
    if (distance == 0) return 0;
    switch (kind) {
    case DimensionKind::ring: return std::min(distance, dimension_size - distance);
    case DimensionKind::fully_connected: return 1;
    case DimensionKind::switch_fabric: return 2;
    }
    return 0;
}

PhaseCost make_phase_cost(CollectiveAlgorithm algorithm, double bytes_sent, int steps, int hops_per_step,
                          const GroupDimension& group) noexcept {
    PhaseCost cost;
    cost.algorithm = algorithm;
    cost.bytes_sent = bytes_sent;
    cost.steps = steps;
    const double bandwidth_Bps = achievable_bandwidth_Bps(group.link);
    cost.serialization_s = bandwidth_Bps > 0.0 ? bytes_sent / bandwidth_Bps : 0.0;
    cost.latency_s = static_cast<double>(steps) * step_latency_s(group.link, hops_per_step);
    return cost;
}

PhaseCost phase_cost(CollectiveOp op, double data_bytes, const GroupDimension& group) {
    if (group.members <= 1) {
        // Nothing moves. NCCL costs a one-rank communicator as its ring (src/graph/tuning.cc).
        PhaseCost alone;
        const CollectiveAlgorithm algorithm = effective_algorithm(group.link);
        alone.algorithm = algorithm == CollectiveAlgorithm::nccl ? CollectiveAlgorithm::ring : algorithm;
        return alone;
    }
    switch (effective_algorithm(group.link)) {
    case CollectiveAlgorithm::ring: return ring_phase(op, data_bytes, group);
    case CollectiveAlgorithm::direct: return direct_phase(op, data_bytes, group);
    case CollectiveAlgorithm::halving_doubling: return halving_doubling_phase(op, data_bytes, group);
    case CollectiveAlgorithm::double_binary_tree: return double_binary_tree_phase(op, data_bytes, group);
    case CollectiveAlgorithm::in_switch: return in_switch_phase(op, data_bytes, group);
    case CollectiveAlgorithm::nccl: return nccl_phase(op, data_bytes, group);
    }
    return ring_phase(op, data_bytes, group);
}

}  // namespace parasight
