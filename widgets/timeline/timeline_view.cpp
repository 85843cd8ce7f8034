#include "timeline/timeline_view.h"

#include <QApplication>

#include "style/axis_scale.h"
#include "timeline/event_text.h"
#include "timeline/timeline_painter.h"

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

}  // namespace

TimelineView::TimelineView(QWidget* parent) : QAbstractScrollArea(parent) {
    setObjectName(QStringLiteral("TimelineView"));
    setFocusPolicy(Qt::StrongFocus);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    viewport()->setMouseTracking(true);
    verticalScrollBar()->setSingleStep(sizes_.lane_height_px);
    updateSizes();  // made inside a window whose text is larger already
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
    const RowHeights heights{sizes_.lane_height_px, sizes_.band_height_px, min_row_height_px,
                             memory_lanes_shown_ ? sizes_.memory_lane_height_px : 0};
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
    if (!classes_ || event->pos().x() >= sizes_.header_width_px) return;
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
    return std::max(1.0, static_cast<double>(viewport()->width() - sizes_.header_width_px));
}

void TimelineView::updateScrollBars() {
    const int visible = std::max(0, viewport()->height() - lanesTop());
    verticalScrollBar()->setPageStep(std::max(1, visible));
    verticalScrollBar()->setRange(0, std::max(0, rows_.height_px - visible));
}

TimelineGeometry TimelineView::geometry() const {
    return TimelineGeometry{rows_, scale_, sizes_.header_width_px, lanesTop(), verticalScrollBar()->value()};
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
            if (*top < scroll || *top + sizes_.lane_height_px > scroll + visible) {
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

void TimelineView::zoomAt(double x, double factor) {
    scale_.zoomAt(x - sizes_.header_width_px, factor);
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
    TimelinePicture picture{levels_.get(), message_, geometry(), viewport()->size()};
    picture.sizes = sizes_;
    picture.selected = selected_;
    picture.relations = &relations_;
    picture.revealed_device = revealed_device_;
    picture.range = range_;
    picture.playhead_s = playhead_s_;
    picture.capacity_bytes = capacity_bytes_;
    picture.memory_top = memory_top_;
    picture.present_kinds = present_kinds_;
    paint_timeline(painter, picture, palette(), font());
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
    if ((event->modifiers() & Qt::ShiftModifier) && event->position().x() >= sizes_.header_width_px) {
        selecting_range_ = true;
        range_anchor_s_ = scale_.time_at(event->position().x() - sizes_.header_width_px);
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
        const double time_s = std::clamp(scale_.time_at(event->position().x() - sizes_.header_width_px), scale_.start_s(),
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
        if (row->isBand() || (row->class_size > 1 && event->position().x() < sizes_.header_width_px)) {
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

void TimelineView::setPlayhead(std::optional<double> time_s) {
    playhead_s_ = time_s;
    viewport()->update();
}

void TimelineView::keyPressEvent(QKeyEvent* event) {
    const double middle = sizes_.header_width_px + lanesWidth() / 2.0;
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
    case Qt::Key_Left:
    case Qt::Key_Right:
        if (!playhead_s_) {
            QAbstractScrollArea::keyPressEvent(event);
            break;
        }
        Q_EMIT playheadStepRequested(event->key() == Qt::Key_Left ? -1 : 1);
        break;

    default:
        QAbstractScrollArea::keyPressEvent(event);
    }
}

bool TimelineView::viewportEvent(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const TimelineRow* row = headerRowAt(help->pos());
        const QString header_tip = row != nullptr && (row->isBand() || help->pos().x() < sizes_.header_width_px)
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

void TimelineView::changeEvent(QEvent* event) {
    QAbstractScrollArea::changeEvent(event);
    if (event->type() == QEvent::FontChange) updateSizes();
}

void TimelineView::updateSizes() {
    const double factor = static_cast<double>(fontMetrics().height()) / QFontMetrics(QApplication::font()).height();
    const TimelineSizes sizes = TimelineSizes::scaled(factor);
    if (sizes.header_width_px == sizes_.header_width_px && sizes.lane_height_px == sizes_.lane_height_px) return;
    sizes_ = sizes;
    verticalScrollBar()->setSingleStep(sizes_.lane_height_px);
    layoutRows();
    scale_.setBounds(levels_ ? levels_->timeline().iteration_time_s() : 1.0, lanesWidth());
    updateScrollBars();
    refresh();
    Q_EMIT sizesChanged();
}

}  // namespace parasight::gui
