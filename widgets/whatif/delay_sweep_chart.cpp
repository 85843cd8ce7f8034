#include "whatif/delay_sweep_chart.h"

#include "style/activity_colors.h"
#include "style/axis_scale.h"
#include "style/chart_style.h"
#include "style/quantity_text.h"
#include "sweep/delay_sweep.h"

#include <QChart>
#include <QCoreApplication>
#include <QLineSeries>
#include <QPalette>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>

namespace parasight::gui {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("DelaySweepChart", text); }

}  // namespace

void draw_delay_sweep(QChart& chart, const DelaySweep& sweep, const QPalette& palette) {
    clear_chart(chart);
    if (sweep.points.size() < 2) return;
    const double baseline_s = sweep.points.front().iteration_time_s;
    const double last_delay_s = sweep.points.back().delay_s;
    double lowest_s = baseline_s;
    double highest_s = baseline_s;
    for (const DelaySweepPoint& point : sweep.points) {
        lowest_s = std::min(lowest_s, point.iteration_time_s);
        highest_s = std::max(highest_s, point.iteration_time_s);
    }
    const AxisScale delay_scale = time_axis_scale(last_delay_s);
    const AxisScale time_scale = time_axis_scale(highest_s);

    auto* delays = new QValueAxis;
    delays->setTitleText(tr("Delay added to each delayed call (%1)").arg(delay_scale.unit));
    delays->setRange(0.0, last_delay_s / delay_scale.unit_value);
    delays->applyNiceNumbers();
    delays->setLabelFormat(QStringLiteral("%g"));
    auto* times = new QValueAxis;
    times->setTitleText(tr("Iteration time (%1)").arg(time_scale.unit));
    // From a little below T(0): the knee is the shape to see, and it shows best without the axis starting at 0.
    const double span_s = std::max(highest_s - lowest_s, 0.01 * baseline_s);
    times->setRange((lowest_s - 0.05 * span_s) / time_scale.unit_value,
                    (highest_s + 0.05 * span_s) / time_scale.unit_value);
    times->applyNiceNumbers();
    times->setLabelFormat(QStringLiteral("%g"));
    chart.addAxis(delays, Qt::AlignBottom);
    chart.addAxis(times, Qt::AlignLeft);
    chart.setTitle(tr("Iteration time against injected delay"));

    const auto at = [&](double delay_s, double time_s) {
        return QPointF(delay_s / delay_scale.unit_value, time_s / time_scale.unit_value);
    };

    // What the calls nothing hides add on their own: the line the measurements follow up to the knee.
    auto* unhidden = new QLineSeries;
    unhidden->setName(tr("Only unhidden calls (slope %1)").arg(fixed_text(sweep.initial_slope, 2)));
    QPen dashed(palette.color(QPalette::Text));
    dashed.setStyle(Qt::DashLine);
    dashed.setWidthF(1.2);
    unhidden->setPen(dashed);
    const double top_s = times->max() * time_scale.unit_value;
    // Drawn up to where it leaves the plot, so that a steep one does not stretch the axis.
    double end_s = last_delay_s;
    if (sweep.initial_slope > 0.0) end_s = std::min(end_s, (top_s - baseline_s) / sweep.initial_slope);
    unhidden->append(at(0.0, baseline_s));
    unhidden->append(at(end_s, baseline_s + sweep.initial_slope * end_s));
    add_series(chart, unhidden, delays, times);

    auto* measured = new QLineSeries;
    measured->setName(tr("Simulated"));
    QPen solid(task_kind_color(TaskKind::injected_delay));
    solid.setWidthF(2.5);
    measured->setPen(solid);
    measured->setPointsVisible(true);
    for (const DelaySweepPoint& point : sweep.points) measured->append(at(point.delay_s, point.iteration_time_s));
    add_series(chart, measured, delays, times);

    // The knee: the largest swept delay the overlap hides (none inside the range when every delay hides).
    if (sweep.hidden_delay_s > 0.0 && !sweep.hidden_beyond_range) {
        auto* knee = new QLineSeries;
        QPen dotted(palette.color(QPalette::Text));
        dotted.setStyle(Qt::DotLine);
        knee->setPen(dotted);
        knee->append(at(sweep.hidden_delay_s, times->min() * time_scale.unit_value));
        knee->append(at(sweep.hidden_delay_s, top_s));
        add_series(chart, knee, delays, times);
        hide_from_legend(chart, knee);
        const auto point = std::find_if(sweep.points.begin(), sweep.points.end(),
                                        [&](const DelaySweepPoint& p) { return p.delay_s == sweep.hidden_delay_s; });
        auto* label = new QScatterSeries;
        label->setMarkerSize(9.0);
        label->setColor(task_kind_color(TaskKind::injected_delay));
        label->setBorderColor(palette.color(QPalette::Text));
        label->append(at(sweep.hidden_delay_s, point != sweep.points.end() ? point->iteration_time_s : baseline_s));
        label->setPointLabelsFormat(tr("hidden %1").arg(time_text(sweep.hidden_delay_s)));
        label->setPointLabelsColor(palette.color(QPalette::Text));
        label->setPointLabelsClipping(false);
        label->setPointLabelsVisible(true);
        add_series(chart, label, delays, times);
        hide_from_legend(chart, label);
    }
    apply_chart_style(chart, palette);
}

}  // namespace parasight::gui
