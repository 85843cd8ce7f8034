#include "topology/dimension_palette_button.h"

#include <QApplication>
#include <QDrag>
#include <QMimeData>
#include <QMouseEvent>

namespace parasight::gui {

DimensionPaletteButton::DimensionPaletteButton(DimensionKind kind, const QString& text, QWidget* parent)
    : QPushButton(text, parent), kind_(kind) {}

void DimensionPaletteButton::mousePressEvent(QMouseEvent* event) {
    press_at_ = event->position().toPoint();
    QPushButton::mousePressEvent(event);
}

void DimensionPaletteButton::mouseMoveEvent(QMouseEvent* event) {
    if (!(event->buttons() & Qt::LeftButton) ||
        (event->position().toPoint() - press_at_).manhattanLength() < QApplication::startDragDistance()) {
        QPushButton::mouseMoveEvent(event);
        return;
    }
    setDown(false);  // a drag, not a click
    auto* mime = new QMimeData;
    const std::string_view name = to_string(kind_);
    mime->setData(QString::fromLatin1(dimension_mime_type), QByteArray(name.data(), static_cast<qsizetype>(name.size())));
    auto* drag = new QDrag(this);
    drag->setMimeData(mime);
    drag->setPixmap(grab());
    drag->exec(Qt::CopyAction);
}

}  // namespace parasight::gui
