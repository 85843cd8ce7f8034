#pragma once
// A stored sweep's trade-off between what a point costs (peak memory, devices) and what it gives (iteration time,
// samples/s, tokens/s, MFU): every point that ran and fits, and among them the Pareto front — the points no other
// point beats on both, each the best result for its cost or less. Read in one query over the sweep's view; the front
// found by one sort, so 10^5 points cost a sort, not a comparison of every pair.

#include "store/sweep_grid.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace parasight {

struct ParetoPoint {
    std::int64_t point = -1;
    double cost = 0.0;    // the x metric: less is better
    double result = 0.0;  // the y metric
};

struct SweepPareto {
    std::vector<ParetoPoint> points;       // every point that ran and fits, in point order
    std::vector<std::size_t> front;        // indices into points, by increasing cost
};

// The costs a front is drawn against: peak_memory_bytes, devices.
[[nodiscard]] std::span<const GridMetric> pareto_costs() noexcept;

// The front of `points` (for `result`, whether higher is better): by increasing cost, each strictly better in result
// than every cheaper one; of points equal in both, the first.
[[nodiscard]] std::vector<std::size_t> pareto_front(const std::vector<ParetoPoint>& points, bool higher_is_better);

}  // namespace parasight
