#include "style/chart_style.h"

#include <QAbstractAxis>
#include <QChart>
#include <QChartView>
#include <QGraphicsLayout>
#include <QLegend>
#include <QPalette>

namespace parasight::gui {

namespace {
QColor mixed(const QColor& a, const QColor& b, double share_of_a) {
    const double other = 1.0 - share_of_a;
    return QColor::fromRgbF(static_cast<float>(a.redF() * share_of_a + b.redF() * other),
                            static_cast<float>(a.greenF() * share_of_a + b.greenF() * other),
                            static_cast<float>(a.blueF() * share_of_a + b.blueF() * other));
}
}  // namespace

QChartView* make_chart_view(QChart* chart, QWidget* parent) {
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setAnimationOptions(QChart::NoAnimation);
    // Qt's default margins take a fifth of a small chart; the view's frame is margin enough.
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setMargins(QMargins(4, 4, 8, 4));
    auto* view = new QChartView(chart, parent);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(200, 120);  // small enough for a 640x400 window
    return view;
}

void clear_chart(QChart& chart) {
    chart.removeAllSeries();
    for (QAbstractAxis* axis : chart.axes()) {
        chart.removeAxis(axis);
        delete axis;
    }
}

void apply_chart_style(QChart& chart, const QPalette& palette) {
    const QColor background = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    chart.setBackgroundBrush(background);
    chart.setBackgroundRoundness(0);
    chart.setPlotAreaBackgroundVisible(false);
    chart.setTitleBrush(text);
    chart.legend()->setLabelColor(text);
    for (QAbstractAxis* axis : chart.axes()) {
        // Qt elides a label that does not fit its slot to "…"; a slightly crowded label reads better than none.
        axis->setTruncateLabels(false);
        axis->setLabelsColor(text);
        axis->setTitleBrush(text);
        axis->setLinePenColor(mixed(text, background, 0.5));
        axis->setGridLineColor(mixed(text, background, 0.15));
    }
}

}  // namespace parasight::gui
