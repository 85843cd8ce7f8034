#include "history/compared_timelines_view.h"

#include "common/task_kind.h"
#include "history/compared_runs_job.h"
#include "style/change_colors.h"
#include "units/quantity.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace parasight::gui {
namespace {

constexpr double wheel_zoom_per_notch = 1.25;
constexpr int streams = static_cast<int>(stream_count);
constexpr int device_height_px = streams * ComparedTimelinesView::stream_height_px;

QString text_of(std::string_view text) { return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())); }

QString duration_text(const TimelineEvent& event) {
    return QString::fromStdString(units::format_readable(event.end_s - event.start_s, units::Dimension::time));
}

const Timeline& timeline_of(const ComparedRuns& compared, bool run_b) { return run_b ? *compared.b : *compared.a; }

EventId partner_of(const ComparedRuns& compared, bool run_b, EventId id) {
    return run_b ? compared.comparison.b_partner[id] : compared.comparison.a_partner[id];
}

// The row of each device of one run.
std::vector<std::size_t> rows_of_devices(const ComparedRuns& compared, bool run_b) {
    std::vector<std::size_t> rows(timeline_of(compared, run_b).devices().size(), 0);
    for (std::size_t row = 0; row < compared.comparison.rows.size(); ++row) {
        const auto& device = run_b ? compared.comparison.rows[row].b : compared.comparison.rows[row].a;
        if (device) rows[*device] = row;
    }
    return rows;
}

}  // namespace

ComparedTimelinesView::ComparedTimelinesView(QWidget* parent) : QAbstractScrollArea(parent) {
    setObjectName(QStringLiteral("ComparedTimelinesView"));
    viewport()->setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    connect(verticalScrollBar(), &QScrollBar::valueChanged, viewport(), qOverload<>(&QWidget::update));
}

void ComparedTimelinesView::showComparison(std::shared_ptr<const ComparedRuns> compared) {
    compared_ = std::move(compared);
    message_.clear();
    fit();
}

void ComparedTimelinesView::showMessage(const QString& message) {
    compared_.reset();
    message_ = message;
    updateScrollBar();
    viewport()->update();
}

void ComparedTimelinesView::fit() {
    if (compared_) {
        const double total_s = std::max(compared_->a->iteration_time_s(), compared_->b->iteration_time_s());
        scale_.setBounds(total_s > 0.0 ? total_s : 1.0, lanesWidth());
        scale_.fit();
    }
    updateScrollBar();
    viewport()->update();
}

double ComparedTimelinesView::lanesWidth() const {
    return std::max(1.0, static_cast<double>(viewport()->width() - header_width_px - 4));
}

int ComparedTimelinesView::rowHeight() const { return 2 * device_height_px + run_gap_px + row_gap_px; }

int ComparedTimelinesView::deviceTop(std::size_t row, bool run_b) const {
    return top_px - verticalScrollBar()->value() + static_cast<int>(row) * rowHeight() +
           (run_b ? device_height_px + run_gap_px : 0);
}

void ComparedTimelinesView::updateScrollBar() {
    const int rows = compared_ ? static_cast<int>(compared_->comparison.rows.size()) : 0;
    const int content = rows * rowHeight();
    const int shown = std::max(0, viewport()->height() - top_px);
    verticalScrollBar()->setRange(0, std::max(0, content - shown));
    verticalScrollBar()->setPageStep(shown);
    verticalScrollBar()->setSingleStep(rowHeight() / 2);
}

void ComparedTimelinesView::resizeEvent(QResizeEvent* event) {
    QAbstractScrollArea::resizeEvent(event);
    if (compared_) {
        // Keep the times shown; the bounds follow the width.
        const double from = scale_.start_s();
        const double to = scale_.end_s(lanesWidth());
        scale_.setBounds(std::max(compared_->a->iteration_time_s(), compared_->b->iteration_time_s()), lanesWidth());
        scale_.show(from, to);
    }
    updateScrollBar();
}

QRect ComparedTimelinesView::eventRect(bool run_b, EventId id) const {
    if (!compared_) return {};
    const Timeline& timeline = timeline_of(*compared_, run_b);
    if (id >= timeline.event_count()) return {};
    const TimelineEvent event = timeline.event(id);
    const std::vector<std::size_t> rows = rows_of_devices(*compared_, run_b);
    const int top = deviceTop(rows[event.device], run_b) + static_cast<int>(event.stream) * stream_height_px;
    const double x0 = header_width_px + scale_.x_of(event.start_s);
    const double x1 = header_width_px + scale_.x_of(event.end_s);
    const int left = static_cast<int>(std::floor(x0));
    const int right = std::max(left + 1, static_cast<int>(std::ceil(x1)));
    return QRect(left, top, right - left, stream_height_px - 1)
        .intersected(QRect(header_width_px, top_px, viewport()->width() - header_width_px, viewport()->height()));
}

std::optional<QColor> ComparedTimelinesView::eventColor(bool run_b, EventId id) const {
    if (!compared_) return std::nullopt;
    const EventId partner = partner_of(*compared_, run_b, id);
    if (partner == no_partner) return std::nullopt;
    const TimelineEvent a = compared_->a->event(run_b ? partner : id);
    const TimelineEvent b = compared_->b->event(run_b ? id : partner);
    return change_color(duration_ratio(a, b).value_or(1.0));
}

std::optional<std::pair<bool, EventId>> ComparedTimelinesView::eventAt(const QPoint& at) const {
    if (!compared_ || at.x() < header_width_px || at.y() < top_px) return std::nullopt;
    const int within = at.y() - top_px + verticalScrollBar()->value();
    const auto row = static_cast<std::size_t>(within / rowHeight());
    if (row >= compared_->comparison.rows.size()) return std::nullopt;
    int offset = within % rowHeight();
    const bool run_b = offset >= device_height_px + run_gap_px;
    if (run_b) offset -= device_height_px + run_gap_px;
    if (offset >= device_height_px) return std::nullopt;
    const auto& device = run_b ? compared_->comparison.rows[row].b : compared_->comparison.rows[row].a;
    if (!device) return std::nullopt;
    const Timeline& timeline = timeline_of(*compared_, run_b);
    const auto lane = timeline.lane(*device, static_cast<Stream>(offset / stream_height_px));
    // A pixel either side, so that a thin event can be pointed at.
    const double from_s = scale_.time_at(at.x() - header_width_px - 1.0);
    const double to_s = scale_.time_at(at.x() - header_width_px + 1.0);
    const auto first = std::partition_point(lane.begin(), lane.end(),
                                            [&](EventId id) { return timeline.event(id).end_s < from_s; });
    if (first == lane.end() || timeline.event(*first).start_s > to_s) return std::nullopt;
    return std::pair(run_b, *first);
}

QString ComparedTimelinesView::eventToolTip(bool run_b, EventId id) const {
    if (!compared_) return {};
    const TimelineEvent event = timeline_of(*compared_, run_b).event(id);
    QString what = text_of(event.operation);
    if (event.layer >= 0) what += tr(", layer %1").arg(event.layer);
    if (event.micro_batch >= 0) what += tr(", micro-batch %1").arg(event.micro_batch);
    what += tr(" (%1)").arg(text_of(name_of(event.stream, stream_names)));
    const EventId partner = partner_of(*compared_, run_b, id);
    if (partner == no_partner) {
        return tr("%1\nonly in %2: %3").arg(what, run_b ? tr("B") : tr("A"), duration_text(event));
    }
    const TimelineEvent a = run_b ? compared_->a->event(partner) : event;
    const TimelineEvent b = run_b ? event : compared_->b->event(partner);
    const auto ratio = duration_ratio(a, b);
    return tr("%1\nA: %2, B: %3%4")
        .arg(what, duration_text(a), duration_text(b),
             ratio ? tr(" (%1×)").arg(QString::fromStdString(units::format_fixed(*ratio, 2))) : QString());
}

void ComparedTimelinesView::paintEvent(QPaintEvent*) {
    QPainter painter(viewport());
    const QPalette& colours = palette();
    painter.fillRect(viewport()->rect(), colours.base());
    if (!compared_) {
        painter.setPen(colours.color(QPalette::PlaceholderText));
        painter.drawText(viewport()->rect().adjusted(20, 20, -20, -20), Qt::AlignCenter | Qt::TextWordWrap, message_);
        return;
    }
    const QFontMetrics metrics(font());
    const int width = viewport()->width();
    const QColor text = colours.color(QPalette::Text);
    QColor hatch = text;
    hatch.setAlphaF(0.6F);
    const QBrush only_one(hatch, Qt::BDiagPattern);

    // The legend: the scale of change, the hatching, the lanes.
    int x = 6;
    const auto say = [&](const QString& words) {
        const int w = metrics.horizontalAdvance(words);
        painter.setPen(text);
        painter.drawText(QRect(x, 4, w + 2, 18), Qt::AlignVCenter | Qt::AlignLeft, words);
        x += w + 8;
    };
    say(tr("B against A:"));
    say(tr("shorter ½×"));
    constexpr int bar_px = 120;
    for (int i = 0; i < bar_px; ++i) {
        painter.fillRect(QRect(x + i, 7, 1, 12), change_color(std::pow(2.0, 2.0 * i / (bar_px - 1) - 1.0)));
    }
    x += bar_px + 6;
    say(tr("2× longer"));
    x += 8;
    painter.fillRect(QRect(x, 7, 18, 12), only_one);
    painter.setPen(hatch);
    painter.drawRect(QRect(x, 7, 18, 12));
    x += 24;
    say(tr("only in one run"));
    x += 8;
    // What the three lanes of a device are, where there is room for it.
    const QString lanes = tr("lanes: compute · features · gradients");
    if (x + metrics.horizontalAdvance(lanes) <= width - 4) say(lanes);

    // The time axis.
    const QRect axis(header_width_px, 24, width - header_width_px, 20);
    painter.setPen(colours.color(QPalette::Mid));
    painter.drawLine(axis.bottomLeft(), axis.bottomRight());
    paint_time_ticks(painter, scale_, QRect(header_width_px, axis.top(), static_cast<int>(lanesWidth()), axis.height()),
                     colours.color(QPalette::Mid), text);
    const std::vector<TimeTick> ticks = time_ticks(scale_, lanesWidth(), 90.0);
    painter.setClipRect(QRect(0, top_px, width, viewport()->height() - top_px));
    // Gridlines at the ticks; each iteration's end.
    painter.setPen(QPen(colours.color(QPalette::Midlight), 0));
    for (const TimeTick& tick : ticks) {
        const int tx = header_width_px + static_cast<int>(std::lround(scale_.x_of(tick.time_s)));
        painter.drawLine(tx, top_px, tx, viewport()->height());
    }
    const double from_s = scale_.start_s();
    const double to_s = scale_.end_s(lanesWidth());
    for (std::size_t row = 0; row < compared_->comparison.rows.size(); ++row) {
        if (deviceTop(row, false) > viewport()->height() || deviceTop(row, true) + device_height_px < top_px) continue;
        const ComparedDevices& pair = compared_->comparison.rows[row];
        for (const bool run_b : {false, true}) {
            const int top = deviceTop(row, run_b);
            const auto& device = run_b ? pair.b : pair.a;
            const Timeline& timeline = timeline_of(*compared_, run_b);
            painter.setClipRect(QRect(0, top_px, width, viewport()->height() - top_px));
            painter.setPen(text);
            const QString name = run_b ? tr("B") : tr("A");
            painter.drawText(QRect(6, top, header_width_px - 10, device_height_px), Qt::AlignVCenter | Qt::AlignLeft,
                             device ? tr("%1 · stage %2 · NPU %3")
                                          .arg(name)
                                          .arg(pair.stage)
                                          .arg(timeline.devices()[*device].npu)
                                    : tr("%1 · stage %2 · none").arg(name).arg(pair.stage));
            // The run's end, a faint line.
            const int end_x = header_width_px + static_cast<int>(std::lround(scale_.x_of(timeline.iteration_time_s())));
            QColor faint = text;
            faint.setAlphaF(0.35F);
            painter.setPen(faint);
            painter.drawLine(end_x, top, end_x, top + device_height_px - 1);
            painter.setClipRect(QRect(header_width_px, top_px, width - header_width_px, viewport()->height() - top_px));
            if (!device) {
                painter.drawText(QRect(header_width_px + 6, top, width - header_width_px - 12, device_height_px),
                                 Qt::AlignVCenter | Qt::AlignLeft,
                                 tr("%1 has no such device on stage %2").arg(run_b ? tr("B") : tr("A")).arg(pair.stage));
                continue;
            }
            for (int stream = 0; stream < streams; ++stream) {
                const auto lane = timeline.lane(*device, static_cast<Stream>(stream));
                const int lane_top = top + stream * stream_height_px;
                auto it = std::partition_point(lane.begin(), lane.end(),
                                               [&](EventId id) { return timeline.event(id).end_s < from_s; });
                int covered_to = std::numeric_limits<int>::min();  // events narrower than a pixel merge
                for (; it != lane.end(); ++it) {
                    const TimelineEvent event = timeline.event(*it);
                    if (event.start_s > to_s) break;
                    const int left = header_width_px + static_cast<int>(std::floor(scale_.x_of(event.start_s)));
                    const int right = std::max(left + 1, header_width_px +
                                                             static_cast<int>(std::ceil(scale_.x_of(event.end_s))));
                    if (right <= covered_to) continue;
                    const QRect box(std::max(left, covered_to), lane_top, right - std::max(left, covered_to),
                                    stream_height_px - 1);
                    covered_to = right;
                    if (const auto colour = eventColor(run_b, *it)) {
                        painter.fillRect(box, *colour);
                    } else {
                        painter.fillRect(box, only_one);
                    }
                }
            }
        }
    }
}

void ComparedTimelinesView::wheelEvent(QWheelEvent* event) {
    if ((event->modifiers() & Qt::ShiftModifier) || !compared_) {
        QAbstractScrollArea::wheelEvent(event);
        return;
    }
    const double notches = event->angleDelta().y() / 120.0;
    if (notches == 0.0) return;
    zoomAt(event->position().x(), std::pow(wheel_zoom_per_notch, notches));
    event->accept();
}

void ComparedTimelinesView::zoomAt(double x_px, double factor) {
    scale_.zoomAt(x_px - header_width_px, factor);
    viewport()->update();
}

void ComparedTimelinesView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) drag_from_ = event->position().toPoint();
}

void ComparedTimelinesView::mouseMoveEvent(QMouseEvent* event) {
    if (!drag_from_) return;
    const QPoint at = event->position().toPoint();
    scale_.panBy(drag_from_->x() - at.x());
    verticalScrollBar()->setValue(verticalScrollBar()->value() + drag_from_->y() - at.y());
    drag_from_ = at;
    viewport()->update();
}

void ComparedTimelinesView::mouseReleaseEvent(QMouseEvent*) { drag_from_.reset(); }

void ComparedTimelinesView::mouseDoubleClickEvent(QMouseEvent*) { fit(); }

void ComparedTimelinesView::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_0) {
        fit();
        return;
    }
    QAbstractScrollArea::keyPressEvent(event);
}

bool ComparedTimelinesView::viewportEvent(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        if (const auto found = eventAt(help->pos())) {
            QToolTip::showText(help->globalPos(), eventToolTip(found->first, found->second), viewport());
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

}  // namespace parasight::gui
