#pragma once
// A memory category (common/memory_category.h) as every view names it: "Weights", "Gradients", "Optimizer state",
// "Activations", "Buffers" — the Memory tab's columns and the compared runs' memory bars say the same.

#include "common/memory_category.h"

#include <QString>

namespace parasight::gui {

[[nodiscard]] QString memory_category_text(MemoryCategory category);

}  // namespace parasight::gui
