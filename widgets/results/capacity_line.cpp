#include "results/capacity_line.h"

#include "style/activity_colors.h"

#include <QChart>
#include <QLineSeries>
#include <QValueAxis>

namespace parasight::gui {

QPen capacity_pen() {
    QPen pen(over_capacity_color());
    pen.setWidthF(2.0);
    pen.setStyle(Qt::DashLine);
    return pen;
}

void add_capacity_across_bars(QChart& chart, QValueAxis* values, int rows, double value, const QString& name) {
    auto* line = new QLineSeries;
    line->setName(name);
    line->setPen(capacity_pen());
    line->append(value, -0.5);
    line->append(value, rows - 0.5);
    chart.addSeries(line);
    auto* slots = new QValueAxis;
    slots->setRange(-0.5, rows - 0.5);
    slots->setVisible(false);
    chart.addAxis(slots, Qt::AlignRight);
    line->attachAxis(values);
    line->attachAxis(slots);
}

}  // namespace parasight::gui
