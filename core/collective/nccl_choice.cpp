// The algorithm and protocol NCCL picks for one phase, as its tuning model does (NVIDIA NCCL, src/graph/tuning.cc:
// ncclTopoTuneModel costs every algorithm × protocol as latency + bytes / bandwidth; the enqueue picks the fastest).
//
// Algorithms: the ring for every operation; the double binary tree for all-reduce only (NCCL runs its tree for
// all-reduce alone); in-switch reduction (NVLS, CollNet) for all-reduce, reduce-scatter and all-gather where the
// dimension's switch reduces (`in_switch_reduction`). Halving-doubling is not one of NCCL's: it stays an explicit
// choice, which also keeps its fold at member counts that are not powers of two out of the default.
//
// Protocols scale the dimension's figures, which describe Simple (what large buffers reach: `efficiency` and
// `step_latency` are calibrated on it):
// - Simple: bandwidth × 1, per-step latency × 1.
// - LL128: bandwidth × 0.92 (tuning.cc: busBw × 0.92, "120/128": 8 bytes of every 128 are flags); per-step latency
//   × 0.5 (tuning.cc hwLat, ring LL128 / Simple: 1.9 / 3.4 µs over NVLink, 4.0 / 9.6 µs over the network).
// - LL: bandwidth × 0.25 (tuning.cc: a ring's LL busBw / 4: each 8-byte store carries 4 bytes of data and a flag);
//   per-step latency × 0.25 (hwLat ring LL / Simple: 0.6 / 3.4 µs over NVLink, 2.7 / 9.6 µs over the network).
// The tree reaches 0.9 of the bandwidth the ring reaches (tuning.cc: a tree's busBw × 0.9), so the ring wins large
// buffers and the tree, with its 2⌈log2 n⌉ steps against the ring's 2(n − 1), the middle sizes at many members.
// Only the software part of a step (`step_latency`) shrinks with the protocol; the wire's per-hop latency does not.
// In-switch reduction runs Simple only (NVLS has no LL or LL128; CollNet no LL128), so it is costed with Simple.
#include "collective/phase_cost.h"

#include <array>

namespace parasight {
namespace {

constexpr double tree_bandwidth_fraction = 0.9;

struct ProtocolFigures {
    CollectiveProtocol protocol;
    double bandwidth_fraction;
    double step_latency_fraction;
};

// In order of preference when two tie.
constexpr std::array<ProtocolFigures, 3> protocols{{
    {CollectiveProtocol::simple, 1.0, 1.0},
    {CollectiveProtocol::ll128, 0.92, 0.5},
    {CollectiveProtocol::ll, 0.25, 0.25},
}};

PhaseCost with_protocol(PhaseCost cost, const GroupDimension& group, const ProtocolFigures& figures) {
    cost.protocol = figures.protocol;
    cost.serialization_s /= figures.bandwidth_fraction;
    const double software_s = static_cast<double>(cost.steps) * group.link.step_latency_s;
    cost.latency_s += software_s * (figures.step_latency_fraction - 1.0);
    return cost;
}

bool switch_reduces(CollectiveOp op, const GroupDimension& group) {
    if (!group.link.in_switch_reduction || group.link.kind != DimensionKind::switch_fabric) return false;
    return op == CollectiveOp::all_reduce || op == CollectiveOp::reduce_scatter || op == CollectiveOp::all_gather;
}

}  // namespace

PhaseCost nccl_phase(CollectiveOp op, double data_bytes, const GroupDimension& group) {
    const PhaseCost ring = ring_phase(op, data_bytes, group);
    PhaseCost fastest = ring;
    const auto consider = [&](const PhaseCost& algorithm, std::size_t protocol_count) {
        for (std::size_t p = 0; p < protocol_count; ++p) {
            const PhaseCost candidate = with_protocol(algorithm, group, protocols[p]);
            if (candidate.time_s() < fastest.time_s()) fastest = candidate;
        }
    };
    consider(ring, protocols.size());
    if (op == CollectiveOp::all_reduce) {
        PhaseCost tree = double_binary_tree_phase(op, data_bytes, group);
        tree.serialization_s /= tree_bandwidth_fraction;
        consider(tree, protocols.size());
    }
    if (switch_reduces(op, group)) consider(switch_reduction_phase(op, data_bytes, group), 1);
    return fastest;
}

}  // namespace parasight
