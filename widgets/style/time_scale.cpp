#include "style/time_scale.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace parasight::gui {

void TimeScale::setBounds(double total_s, double width_px) {
    const double old_width = width_px_;
    total_s_ = total_s > 0.0 ? total_s : 1.0;
    width_px_ = std::max(width_px, 1.0);
    if (old_width != width_px_ && old_width > 1.0) seconds_per_pixel_ *= old_width / width_px_;  // same range shown
    clamp();
}

void TimeScale::show(double from_s, double to_s) {
    if (!(to_s > from_s)) return;
    start_s_ = from_s;
    seconds_per_pixel_ = (to_s - from_s) / width_px_;
    clamp();
}

void TimeScale::zoomAt(double x, double factor) {
    if (!(factor > 0.0)) return;
    const double anchor_s = time_at(x);
    seconds_per_pixel_ /= factor;
    start_s_ = anchor_s - x * seconds_per_pixel_;
    clamp();
}

void TimeScale::panBy(double dx) {
    start_s_ += dx * seconds_per_pixel_;
    clamp();
}

void TimeScale::clamp() {
    // Never wider than the iteration, never finer than the limit; then kept inside [0, total].
    seconds_per_pixel_ = std::clamp(seconds_per_pixel_, min_seconds_per_pixel, total_s_ / width_px_);
    const double shown_s = seconds_per_pixel_ * width_px_;
    start_s_ = std::clamp(start_s_, 0.0, std::max(0.0, total_s_ - shown_s));
}

namespace {

struct TimeUnit {
    double seconds;
    const char* symbol;
};

constexpr TimeUnit time_units[] = {{1e-9, "ns"}, {1e-6, "µs"}, {1e-3, "ms"}, {1.0, "s"}};

}  // namespace

std::vector<TimeTick> time_ticks(const TimeScale& scale, double width_px, double min_spacing_px) {
    std::vector<TimeTick> ticks;
    const double min_step_s = min_spacing_px * scale.seconds_per_pixel();
    if (!(min_step_s > 0.0) || !std::isfinite(min_step_s)) return ticks;
    // The smallest of 1, 2, 5 × 10^k at least min_step_s.
    const double power = std::pow(10.0, std::floor(std::log10(min_step_s)));
    double step_s = power;
    for (const double multiple : {1.0, 2.0, 5.0, 10.0}) {
        step_s = multiple * power;
        if (step_s >= min_step_s * (1.0 - 1e-9)) break;
    }
    // The largest unit the step is at least one of; decimals enough to tell two ticks apart.
    const TimeUnit* unit = &time_units[0];
    for (const TimeUnit& candidate : time_units) {
        if (step_s >= candidate.seconds * (1.0 - 1e-9)) unit = &candidate;
    }
    const double step_in_unit = step_s / unit->seconds;
    const int decimals = std::max(0, static_cast<int>(std::ceil(-std::log10(step_in_unit) - 1e-9)));
    const double first = std::ceil(scale.start_s() / step_s);
    const double last = std::floor(scale.end_s(width_px) / step_s);
    for (double k = first; k <= last && ticks.size() < 10000; k += 1.0) {
        const double time_s = k * step_s;
        QString number = QString::number(time_s / unit->seconds, 'f', decimals);
        if (number == QStringLiteral("-0")) number = QStringLiteral("0");
        ticks.push_back(TimeTick{time_s, number + QLatin1Char(' ') + QString::fromUtf8(unit->symbol)});
    }
    return ticks;
}

void paint_time_ticks(QPainter& painter, const TimeScale& scale, const QRect& band, const QColor& tick_color,
                      const QColor& label_color) {
    int labelled_to = band.left();
    for (const TimeTick& tick : time_ticks(scale, band.width(), 90.0)) {
        const int x = band.left() + static_cast<int>(std::lround(scale.x_of(tick.time_s)));
        painter.setPen(tick_color);
        painter.drawLine(x, band.bottom() - 5, x, band.bottom());
        const int label_width = painter.fontMetrics().horizontalAdvance(tick.label) + 2;
        const int left = x + 3 + label_width <= band.right() + 1 ? x + 3 : x - 3 - label_width;
        if (left < labelled_to) continue;
        painter.setPen(label_color);
        painter.drawText(QRect(left, band.top(), label_width, band.height() - 2), Qt::AlignVCenter | Qt::AlignLeft,
                         tick.label);
        labelled_to = left + label_width + 6;
    }
}

}  // namespace parasight::gui
