#include "style/chart_style.h"

#include <QAbstractAxis>
#include <QAbstractSeries>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QFontMetrics>
#include <QLegendMarker>
#include <QVariant>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QLegend>
#include <QPalette>

#include <algorithm>

namespace parasight::gui {

namespace {
constexpr const char* hidden_from_legend_property = "parasightHiddenFromLegend";
constexpr const char* legend_alignment_property = "parasightLegendAlignment";  // where the chart wants its legend

QColor mixed(const QColor& a, const QColor& b, double share_of_a) {
    const double other = 1.0 - share_of_a;
    return QColor::fromRgbF(static_cast<float>(a.redF() * share_of_a + b.redF() * other),
                            static_cast<float>(a.greenF() * share_of_a + b.greenF() * other),
                            static_cast<float>(a.blueF() * share_of_a + b.blueF() * other));
}
// Shows a chart's legend only while the view is wide enough for every entry's name: Qt would otherwise elide the
// names to nothing and leave a row of bare swatches (the tables' headers name the colours too). A legend below the
// plot whose row does not fit becomes a column beside it while that fits, and goes back below when the row does.
void fit_legend(QChartView& view) {
    QLegend* legend = view.chart()->legend();
    QVariant wanted = view.property(legend_alignment_property);
    if (!wanted.isValid()) {
        wanted = static_cast<int>(legend->alignment());
        view.setProperty(legend_alignment_property, wanted);
    }
    const auto preferred = static_cast<Qt::Alignment>(wanted.toInt());
    // Each entry: its swatch and the gaps around it (about two lines' height) and its whole name.
    const QFontMetrics metrics(legend->font());
    // Beside the plot (a column of entries) the widest entry counts, and may take a third of the view; below it (a
    // row) all of them.
    int row = 0;
    int column = 0;
    for (QLegendMarker* marker : legend->markers()) {
        // A series kept out of the legend. (Not the marker's isVisible(): that is false for every marker while the
        // legend is hidden, which made a hidden legend measure as empty and come back, its names elided.)
        if (marker->series()->property(hidden_from_legend_property).toBool()) continue;
        const int entry = metrics.horizontalAdvance(marker->label()) + 2 * metrics.height();
        row += entry;
        column = std::max(column, entry);
    }
    const bool beside = (preferred & (Qt::AlignLeft | Qt::AlignRight)) != 0;
    const bool column_fits = column <= view.width() / 3;
    if (beside || row <= view.width()) {
        legend->setAlignment(preferred);
        legend->setVisible(beside ? column_fits : true);
        return;
    }
    legend->setAlignment(Qt::AlignRight);
    legend->setVisible(column_fits);
}

// Fits the legend again whenever the view is resized or shown, and colours the chart again whenever the view is
// enabled or disabled: a chart drawn while its view was greyed (a stale result) took the disabled palette's colours,
// which nothing else would replace once the view is enabled again.
class ChartViewFollower : public QObject {
public:
    explicit ChartViewFollower(QChartView* view) : QObject(view), view_(view) { view->installEventFilter(this); }

    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched != view_) return false;
        if (event->type() == QEvent::Resize || event->type() == QEvent::Show) fit_legend(*view_);
        if (event->type() == QEvent::EnabledChange) apply_chart_style(*view_->chart(), view_->palette());
        return false;
    }

private:
    QChartView* view_;
};

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
    new ChartViewFollower(view);
    return view;
}

void clear_chart(QChart& chart) {
    chart.removeAllSeries();
    for (QAbstractAxis* axis : chart.axes()) {
        chart.removeAxis(axis);
        delete axis;
    }
}

void add_series(QChart& chart, QAbstractSeries* series, QAbstractAxis* x, QAbstractAxis* y) {
    chart.addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
}

void hide_from_legend(QChart& chart, QAbstractSeries* series) {
    series->setProperty(hidden_from_legend_property, true);
    for (QLegendMarker* marker : chart.legend()->markers(series)) marker->setVisible(false);
}

void apply_chart_style(QChart& chart, const QPalette& palette) {
    // Called after the series changed: the legend has new entries.
    if (chart.scene() != nullptr) {
        for (QGraphicsView* view : chart.scene()->views()) {
            if (auto* chart_view = qobject_cast<QChartView*>(view)) fit_legend(*chart_view);
        }
    }
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
        axis->setMinorGridLineColor(mixed(text, background, 0.06));  // log axes' decades
    }
}

}  // namespace parasight::gui
