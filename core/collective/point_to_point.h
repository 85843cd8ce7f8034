#pragma once
// Point-to-point transfers (ASTRA-sim 2.0 §III-B analytical backend): time = latency + bytes / bandwidth, the latency
// summed over the dimensions the two NPUs differ in (hops × per-hop latency + one step's latency on each) and the
// slowest of those dimensions' achievable bandwidths (line rate × efficiency) as the bandwidth.

#include "topology/topology.h"

#include <cstdint>

namespace parasight {

struct PointToPointCost {
    int hops = 0;
    double latency_s = 0.0;
    double bandwidth_Bps = 0.0;  // the slowest achievable bandwidth crossed (0 when source = destination)
    double time_s = 0.0;
};

[[nodiscard]] PointToPointCost point_to_point(const Topology& topology, std::int64_t source, std::int64_t destination,
                                              double size_bytes);

}  // namespace parasight
