#include "collective/collective_op.h"

namespace parasight {

const std::array<EnumName<CollectiveOp>, 5> collective_op_names{{
    {CollectiveOp::all_reduce, "all-reduce"},
    {CollectiveOp::reduce_scatter, "reduce-scatter"},
    {CollectiveOp::all_gather, "all-gather"},
    {CollectiveOp::all_to_all, "all-to-all"},
    {CollectiveOp::broadcast, "broadcast"},
}};

std::string_view to_string(CollectiveOp op) noexcept { return name_of(op, collective_op_names); }

double bus_bandwidth_factor(CollectiveOp op, long long ranks) noexcept {
    if (ranks <= 1) return 0.0;
    const double n = static_cast<double>(ranks);
    switch (op) {
    case CollectiveOp::all_reduce: return 2.0 * (n - 1.0) / n;
    case CollectiveOp::reduce_scatter:
    case CollectiveOp::all_gather:
    case CollectiveOp::all_to_all: return (n - 1.0) / n;
    case CollectiveOp::broadcast: return 1.0;
    }
    return 0.0;
}

}  // namespace parasight
