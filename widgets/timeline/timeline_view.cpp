#include "timeline/timeline_view.h"

#include "analysis/event_exposure.h"
#include "analysis/memory_curve.h"
#include "style/activity_colors.h"
#include "style/axis_scale.h"
#include "style/quantity_text.h"
#include "timeline/event_text.h"
#include "units/quantity.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QMenu>
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

constexpr int min_row_height_px = 36;  // two lines of header text
constexpr double wheel_zoom_per_notch = 1.25;
constexpr double key_zoom = 1.5;
constexpr double key_pan_fraction = 0.1;
constexpr int drag_threshold_px = 3;

// What the lane of a stream is called in the row header.
QString lane_name(Stream stream) {
    switch (stream) {
    case Stream::compute: return TimelineView::tr("compute");
    case Stream::feature_comm: return TimelineView::tr("features");
    case Stream::gradient_comm: return TimelineView::tr("gradients");
    }
    return {};
}

// A merge of events of several kinds (forward and backward in a 1F1B steady state) is striped with their colours,
// over the colour of its longest member: a merge of one kind is plain, so warm-up and steady state look apart.
void paintMix(QPainter& painter, const QRectF& rect, std::uint16_t kinds, TaskKind main_kind) {
    std::vector<QColor> others;
    for (const auto& kind : task_kind_names) {
        if ((kinds & kind_bit(kind.value)) != 0 && kind.value != main_kind) others.push_back(task_kind_color(kind.value));
    }
    if (others.empty() || rect.width() < 3.0) return;
    constexpr double stripe_px = 3.0;
    std::size_t next = 0;
    for (double x = rect.left() + stripe_px; x < rect.right(); x += 2 * stripe_px) {
        painter.fillRect(QRectF(x, rect.top(), std::min(stripe_px, rect.right() - x), rect.height()),
                         others[next++ % others.size()]);
    }
}

// The hatching that marks exposed communication, in black or white to read on `background`.
QBrush exposed_brush(const QColor& background) {
    QColor ink = text_color_on(background);
    ink.setAlphaF(0.75);
    return QBrush(ink, Qt::BDiagPattern);
}

// Hatches the parts of a transfer during which its device computes nothing (event_exposure.h).
void paintExposed(QPainter& painter, const QRectF& rect, const Timeline& timeline, EventId id) {
    const TimelineEvent event = timeline.event(id);
    if (!is_communication(event.kind)) return;
    const double seconds_per_px = (event.end_s - event.start_s) / rect.width();
    const QBrush hatch = exposed_brush(task_kind_color(event.kind));
    for (const TimeInterval& part : exposed_parts(timeline, id)) {
        const double x0 = std::max(rect.left(), rect.left() + (part.start_s - event.start_s) / seconds_per_px);
        const double x1 = std::min(rect.right(), rect.left() + (part.end_s - event.start_s) / seconds_per_px);
        if (x1 > x0) painter.fillRect(QRectF(x0, rect.top(), x1 - x0, rect.height()), hatch);
    }
}

}  // namespace

TimelineView::TimelineView(QWidget* parent) : QAbstractScrollArea(parent) {
    setObjectName(QStringLiteral("TimelineView"));
    setFocusPolicy(Qt::StrongFocus);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    viewport()->setMouseTracking(true);
    verticalScrollBar()->setSingleStep(lane_height_px);
}

void TimelineView::showTimeline(std::shared_ptr<const TimelineLevels> levels,
                                std::shared_ptr<const IdenticalDevices> classes, double capacity_bytes) {
    const std::size_t devices_before = levels_ ? levels_->timeline().devices().size() : 0;
    levels_ = classes ? std::move(levels) : nullptr;
    classes_ = levels_ ? std::move(classes) : nullptr;
    capacity_bytes_ = capacity_bytes;
    // Another cluster or mode: the folds start over (classes of identical devices folded, the rest open).
    if (levels_ && levels_->timeline().devices().size() != devices_before) folding_ = TimelineFolding{};
    present_kinds_ = 0;
    if (levels_) {
        // Each lane merged at the whole iteration's width: a box or two, holding its kinds.
        const Timeline& timeline = levels_->timeline();
        std::vector<LaneBox> boxes;
        for (std::size_t device = 0; device < timeline.devices().size(); ++device) {
            for (const auto& stream : stream_names) {
                boxes.clear();
                levels_->boxes(device, stream.value, 0.0, timeline.iteration_time_s(), timeline.iteration_time_s(),
                               boxes);
                for (const LaneBox& box : boxes) present_kinds_ |= box.kinds;
            }
        }
    }
    // One scale for every lane, so that lanes compare: the highest device's peak, the capacity when in range.
    double highest_bytes = 0.0;
    if (levels_) {
        for (std::size_t device = 0; device < levels_->timeline().devices().size(); ++device) {
            highest_bytes = std::max(highest_bytes, levels_->timeline().peak_memory_bytes(device));
        }
    }
    memory_top_ = memory_axis_top(highest_bytes, capacity_bytes_);
    message_.clear();
    select(std::nullopt, false);
    range_.reset();
    revealed_device_.reset();
    layoutRows();
    scale_.setBounds(levels_ ? levels_->timeline().iteration_time_s() : 1.0, lanesWidth());
    scale_.fit();
    updateScrollBars();
    refresh();
}

void TimelineView::layoutRows() {
    const RowHeights heights{lane_height_px, band_height_px, min_row_height_px,
                             memory_lanes_shown_ ? memory_lane_height_px : 0};
    rows_ = levels_ ? layout_timeline_rows(levels_->timeline(), *classes_, heights, folding_) : TimelineRowLayout{};
}

bool TimelineView::unfoldTo(std::size_t device) {
    if (!levels_ || device >= levels_->timeline().devices().size()) return false;
    if (rows_.deviceRow(device) == nullptr) {
        folding_.reveal(levels_->timeline(), *classes_, device);
        layoutRows();
        updateScrollBars();
    }
    return rows_.deviceRow(device) != nullptr;
}

void TimelineView::toggleGroup(const TimelineRow& row) {
    folding_.toggle(row);
    layoutRows();
    updateScrollBars();
    refresh();
}

void TimelineView::setEveryClassUnfolded(bool unfolded) {
    folding_.unfolded_classes.clear();
    if (unfolded && classes_) {
        for (std::size_t c = 0; c < classes_->class_count(); ++c) {
            if (classes_->members(c).size() > 1) folding_.unfolded_classes.insert(c);
        }
    }
    layoutRows();
    updateScrollBars();
    refresh();
}

void TimelineView::contextMenuEvent(QContextMenuEvent* event) {
    if (!classes_ || event->pos().x() >= header_width_px) return;
    bool any_class = false;
    for (std::size_t c = 0; c < classes_->class_count() && !any_class; ++c) any_class = classes_->members(c).size() > 1;
    if (!any_class) return;
    QMenu menu(this);
    menu.addAction(tr("List Every Device"), this, [this] { setEveryClassUnfolded(true); });
    menu.addAction(tr("Fold Identical Devices"), this, [this] { setEveryClassUnfolded(false); });
    menu.exec(event->globalPos());
}

QString TimelineView::headerToolTip(const TimelineRow& row) const {
    if (!levels_) return {};
    const Timeline& timeline = levels_->timeline();
    switch (row.kind) {
    case RowKind::stage_band:
    case RowKind::node_band: return tr("Click to fold or unfold these rows.");
    case RowKind::class_band: return tr("These devices did exactly the same in this iteration. Click to fold them into one row.");
    case RowKind::device: break;
    }
    const TimelineDevice& device = timeline.devices()[row.device];
    QStringList coordinates;
    for (const int coordinate : device.coordinates) coordinates << QString::number(coordinate);
    const auto& r = device.ranks;  // tp, cp, ep, dp, pp
    const QString place = tr("NPU %1 at (%2) in the topology, node %3 · ranks: tp %4, cp %5, ep %6, dp %7, pp %8")
                              .arg(device.npu)
                              .arg(coordinates.join(QStringLiteral(", ")))
                              .arg(device.node)
                              .arg(r[0])
                              .arg(r[1])
                              .arg(r[2])
                              .arg(r[3])
                              .arg(r[4]);
    if (row.class_size > 1) {
        QStringList npus;
        for (const std::size_t member : classes_->members(row.class_index)) {
            if (npus.size() == 8) {
                npus << QStringLiteral("…");
                break;
            }
            npus << QString::number(timeline.devices()[member].npu);
        }
        return place + u'\n' +
               tr("%1 devices did exactly the same in this iteration (NPUs %2); NPU %3's lanes stand for them. "
                  "Click to list them.")
                   .arg(row.class_size)
                   .arg(npus.join(QStringLiteral(", ")))
                   .arg(device.npu);
    }
    if (device.weight > 1.0) {
        return place + u'\n' +
               tr("It stands for the %1 devices of its stage (its tp, cp, ep and dp peers do the same work); one "
                  "device per stage was simulated. Run ▸ Simulate Every Device simulates each.")
                   .arg(device.weight, 0, 'f', 0);
    }
    return place;
}

void TimelineView::setMemoryLanesShown(bool shown) {
    if (shown == memory_lanes_shown_) return;
    memory_lanes_shown_ = shown;
    layoutRows();
    updateScrollBars();
    refresh();
}

void TimelineView::showMessage(const QString& message) {
    select(std::nullopt, false);
    levels_.reset();
    rows_ = TimelineRowLayout{};
    message_ = message;
    updateScrollBars();
    refresh();
}

double TimelineView::lanesWidth() const {
    return std::max(1.0, static_cast<double>(viewport()->width() - header_width_px));
}

void TimelineView::updateScrollBars() {
    const int visible = std::max(0, viewport()->height() - lanesTop());
    verticalScrollBar()->setPageStep(std::max(1, visible));
    verticalScrollBar()->setRange(0, std::max(0, rows_.height_px - visible));
}

TimelineGeometry TimelineView::geometry() const {
    return TimelineGeometry{rows_, scale_, header_width_px, lanesTop(), verticalScrollBar()->value()};
}

std::optional<LaneBox> TimelineView::boxAt(const QPoint& point) const {
    if (!levels_) return std::nullopt;
    return geometry().boxAt(*levels_, point, min_box_width_px);
}

const TimelineRow* TimelineView::headerRowAt(const QPoint& point) const {
    return levels_ ? geometry().rowAt(point) : nullptr;
}

std::optional<QPoint> TimelineView::pointOf(EventId id) const {
    if (!levels_) return std::nullopt;
    return geometry().pointOf(levels_->timeline(), id);
}

QString TimelineView::describe(const LaneBox& box) const {
    return levels_ ? box_description(levels_->timeline(), box, min_box_width_px) : QString();
}

void TimelineView::select(std::optional<EventId> event, bool reveal) {
    relations_ = event && levels_ ? relations_of(levels_->timeline(), *event) : EventRelations{};
    const bool changed = selected_ != event;
    selected_ = levels_ ? event : std::nullopt;
    if (selected_ && reveal) {
        const TimelineEvent shown = levels_->timeline().event(*selected_);
        const double width_s = scale_.seconds_per_pixel() * lanesWidth();
        if (shown.end_s - shown.start_s > width_s) {
            zoomToEvent(*selected_);
        } else if (shown.start_s < scale_.start_s() || shown.end_s > scale_.end_s(lanesWidth())) {
            const double middle_s = (shown.start_s + shown.end_s) / 2.0;
            scale_.show(middle_s - width_s / 2.0, middle_s + width_s / 2.0);
        }
        unfoldTo(shown.device);
        if (const std::optional<int> top = rows_.laneTop(shown.device, shown.stream)) {
            const int visible = viewport()->height() - lanesTop();
            const int scroll = verticalScrollBar()->value();
            if (*top < scroll || *top + lane_height_px > scroll + visible) {
                verticalScrollBar()->setValue(*top - visible / 3);
            }
        }
    }
    refresh();
    if (changed) Q_EMIT selectionChanged(selected_ ? static_cast<qint64>(*selected_) : -1);
}

std::optional<QRectF> TimelineView::rectOf(EventId id) const {
    return geometry().rectOf(levels_->timeline(), id);
}

void TimelineView::paintSelection(QPainter& painter) const {
    if (!selected_) return;
    painter.save();
    painter.setClipRect(QRect(header_width_px, lanesTop(), static_cast<int>(lanesWidth()), viewport()->height()));
    const QColor highlight = palette().color(QPalette::Highlight);
    // The critical path through the selection, into it and on from it: a bar under each of its events in view.
    const double from_s = scale_.start_s();
    const double to_s = scale_.end_s(lanesWidth());
    for (const auto* path : {&relations_.critical_path, &relations_.critical_path_onward}) {
        for (const EventId id : *path) {
            const TimelineEvent step = levels_->timeline().event(id);
            if (step.end_s < from_s || step.start_s > to_s) continue;
            if (const auto rect = rectOf(id)) {
                painter.fillRect(QRectF(rect->left(), rect->bottom() - 1.0, rect->width(), 3.0), highlight);
            }
        }
    }
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(palette().color(QPalette::Text), 1.5, Qt::DashLine));
    const auto outline = [&](EventId id) {
        if (const auto rect = rectOf(id)) painter.drawRect(rect->adjusted(-1, -1, 1, 1));
    };
    for (const Wait& wait : relations_.waits) outline(wait.event);
    for (const EventId id : relations_.same_collective) outline(id);
    for (const EventId id : relations_.waited_on_elsewhere) outline(id);
    painter.setPen(QPen(highlight, 3.0));
    if (const auto rect = rectOf(*selected_)) painter.drawRect(rect->adjusted(-1.5, -1.5, 1.5, 1.5));
    painter.restore();
}

void TimelineView::revealDevice(std::size_t device) {
    if (!unfoldTo(device)) return;
    // The row at the top under the bands that head it.
    auto row = rows_.rows.begin() + (rows_.deviceRow(device) - rows_.rows.data());
    while (row != rows_.rows.begin() && std::prev(row)->isBand() && std::prev(row)->depth < row->depth) --row;
    verticalScrollBar()->setValue(row->top_px);
    revealed_device_ = device;
    refresh();
}

void TimelineView::selectRange(double from_s, double to_s) {
    if (to_s > from_s) {
        range_ = std::pair(from_s, to_s);
    } else {
        range_.reset();
    }
    refresh();
    Q_EMIT rangeSelected(range_ ? from_s : 0.0, range_ ? to_s : 0.0);
}

void TimelineView::paintRange(QPainter& painter) const {
    if (!range_) return;
    const double width = lanesWidth();
    const double x0 = std::max(0.0, scale_.x_of(range_->first)) + header_width_px;
    const double x1 = std::min(width, scale_.x_of(range_->second)) + header_width_px;
    if (x1 < header_width_px || x0 > header_width_px + width) return;
    QColor shade = palette().color(QPalette::Highlight);
    shade.setAlphaF(0.15);
    painter.fillRect(QRectF(x0, lanesTop(), std::max(1.0, x1 - x0), viewport()->height() - lanesTop()), shade);
    painter.setPen(QPen(palette().color(QPalette::Highlight), 1.0));
    painter.drawLine(QPointF(x0, legend_height_px), QPointF(x0, viewport()->height()));
    painter.drawLine(QPointF(x1, legend_height_px), QPointF(x1, viewport()->height()));
    // Its length on the axis, over the shading.
    const QString length = tr("Δ %1").arg(time_text(range_->second - range_->first));
    const int text_width = painter.fontMetrics().horizontalAdvance(length) + 8;
    const QRectF label((x0 + x1 - text_width) / 2.0, legend_height_px + 2, text_width, axis_height_px - 4);
    painter.fillRect(label, palette().color(QPalette::Highlight));
    painter.setPen(palette().color(QPalette::HighlightedText));
    painter.drawText(label, Qt::AlignCenter, length);
}

void TimelineView::zoomAt(double x, double factor) {
    scale_.zoomAt(x - header_width_px, factor);
    refresh();
}

void TimelineView::fit() {
    scale_.fit();
    refresh();
}

void TimelineView::showRange(double from_s, double to_s) {
    scale_.show(from_s, to_s);
    refresh();
}

void TimelineView::zoomToEvent(EventId id) {
    if (!levels_) return;
    const TimelineEvent event = levels_->timeline().event(id);
    const double margin_s = std::max((event.end_s - event.start_s) * 0.1, TimeScale::min_seconds_per_pixel * 100);
    scale_.show(event.start_s - margin_s, event.end_s + margin_s);
    refresh();
}

void TimelineView::paintEvent(QPaintEvent*) {
    QPainter painter(viewport());
    painter.fillRect(viewport()->rect(), palette().base());
    if (!levels_) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(viewport()->rect().adjusted(20, 20, -20, -20), Qt::AlignCenter | Qt::TextWordWrap,
                         message_.isEmpty() ? tr("No result yet") : message_);
        return;
    }
    paintRows(painter);
    paintSelection(painter);
    paintAxis(painter);
    paintRange(painter);
    paintLegend(painter);
}

void TimelineView::paintLegend(QPainter& painter) const {
    const QRect band(0, 0, viewport()->width(), legend_height_px);
    painter.fillRect(band, palette().window());
    const QFontMetrics metrics(font());
    constexpr int swatch = 10;
    int x = 8;
    // One entry: a swatch (with hatching for exposed communication) and a name; false when it does not fit.
    const auto entry = [&](const QString& name, const QColor& colour, bool hatched) {
        const int width = swatch + 4 + metrics.horizontalAdvance(name);
        if (x + width > band.width() - 8) return false;
        const QRect box(x, (legend_height_px - swatch) / 2, swatch, swatch);
        painter.fillRect(box, colour);
        if (hatched) painter.fillRect(box, exposed_brush(colour));
        painter.setPen(palette().color(QPalette::WindowText));
        painter.drawText(QRect(x + swatch + 4, 0, width, legend_height_px), Qt::AlignVCenter, name);
        x += width + 12;
        return true;
    };
    // The kinds this iteration has (a run without context parallelism shows no CP), then the hatching.
    bool all_fit = true;
    for (const auto& kind : task_kind_names) {
        if ((present_kinds_ & kind_bit(kind.value)) == 0) continue;
        all_fit = all_fit && entry(task_kind_label(kind.value), task_kind_color(kind.value), false);
    }
    bool any_exposed = false;
    for (const auto& kind : task_kind_names) {
        any_exposed = any_exposed || ((present_kinds_ & kind_bit(kind.value)) != 0 && is_communication(kind.value));
    }
    if (all_fit && any_exposed) {
        all_fit = entry(tr("Exposed (nothing computes)"), task_kind_color(TaskKind::tp_comm), true);
    }
    if (!all_fit) return;
    const QString hint = tr("wheel: zoom · drag: pan · Shift+drag: measure · W/S/A/D · 0: fit");
    const int hint_width = metrics.horizontalAdvance(hint);
    if (x + hint_width + 8 < band.width()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(QRect(band.width() - hint_width - 8, 0, hint_width, legend_height_px), Qt::AlignVCenter,
                         hint);
    }
}

void TimelineView::paintAxis(QPainter& painter) const {
    const QRect band(0, legend_height_px, viewport()->width(), axis_height_px);
    painter.fillRect(band, palette().window());
    painter.setPen(palette().color(QPalette::Mid));
    painter.drawLine(band.bottomLeft(), band.bottomRight());
    painter.setPen(palette().color(QPalette::WindowText));
    // The header column's part says how much time is shown.
    const double width = lanesWidth();
    painter.drawText(QRect(8, band.top(), header_width_px - 16, band.height()), Qt::AlignVCenter,
                     tr("%1 shown").arg(time_text(scale_.seconds_per_pixel() * width)));
    painter.save();
    painter.setClipRect(QRect(header_width_px, band.top(), static_cast<int>(width), band.height()));
    for (const TimeTick& tick : time_ticks(scale_, width, 90.0)) {
        const int x = header_width_px + static_cast<int>(std::lround(scale_.x_of(tick.time_s)));
        painter.setPen(palette().color(QPalette::Mid));
        painter.drawLine(x, band.bottom() - 5, x, band.bottom());
        painter.setPen(palette().color(QPalette::WindowText));
        // Right of its tick, or left of it where the right edge would cut it.
        const int label_width = painter.fontMetrics().horizontalAdvance(tick.label) + 2;
        const bool fits_right = x + 3 + label_width <= header_width_px + static_cast<int>(width);
        painter.drawText(QRect(fits_right ? x + 3 : x - 3 - label_width, band.top(), label_width, band.height() - 2),
                         Qt::AlignVCenter | Qt::AlignLeft, tick.label);
    }
    painter.restore();
}

void TimelineView::paintRows(QPainter& painter) const {
    const Timeline& timeline = levels_->timeline();
    const int top = lanesTop();
    const int scroll = verticalScrollBar()->value();
    const int height = viewport()->height();
    const double width = lanesWidth();
    const double from_s = scale_.start_s();
    const double to_s = scale_.end_s(width);
    const double min_width_s = min_box_width_px * scale_.seconds_per_pixel();
    const QRectF lanes_area(header_width_px, top, width, height - top);
    painter.save();
    painter.setClipRect(QRect(0, top, viewport()->width(), height - top));

    // Faint gridlines at the axis's ticks.
    painter.setPen(QPen(palette().color(QPalette::Midlight), 0));
    for (const TimeTick& tick : time_ticks(scale_, width, 90.0)) {
        const double x = header_width_px + scale_.x_of(tick.time_s);
        painter.drawLine(QPointF(x, top), QPointF(x, height));
    }

    const QFontMetrics metrics(font());
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    const QFontMetrics small_metrics(small);
    QFont bold = font();
    bold.setBold(true);
    std::vector<LaneBox> boxes;
    for (const TimelineRow& row : rows_.rows) {
        const int y = top + row.top_px - scroll;
        if (y + row.height_px < top) continue;
        if (y > height) break;
        const int indent_px = 8 + 10 * row.depth;
        if (row.isBand()) {
            // A stage's band across the whole width; a class's or node's a fainter one, indented under it.
            if (row.kind == RowKind::stage_band) {
                painter.fillRect(QRect(0, y, viewport()->width(), row.height_px), palette().alternateBase());
            } else {
                painter.fillRect(QRect(0, y, header_width_px, row.height_px), palette().alternateBase());
                painter.setPen(palette().color(QPalette::Midlight));
                painter.drawLine(0, y + row.height_px - 1, viewport()->width(), y + row.height_px - 1);
            }
            painter.setFont(row.kind == RowKind::stage_band ? bold : font());
            painter.setPen(palette().color(QPalette::Text));
            const int title_width = (row.kind == RowKind::stage_band ? viewport()->width() : header_width_px) - indent_px - 8;
            painter.drawText(QRect(indent_px, y, title_width, row.height_px), Qt::AlignVCenter,
                             metrics.elidedText(row.title, Qt::ElideRight, title_width));
            painter.setFont(font());
            continue;
        }
        if (revealed_device_ == row.device) {  // chosen in another view
            QColor mark = palette().color(QPalette::Highlight);
            mark.setAlphaF(0.25);
            painter.fillRect(QRect(0, y, header_width_px - 1, row.height_px), mark);
        }
        // Header: the NPU and its place on the left, the lanes' names on the right.
        painter.setPen(palette().color(QPalette::Text));
        painter.setFont(bold);
        // The lanes' names take the header's right-hand column; the NPU and its place are elided before it.
        const int title_width = header_width_px - lane_name_width_px - 8 - indent_px;
        painter.drawText(QRect(indent_px, y + 2, title_width, metrics.height()), Qt::AlignLeft | Qt::AlignVCenter,
                         metrics.elidedText(row.title, Qt::ElideRight, title_width));
        painter.setFont(small);
        painter.setPen(palette().color(QPalette::PlaceholderText));
        const int detail_width = title_width;
        painter.drawText(QRect(indent_px, y + 2 + metrics.height(), detail_width, small_metrics.height()),
                         Qt::AlignLeft | Qt::AlignVCenter,
                         small_metrics.elidedText(row.detail, Qt::ElideRight, detail_width));
        for (std::size_t i = 0; i < row.lanes.size(); ++i) {
            const int lane_y = y + static_cast<int>(i) * lane_height_px;
            painter.drawText(QRect(header_width_px - lane_name_width_px - 6, lane_y, lane_name_width_px, lane_height_px),
                             Qt::AlignRight | Qt::AlignVCenter,
                             lane_name(row.lanes[i]));
        }
        if (row.memory_top_px >= 0) {
            painter.drawText(QRect(header_width_px - lane_name_width_px - 6, y + row.memory_top_px, lane_name_width_px,
                                   memory_lane_height_px),
                             Qt::AlignRight | Qt::AlignVCenter, tr("memory"));
        }
        painter.setFont(font());

        painter.save();
        painter.setClipRect(lanes_area.toAlignedRect().intersected(QRect(0, y, viewport()->width(), row.height_px)));
        for (std::size_t i = 0; i < row.lanes.size(); ++i) {
            const double lane_y = y + static_cast<double>(i) * lane_height_px;
            boxes.clear();
            levels_->boxes(row.device, row.lanes[i], from_s, to_s, min_width_s, boxes);
            for (const LaneBox& box : boxes) {
                double x0 = header_width_px + scale_.x_of(box.start_s);
                double x1 = header_width_px + scale_.x_of(box.end_s);
                x0 = std::max(x0, lanes_area.left() - 1.0);
                x1 = std::min(x1, lanes_area.right() + 1.0);
                if (x1 - x0 < 1.0) x1 = x0 + 1.0;
                const TimelineEvent event = timeline.event(box.representative);
                const QColor color = task_kind_color(event.kind);
                const QRectF rect(x0, lane_y + 2.0, x1 - x0, lane_height_px - 4.0);
                painter.fillRect(rect, color);
                if (box.count > 1) paintMix(painter, rect, box.kinds, event.kind);
                if (box.count == 1 && rect.width() >= 3.0) paintExposed(painter, rect, timeline, box.representative);
                if (rect.width() < 24.0) continue;
                QString label;
                if (box.count > 1) {
                    label = QStringLiteral("×%1").arg(box.count);
                } else {
                    label = QString::fromUtf8(event.operation.data(), static_cast<qsizetype>(event.operation.size()));
                    if (event.micro_batch >= 0) label = QStringLiteral("%1 · %2").arg(event.micro_batch).arg(label);
                }
                painter.setFont(small);
                painter.setPen(text_color_on(color));
                painter.drawText(rect.adjusted(3, 0, -3, 0), Qt::AlignVCenter | Qt::AlignLeft,
                                 small_metrics.elidedText(label, Qt::ElideRight, static_cast<int>(rect.width()) - 6));
                painter.setFont(font());
            }
        }
        if (row.memory_top_px >= 0) paintMemoryLane(painter, row, y + row.memory_top_px, from_s, to_s);
        painter.restore();
        painter.setPen(palette().color(QPalette::Midlight));
        painter.drawLine(0, y + row.height_px - 1, viewport()->width(), y + row.height_px - 1);
    }
    painter.setPen(palette().color(QPalette::Mid));
    painter.drawLine(header_width_px - 1, top, header_width_px - 1, height);
    painter.restore();
}

void TimelineView::paintMemoryLane(QPainter& painter, const TimelineRow& row, double lane_top, double from_s,
                                   double to_s) const {
    const Timeline& timeline = levels_->timeline();
    const double peak_bytes = timeline.peak_memory_bytes(row.device);
    const double top_bytes = memory_top_.bytes;
    if (!(top_bytes > 0.0)) return;
    const double height = memory_lane_height_px - 4.0;
    const double bottom = lane_top + 2.0 + height;
    const int columns = static_cast<int>(lanesWidth());
    const std::vector<double> levels = memory_levels(timeline.memory(row.device), from_s, to_s, columns);
    const QColor allocated = memory_category_color(MemoryCategory::activations);
    const QColor over = over_capacity_color();
    for (int c = 0; c < columns; ++c) {
        const double bytes = levels[static_cast<std::size_t>(c)];
        if (bytes <= 0.0) continue;
        const double h = bytes / top_bytes * height;
        painter.fillRect(QRectF(header_width_px + c, bottom - h, 1.0, h),
                         capacity_bytes_ > 0.0 && bytes > capacity_bytes_ ? over : allocated);
    }
    // The lane's scale, at its top right on a backing that keeps it legible over the allocation: what the lane's full
    // height stands for, and where the capacity is when it is off the scale.
    const auto bytes = [](double value) {
        return QString::fromStdString(units::format_readable(value, units::Dimension::size, 3, true));
    };
    const QString scale_text = memory_top_.capacity_shown || !(capacity_bytes_ > 0.0)
                                   ? tr("top %1").arg(bytes(top_bytes))
                                   : tr("top %1 · capacity %2, off the scale").arg(bytes(top_bytes), bytes(capacity_bytes_));
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.8);
    painter.setFont(small);
    const QFontMetrics small_metrics(small);
    const double text_width = small_metrics.horizontalAdvance(scale_text) + 6.0;
    const QRectF backing(header_width_px + columns - text_width - 2.0, lane_top + 1.0, text_width,
                         small_metrics.height());
    QColor behind = palette().color(QPalette::Window);
    behind.setAlphaF(0.8F);
    painter.fillRect(backing, behind);
    painter.setPen(palette().color(QPalette::WindowText));
    painter.drawText(backing, Qt::AlignCenter, scale_text);
    painter.setFont(font());
    if (memory_top_.capacity_shown) {
        const double capacity_y = bottom - capacity_bytes_ / top_bytes * height;
        painter.setPen(QPen(over, 1.0, Qt::DashLine));
        painter.drawLine(QPointF(header_width_px, capacity_y), QPointF(header_width_px + columns, capacity_y));
        if (peak_bytes > capacity_bytes_) {
            // Out of memory: a dot where the allocation first passes the capacity.
            for (const MemorySample& sample : timeline.memory(row.device)) {
                if (sample.bytes <= capacity_bytes_) continue;
                painter.setPen(Qt::NoPen);
                painter.setBrush(over);
                painter.drawEllipse(QPointF(header_width_px + scale_.x_of(sample.time_s), capacity_y), 4.0, 4.0);
                painter.setBrush(Qt::NoBrush);
                break;
            }
        }
    }
}

void TimelineView::resizeEvent(QResizeEvent* event) {
    QAbstractScrollArea::resizeEvent(event);
    scale_.setBounds(levels_ ? levels_->timeline().iteration_time_s() : 1.0, lanesWidth());
    updateScrollBars();
    refresh();
}

void TimelineView::refresh() {
    viewport()->update();
    const double end_s = scale_.end_s(lanesWidth());
    if (scale_.start_s() != emitted_start_s_ || end_s != emitted_end_s_) {
        emitted_start_s_ = scale_.start_s();
        emitted_end_s_ = end_s;
        Q_EMIT rangeChanged(emitted_start_s_, emitted_end_s_);
    }
}

void TimelineView::wheelEvent(QWheelEvent* event) {
    if (event->modifiers() & Qt::ShiftModifier) {
        QAbstractScrollArea::wheelEvent(event);  // scroll the rows
        return;
    }
    const double notches = event->angleDelta().y() / 120.0;
    if (notches == 0.0) return;
    zoomAt(event->position().x(), std::pow(wheel_zoom_per_notch, notches));
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return;
    if ((event->modifiers() & Qt::ShiftModifier) && event->position().x() >= header_width_px) {
        selecting_range_ = true;
        range_anchor_s_ = scale_.time_at(event->position().x() - header_width_px);
        range_ = std::pair(range_anchor_s_, range_anchor_s_);
        refresh();
        return;
    }
    drag_from_ = event->position().toPoint();
    dragging_ = true;
    dragged_ = false;
}

void TimelineView::mouseMoveEvent(QMouseEvent* event) {
    if (selecting_range_) {
        const double time_s = std::clamp(scale_.time_at(event->position().x() - header_width_px), scale_.start_s(),
                                         scale_.end_s(lanesWidth()));
        range_ = std::pair(std::min(range_anchor_s_, time_s), std::max(range_anchor_s_, time_s));
        refresh();
        return;
    }
    if (!dragging_) return;
    const QPoint delta = event->position().toPoint() - drag_from_;
    if (!dragged_ && delta.manhattanLength() < drag_threshold_px) return;
    dragged_ = true;
    viewport()->setCursor(Qt::ClosedHandCursor);
    scale_.panBy(-delta.x());
    verticalScrollBar()->setValue(verticalScrollBar()->value() - delta.y());
    drag_from_ = event->position().toPoint();
    refresh();
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event) {
    if (selecting_range_) {
        selecting_range_ = false;
        if (range_ && range_->second > range_->first) {
            Q_EMIT rangeSelected(range_->first, range_->second);
        } else {
            selectRange(0.0, 0.0);
        }
        return;
    }
    const bool clicked = dragging_ && !dragged_;
    dragging_ = false;
    viewport()->unsetCursor();
    if (!clicked) return;
    // A click on a band folds or unfolds it, on the header of a row standing for identical devices lists them;
    // elsewhere it selects the event under it, or on a merge or nothing clears the selection. It clears a range too.
    if (range_) selectRange(0.0, 0.0);
    if (const TimelineRow* row = headerRowAt(event->position().toPoint())) {
        if (row->isBand() || (row->class_size > 1 && event->position().x() < header_width_px)) {
            const TimelineRow clicked_row = *row;  // the layout is rebuilt
            toggleGroup(clicked_row);
            return;
        }
    }
    const std::optional<LaneBox> box = boxAt(event->position().toPoint());
    select(box && box->count == 1 ? std::optional<EventId>(box->representative) : std::nullopt, false);
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* event) {
    const std::optional<LaneBox> box = boxAt(event->position().toPoint());
    if (!box) return;
    if (box->count > 1) {
        scale_.show(box->start_s, box->end_s);
        refresh();
    } else {
        zoomToEvent(box->representative);
    }
}

void TimelineView::keyPressEvent(QKeyEvent* event) {
    const double middle = header_width_px + lanesWidth() / 2.0;
    switch (event->key()) {
    case Qt::Key_W:
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomAt(middle, key_zoom);
        break;
    case Qt::Key_S:
    case Qt::Key_Minus:
        zoomAt(middle, 1.0 / key_zoom);
        break;
    case Qt::Key_A:
        scale_.panBy(-key_pan_fraction * lanesWidth());
        refresh();
        break;
    case Qt::Key_D:
        scale_.panBy(key_pan_fraction * lanesWidth());
        refresh();
        break;
    case Qt::Key_0:
        fit();
        break;

    default:
        QAbstractScrollArea::keyPressEvent(event);
    }
}

bool TimelineView::viewportEvent(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const TimelineRow* row = headerRowAt(help->pos());
        const QString header_tip = row != nullptr && (row->isBand() || help->pos().x() < header_width_px)
                                       ? headerToolTip(*row)
                                       : QString();
        if (!header_tip.isEmpty()) {
            QToolTip::showText(help->globalPos(), header_tip, viewport());
        } else if (const std::optional<LaneBox> box = boxAt(help->pos())) {
            QToolTip::showText(help->globalPos(), describe(*box), viewport());
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

void TimelineView::scrollContentsBy(int, int) { refresh(); }


std::optional<QRect> TimelineView::deviceRowRect(std::size_t device) const {
    if (!levels_) return std::nullopt;
    return geometry().deviceRowRect(device, viewport()->width());
}

std::optional<QRect> TimelineView::rangeRect(double from_s, double to_s) const {
    if (!levels_) return std::nullopt;
    return geometry().rangeRect(from_s, to_s, viewport()->height());
}

std::optional<std::size_t> TimelineView::deviceOfNpu(std::int64_t npu) const {
    if (!levels_) return std::nullopt;
    const auto& devices = levels_->timeline().devices();
    for (std::size_t device = 0; device < devices.size(); ++device) {
        if (devices[device].npu == npu) return device;
    }
    return std::nullopt;
}

}  // namespace parasight::gui
