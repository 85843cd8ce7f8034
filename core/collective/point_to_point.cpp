#include "collective/point_to_point.h"

#include "collective/phase_cost.h"

#include <algorithm>
#include <cstdlib>
#include <limits>

namespace parasight {

PointToPointCost point_to_point(const Topology& topology, std::int64_t source, std::int64_t destination,
                                double size_bytes) {
    PointToPointCost cost;
    double slowest_Bps = std::numeric_limits<double>::infinity();
    for (std::size_t d = 0; d < topology.dimension_count(); ++d) {
        const int distance = std::abs(topology.coordinate(source, d) - topology.coordinate(destination, d));
        if (distance == 0) continue;
        const Dimension& dimension = topology.dimensions()[d];
        const int hops = hops_between(dimension.kind, dimension.size, distance);
        cost.hops += hops;
        cost.latency_s += step_latency_s(dimension, hops);  // one step per dimension crossed
        slowest_Bps = std::min(slowest_Bps, achievable_bandwidth_Bps(dimension));
    }
    if (cost.hops == 0) return cost;
    cost.bandwidth_Bps = slowest_Bps;
    cost.time_s = cost.latency_s + size_bytes / slowest_Bps;
    return cost;
}

}  // namespace parasight
