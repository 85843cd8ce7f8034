#pragma once
// A diverging colour scale for how much something changed from run A to run B: blue where B took less time, grey
// where it took the same, red where it took more — ColorBrewer's RdBu ends (Brewer 2003), readable with
// colour-blindness, with a mid grey instead of its white so that "unchanged" shows on light and dark backgrounds.
// Symmetric in the ratio's logarithm: half as long is as blue as twice as long is red.

#include <QColor>

namespace parasight::gui {

// The colour of B's duration over A's: 1 grey, ½ or less full blue, 2 or more full red.
[[nodiscard]] QColor change_color(double ratio);

}  // namespace parasight::gui
