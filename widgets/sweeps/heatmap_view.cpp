#include "sweeps/heatmap_view.h"

#include "export/run_column_text.h"
#include "store/stored_table.h"
#include "style/sequential_colors.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace parasight::gui {
namespace {

constexpr int margin_px = 8;
constexpr int legend_width_px = 16;
constexpr int legend_labels_px = 90;  // the legend's values, right of its bar

QString status_text(PointStatus status) {
    switch (status) {
        case PointStatus::ok: return {};
        case PointStatus::oom: return HeatmapView::tr("OOM");
        case PointStatus::oom_estimated: return HeatmapView::tr("OOM (est.)");
        case PointStatus::invalid: return HeatmapView::tr("invalid");
        case PointStatus::failed: return HeatmapView::tr("failed");
    }
    return {};
}

QString value_text(const StoredValue& value) { return QString::fromStdString(stored_text(value)); }

}  // namespace

HeatmapView::HeatmapView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("Heatmap"));
    setMouseTracking(true);
    setMinimumSize(160, 100);  // the window fits a small screen; the cells then say less
}

void HeatmapView::showGrid(SweepGrid grid, const GridMetric& metric, const QString& x_name, const QString& y_name,
                           const QString& title) {
    grid_ = std::move(grid);
    metric_ = metric;
    x_name_ = x_name;
    y_name_ = y_name;
    title_ = title;
    message_.clear();
    bool any = false;
    for (const GridCell& cell : grid_->cells) {
        if (!cell.value) continue;
        low_ = any ? std::min(low_, *cell.value) : *cell.value;
        high_ = any ? std::max(high_, *cell.value) : *cell.value;
        any = true;
    }
    update();
}

void HeatmapView::showMessage(const QString& message) {
    grid_.reset();
    message_ = message;
    update();
}

QColor HeatmapView::colorOf(double value) const {
    if (!(high_ > low_)) return viridis(1.0);
    const double t = (value - low_) / (high_ - low_);
    return viridis(metric_.higher_is_better ? t : 1.0 - t);
}

QString HeatmapView::cellText(const GridCell& cell) const {
    if (cell.value) return QString::fromStdString(run_column_text(metric_.name, *cell.value));
    return cell.points > 0 ? status_text(cell.status) : QString();
}

QString HeatmapView::cellToolTip(std::size_t x, std::size_t y) const {
    if (!grid_) return {};
    const GridCell& cell = grid_->at(x, y);
    QString text = QStringLiteral("%1 = %2, %3 = %4")
                       .arg(x_name_, value_text(grid_->x_values[x]), y_name_, value_text(grid_->y_values[y]));
    if (cell.points == 0) return text + tr("\nno point of the sweep here");
    if (cell.value) {
        text += tr("\n%1: %2 (point %3; %4 of %5 points here fit)")
                    .arg(QString::fromUtf8(metric_.name.data(), static_cast<qsizetype>(metric_.name.size())),
                         cellText(cell))
                    .arg(cell.point)
                    .arg(cell.fitting)
                    .arg(cell.points);
        return text;
    }
    text += tr("\n%1 (point %2)").arg(status_text(cell.status)).arg(cell.point);
    if (!cell.reason.empty()) text += QStringLiteral("\n") + QString::fromStdString(cell.reason);
    return text;
}

QRect HeatmapView::plotRect() const {
    const QFontMetrics metrics(font());
    int label_width = metrics.horizontalAdvance(y_name_);
    if (grid_) {
        for (const StoredValue& value : grid_->y_values) {
            label_width = std::max(label_width, metrics.horizontalAdvance(value_text(value)));
        }
    }
    const int left = margin_px + label_width + 8;
    // Under the title's line and the line that names the axis down.
    const int top = margin_px + 2 * (metrics.height() + 4);
    const int right = width() - margin_px - legend_width_px - legend_labels_px;
    const int bottom = height() - margin_px - 2 * metrics.height() - 6;
    return QRect(QPoint(left, top), QPoint(std::max(left + 1, right), std::max(top + 1, bottom)));
}

QRect HeatmapView::cellRect(std::size_t x, std::size_t y) const {
    if (!grid_ || grid_->x_values.empty() || grid_->y_values.empty()) return {};
    const QRect plot = plotRect();
    const auto columns = static_cast<double>(grid_->x_values.size());
    const auto rows = static_cast<double>(grid_->y_values.size());
    const auto edge = [](double from, double size, double parts, std::size_t k) {
        return static_cast<int>(std::lround(from + size * static_cast<double>(k) / parts));
    };
    const int x0 = edge(plot.left(), plot.width(), columns, x);
    const int x1 = edge(plot.left(), plot.width(), columns, x + 1);
    // The first value at the top.
    const int y0 = edge(plot.top(), plot.height(), rows, y);
    const int y1 = edge(plot.top(), plot.height(), rows, y + 1);
    return QRect(QPoint(x0, y0), QPoint(x1 - 1, y1 - 1));
}

std::optional<std::pair<std::size_t, std::size_t>> HeatmapView::cellAt(const QPoint& point) const {
    if (!grid_) return std::nullopt;
    for (std::size_t y = 0; y < grid_->y_values.size(); ++y) {
        for (std::size_t x = 0; x < grid_->x_values.size(); ++x) {
            if (cellRect(x, y).contains(point)) return std::pair(x, y);
        }
    }
    return std::nullopt;
}

void HeatmapView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    if (!grid_) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect().adjusted(20, 20, -20, -20), Qt::AlignCenter | Qt::TextWordWrap, message_);
        return;
    }
    const QFontMetrics metrics(font());
    painter.setPen(palette().color(QPalette::Text));
    const int text_width = width() - 2 * margin_px;
    painter.drawText(QRect(margin_px, margin_px, text_width, metrics.height()), Qt::AlignLeft | Qt::AlignTop,
                     metrics.elidedText(title_, Qt::ElideRight, text_width));
    // The hatching of cells without a fitting point, in the text colour faded: it reads on light and dark alike.
    QColor hatch = palette().color(QPalette::Text);
    hatch.setAlphaF(0.35F);
    for (std::size_t y = 0; y < grid_->y_values.size(); ++y) {
        for (std::size_t x = 0; x < grid_->x_values.size(); ++x) {
            const GridCell& cell = grid_->at(x, y);
            const QRect box = cellRect(x, y);
            const QColor fill = cell.value ? colorOf(*cell.value) : palette().color(QPalette::Window);
            painter.fillRect(box, fill);
            if (!cell.value && cell.points > 0) painter.fillRect(box, QBrush(hatch, Qt::BDiagPattern));
            const QString text = cellText(cell);
            const bool fits = metrics.horizontalAdvance(text) + 6 <= box.width() && metrics.height() <= box.height();
            if (!text.isEmpty() && fits) {
                painter.setPen(cell.value ? text_color_on_scale(fill) : palette().color(QPalette::Text));
                painter.drawText(box, Qt::AlignCenter, text);
            }
        }
    }
    // The best cell outlined in the text colour, over its neighbours.
    if (grid_->best) {
        const std::size_t columns = grid_->x_values.size();
        painter.setPen(QPen(palette().color(QPalette::Text), 3.0));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(cellRect(*grid_->best % columns, *grid_->best / columns).adjusted(1, 1, -1, -1));
    }
    // The axes' values and names.
    const QRect plot = plotRect();
    painter.setPen(palette().color(QPalette::Text));
    for (std::size_t x = 0; x < grid_->x_values.size(); ++x) {
        const QRect box = cellRect(x, 0);
        painter.drawText(QRect(box.left(), plot.bottom() + 4, box.width(), metrics.height()), Qt::AlignHCenter,
                         metrics.elidedText(value_text(grid_->x_values[x]), Qt::ElideRight, box.width()));
    }
    painter.drawText(QRect(plot.left(), plot.bottom() + 4 + metrics.height(), plot.width(), metrics.height()),
                     Qt::AlignHCenter, x_name_);
    for (std::size_t y = 0; y < grid_->y_values.size(); ++y) {
        const QRect box = cellRect(0, y);
        painter.drawText(QRect(margin_px, box.top(), plot.left() - margin_px - 6, box.height()),
                         Qt::AlignRight | Qt::AlignVCenter, value_text(grid_->y_values[y]));
    }
    painter.drawText(QRect(margin_px, plot.top() - metrics.height() - 4, plot.right() - margin_px, metrics.height()),
                     Qt::AlignLeft, metrics.elidedText(y_name_ + tr(" ↓"), Qt::ElideRight, plot.right() - margin_px));
    // The legend: the scale from worst (bottom) to best (top), labelled with both ends.
    const QRect bar(plot.right() + 12, plot.top(), legend_width_px, plot.height());
    for (int row = 0; row < bar.height(); ++row) {
        const double t = 1.0 - static_cast<double>(row) / std::max(1, bar.height() - 1);
        painter.fillRect(QRect(bar.left(), bar.top() + row, bar.width(), 1), viridis(t));
    }
    const auto end_text = [&](bool best) {
        const double value = metric_.higher_is_better == best ? high_ : low_;
        return QString::fromStdString(run_column_text(metric_.name, value)) + (best ? tr(" best") : QString());
    };
    const QRect labels(bar.right() + 4, bar.top(), width() - bar.right() - 4 - margin_px, bar.height());
    painter.drawText(labels, Qt::AlignTop | Qt::AlignLeft,
                     metrics.elidedText(end_text(true), Qt::ElideRight, labels.width()));
    painter.drawText(labels, Qt::AlignBottom | Qt::AlignLeft,
                     metrics.elidedText(end_text(false), Qt::ElideRight, labels.width()));
}

void HeatmapView::mouseDoubleClickEvent(QMouseEvent* event) {
    if (const auto cell = cellAt(event->position().toPoint())) {
        const GridCell& shown = grid_->at(cell->first, cell->second);
        if (shown.point >= 0) Q_EMIT pointActivated(shown.point);
    }
}

bool HeatmapView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        if (const auto cell = cellAt(help->pos())) {
            QToolTip::showText(help->globalPos(), cellToolTip(cell->first, cell->second), this);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(event);
}

}  // namespace parasight::gui
