#pragma once
// A delay sweep (sweep/delay_sweep.h) drawn as NeuronaBox draws it (Liu et al. 2024, Fig. 4): the iteration time
// against the delay added to each delayed call, as measured points joined by a line; the line the iteration would
// follow if only the calls nothing hides added their delay (T(0) + initial slope × delay), dashed; and the knee —
// the hidden delay — marked by a dotted vertical line with its value, where the measured line leaves the dashed one.

class QChart;
class QPalette;

namespace parasight {
struct DelaySweep;
}

namespace parasight::gui {

void draw_delay_sweep(QChart& chart, const DelaySweep& sweep, const QPalette& palette);

}  // namespace parasight::gui
