#include "timeline/timeline_export.h"

#include "export/chrome_trace.h"
#include "picture/picture_export.h"
#include "timeline/timeline_view.h"

#include <QPainter>

namespace parasight::gui {

std::optional<QString> export_timeline_png(TimelineView& view, const QString& path) {
    QWidget* area = view.viewport();
    return export_png(area->size(), view.palette().color(QPalette::Base),
                      [area](QPainter& painter) { area->render(&painter); }, path);
}

std::optional<QString> export_timeline_svg(TimelineView& view, const QString& path) {
    QWidget* area = view.viewport();
    return export_svg(area->size(), QObject::tr("ParaSight timeline"),
                      [area](QPainter& painter) { area->render(&painter); }, path);
}

std::optional<QString> export_chrome_trace(const Timeline& timeline, const QString& path) {
    return write_file_atomically(path, [&timeline](std::ostream& out) { write_chrome_trace(out, timeline); });
}

}  // namespace parasight::gui
