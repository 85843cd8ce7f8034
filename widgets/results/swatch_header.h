#pragma once
// A table header that draws a section's colour (its Qt::DecorationRole, a QColor: the colour of that column's or
// row's part in the chart above) as a swatch before its name. The result tables name their chart's colours this way,
// at any width: a chart's legend hides where the chart is too narrow for every name (style/chart_style.h). Qt's own
// header paints only icons and pixmaps, so a colour left there drew nothing.

#include <QHeaderView>

namespace parasight::gui {

class SwatchHeader : public QHeaderView {
    Q_OBJECT

public:
    explicit SwatchHeader(Qt::Orientation orientation, QWidget* parent = nullptr);

protected:
    void initStyleOptionForIndex(QStyleOptionHeader* option, int logical_index) const override;
};

}  // namespace parasight::gui
