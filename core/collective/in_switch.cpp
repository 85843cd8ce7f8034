// In-switch (in-network) collectives, as NVLink SHARP (NVLS) runs them in NCCL and ASTRA-sim 2.0 §IV-B describes:
// the switch reduces and multicasts, so a member's data crosses its link about once each way. NCCL's tuner picks the
// faster of NVLS and its ring per operation and size, and so does this phase: with few members, or for operations the
// switch does not shorten, the ring is as fast or faster (measured on 8 H100: NVLS and ring both at bus bandwidth
// ~370 GB/s for 2–4 GPUs, NVLS ahead from 5; NVIDIA/nccl issue 1455).
#include "collective/phase_cost.h"

#include <algorithm>

namespace parasight {

// The switch-assisted path alone. All-reduce is a reduce-scatter by load-reduce from the switch (up: the whole buffer;
// down: the member's reduced share) then an all-gather by multicast store (up: the share; down: every share): n+1
// shares each way over two steps (nccl-tests issue 238: "N+1 sends, N+1 receives"). Reductions and multicasts run at
// the switch's own efficiency; an all-to-all is only forwarded, at the link's.
PhaseCost switch_reduction_phase(CollectiveOp op, double data_bytes, const GroupDimension& group) {
    const int n = group.members;
    const double share = data_bytes / n;
    constexpr int hops = 2;  // NPU → switch → NPU
    GroupDimension reducing = group;
    reducing.link.efficiency = group.link.in_switch_efficiency.value_or(group.link.efficiency);
    switch (op) {
    case CollectiveOp::all_reduce:
        return make_phase_cost(CollectiveAlgorithm::in_switch, data_bytes + share, 2, hops, reducing);
    case CollectiveOp::reduce_scatter:  // up: the buffer; down: one reduced share
    case CollectiveOp::broadcast:       // the root sends once; the switch multicasts
        return make_phase_cost(CollectiveAlgorithm::in_switch, data_bytes, 1, hops, reducing);
    case CollectiveOp::all_gather:      // up: one share; down: every other share
        return make_phase_cost(CollectiveAlgorithm::in_switch, data_bytes - share, 1, hops, reducing);
    case CollectiveOp::all_to_all:      // forwarded: (n−1)/n each way
        return make_phase_cost(CollectiveAlgorithm::in_switch, data_bytes - share, 1, hops, group);
    }
    return {};
}

PhaseCost in_switch_phase(CollectiveOp op, double data_bytes, const GroupDimension& group) {
    const PhaseCost in_switch = switch_reduction_phase(op, data_bytes, group);
    const PhaseCost ring = ring_phase(op, data_bytes, group);
    return ring.time_s() < in_switch.time_s() ? ring : in_switch;
}

}  // namespace parasight
