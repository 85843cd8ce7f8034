#include "sweeps/pareto_view.h"

#include "export/run_column_text.h"
#include "style/sequential_colors.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace parasight::gui {
namespace {

constexpr int margin_px = 8;
// A dot's side: small enough that 10^5 points stay a cloud, large enough that a few dozen are seen.
int dot_px(std::size_t points) { return points <= 1000 ? 5 : points <= 10000 ? 3 : 2; }
constexpr int ring_px = 6;
constexpr int near_px = 10;
constexpr int inset_px = ring_px + 4;  // points stay this far inside the frame, so that those at the ends are whole

QString text_of(std::string_view text) { return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())); }

}  // namespace

ParetoView::ParetoView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("ParetoView"));
    setMouseTracking(true);
    setMinimumSize(240, 160);
}

void ParetoView::showPareto(SweepPareto pareto, const GridMetric& cost, const GridMetric& result) {
    pareto_ = std::move(pareto);
    cost_ = cost;
    result_ = result;
    message_.clear();
    if (pareto_->points.empty()) {
        pareto_.reset();
        message_ = tr("No point passes the filter and fits: nothing to trade off");
        update();
        return;
    }
    const auto [cost_min, cost_max] = std::minmax_element(
        pareto_->points.begin(), pareto_->points.end(), [](const auto& a, const auto& b) { return a.cost < b.cost; });
    const auto [result_min, result_max] = std::minmax_element(
        pareto_->points.begin(), pareto_->points.end(), [](const auto& a, const auto& b) { return a.result < b.result; });
    cost_low_ = cost_min->cost;
    cost_high_ = cost_max->cost;
    result_low_ = result_min->result;
    result_high_ = result_max->result;
    findMarked();
    drawCloud();
    update();
}

void ParetoView::showMessage(const QString& message) {
    pareto_.reset();
    message_ = message;
    update();
}

void ParetoView::setDominatedDimmed(bool dimmed) {
    dimmed_ = dimmed;
    drawCloud();
    update();
}

void ParetoView::setMarkedPoint(std::optional<std::int64_t> point) {
    marked_point_ = point;
    findMarked();
    update();
}

void ParetoView::findMarked() {
    marked_index_.reset();
    if (!pareto_ || !marked_point_) return;
    // Points are in point order (store/sweep_pareto.h).
    const auto found = std::lower_bound(pareto_->points.begin(), pareto_->points.end(), *marked_point_,
                                        [](const ParetoPoint& p, std::int64_t n) { return p.point < n; });
    if (found != pareto_->points.end() && found->point == *marked_point_) {
        marked_index_ = static_cast<std::size_t>(found - pareto_->points.begin());
    }
}

QRect ParetoView::plotRect() const {
    const QFontMetrics metrics(font());
    const int left = margin_px + metrics.horizontalAdvance(QStringLiteral("000.0 samples/s")) + 6;
    return QRect(QPoint(left, 2 * margin_px + 2 * metrics.height()),
                 QPoint(width() - margin_px - 12, height() - margin_px - 2 * metrics.height() - 6));
}

QPoint ParetoView::pointAt(std::size_t index) const {
    if (!pareto_ || index >= pareto_->points.size()) return {};
    const QRect& plot = data_rect_;
    const ParetoPoint& point = pareto_->points[index];
    const double x = cost_high_ > cost_low_ ? (point.cost - cost_low_) / (cost_high_ - cost_low_) : 0.5;
    const double y = result_high_ > result_low_ ? (point.result - result_low_) / (result_high_ - result_low_) : 0.5;
    const double up = result_.higher_is_better ? y : 1.0 - y;  // the better end at the top
    return {plot.left() + static_cast<int>(std::lround(x * plot.width())),
            plot.bottom() - static_cast<int>(std::lround(up * plot.height()))};
}

void ParetoView::drawCloud() {
    // Where points go: inside the frame by a ring and a little; measured here, once per size, font or data.
    data_rect_ = plotRect().adjusted(inset_px, inset_px, -inset_px, -inset_px);
    cloud_ = QImage();
    if (!pareto_ || width() <= 0 || height() <= 0) return;
    cloud_ = QImage(size(), QImage::Format_ARGB32_Premultiplied);
    cloud_.fill(Qt::transparent);
    QPainter painter(&cloud_);
    std::vector<bool> on_front(pareto_->points.size(), false);
    for (const std::size_t index : pareto_->front) on_front[index] = true;
    const QColor dot = viridis(0.35);
    QColor faded = palette().color(QPalette::Text);
    faded.setAlphaF(0.18F);
    const int side = dot_px(pareto_->points.size());
    for (std::size_t i = 0; i < pareto_->points.size(); ++i) {
        const QPoint at = pointAt(i);
        const QColor colour = dimmed_ && !on_front[i] ? faded : dot;
        painter.fillRect(QRect(at.x() - side / 2, at.y() - side / 2, side, side), colour);
    }
}

void ParetoView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    drawCloud();
}

std::optional<std::size_t> ParetoView::nearest(const QPoint& at, std::size_t count,
                                               const std::function<std::size_t(std::size_t)>& index_of) const {
    std::optional<std::size_t> found;
    int best = near_px * near_px + 1;
    for (std::size_t k = 0; k < count; ++k) {
        const QPoint d = pointAt(index_of(k)) - at;
        const int distance = d.x() * d.x() + d.y() * d.y();
        if (distance < best) {
            best = distance;
            found = index_of(k);
        }
    }
    return found;
}

std::optional<std::size_t> ParetoView::frontPointNear(const QPoint& at) const {
    if (!pareto_) return std::nullopt;
    return nearest(at, pareto_->front.size(), [this](std::size_t k) { return pareto_->front[k]; });
}

std::optional<std::size_t> ParetoView::pointNear(const QPoint& at) const {
    if (const auto on_front = frontPointNear(at)) return on_front;
    if (!pareto_) return std::nullopt;
    return nearest(at, pareto_->points.size(), [](std::size_t k) { return k; });
}

QString ParetoView::pointToolTip(std::size_t index) const {
    if (!pareto_ || index >= pareto_->points.size()) return {};
    const ParetoPoint& point = pareto_->points[index];
    const bool on_front = std::find(pareto_->front.begin(), pareto_->front.end(), index) != pareto_->front.end();
    return tr("point %1, %2\n%3: %4\n%5: %6")
        .arg(point.point)
        .arg(on_front ? tr("on the front") : tr("dominated: another point costs no more and gives at least as much"),
             text_of(cost_.name), QString::fromStdString(run_column_text(cost_.name, point.cost)), text_of(result_.name),
             QString::fromStdString(run_column_text(result_.name, point.result)));
}

void ParetoView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    if (!pareto_) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect().adjusted(20, 20, -20, -20), Qt::AlignCenter | Qt::TextWordWrap, message_);
        return;
    }
    const QFontMetrics metrics(font());
    const QColor text = palette().color(QPalette::Text);
    QColor faint = text;
    faint.setAlphaF(0.35F);
    const QRect plot = plotRect();
    painter.setPen(faint);
    painter.drawRect(plot);
    // The front: a step line (each point is the best for its cost or more) under the points, each front point ringed.
    painter.setRenderHint(QPainter::Antialiasing);
    QPainterPath path;
    for (std::size_t k = 0; k < pareto_->front.size(); ++k) {
        const QPoint at = pointAt(pareto_->front[k]);
        if (k == 0) {
            path.moveTo(at);
        } else {
            path.lineTo(QPoint(at.x(), path.currentPosition().toPoint().y()));
            path.lineTo(at);
        }
    }
    painter.setPen(QPen(text, 1.5));
    painter.setBrush(Qt::NoBrush);
    painter.drawPath(path);
    painter.drawImage(0, 0, cloud_);
    for (const std::size_t index : pareto_->front) painter.drawEllipse(pointAt(index), ring_px, ring_px);
    if (marked_index_) {
        // The shared selection: a cross in the highlight colour, wider than a ring so it shows on the front too.
        const QPoint at = pointAt(*marked_index_);
        painter.setPen(QPen(palette().color(QPalette::Highlight), 2.0));
        painter.drawEllipse(at, ring_px + 3, ring_px + 3);
        painter.drawLine(at - QPoint(ring_px + 7, 0), at - QPoint(ring_px + 3, 0));
        painter.drawLine(at + QPoint(ring_px + 3, 0), at + QPoint(ring_px + 7, 0));
    }
    // The title, the axes' ends and names.
    painter.setPen(text);
    const auto count = static_cast<qsizetype>(pareto_->points.size());
    painter.drawText(QRect(margin_px, margin_px, width() - 2 * margin_px, metrics.height()), Qt::AlignLeft,
                     tr("%1 against %2: %3 points that fit, %4 on the front (ringed)")
                         .arg(text_of(result_.name), text_of(cost_.name))
                         .arg(count)
                         .arg(pareto_->front.size()));
    const auto cost_text = [&](double value) { return QString::fromStdString(run_column_text(cost_.name, value)); };
    const auto result_text = [&](double value) { return QString::fromStdString(run_column_text(result_.name, value)); };
    painter.drawText(QRect(plot.left(), plot.bottom() + 4, plot.width(), metrics.height()), Qt::AlignLeft,
                     cost_text(cost_low_));
    painter.drawText(QRect(plot.left(), plot.bottom() + 4, plot.width(), metrics.height()), Qt::AlignRight,
                     cost_text(cost_high_));
    painter.drawText(QRect(plot.left(), plot.bottom() + 4 + metrics.height(), plot.width(), metrics.height()),
                     Qt::AlignHCenter, tr("%1 (less is cheaper) →").arg(text_of(cost_.name)));
    const double top = result_.higher_is_better ? result_high_ : result_low_;
    const double bottom = result_.higher_is_better ? result_low_ : result_high_;
    painter.drawText(QRect(margin_px, plot.top() + inset_px - metrics.height() / 2, plot.left() - margin_px - 4,
                           metrics.height()),
                     Qt::AlignRight | Qt::AlignVCenter, result_text(top));
    painter.drawText(QRect(margin_px, plot.bottom() - inset_px - metrics.height() / 2, plot.left() - margin_px - 4,
                           metrics.height()),
                     Qt::AlignRight | Qt::AlignVCenter, result_text(bottom));
    painter.drawText(QRect(margin_px, plot.top() - metrics.height() - 4, plot.width(), metrics.height()),
                     Qt::AlignLeft, tr("%1, better ↑").arg(text_of(result_.name)));
}

void ParetoView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) {
        if (const auto index = pointNear(event->position().toPoint())) Q_EMIT pointClicked(pareto_->points[*index].point);
    }
    QWidget::mousePressEvent(event);
}

void ParetoView::mouseDoubleClickEvent(QMouseEvent* event) {
    if (const auto index = pointNear(event->position().toPoint())) {
        Q_EMIT pointActivated(pareto_->points[*index].point);
    }
}

void ParetoView::contextMenuEvent(QContextMenuEvent* event) {
    const auto index = pointNear(event->pos());
    if (!index) return;
    const qint64 point = pareto_->points[*index].point;
    QMenu menu(this);
    QAction* open = menu.addAction(tr("Open Point %1").arg(point));
    QAction* compare = compare_text_.isEmpty() ? nullptr : menu.addAction(compare_text_);
    QAction* chosen = menu.exec(event->globalPos());
    if (chosen == open) Q_EMIT pointActivated(point);
    if (chosen != nullptr && chosen == compare) Q_EMIT compareRequested(point);
}

bool ParetoView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        if (const auto index = pointNear(help->pos())) {
            QToolTip::showText(help->globalPos(), pointToolTip(*index), this);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) drawCloud();
    return QWidget::event(event);
}

}  // namespace parasight::gui
