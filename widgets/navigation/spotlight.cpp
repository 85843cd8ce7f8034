#include "navigation/spotlight.h"

#include <QEvent>
#include <QPainter>
#include <QPainterPath>

namespace parasight::gui {
namespace {

constexpr int margin_px = 4;  // the outline stands this far outside what it marks

}  // namespace

Spotlight::Spotlight(QWidget* parent) : QWidget(parent) {
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setAttribute(Qt::WA_NoSystemBackground);
    setFocusPolicy(Qt::NoFocus);
    hide();
    timer_.setSingleShot(true);
    connect(&timer_, &QTimer::timeout, this, &Spotlight::clear);
    follow_timer_.setInterval(100);
    connect(&follow_timer_, &QTimer::timeout, this, &Spotlight::follow);
}

void Spotlight::shine(Locate locate, int duration_ms) {
    locate_ = std::move(locate);
    follow();
    if (!target_) return;
    show();
    raise();
    timer_.start(duration_ms);
    follow_timer_.start();
}

void Spotlight::clear() {
    timer_.stop();
    follow_timer_.stop();
    if (target_) target_->removeEventFilter(this);
    target_.clear();
    locate_ = {};
    hide();
}

QRect Spotlight::marked() const {
    if (!target_ || isHidden()) return {};
    return QRect(target_->mapTo(window(), rect_.topLeft()), rect_.size());
}

void Spotlight::follow() {
    const std::optional<TargetArea> area = locate_ ? locate_() : std::nullopt;
    if (!area || area->widget == nullptr || parentWidget() == nullptr) {
        clear();
        return;
    }
    if (area->widget != target_) {
        // The widget moving or resizing (a splitter, the window, a view laying out anew) moves the mark with it.
        if (target_) target_->removeEventFilter(this);
        target_ = area->widget;
        target_->installEventFilter(this);
    }
    rect_ = area->rect;
    update();
    const QPoint top_left = target_->mapTo(parentWidget(), rect_.topLeft());
    // Kept inside the window, so that a row as wide as the view keeps its right edge.
    const QRect outlined = QRect(top_left, rect_.size())
                               .adjusted(-margin_px, -margin_px, margin_px, margin_px)
                               .intersected(parentWidget()->rect());
    // Dimming, it covers the whole window, the mark a hole in it.
    setGeometry(dimming_ ? parentWidget()->rect() : outlined);
    hole_ = outlined.translated(-geometry().topLeft());
}

void Spotlight::setDimming(bool dimming) {
    dimming_ = dimming;
    if (target_) follow();
}

bool Spotlight::eventFilter(QObject* watched, QEvent* event) {
    if (watched == target_ && (event->type() == QEvent::Move || event->type() == QEvent::Resize)) follow();
    if (watched == target_ && event->type() == QEvent::Hide) clear();
    return QWidget::eventFilter(watched, event);
}

void Spotlight::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QRectF mark = QRectF(hole_).adjusted(1.5, 1.5, -1.5, -1.5);
    if (dimming_) {
        QPainterPath outside;
        outside.addRect(QRectF(rect()));
        QPainterPath hole;
        hole.addRoundedRect(mark, 6.0, 6.0);
        painter.fillPath(outside.subtracted(hole), QColor(0, 0, 0, 150));
    }
    QColor colour = palette().color(QPalette::Highlight);
    QPen pen(colour, 3.0);
    painter.setPen(pen);
    colour.setAlpha(40);
    painter.setBrush(colour);
    painter.drawRoundedRect(mark, 6.0, 6.0);
}

}  // namespace parasight::gui
