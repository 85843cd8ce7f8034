#pragma once
// The cost of one collective phase on one topology dimension: the building block that hierarchical collectives
// compose (ASTRA-sim 2.0 §II-C). Each algorithm lives in a file of its own.

#include "collective/collective_op.h"
#include "topology/dimension.h"

namespace parasight {

// The part of a topology dimension a group runs on.
struct GroupDimension {
    Dimension link;     // the dimension's kind, bandwidth, latency and chosen algorithm
    int members = 1;    // group members along this dimension
    int stride = 1;     // coordinate distance between neighbouring members
};

struct PhaseCost {
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::ring;  // the algorithm that actually ran
    CollectiveProtocol protocol = CollectiveProtocol::simple;   // NCCL's protocol (Simple unless `nccl` chose)
    double bytes_sent = 0.0;        // by the busiest NPU
    double serialization_s = 0.0;   // bytes through the NPU's achievable bandwidth (line rate × efficiency)
    double latency_s = 0.0;         // steps × (hops × per-hop latency + per-step latency)
    int steps = 0;

    [[nodiscard]] double time_s() const noexcept { return serialization_s + latency_s; }
};

// `data_bytes` is the whole buffer entering the phase: the input of a reduce-scatter, the output of an all-gather,
// the buffer of an all-reduce, all-to-all or broadcast.
[[nodiscard]] PhaseCost ring_phase(CollectiveOp op, double data_bytes, const GroupDimension& group);
[[nodiscard]] PhaseCost direct_phase(CollectiveOp op, double data_bytes, const GroupDimension& group);
[[nodiscard]] PhaseCost halving_doubling_phase(CollectiveOp op, double data_bytes, const GroupDimension& group);
[[nodiscard]] PhaseCost double_binary_tree_phase(CollectiveOp op, double data_bytes, const GroupDimension& group);
[[nodiscard]] PhaseCost in_switch_phase(CollectiveOp op, double data_bytes, const GroupDimension& group);
// The switch-assisted path of in_switch_phase alone, without the ring it is weighed against.
[[nodiscard]] PhaseCost switch_reduction_phase(CollectiveOp op, double data_bytes, const GroupDimension& group);
// The fastest algorithm and protocol NCCL's tuning model would pick (collective/nccl_choice.cpp).
[[nodiscard]] PhaseCost nccl_phase(CollectiveOp op, double data_bytes, const GroupDimension& group);

// Dispatches on the dimension's effective algorithm.
[[nodiscard]] PhaseCost phase_cost(CollectiveOp op, double data_bytes, const GroupDimension& group);

// Links a message crosses between two NPUs `coordinate_distance` apart on a dimension: a bidirectional ring takes the
// shorter way round, a fully connected dimension one link, a switch two (NPU → switch → NPU).
[[nodiscard]] int hops_between(DimensionKind kind, int dimension_size, int coordinate_distance) noexcept;

// Hops of a ring's longest step on a group dimension: neighbours are `stride` apart; a group covering only part of a
// physical ring closes the ring by the way back from its last member to its first.
[[nodiscard]] int ring_step_hops(const GroupDimension& group) noexcept;

// Builds a PhaseCost from the bytes the busiest NPU must push and the number of dependent steps, each `hops` long, at
// the dimension's achievable bandwidth.
[[nodiscard]] PhaseCost make_phase_cost(CollectiveAlgorithm algorithm, double bytes_sent, int steps, int hops_per_step,
                                        const GroupDimension& group) noexcept;

}  // namespace parasight
