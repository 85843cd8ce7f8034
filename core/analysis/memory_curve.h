#pragma once
// A device's allocated memory over the iteration, from the engine's samples (one per allocation or release), for
// drawing: as the points of a step line, and as the highest level in each of equal intervals — both reduced to a
// bounded number of values without ever losing a peak, however many samples there are.

#include "engine/engine.h"

#include <span>
#include <vector>

namespace parasight {

struct CurvePoint {
    double time_s = 0.0;
    double bytes = 0.0;
    friend bool operator==(const CurvePoint&, const CurvePoint&) = default;
};

// The step line to `end_s`: two points per sample while that is at most `max_points`; past it the iteration is cut
// into max_points / 2 equal intervals, each drawn at the highest level it reaches.
[[nodiscard]] std::vector<CurvePoint> memory_curve(std::span<const MemorySample> samples, double end_s,
                                                   int max_points);

// The highest level held in each of `columns` equal intervals of [from_s, to_s] — the level at the interval's start
// or any reached inside it; 0 before the first sample — so that a view drawing one value per pixel column never
// loses a peak. Costs the samples in the range, found by binary search.
[[nodiscard]] std::vector<double> memory_levels(std::span<const MemorySample> samples, double from_s, double to_s,
                                                int columns);

}  // namespace parasight
