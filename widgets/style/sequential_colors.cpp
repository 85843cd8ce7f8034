#include "style/sequential_colors.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace parasight::gui {
namespace {

// viridis at nine evenly spaced points, 0 to 1.
constexpr std::array<QRgb, 9> stops{0x440154, 0x472D7B, 0x3B528B, 0x2C728E, 0x21908C,
                                    0x27AD81, 0x5DC863, 0xAADC32, 0xFDE725};

}  // namespace

QColor viridis(double t) { return color_between_stops(stops, t); }

QColor color_between_stops(std::span<const QRgb> stops, double t) {
    if (!std::isfinite(t)) t = 0.0;
    t = std::clamp(t, 0.0, 1.0);
    const double position = t * static_cast<double>(stops.size() - 1);
    const auto low = static_cast<std::size_t>(std::floor(position));
    const std::size_t high = std::min(low + 1, stops.size() - 1);
    const double f = position - static_cast<double>(low);
    const QColor a(stops[low]);
    const QColor b(stops[high]);
    const auto mix = [f](int x, int y) { return static_cast<int>(std::lround(x + (y - x) * f)); };
    return QColor(mix(a.red(), b.red()), mix(a.green(), b.green()), mix(a.blue(), b.blue()));
}

QColor text_color_on_scale(const QColor& background) {
    const auto linear = [](double channel) {
        return channel <= 0.04045 ? channel / 12.92 : std::pow((channel + 0.055) / 1.055, 2.4);
    };
    const double luminance = 0.2126 * linear(background.redF()) + 0.7152 * linear(background.greenF()) +
                             0.0722 * linear(background.blueF());
    // Contrast ratios (L1 + 0.05) / (L2 + 0.05) against black (L = 0) and white (L = 1).
    const double with_black = (luminance + 0.05) / 0.05;
    const double with_white = 1.05 / (luminance + 0.05);
    return with_black >= with_white ? QColor(Qt::black) : QColor(Qt::white);
}

}  // namespace parasight::gui
