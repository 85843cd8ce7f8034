#pragma once
// The whole iteration in a strip above the timeline: each stage's first simulated device's compute lane, drawn at
// the strip's width (through TimelineLevels, so as cheap at any size), and the range the timeline shows as a frame.
// Dragging the frame or clicking elsewhere moves the timeline there; the zoom stays.

#include "analysis/timeline_levels.h"

#include <QWidget>

#include <memory>

namespace parasight::gui {

class TimelineOverview : public QWidget {
    Q_OBJECT

public:
    static constexpr int height_px = 40;

    explicit TimelineOverview(QWidget* parent = nullptr);

    void showTimeline(std::shared_ptr<const TimelineLevels> levels);
    // The range the timeline shows, to frame.
    void showRange(double from_s, double to_s);
    // The left edge of the drawing (the timeline's header column is this wide, so the times line up).
    void setLeftMargin(int pixels);
    [[nodiscard]] int leftMargin() const noexcept { return left_margin_; }

    [[nodiscard]] double timeAt(double x) const;
    [[nodiscard]] double xOf(double time_s) const;

Q_SIGNALS:
    // Move the timeline to show [from_s, to_s].
    void rangeRequested(double from_s, double to_s);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    void centreOn(double x);

    std::shared_ptr<const TimelineLevels> levels_;
    std::vector<std::size_t> devices_;  // drawn, one a stage
    double from_s_ = 0.0;
    double to_s_ = 0.0;
    int left_margin_ = 0;
    bool dragging_ = false;
};

}  // namespace parasight::gui
