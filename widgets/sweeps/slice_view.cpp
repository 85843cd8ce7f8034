#include "sweeps/slice_view.h"

#include "export/run_column_text.h"
#include "store/stored_table.h"
#include "style/sequential_colors.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace parasight::gui {
namespace {

constexpr int margin_px = 8;
constexpr int gap_px = 16;
constexpr int dot_px = 4;

QString status_mark(PointStatus status) {
    const std::string_view label = point_status_label(status);
    return QString::fromUtf8(label.data(), static_cast<qsizetype>(label.size()));
}

// The lowest and highest metric among a slice's points that fit; none when none does.
std::optional<std::pair<double, double>> metric_range(const SweepSlice& slice) {
    std::optional<std::pair<double, double>> range;
    for (const SlicePoint& point : slice.points) {
        if (!point.metric) continue;
        range = range ? std::pair(std::min(range->first, *point.metric), std::max(range->second, *point.metric))
                      : std::pair(*point.metric, *point.metric);
    }
    return range;
}

}  // namespace

SliceView::SliceView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("SliceView"));
    setMinimumSize(240, 160);
}

void SliceView::showSlices(SweepSlices slices, const GridMetric& metric) {
    slices_ = std::move(slices);
    metric_ = metric;
    message_.clear();
    if (slices_->best_point < 0) {
        slices_.reset();
        message_ = tr("No point passes the filter and fits: no best point to slice through");
    } else if (slices_->slices.empty()) {
        slices_.reset();
        message_ = tr("No axis of this sweep takes more than one value");
    }
    update();
}

void SliceView::showMessage(const QString& message) {
    slices_.reset();
    message_ = message;
    update();
}

int SliceView::columns() const {
    if (!slices_) return 1;
    const int count = static_cast<int>(slices_->slices.size());
    return std::clamp(width() / 300, 1, std::max(1, count));
}

QRect SliceView::panelRect(std::size_t k) const {
    if (!slices_ || slices_->slices.empty()) return {};
    const int count = static_cast<int>(slices_->slices.size());
    const int cols = columns();
    const int rows = (count + cols - 1) / cols;
    const int width_px = (width() - 2 * margin_px - (cols - 1) * gap_px) / cols;
    const int height_px = (height() - 2 * margin_px - (rows - 1) * gap_px) / std::max(1, rows);
    const int column = static_cast<int>(k) % cols;
    const int row = static_cast<int>(k) / cols;
    return QRect(margin_px + column * (width_px + gap_px), margin_px + row * (height_px + gap_px), width_px, height_px);
}

QRect SliceView::plotRect(std::size_t k) const {
    const QRect panel = panelRect(k);
    const QFontMetrics metrics(font());
    const int line = metrics.height();
    // The axis's name above; its values and two lines of what a step costs below; the values' range on the left.
    const int left = metrics.horizontalAdvance(QStringLiteral("00.00 ms")) + 6;
    return panel.adjusted(left, line + line / 2 + 6, -8, -(3 * line + 8));
}

QPoint SliceView::pointAt(std::size_t k, std::size_t v) const {
    if (!slices_ || k >= slices_->slices.size()) return {};
    const SweepSlice& slice = slices_->slices[k];
    const QRect plot = plotRect(k);
    const double count = static_cast<double>(slice.points.size());
    const int x = plot.left() + static_cast<int>(std::lround(plot.width() * (static_cast<double>(v) + 0.5) / count));
    const auto [low, high] = metric_range(slice).value_or(std::pair(0.0, 0.0));
    const SlicePoint& point = slice.points[v];
    if (!point.metric) return {x, plot.bottom()};
    const double t = high > low ? (*point.metric - low) / (high - low) : 0.5;
    // The better end up.
    const double up = metric_.higher_is_better ? t : 1.0 - t;
    return {x, plot.bottom() - static_cast<int>(std::lround(up * plot.height()))};
}

QStringList SliceView::captions(std::size_t k) const {
    QStringList lines;
    if (!slices_ || k >= slices_->slices.size()) return lines;
    // Under the panel that names the axis, the lines without its name.
    const std::string& axis = slices_->slices[k].axis;
    for (const std::string& line : sensitivity_lines(slices_->slices[k], metric_)) {
        lines << QString::fromStdString(line.rfind(axis + " ", 0) == 0 ? line.substr(axis.size() + 1) : line);
    }
    return lines;
}

void SliceView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    if (!slices_) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect().adjusted(20, 20, -20, -20), Qt::AlignCenter | Qt::TextWordWrap, message_);
        return;
    }
    painter.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics metrics(font());
    const QColor text = palette().color(QPalette::Text);
    QColor faint = text;
    faint.setAlphaF(0.35F);
    const QColor line_colour = viridis(0.35);
    for (std::size_t k = 0; k < slices_->slices.size(); ++k) {
        const SweepSlice& slice = slices_->slices[k];
        const QRect panel = panelRect(k);
        const QRect plot = plotRect(k);
        painter.setPen(text);
        painter.drawText(QRect(panel.left(), panel.top(), panel.width(), metrics.height()), Qt::AlignLeft,
                         metrics.elidedText(QString::fromStdString(slice.axis), Qt::ElideMiddle, panel.width()));
        painter.setPen(faint);
        painter.drawRect(plot);
        // The values' range, best at the top.
        const auto [low, high] = metric_range(slice).value_or(std::pair(0.0, 0.0));
        painter.setPen(text);
        const QString top = QString::fromStdString(run_column_text(metric_.name, metric_.higher_is_better ? high : low));
        const QString bottom = QString::fromStdString(run_column_text(metric_.name, metric_.higher_is_better ? low : high));
        painter.drawText(QRect(panel.left(), plot.top() - metrics.height() / 2, plot.left() - panel.left() - 4,
                               metrics.height()),
                         Qt::AlignRight | Qt::AlignVCenter, top);
        if (high > low) {
            painter.drawText(QRect(panel.left(), plot.bottom() - metrics.height() / 2, plot.left() - panel.left() - 4,
                                   metrics.height()),
                             Qt::AlignRight | Qt::AlignVCenter, bottom);
        }
        // The line through the points that fit, in the sweep's order.
        QPainterPath path;
        bool started = false;
        for (std::size_t v = 0; v < slice.points.size(); ++v) {
            if (!slice.points[v].metric) {
                started = false;
                continue;
            }
            const QPoint at = pointAt(k, v);
            if (started) {
                path.lineTo(at);
            } else {
                path.moveTo(at);
                started = true;
            }
        }
        painter.setPen(QPen(line_colour, 2.0));
        painter.setBrush(Qt::NoBrush);
        painter.drawPath(path);
        for (std::size_t v = 0; v < slice.points.size(); ++v) {
            const SlicePoint& point = slice.points[v];
            const QPoint at = pointAt(k, v);
            const int cell = plot.width() / std::max<int>(1, static_cast<int>(slice.points.size()));
            painter.setPen(text);
            painter.drawText(QRect(at.x() - cell / 2, plot.bottom() + 2, cell, metrics.height()), Qt::AlignHCenter,
                             metrics.elidedText(QString::fromStdString(stored_text(point.value)), Qt::ElideRight, cell));
            if (point.metric) {
                painter.setPen(QPen(line_colour, 1.5));
                painter.setBrush(line_colour);
                painter.drawEllipse(at, dot_px, dot_px);
            } else if (point.point >= 0) {
                // Not fitting or not valid: a cross at the bottom, with its status.
                painter.setPen(QPen(faint, 1.5));
                painter.drawLine(at + QPoint(-dot_px, -dot_px), at + QPoint(dot_px, dot_px));
                painter.drawLine(at + QPoint(-dot_px, dot_px), at + QPoint(dot_px, -dot_px));
                painter.setPen(text);
                painter.drawText(QRect(at.x() - cell / 2, at.y() - metrics.height() - dot_px, cell, metrics.height()),
                                 Qt::AlignHCenter, metrics.elidedText(status_mark(point.status), Qt::ElideRight, cell));
            }
        }
        // The best point ringed.
        if (slice.best < slice.points.size()) {
            painter.setPen(QPen(text, 2.0));
            painter.setBrush(Qt::NoBrush);
            painter.drawEllipse(pointAt(k, slice.best), dot_px + 4, dot_px + 4);
        }
        // What one step off the best costs.
        painter.setPen(text);
        const QStringList lines = captions(k);
        for (int l = 0; l < lines.size(); ++l) {
            painter.drawText(QRect(panel.left(), plot.bottom() + metrics.height() + 6 + l * metrics.height(),
                                   panel.width(), metrics.height()),
                             Qt::AlignLeft, metrics.elidedText(lines[l], Qt::ElideRight, panel.width()));
        }
    }
}

}  // namespace parasight::gui
