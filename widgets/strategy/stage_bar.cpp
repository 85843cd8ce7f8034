#include "strategy/stage_bar.h"

#include "style/activity_colors.h"
#include "style/quantity_text.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace parasight::gui {

namespace {

constexpr int margin_px = 4;
constexpr double border_grip_px = 4.0;  // how near a border the pointer grabs it

}  // namespace

StageBar::StageBar(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("StageBar"));
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

QSize StageBar::sizeHint() const { return QSize(600, fontMetrics().height() * 2 + 3 * margin_px); }

QSize StageBar::minimumSizeHint() const { return QSize(120, sizeHint().height()); }

void StageBar::showStages(std::vector<int> layers, std::vector<double> compute_s) {
    layers_ = std::move(layers);
    compute_s_ = std::move(compute_s);
    update();
}

double StageBar::segmentLeft(int stage) const {
    const int total = std::accumulate(layers_.begin(), layers_.end(), 0);
    const int before = std::accumulate(layers_.begin(), layers_.begin() + stage, 0);
    return margin_px + (width() - 2.0 * margin_px) * before / std::max(1, total);
}

double StageBar::segmentWidth(int stage) const {
    const int total = std::accumulate(layers_.begin(), layers_.end(), 0);
    return (width() - 2.0 * margin_px) * layers_[static_cast<std::size_t>(stage)] / std::max(1, total);
}

double StageBar::layerWidth() const {
    const int total = std::accumulate(layers_.begin(), layers_.end(), 0);
    return (width() - 2.0 * margin_px) / std::max(1, total);
}

int StageBar::borderAt(double x) const {
    for (int s = 0; s + 1 < static_cast<int>(layers_.size()); ++s) {
        if (std::abs(x - segmentLeft(s + 1)) <= border_grip_px) return s;
    }
    return -1;
}

int StageBar::stageAt(double x) const {
    for (int s = 0; s < static_cast<int>(layers_.size()); ++s) {
        if (x >= segmentLeft(s) && x < segmentLeft(s) + segmentWidth(s)) return s;
    }
    return -1;
}

QPoint StageBar::centerOf(int stage) const {
    return QPoint(static_cast<int>(segmentLeft(stage) + segmentWidth(stage) / 2.0), height() / 2);
}

QPoint StageBar::borderOf(int stage) const {
    return QPoint(static_cast<int>(std::lround(segmentLeft(stage + 1))), height() / 2);
}

void StageBar::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const double busiest_s = compute_s_.empty() ? 0.0 : *std::max_element(compute_s_.begin(), compute_s_.end());
    const QColor base = compute_color();
    for (int s = 0; s < static_cast<int>(layers_.size()); ++s) {
        const QRectF segment(segmentLeft(s), margin_px, segmentWidth(s), height() - 2.0 * margin_px);
        QColor fill = palette().color(QPalette::Button);
        if (busiest_s > 0.0 && static_cast<std::size_t>(s) < compute_s_.size()) {
            // The busiest stage in full compute colour, the others towards the background in proportion: a stage
            // with half the compute is half as deep.
            const double depth = compute_s_[static_cast<std::size_t>(s)] / busiest_s;
            const QColor back = palette().color(QPalette::Base);
            fill = QColor::fromRgbF(static_cast<float>(back.redF() + (base.redF() - back.redF()) * depth),
                                    static_cast<float>(back.greenF() + (base.greenF() - back.greenF()) * depth),
                                    static_cast<float>(back.blueF() + (base.blueF() - back.blueF()) * depth));
        }
        painter.setBrush(fill);
        const bool marked = s == dragged_from_ || (dragged_from_ >= 0 && s == hovered_);
        painter.setPen(QPen(marked ? palette().color(QPalette::Highlight) : palette().color(QPalette::Mid),
                            marked ? 2.5 : 1.0));
        painter.drawRect(segment.adjusted(0.5, 0.5, -0.5, -0.5));
        painter.setPen(text_color_on(fill));
        const QString label = tr("%1 · %2").arg(s).arg(layers_[static_cast<std::size_t>(s)]);
        painter.drawText(segment, Qt::AlignCenter, fontMetrics().elidedText(label, Qt::ElideRight,
                                                                            static_cast<int>(segment.width()) - 2));
    }
}

void StageBar::mousePressEvent(QMouseEvent* event) {
    dragged_from_ = -1;
    dragged_border_ = -1;
    if (event->button() != Qt::LeftButton) return;
    const double x = event->position().x();
    dragged_border_ = borderAt(x);
    if (dragged_border_ >= 0) {
        border_pressed_x_ = x;
    } else {
        dragged_from_ = stageAt(x);
        if (dragged_from_ >= 0) setCursor(Qt::ClosedHandCursor);
    }
    update();
}

void StageBar::mouseMoveEvent(QMouseEvent* event) {
    const double x = event->position().x();
    hovered_ = stageAt(x);
    if (dragged_from_ < 0) {
        if (dragged_border_ >= 0 || borderAt(x) >= 0) {
            setCursor(Qt::SplitHCursor);
        } else {
            unsetCursor();
        }
    }
    update();
}

void StageBar::mouseReleaseEvent(QMouseEvent* event) {
    const double x = event->position().x();
    const int from = dragged_from_;
    const int border = dragged_border_;
    dragged_from_ = -1;
    dragged_border_ = -1;
    unsetCursor();
    update();
    if (border >= 0) {
        // Rightwards: the right-hand stage's first layers join the left-hand one; leftwards the other way.
        const int layers = static_cast<int>(std::lround((x - border_pressed_x_) / layerWidth()));
        if (layers > 0) Q_EMIT layersMoveRequested(border + 1, border, layers);
        if (layers < 0) Q_EMIT layersMoveRequested(border, border + 1, -layers);
        return;
    }
    const int to = stageAt(x);
    if (from >= 0 && to >= 0 && to != from) Q_EMIT layersMoveRequested(from, to, 1);
}

bool StageBar::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int s = stageAt(help->pos().x());
        if (s < 0) {
            QToolTip::hideText();
            return true;
        }
        QString text = tr("Stage %1: %2 layers").arg(s).arg(layers_[static_cast<std::size_t>(s)]);
        if (static_cast<std::size_t>(s) < compute_s_.size()) {
            text += tr(", %1 of compute per device").arg(time_text(compute_s_[static_cast<std::size_t>(s)]));
        }
        text += tr("\nDrag it onto another stage to move one of its layers there, or drag its border to move several.");
        QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

}  // namespace parasight::gui
