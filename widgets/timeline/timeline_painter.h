#pragma once
// Draws the timeline view's picture from a value of everything it shows — the legend, the time axis, the rows with
// their lanes' boxes (striped where a box merges kinds, hatched where communication is exposed) and memory lanes, the
// selection with what it waited for and its critical path, a measured stretch — or, without a timeline, the message;
// so that a picture is drawn and tested without a widget (test_timeline_geometry paints one into an image).

#include "analysis/event_relations.h"
#include "analysis/timeline_levels.h"
#include "style/axis_scale.h"
#include "timeline/timeline_geometry.h"

#include <QFont>
#include <QPainter>
#include <QPalette>
#include <QSize>
#include <QString>

#include <cstdint>
#include <optional>
#include <utility>

namespace parasight::gui {

struct TimelinePicture {
    TimelinePicture(const TimelineLevels* shown, QString message_shown, TimelineGeometry geometry_now, QSize size_now)
        : levels(shown), message(std::move(message_shown)), geometry(geometry_now), size(size_now) {}

    const TimelineLevels* levels = nullptr;  // none: the message instead
    QString message;
    TimelineGeometry geometry;
    QSize size;  // the viewport's
    std::optional<EventId> selected;
    const EventRelations* relations = nullptr;  // the selection's; set with it
    std::optional<std::size_t> revealed_device;  // chosen in another view: its header marked
    std::optional<std::pair<double, double>> range;  // measured with Shift+drag
    std::optional<double> playhead_s;  // a lesson's playhead: a line at that time; memory lanes drawn up to it
    double capacity_bytes = 0.0;  // a device's memory, the memory lanes' line
    MemoryAxisTop memory_top;     // every memory lane's scale
    std::uint16_t present_kinds = 0;  // LaneBox::kinds of every event: the legend names these
    TimelineSizes sizes;              // the view's, from its font
};

void paint_timeline(QPainter& painter, const TimelinePicture& picture, const QPalette& palette, const QFont& font);

}  // namespace parasight::gui
