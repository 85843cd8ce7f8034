#pragma once
// Numbers as every view writes them: the core's readable quantities ("17.16 GiB", "629.2 µs") and fixed-point
// figures, the same under any locale. The GUI writes microseconds as µs where the command line keeps to ASCII "us".

#include "units/quantity.h"

#include <QString>

namespace parasight::gui {

[[nodiscard]] QString quantity_text(double value, units::Dimension dimension, bool binary = false);
// Sizes in binary units, as memory capacities are given.
[[nodiscard]] QString bytes_text(double bytes);
[[nodiscard]] QString time_text(double seconds);
[[nodiscard]] QString fixed_text(double value, int decimals);
// "12.5%"
[[nodiscard]] QString percent_text(double percent);

}  // namespace parasight::gui
