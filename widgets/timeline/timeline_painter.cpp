#include "timeline/timeline_painter.h"

#include "analysis/event_exposure.h"
#include "analysis/memory_curve.h"
#include "style/activity_colors.h"
#include "style/quantity_text.h"
#include "timeline/event_text.h"
#include "units/quantity.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <vector>

namespace parasight::gui {
namespace {


QString tr(const char* text) { return QCoreApplication::translate("TimelineView", text); }

double lanes_width(const TimelinePicture& picture) {
    return std::max(1.0, static_cast<double>(picture.size.width() - picture.sizes.header_width_px));
}

// What the lane of a stream is called in the row header.
QString lane_name(Stream stream) {
    switch (stream) {
    case Stream::compute: return tr("compute");
    case Stream::feature_comm: return tr("features");
    case Stream::gradient_comm: return tr("gradients");
    case Stream::memory_in: return tr("memory in");
    case Stream::memory_out: return tr("memory out");
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

// The hatching that marks exposed communication and remote memory, in black or white to read on `background`.
QBrush exposed_brush(const QColor& background) {
    QColor ink = text_color_on(background);
    ink.setAlphaF(0.75);
    return QBrush(ink, Qt::BDiagPattern);
}

// Hatches the parts of a transfer during which its device computes nothing (event_exposure.h).
void paintExposed(QPainter& painter, const QRectF& rect, const Timeline& timeline, EventId id) {
    const TimelineEvent event = timeline.event(id);
    if (!is_communication(event.kind) && !is_remote_memory_work(event.kind)) return;
    const double seconds_per_px = (event.end_s - event.start_s) / rect.width();
    const QBrush hatch = exposed_brush(task_kind_color(event.kind));
    for (const TimeInterval& part : exposed_parts(timeline, id)) {
        const double x0 = std::max(rect.left(), rect.left() + (part.start_s - event.start_s) / seconds_per_px);
        const double x1 = std::min(rect.right(), rect.left() + (part.end_s - event.start_s) / seconds_per_px);
        if (x1 > x0) painter.fillRect(QRectF(x0, rect.top(), x1 - x0, rect.height()), hatch);
    }
}

void paint_memory_lane(QPainter& painter, const TimelinePicture& picture, const QPalette& palette, const QFont& font, const TimelineRow& row,
                       double lane_top, double from_s, double to_s) {
    const Timeline& timeline = picture.levels->timeline();
    const double peak_bytes = timeline.peak_memory_bytes(row.device);
    const double top_bytes = picture.memory_top.bytes;
    if (!(top_bytes > 0.0)) return;
    const double height = picture.sizes.memory_lane_height_px - 4.0;
    const double bottom = lane_top + 2.0 + height;
    const int columns = static_cast<int>(lanes_width(picture));
    const std::vector<double> levels = memory_levels(timeline.memory(row.device), from_s, to_s, columns);
    const QColor allocated = memory_category_color(MemoryCategory::activations);
    const QColor over = over_capacity_color();
    // With a playhead, the lanes grow with it: memory is drawn up to the playhead only.
    const int drawn = picture.playhead_s
                          ? std::clamp(static_cast<int>(std::ceil(picture.geometry.scale.x_of(*picture.playhead_s))), 0,
                                       columns)
                          : columns;
    for (int c = 0; c < drawn; ++c) {
        const double bytes = levels[static_cast<std::size_t>(c)];
        if (bytes <= 0.0) continue;
        const double h = bytes / top_bytes * height;
        painter.fillRect(QRectF(picture.sizes.header_width_px + c, bottom - h, 1.0, h),
                         picture.capacity_bytes > 0.0 && bytes > picture.capacity_bytes ? over : allocated);
    }
    // The lane's scale, at its top right on a backing that keeps it legible over the allocation: what the lane's full
    // height stands for, and where the capacity is when it is off the scale.
    const auto bytes = [](double value) {
        return QString::fromStdString(units::format_readable(value, units::Dimension::size, 3, true));
    };
    const QString scale_text = picture.memory_top.capacity_shown || !(picture.capacity_bytes > 0.0)
                                   ? tr("top %1").arg(bytes(top_bytes))
                                   : tr("top %1 · capacity %2, off the scale").arg(bytes(top_bytes), bytes(picture.capacity_bytes));
    QFont small = font;
    small.setPointSizeF(small.pointSizeF() * 0.8);
    painter.setFont(small);
    const QFontMetrics small_metrics(small);
    const double text_width = small_metrics.horizontalAdvance(scale_text) + 6.0;
    const QRectF backing(picture.sizes.header_width_px + columns - text_width - 2.0, lane_top + 1.0, text_width,
                         small_metrics.height());
    QColor behind = palette.color(QPalette::Window);
    behind.setAlphaF(0.8F);
    painter.fillRect(backing, behind);
    painter.setPen(palette.color(QPalette::WindowText));
    painter.drawText(backing, Qt::AlignCenter, scale_text);
    painter.setFont(font);
    if (picture.memory_top.capacity_shown) {
        const double capacity_y = bottom - picture.capacity_bytes / top_bytes * height;
        painter.setPen(QPen(over, 1.0, Qt::DashLine));
        painter.drawLine(QPointF(picture.sizes.header_width_px, capacity_y), QPointF(picture.sizes.header_width_px + columns, capacity_y));
        if (peak_bytes > picture.capacity_bytes) {
            // Out of memory: a dot where the allocation first passes the capacity.
            for (const MemorySample& sample : timeline.memory(row.device)) {
                if (sample.bytes <= picture.capacity_bytes) continue;
                painter.setPen(Qt::NoPen);
                painter.setBrush(over);
                painter.drawEllipse(QPointF(picture.sizes.header_width_px + picture.geometry.scale.x_of(sample.time_s), capacity_y), 4.0, 4.0);
                painter.setBrush(Qt::NoBrush);
                break;
            }
        }
    }
}

void paint_rows(QPainter& painter, const TimelinePicture& picture, const QPalette& palette, const QFont& font) {
    const Timeline& timeline = picture.levels->timeline();
    const int top = picture.geometry.lanes_top_px;
    const int scroll = picture.geometry.scroll_px;
    const int height = picture.size.height();
    const double width = lanes_width(picture);
    const double from_s = picture.geometry.scale.start_s();
    const double to_s = picture.geometry.scale.end_s(width);
    const double min_width_s = timeline_metrics::min_box_width_px * picture.geometry.scale.seconds_per_pixel();
    const QRectF lanes_area(picture.sizes.header_width_px, top, width, height - top);
    painter.save();
    painter.setClipRect(QRect(0, top, picture.size.width(), height - top));

    // Faint gridlines at the axis's ticks.
    painter.setPen(QPen(palette.color(QPalette::Midlight), 0));
    for (const TimeTick& tick : time_ticks(picture.geometry.scale, width, 90.0)) {
        const double x = picture.sizes.header_width_px + picture.geometry.scale.x_of(tick.time_s);
        painter.drawLine(QPointF(x, top), QPointF(x, height));
    }

    const QFontMetrics metrics(font);
    QFont small = font;
    small.setPointSizeF(small.pointSizeF() * 0.85);
    const QFontMetrics small_metrics(small);
    QFont bold = font;
    bold.setBold(true);
    std::vector<LaneBox> boxes;
    for (const TimelineRow& row : picture.geometry.rows.rows) {
        const int y = top + row.top_px - scroll;
        if (y + row.height_px < top) continue;
        if (y > height) break;
        const int indent_px = 8 + 10 * row.depth;
        if (row.isBand()) {
            // A stage's band across the whole width; a class's or node's a fainter one, indented under it.
            if (row.kind == RowKind::stage_band) {
                painter.fillRect(QRect(0, y, picture.size.width(), row.height_px), palette.alternateBase());
            } else {
                painter.fillRect(QRect(0, y, picture.sizes.header_width_px, row.height_px), palette.alternateBase());
                painter.setPen(palette.color(QPalette::Midlight));
                painter.drawLine(0, y + row.height_px - 1, picture.size.width(), y + row.height_px - 1);
            }
            painter.setFont(row.kind == RowKind::stage_band ? bold : font);
            painter.setPen(palette.color(QPalette::Text));
            const int title_width = (row.kind == RowKind::stage_band ? picture.size.width() : picture.sizes.header_width_px) - indent_px - 8;
            painter.drawText(QRect(indent_px, y, title_width, row.height_px), Qt::AlignVCenter,
                             metrics.elidedText(row.title, Qt::ElideRight, title_width));
            painter.setFont(font);
            continue;
        }
        if (picture.revealed_device == row.device) {  // chosen in another view
            QColor mark = palette.color(QPalette::Highlight);
            mark.setAlphaF(0.25);
            painter.fillRect(QRect(0, y, picture.sizes.header_width_px - 1, row.height_px), mark);
        }
        // Header: the NPU and its place on the left, the lanes' names on the right.
        painter.setPen(palette.color(QPalette::Text));
        painter.setFont(bold);
        // The lanes' names take the header's right-hand column; the NPU and its place are elided before it.
        const int title_width = picture.sizes.header_width_px - picture.sizes.lane_name_width_px - 8 - indent_px;
        painter.drawText(QRect(indent_px, y + 2, title_width, metrics.height()), Qt::AlignLeft | Qt::AlignVCenter,
                         metrics.elidedText(row.title, Qt::ElideRight, title_width));
        painter.setFont(small);
        painter.setPen(palette.color(QPalette::PlaceholderText));
        const int detail_width = title_width;
        painter.drawText(QRect(indent_px, y + 2 + metrics.height(), detail_width, small_metrics.height()),
                         Qt::AlignLeft | Qt::AlignVCenter,
                         small_metrics.elidedText(row.detail, Qt::ElideRight, detail_width));
        for (std::size_t i = 0; i < row.lanes.size(); ++i) {
            const int lane_y = y + static_cast<int>(i) * picture.sizes.lane_height_px;
            painter.drawText(QRect(picture.sizes.header_width_px - picture.sizes.lane_name_width_px - 6, lane_y, picture.sizes.lane_name_width_px, picture.sizes.lane_height_px),
                             Qt::AlignRight | Qt::AlignVCenter,
                             lane_name(row.lanes[i]));
        }
        if (row.memory_top_px >= 0) {
            painter.drawText(QRect(picture.sizes.header_width_px - picture.sizes.lane_name_width_px - 6, y + row.memory_top_px, picture.sizes.lane_name_width_px,
                                   picture.sizes.memory_lane_height_px),
                             Qt::AlignRight | Qt::AlignVCenter, tr("memory"));
        }
        painter.setFont(font);

        painter.save();
        painter.setClipRect(lanes_area.toAlignedRect().intersected(QRect(0, y, picture.size.width(), row.height_px)));
        for (std::size_t i = 0; i < row.lanes.size(); ++i) {
            const double lane_y = y + static_cast<double>(i) * picture.sizes.lane_height_px;
            boxes.clear();
            picture.levels->boxes(row.device, row.lanes[i], from_s, to_s, min_width_s, boxes);
            for (const LaneBox& box : boxes) {
                double x0 = picture.sizes.header_width_px + picture.geometry.scale.x_of(box.start_s);
                double x1 = picture.sizes.header_width_px + picture.geometry.scale.x_of(box.end_s);
                x0 = std::max(x0, lanes_area.left() - 1.0);
                x1 = std::min(x1, lanes_area.right() + 1.0);
                if (x1 - x0 < 1.0) x1 = x0 + 1.0;
                const TimelineEvent event = timeline.event(box.representative);
                const QColor color = task_kind_color(event.kind);
                const QRectF rect(x0, lane_y + 2.0, x1 - x0, picture.sizes.lane_height_px - 4.0);
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
                painter.setFont(font);
            }
        }
        if (row.memory_top_px >= 0) paint_memory_lane(painter, picture, palette, font, row, y + row.memory_top_px, from_s, to_s);
        painter.restore();
        painter.setPen(palette.color(QPalette::Midlight));
        painter.drawLine(0, y + row.height_px - 1, picture.size.width(), y + row.height_px - 1);
    }
    painter.setPen(palette.color(QPalette::Mid));
    painter.drawLine(picture.sizes.header_width_px - 1, top, picture.sizes.header_width_px - 1, height);
    painter.restore();
}

void paint_selection(QPainter& painter, const TimelinePicture& picture, const QPalette& palette) {
    if (!picture.selected) return;
    painter.save();
    painter.setClipRect(QRect(picture.sizes.header_width_px, picture.geometry.lanes_top_px, static_cast<int>(lanes_width(picture)), picture.size.height()));
    const QColor highlight = palette.color(QPalette::Highlight);
    // The critical path through the selection, into it and on from it: a bar under each of its events in view.
    const double from_s = picture.geometry.scale.start_s();
    const double to_s = picture.geometry.scale.end_s(lanes_width(picture));
    for (const auto* path : {&picture.relations->critical_path, &picture.relations->critical_path_onward}) {
        for (const EventId id : *path) {
            const TimelineEvent step = picture.levels->timeline().event(id);
            if (step.end_s < from_s || step.start_s > to_s) continue;
            if (const auto rect = picture.geometry.rectOf(picture.levels->timeline(), id)) {
                painter.fillRect(QRectF(rect->left(), rect->bottom() - 1.0, rect->width(), 3.0), highlight);
            }
        }
    }
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(palette.color(QPalette::Text), 1.5, Qt::DashLine));
    const auto outline = [&](EventId id) {
        if (const auto rect = picture.geometry.rectOf(picture.levels->timeline(), id)) painter.drawRect(rect->adjusted(-1, -1, 1, 1));
    };
    for (const Wait& wait : picture.relations->waits) outline(wait.event);
    for (const EventId id : picture.relations->same_collective) outline(id);
    for (const EventId id : picture.relations->waited_on_elsewhere) outline(id);
    painter.setPen(QPen(highlight, 3.0));
    if (const auto rect = picture.geometry.rectOf(picture.levels->timeline(), *picture.selected)) painter.drawRect(rect->adjusted(-1.5, -1.5, 1.5, 1.5));
    painter.restore();
}

void paint_axis(QPainter& painter, const TimelinePicture& picture, const QPalette& palette) {
    const QRect band(0, picture.sizes.legend_height_px, picture.size.width(), picture.sizes.axis_height_px);
    painter.fillRect(band, palette.window());
    painter.setPen(palette.color(QPalette::Mid));
    painter.drawLine(band.bottomLeft(), band.bottomRight());
    painter.setPen(palette.color(QPalette::WindowText));
    // The header column's part says how much time is shown.
    const double width = lanes_width(picture);
    painter.drawText(QRect(8, band.top(), picture.sizes.header_width_px - 16, band.height()), Qt::AlignVCenter,
                     tr("%1 shown").arg(time_text(picture.geometry.scale.seconds_per_pixel() * width)));
    painter.save();
    painter.setClipRect(QRect(picture.sizes.header_width_px, band.top(), static_cast<int>(width), band.height()));
    paint_time_ticks(painter, picture.geometry.scale,
                     QRect(picture.sizes.header_width_px, band.top(), static_cast<int>(width), band.height()),
                     palette.color(QPalette::Mid), palette.color(QPalette::WindowText));
    painter.restore();
}

void paint_range(QPainter& painter, const TimelinePicture& picture, const QPalette& palette) {
    if (!picture.range) return;
    const double width = lanes_width(picture);
    const double x0 = std::max(0.0, picture.geometry.scale.x_of(picture.range->first)) + picture.sizes.header_width_px;
    const double x1 = std::min(width, picture.geometry.scale.x_of(picture.range->second)) + picture.sizes.header_width_px;
    if (x1 < picture.sizes.header_width_px || x0 > picture.sizes.header_width_px + width) return;
    QColor shade = palette.color(QPalette::Highlight);
    shade.setAlphaF(0.15);
    painter.fillRect(QRectF(x0, picture.geometry.lanes_top_px, std::max(1.0, x1 - x0), picture.size.height() - picture.geometry.lanes_top_px), shade);
    painter.setPen(QPen(palette.color(QPalette::Highlight), 1.0));
    painter.drawLine(QPointF(x0, picture.sizes.legend_height_px), QPointF(x0, picture.size.height()));
    painter.drawLine(QPointF(x1, picture.sizes.legend_height_px), QPointF(x1, picture.size.height()));
    // Its length on the axis, over the shading.
    const QString length = tr("Δ %1").arg(time_text(picture.range->second - picture.range->first));
    const int text_width = painter.fontMetrics().horizontalAdvance(length) + 8;
    const QRectF label((x0 + x1 - text_width) / 2.0, picture.sizes.legend_height_px + 2, text_width, picture.sizes.axis_height_px - 4);
    painter.fillRect(label, palette.color(QPalette::Highlight));
    painter.setPen(palette.color(QPalette::HighlightedText));
    painter.drawText(label, Qt::AlignCenter, length);
}

void paint_playhead(QPainter& painter, const TimelinePicture& picture, const QPalette& palette) {
    if (!picture.playhead_s) return;
    const double x = picture.sizes.header_width_px + picture.geometry.scale.x_of(*picture.playhead_s);
    if (x < picture.sizes.header_width_px || x > picture.sizes.header_width_px + lanes_width(picture)) return;
    painter.setPen(QPen(palette.color(QPalette::Highlight), 2.0));
    painter.drawLine(QPointF(x, picture.sizes.legend_height_px), QPointF(x, picture.size.height()));
    // Its time on the axis.
    const QString time = time_text(*picture.playhead_s);
    const int text_width = painter.fontMetrics().horizontalAdvance(time) + 8;
    const QRectF label(std::min(x + 2.0, picture.sizes.header_width_px + lanes_width(picture) - text_width), picture.sizes.legend_height_px + 2,
                       text_width, picture.sizes.axis_height_px - 4);
    painter.fillRect(label, palette.color(QPalette::Highlight));
    painter.setPen(palette.color(QPalette::HighlightedText));
    painter.drawText(label, Qt::AlignCenter, time);
}

void paint_legend(QPainter& painter, const TimelinePicture& picture, const QPalette& palette, const QFont& font) {
    const QRect band(0, 0, picture.size.width(), picture.sizes.legend_height_px);
    painter.fillRect(band, palette.window());
    const QFontMetrics metrics(font);
    constexpr int swatch = 10;
    int x = 8;
    // One entry: a swatch (with hatching for exposed communication) and a name; false when it does not fit.
    const auto entry = [&](const QString& name, const QColor& colour, bool hatched) {
        const int width = swatch + 4 + metrics.horizontalAdvance(name);
        if (x + width > band.width() - 8) return false;
        const QRect box(x, (picture.sizes.legend_height_px - swatch) / 2, swatch, swatch);
        painter.fillRect(box, colour);
        if (hatched) painter.fillRect(box, exposed_brush(colour));
        painter.setPen(palette.color(QPalette::WindowText));
        painter.drawText(QRect(x + swatch + 4, 0, width, picture.sizes.legend_height_px), Qt::AlignVCenter, name);
        x += width + 12;
        return true;
    };
    // The kinds this iteration has (a run without context parallelism shows no CP), then the hatching.
    bool all_fit = true;
    for (const auto& kind : task_kind_names) {
        if ((picture.present_kinds & kind_bit(kind.value)) == 0) continue;
        all_fit = all_fit && entry(task_kind_label(kind.value), task_kind_color(kind.value), false);
    }
    bool any_exposed = false;
    for (const auto& kind : task_kind_names) {
        any_exposed = any_exposed || ((picture.present_kinds & kind_bit(kind.value)) != 0 &&
                                      (is_communication(kind.value) || is_remote_memory_work(kind.value)));
    }
    if (all_fit && any_exposed) {
        all_fit = entry(tr("Exposed (nothing computes)"), task_kind_color(TaskKind::tp_comm), true);
    }
    if (!all_fit) return;
    const QString hint = tr("wheel: zoom · drag: pan · Shift+drag: measure · W/S/A/D · 0: fit");
    const int hint_width = metrics.horizontalAdvance(hint);
    if (x + hint_width + 8 < band.width()) {
        painter.setPen(palette.color(QPalette::PlaceholderText));
        painter.drawText(QRect(band.width() - hint_width - 8, 0, hint_width, picture.sizes.legend_height_px), Qt::AlignVCenter,
                         hint);
    }
}

}  // namespace

void paint_timeline(QPainter& painter, const TimelinePicture& picture, const QPalette& palette, const QFont& font) {
    painter.fillRect(QRect(QPoint(0, 0), picture.size), palette.base());
    if (picture.levels == nullptr) {
        painter.setPen(palette.color(QPalette::PlaceholderText));
        painter.drawText(QRect(QPoint(0, 0), picture.size).adjusted(20, 20, -20, -20), Qt::AlignCenter | Qt::TextWordWrap,
                         picture.message.isEmpty() ? tr("No result yet") : picture.message);
        return;
    }
    paint_rows(painter, picture, palette, font);
    paint_selection(painter, picture, palette);
    paint_axis(painter, picture, palette);
    paint_range(painter, picture, palette);
    paint_playhead(painter, picture, palette);
    paint_legend(painter, picture, palette, font);
}

}  // namespace parasight::gui
