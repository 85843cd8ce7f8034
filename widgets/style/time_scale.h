#pragma once
// Time against pixels in the timeline's drawing area: x = (t − start) / seconds_per_pixel. Zooming at a pixel keeps
// the time under it where it is (the point under the mouse does not move); the view never leaves the iteration and
// never zooms past a nanosecond over a hundred pixels or out past the whole iteration. Ticks for the time axis come
// at 1, 2 or 5 times a power of ten, labelled in the unit that suits their step (ns, µs, ms, s).

#include <QColor>
#include <QRect>
#include <QString>

#include <vector>

class QPainter;

namespace parasight::gui {

class TimeScale {
public:
    static constexpr double min_seconds_per_pixel = 1e-11;

    [[nodiscard]] double start_s() const noexcept { return start_s_; }
    [[nodiscard]] double seconds_per_pixel() const noexcept { return seconds_per_pixel_; }
    [[nodiscard]] double x_of(double time_s) const noexcept { return (time_s - start_s_) / seconds_per_pixel_; }
    [[nodiscard]] double time_at(double x) const noexcept { return start_s_ + x * seconds_per_pixel_; }
    [[nodiscard]] double end_s(double width_px) const noexcept { return time_at(width_px); }

    // Sets the extent it is kept within: the iteration [0, total_s] on `width_px` pixels.
    void setBounds(double total_s, double width_px);
    // Shows [from_s, to_s] across the width.
    void show(double from_s, double to_s);
    void fit() { show(0.0, total_s_); }
    // factor > 1 zooms in; the time at pixel x stays at x (unless the bounds forbid).
    void zoomAt(double x, double factor);
    // Moves the view by `dx` pixels (positive: later times come into view).
    void panBy(double dx);

private:
    void clamp();

    double start_s_ = 0.0;
    double seconds_per_pixel_ = 1.0;
    double total_s_ = 1.0;
    double width_px_ = 1.0;
};

struct TimeTick {
    double time_s = 0.0;
    QString label;
};

// Ticks over the visible width, at least `min_spacing_px` apart.
[[nodiscard]] std::vector<TimeTick> time_ticks(const TimeScale& scale, double width_px, double min_spacing_px);

// The time axis along `band` (x 0 of the scale at its left edge): a tick at each of time_ticks 90 px apart at its
// bottom, labelled right of the tick, or left of it where the band's right edge would cut the label; a label that
// would overlap the one before is left out.
void paint_time_ticks(QPainter& painter, const TimeScale& scale, const QRect& band, const QColor& tick_color,
                      const QColor& label_color);

}  // namespace parasight::gui
