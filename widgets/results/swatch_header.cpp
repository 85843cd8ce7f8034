#include "results/swatch_header.h"

#include <QColor>
#include <QIcon>
#include <QPainter>
#include <QPixmap>
#include <QStyleOptionHeader>

namespace parasight::gui {

SwatchHeader::SwatchHeader(Qt::Orientation orientation, QWidget* parent) : QHeaderView(orientation, parent) {
    // What QTableView sets on the headers it makes itself.
    setSectionsClickable(true);
    setHighlightSections(true);
}

void SwatchHeader::initStyleOptionForIndex(QStyleOptionHeader* option, int logical_index) const {
    QHeaderView::initStyleOptionForIndex(option, logical_index);
    if (model() == nullptr || !option->icon.isNull()) return;
    const QVariant decoration = model()->headerData(logical_index, orientation(), Qt::DecorationRole);
    if (decoration.typeId() != QMetaType::QColor) return;
    // A square as tall as the text, outlined so that a pale colour still shows on a pale header.
    const int side_px = fontMetrics().height() * 3 / 4;
    QPixmap swatch(side_px, side_px);
    swatch.fill(decoration.value<QColor>());
    QPainter painter(&swatch);
    painter.setPen(palette().color(QPalette::Mid));
    painter.drawRect(0, 0, side_px - 1, side_px - 1);
    option->icon = QIcon(swatch);
}

}  // namespace parasight::gui
