#pragma once
// A sequential colour scale for values on a heatmap: viridis (van der Walt and Smith, matplotlib 2.0), perceptually
// uniform and readable with colour-blindness, from dark purple through blue and green to yellow, interpolated in
// RGB between its nine published stops.

#include <QColor>

#include <span>

namespace parasight::gui {

// The colour at `t` in [0, 1] (clamped; not a number: 0) on a scale given by evenly spaced stops, interpolated in RGB.
[[nodiscard]] QColor color_between_stops(std::span<const QRgb> stops, double t);

// `t` in [0, 1] (clamped): 0 dark purple, 1 yellow.
[[nodiscard]] QColor viridis(double t);
// Text that reads on a colour of the scale: black where black has the higher contrast (WCAG 2.1: the colour's
// relative luminance above about 0.18 — from teal to yellow), white on its dark end.
[[nodiscard]] QColor text_color_on_scale(const QColor& background);

}  // namespace parasight::gui
