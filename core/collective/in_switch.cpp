// In-switch (in-network) collectives, as ASTRA-sim 2.0 §IV-B and NVIDIA SHARP: members send their buffer up once; the
// switch reduces and multicasts the result. One step of two hops (NPU → switch → NPU); a port is limited by the busier
// of its two directions.
#include "collective/phase_cost.h"

namespace parasight {

PhaseCost in_switch_phase(CollectiveOp op, double data_bytes, const GroupDimension& group) {
    const int n = group.members;
    const double others_share = data_bytes * (n - 1) / n;
    constexpr int hops = 2;
    switch (op) {
    case CollectiveOp::all_reduce:       // up: the buffer; down: the reduced buffer
    case CollectiveOp::reduce_scatter:   // up: the buffer; down: one reduced share
    case CollectiveOp::broadcast:        // the root sends once; the switch multicasts
        return make_phase_cost(CollectiveAlgorithm::in_switch, data_bytes, 1, hops, group);
    case CollectiveOp::all_gather:       // up: one share; down: every other share
    case CollectiveOp::all_to_all:       // the switch only forwards: (n−1)/n each way
        return make_phase_cost(CollectiveAlgorithm::in_switch, others_share, 1, hops, group);
    }
    return {};
}

}  // namespace parasight
