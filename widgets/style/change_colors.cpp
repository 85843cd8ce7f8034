#include "style/change_colors.h"

#include "style/sequential_colors.h"

#include <array>
#include <cmath>

namespace parasight::gui {
namespace {

// log2 of the ratio from −1 (half) to 1 (double), at five evenly spaced points.
constexpr std::array<QRgb, 5> stops{0x2166AC, 0x67A9CF, 0xA8A8A8, 0xEF8A62, 0xB2182B};

}  // namespace

QColor change_color(double ratio) {
    const double t = ratio > 0.0 && std::isfinite(ratio) ? (std::log2(ratio) + 1.0) / 2.0 : 0.5;
    return color_between_stops(stops, t);
}

}  // namespace parasight::gui
