#pragma once
// A topology dimension with the fields the collective and topology suites vary; everything else (efficiency, step
// latency, in-switch efficiency) at its default.

#include "topology/dimension.h"

#include <optional>

namespace parasight::testing {

inline Dimension make_dimension(DimensionKind kind, int size, double bandwidth_Bps, double latency_s,
                                std::optional<CollectiveAlgorithm> algorithm = std::nullopt) {
    Dimension dimension;
    dimension.kind = kind;
    dimension.size = size;
    dimension.bandwidth_Bps = bandwidth_Bps;
    dimension.latency_s = latency_s;
    dimension.algorithm = algorithm;
    return dimension;
}

}  // namespace parasight::testing
