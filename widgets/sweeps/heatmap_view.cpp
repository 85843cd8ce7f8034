#include "sweeps/heatmap_view.h"

#include "export/run_column_text.h"
#include "store/stored_table.h"
#include "style/breakdown_parts.h"
#include "style/sequential_colors.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace parasight::gui {
namespace {

constexpr int margin_px = 8;
constexpr int legend_width_px = 16;
constexpr int legend_labels_px = 90;  // the legend's values, right of its bar, at the least
constexpr int glyph_height_px = 6;
constexpr int glyph_inset_px = 4;     // from the cell's sides and bottom
constexpr int glyph_min_width_px = 28;

// What a cell without a value says: its status.
QString status_text(PointStatus status) {
    const std::string_view label = point_status_label(status);
    return QString::fromUtf8(label.data(), static_cast<qsizetype>(label.size()));
}

QString value_text(const StoredValue& value) { return QString::fromStdString(stored_text(value)); }

QString ratio_text(double ratio) { return QString::number(ratio, 'g', 3) + QStringLiteral("×"); }

// "Compute 62% · TP exposed 12% · Bubble 15%": the parts that took any time, in the breakdown's order.
QString breakdown_text(const TimeBreakdown& times) {
    const auto parts = breakdown_parts_s(times);
    const double total = times.total_s();
    QStringList said;
    for (int part = 0; part < breakdown_part_count; ++part) {
        const double share = total > 0.0 ? parts[static_cast<std::size_t>(part)] / total : 0.0;
        if (share <= 0.0) continue;
        said << QStringLiteral("%1 %2%").arg(breakdown_part_name(part), QString::number(100.0 * share, 'f', 0));
    }
    return said.join(QStringLiteral(" · "));
}

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
    // The baseline stays where it was while it still has a value (a sweep filling in); else the first with one.
    if (!baseline_ || *baseline_ >= grid_->cells.size() || !grid_->cells[*baseline_].value) {
        baseline_.reset();
        for (std::size_t c = 0; c < grid_->cells.size() && !baseline_; ++c) {
            if (grid_->cells[c].value) baseline_ = c;
        }
    }
    update();
}

void HeatmapView::setScale(HeatmapScale scale) {
    scale_ = scale;
    update();
}

bool HeatmapView::setBaseline(std::size_t x, std::size_t y) {
    if (!grid_ || x >= grid_->x_values.size() || y >= grid_->y_values.size() || !grid_->at(x, y).value) return false;
    baseline_ = y * grid_->x_values.size() + x;
    update();
    return true;
}

void HeatmapView::setMarkedCell(std::optional<std::pair<std::size_t, std::size_t>> cell) {
    marked_ = cell;
    update();
}

void HeatmapView::setGlyphsShown(bool shown) {
    glyphs_ = shown;
    update();
}

bool HeatmapView::logarithmic() const noexcept { return scale_ == HeatmapScale::log && low_ > 0.0; }

void HeatmapView::showMessage(const QString& message) {
    grid_.reset();
    message_ = message;
    update();
}

QColor HeatmapView::colorOf(double value) const {
    if (!(high_ > low_)) return viridis(1.0);
    const double t = logarithmic() ? std::log(value / low_) / std::log(high_ / low_) : (value - low_) / (high_ - low_);
    return viridis(metric_.higher_is_better ? t : 1.0 - t);
}

QString HeatmapView::cellText(const GridCell& cell) const {
    if (cell.value && scale_ == HeatmapScale::ratio && baseline_ && grid_ && grid_->cells[*baseline_].value &&
        *grid_->cells[*baseline_].value != 0.0) {
        return ratio_text(*cell.value / *grid_->cells[*baseline_].value);
    }
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
                         QString::fromStdString(run_column_text(metric_.name, *cell.value)))
                    .arg(cell.point)
                    .arg(cell.fitting)
                    .arg(cell.points);
        if (scale_ == HeatmapScale::ratio && baseline_) {
            const std::size_t columns = grid_->x_values.size();
            const GridCell& base = grid_->cells[*baseline_];
            if (base.value && *base.value != 0.0) {
                text += tr("\n%1 the baseline's (%2 = %3, %4 = %5)")
                            .arg(ratio_text(*cell.value / *base.value), x_name_,
                                 value_text(grid_->x_values[*baseline_ % columns]), y_name_,
                                 value_text(grid_->y_values[*baseline_ / columns]));
            }
        }
        if (cell.time_breakdown) text += QStringLiteral("\n") + breakdown_text(*cell.time_breakdown);
        return text;
    }
    text += tr("\n%1 (point %2)").arg(status_text(cell.status)).arg(cell.point);
    if (!cell.reason.empty()) text += QStringLiteral("\n") + QString::fromStdString(cell.reason);
    return text;
}

QString HeatmapView::legendText(bool best) const {
    if (!grid_) return {};
    const double value = metric_.higher_is_better == best ? high_ : low_;
    const std::optional<double> base = baseline_ ? grid_->cells[*baseline_].value : std::nullopt;
    const QString said = scale_ == HeatmapScale::ratio && base && *base != 0.0
                             ? ratio_text(value / *base)
                             : QString::fromStdString(run_column_text(metric_.name, value));
    return said + (best ? tr(" best") : QString());
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
    // The legend's labels as wide as they are (at least the room for a short one, at most a third of the view),
    // with the gaps the bar leaves: 12 px before it, 4 after.
    const int labels_px = grid_ ? std::clamp(std::max(metrics.horizontalAdvance(legendText(true)),
                                                      metrics.horizontalAdvance(legendText(false))) + 12 + 4 + 2,
                                             legend_labels_px, std::max(legend_labels_px, width() / 3))
                                : legend_labels_px;
    const int right = width() - margin_px - legend_width_px - labels_px;
    const int key_lines = glyphs_ && !glyphParts().empty() ? 1 : 0;  // the glyphs' key
    const int bottom = height() - margin_px - (2 + key_lines) * metrics.height() - 6 - 4 * key_lines;
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

QRect HeatmapView::glyphRect(std::size_t x, std::size_t y) const {
    if (!glyphs_ || !grid_ || !grid_->at(x, y).time_breakdown) return {};
    const QRect box = cellRect(x, y);
    // Below the value's line, when the cell has room for both.
    const int room_px = QFontMetrics(font()).height() + glyph_height_px + 2 * glyph_inset_px;
    if (box.width() < glyph_min_width_px || box.height() < room_px) return {};
    return QRect(box.left() + glyph_inset_px, box.bottom() - glyph_inset_px - glyph_height_px + 1,
                 box.width() - 2 * glyph_inset_px, glyph_height_px);
}

std::vector<int> HeatmapView::glyphParts() const {
    std::vector<int> parts;
    if (!grid_) return parts;
    std::array<bool, breakdown_part_count> used{};
    for (const GridCell& cell : grid_->cells) {
        if (!cell.time_breakdown) continue;
        const auto seconds = breakdown_parts_s(*cell.time_breakdown);
        for (std::size_t part = 0; part < seconds.size(); ++part) used[part] = used[part] || seconds[part] > 0.0;
    }
    for (int part = 0; part < breakdown_part_count; ++part) {
        if (used[static_cast<std::size_t>(part)]) parts.push_back(part);
    }
    return parts;
}

void HeatmapView::paintGlyph(QPainter& painter, const GridCell& cell, const QRect& bar, const QColor& fill) const {
    const auto seconds = breakdown_parts_s(*cell.time_breakdown);
    const double total = cell.time_breakdown->total_s();
    if (!(total > 0.0)) return;
    // Each part's width rounded from its running sum, so that the parts fill the bar exactly.
    double sum = 0.0;
    int left = bar.left();
    for (int part = 0; part < breakdown_part_count; ++part) {
        sum += seconds[static_cast<std::size_t>(part)];
        const int right = bar.left() + static_cast<int>(std::lround(bar.width() * sum / total));
        if (right > left) painter.fillRect(QRect(left, bar.top(), right - left, bar.height()), breakdown_part_color(part));
        left = right;
    }
    // Framed in the colour the cell's text takes, to stand apart from the cell.
    painter.setPen(QPen(text_color_on_scale(fill), 1.0));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(bar.adjusted(-1, -1, 0, 0));
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
            const QRect glyph = glyphRect(x, y);
            // The value above the glyph, when there is one.
            const QRect text_box = glyph.isEmpty() ? box : box.adjusted(0, 0, 0, -(glyph_height_px + glyph_inset_px));
            const QString text = cellText(cell);
            const bool fits =
                metrics.horizontalAdvance(text) + 6 <= box.width() && metrics.height() <= text_box.height();
            if (!text.isEmpty() && fits) {
                painter.setPen(cell.value ? text_color_on_scale(fill) : palette().color(QPalette::Text));
                painter.drawText(text_box, Qt::AlignCenter, text);
            }
            if (!glyph.isEmpty()) paintGlyph(painter, cell, glyph, fill);
        }
    }
    const std::size_t columns = grid_->x_values.size();
    // The baseline of the ratios outlined dashed.
    if (scale_ == HeatmapScale::ratio && baseline_) {
        painter.setPen(QPen(palette().color(QPalette::Text), 2.0, Qt::DashLine));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(cellRect(*baseline_ % columns, *baseline_ / columns).adjusted(2, 2, -2, -2));
    }
    // The best cell outlined in the text colour, over its neighbours.
    if (grid_->best) {
        painter.setPen(QPen(palette().color(QPalette::Text), 3.0));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(cellRect(*grid_->best % columns, *grid_->best / columns).adjusted(1, 1, -1, -1));
    }
    // The cell of a point selected elsewhere, in the highlight colour, innermost.
    if (marked_ && marked_->first < grid_->x_values.size() && marked_->second < grid_->y_values.size()) {
        painter.setPen(QPen(palette().color(QPalette::Highlight), 3.0));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(cellRect(marked_->first, marked_->second).adjusted(4, 4, -4, -4));
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
    // The glyphs' key: a swatch and a name per part some glyph shows.
    if (glyphs_) {
        int key_x = plot.left();
        const int key_y = plot.bottom() + 8 + 2 * metrics.height();
        for (const int part : glyphParts()) {
            const QString name = breakdown_part_name(part);
            const int swatch = metrics.ascent() - 2;
            if (key_x + swatch + 4 + metrics.horizontalAdvance(name) > width() - margin_px) break;
            painter.fillRect(QRect(key_x, key_y + (metrics.height() - swatch) / 2, swatch, swatch),
                             breakdown_part_color(part));
            painter.drawText(QRect(key_x + swatch + 4, key_y, width(), metrics.height()), Qt::AlignLeft, name);
            key_x += swatch + 4 + metrics.horizontalAdvance(name) + 12;
        }
    }
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
    const QRect labels(bar.right() + 4, bar.top(), width() - bar.right() - 4 - margin_px, bar.height());
    painter.drawText(labels, Qt::AlignTop | Qt::AlignLeft,
                     metrics.elidedText(legendText(true), Qt::ElideRight, labels.width()));
    painter.drawText(labels, Qt::AlignBottom | Qt::AlignLeft,
                     metrics.elidedText(legendText(false), Qt::ElideRight, labels.width()));
    // Which scale, in the middle of the legend.
    const QString scale_name = logarithmic()                 ? tr("log scale")
                               : scale_ == HeatmapScale::log ? tr("linear: a value is 0")
                               : scale_ == HeatmapScale::ratio ? tr("× baseline")
                                                               : QString();
    painter.drawText(labels, Qt::AlignVCenter | Qt::AlignLeft | Qt::TextWordWrap, scale_name);
}

void HeatmapView::contextMenuEvent(QContextMenuEvent* event) {
    const auto cell = cellAt(event->pos());
    if (!cell) return;
    QMenu menu(this);
    const GridCell& shown = grid_->at(cell->first, cell->second);
    QAction* open = menu.addAction(tr("Open Point %1").arg(shown.point));
    open->setEnabled(shown.point >= 0);
    QAction* compare = compare_text_.isEmpty() ? nullptr : menu.addAction(compare_text_);
    if (compare != nullptr) compare->setEnabled(shown.point >= 0);
    QAction* base = menu.addAction(tr("Use as Baseline of Ratios"));
    base->setEnabled(shown.value.has_value());
    QAction* chosen = menu.exec(event->globalPos());
    if (chosen == open) Q_EMIT pointActivated(shown.point);
    if (chosen != nullptr && chosen == compare) Q_EMIT compareRequested(shown.point);
    if (chosen == base) {
        setBaseline(cell->first, cell->second);
        Q_EMIT baselineChosen();
    }
}

void HeatmapView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) {
        if (const auto cell = cellAt(event->position().toPoint())) {
            const GridCell& shown = grid_->at(cell->first, cell->second);
            if (shown.point >= 0) Q_EMIT pointClicked(shown.point);
        }
    }
    QWidget::mousePressEvent(event);
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
