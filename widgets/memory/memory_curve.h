#pragma once
// A device's allocated memory over the iteration as the points of a step line (time s, bytes), from the engine's
// samples (one per allocation or release). Past `max_points` the iteration is cut into equal intervals drawn at the
// highest level each reaches, so a peak is never lost however many samples there are.

#include "engine/engine.h"

#include <QList>
#include <QPointF>

#include <span>
#include <vector>

namespace parasight::gui {

[[nodiscard]] QList<QPointF> memory_curve(std::span<const MemorySample> samples, double end_s, int max_points);

// The highest level held in each of `columns` equal intervals of [from_s, to_s] — the level at the interval's start
// or any reached inside it; 0 before the first sample — so that a view drawing one value per pixel column never
// loses a peak. Costs the samples in the range, found by binary search.
[[nodiscard]] std::vector<double> memory_levels(std::span<const MemorySample> samples, double from_s, double to_s,
                                                int columns);

}  // namespace parasight::gui
