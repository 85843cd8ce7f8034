#include "collective/collective_cost.h"

namespace parasight {

void set_bandwidths(CollectiveCost& cost) noexcept {
    if (cost.time_s <= 0.0) return;
    cost.algbw_Bps = cost.size_bytes / cost.time_s;
    cost.busbw_Bps = cost.algbw_Bps * bus_bandwidth_factor(cost.op, cost.ranks);
}

}  // namespace parasight
