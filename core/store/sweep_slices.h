#pragma once
// A stored sweep seen from its best point: along each axis, the metric at every value of that axis with every other
// axis held at the best point's value (a slice), and in words what moving one step off the best costs in the metric
// ("parallelism.tp 8 → 4: 1.4% worse (19.46 s)") — which axes the result is sensitive to, and which it is not.
// Read in SQL, a query per axis, whatever the sweep's size.

#include "store/sweep_grid.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace parasight {

struct SlicePoint {
    StoredValue value;               // the axis's value
    std::int64_t point = -1;         // the sweep's point there (-1: none stored)
    PointStatus status = PointStatus::ok;
    std::optional<double> metric;    // when it ran and fits
};

struct SweepSlice {
    std::string axis;
    std::vector<SlicePoint> points;  // in the order the sweep runs the axis's values
    std::size_t best = 0;            // the best point's place among them
};

struct SweepSlices {
    std::int64_t best_point = -1;    // -1: no point fits (then no slices)
    double best_metric = 0.0;
    std::vector<SweepSlice> slices;  // one per axis that takes more than one value, in the sweep's order
};

// What moving one value off the best along a slice costs in `metric`, a line per neighbour: "parallelism.tp 8 → 4:
// 1.4% worse (19.46 s)", "parallelism.pp 4 → 2: OOM (est.)", "… the same (19.19 s)".
[[nodiscard]] std::vector<std::string> sensitivity_lines(const SweepSlice& slice, const GridMetric& metric);

}  // namespace parasight
