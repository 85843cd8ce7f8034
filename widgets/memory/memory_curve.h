#pragma once
// A device's allocated memory over the iteration as the points of a step line (time s, bytes), from the engine's
// samples (one per allocation or release). Past `max_points` the iteration is cut into equal intervals drawn at the
// highest level each reaches, so a peak is never lost however many samples there are.

#include "engine/engine.h"

#include <QList>
#include <QPointF>

#include <span>

namespace parasight::gui {

[[nodiscard]] QList<QPointF> memory_curve(std::span<const MemorySample> samples, double end_s, int max_points);

}  // namespace parasight::gui
