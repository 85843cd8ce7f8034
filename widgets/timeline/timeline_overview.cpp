#include "timeline/timeline_overview.h"

#include "style/activity_colors.h"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <map>

namespace parasight::gui {

TimelineOverview::TimelineOverview(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("TimelineOverview"));
    setFixedHeight(height_px);
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("The whole iteration, one line per pipeline stage; the frame is what the timeline shows — drag it, "
                  "or click to move there"));
}

void TimelineOverview::showTimeline(std::shared_ptr<const TimelineLevels> levels) {
    levels_ = std::move(levels);
    devices_.clear();
    if (levels_) {
        std::map<int, std::size_t> first_of_stage;
        const auto& devices = levels_->timeline().devices();
        for (std::size_t d = 0; d < devices.size(); ++d) first_of_stage.try_emplace(devices[d].stage, d);
        for (const auto& [stage, device] : first_of_stage) devices_.push_back(device);
        from_s_ = 0.0;
        to_s_ = levels_->timeline().iteration_time_s();
    }
    update();
}

void TimelineOverview::showRange(double from_s, double to_s) {
    from_s_ = from_s;
    to_s_ = to_s;
    update();
}

void TimelineOverview::setLeftMargin(int pixels) {
    left_margin_ = pixels;
    update();
}

double TimelineOverview::timeAt(double x) const {
    if (!levels_) return 0.0;
    const double drawn_px = std::max(1, width() - left_margin_ - 2);
    return (x - left_margin_) / drawn_px * levels_->timeline().iteration_time_s();
}

double TimelineOverview::xOf(double time_s) const {
    if (!levels_) return left_margin_;
    const double drawn_px = std::max(1, width() - left_margin_ - 2);
    return left_margin_ + time_s / levels_->timeline().iteration_time_s() * drawn_px;
}

void TimelineOverview::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().window());
    if (!levels_ || devices_.empty()) return;
    const double total_s = levels_->timeline().iteration_time_s();
    const int width = std::max(1, this->width() - left_margin_ - 2);
    const double rows_height = height() - 4.0;
    const double line_px = std::max(1.0, rows_height / static_cast<double>(devices_.size()));
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(QRect(8, 0, left_margin_ - 12, height()), Qt::AlignVCenter,
                     devices_.size() == 1 ? tr("1 stage") : tr("%1 stages").arg(devices_.size()));
    std::vector<LaneBox> boxes;
    for (std::size_t row = 0; row < devices_.size(); ++row) {
        const double y = 2.0 + static_cast<double>(row) * rows_height / static_cast<double>(devices_.size());
        boxes.clear();
        levels_->boxes(devices_[row], Stream::compute, 0.0, total_s, total_s / width, boxes);
        for (const LaneBox& box : boxes) {
            const double x0 = xOf(box.start_s);
            const double x1 = std::max(xOf(box.end_s), x0 + 1.0);
            painter.fillRect(QRectF(x0, y, x1 - x0, line_px), task_kind_color(levels_->timeline().event(box.representative).kind));
        }
    }
    // The frame: what the timeline shows.
    const double x0 = xOf(from_s_);
    const double x1 = std::max(xOf(to_s_), x0 + 3.0);
    QColor shade = palette().color(QPalette::Highlight);
    shade.setAlphaF(0.2);
    painter.fillRect(QRectF(x0, 0.5, x1 - x0, height() - 1.0), shade);
    painter.setPen(QPen(palette().color(QPalette::Highlight), 2.0));
    painter.drawRect(QRectF(x0, 1.0, x1 - x0, height() - 2.0));
}

void TimelineOverview::centreOn(double x) {
    if (!levels_) return;
    const double shown_s = to_s_ - from_s_;
    const double middle_s = timeAt(x);
    Q_EMIT rangeRequested(middle_s - shown_s / 2.0, middle_s + shown_s / 2.0);
}

void TimelineOverview::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return;
    dragging_ = true;
    centreOn(event->position().x());
}

void TimelineOverview::mouseMoveEvent(QMouseEvent* event) {
    if (dragging_) centreOn(event->position().x());
}

void TimelineOverview::mouseReleaseEvent(QMouseEvent*) { dragging_ = false; }

}  // namespace parasight::gui
