#include "timeline/timeline_export.h"

#include "export/chrome_trace.h"
#include "io/atomic_output.h"
#include "timeline/timeline_view.h"

#include <QBuffer>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>

namespace parasight::gui {

namespace {

std::optional<QString> write_whole(const QString& path, const std::function<void(std::ostream&)>& write) {
    auto output = AtomicOutput::open(path.toStdString());
    if (!output) return QString::fromStdString(output.error());
    write((*output)->stream());
    if (const auto error = (*output)->commit()) return QString::fromStdString(*error);
    return std::nullopt;
}

std::optional<QString> write_bytes(const QString& path, const QByteArray& bytes) {
    return write_whole(path, [&bytes](std::ostream& out) { out.write(bytes.constData(), bytes.size()); });
}

}  // namespace

std::optional<QString> export_timeline_png(TimelineView& view, const QString& path) {
    constexpr qreal scale = 2.0;
    QWidget* area = view.viewport();
    QImage image(area->size() * scale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(view.palette().color(QPalette::Base));
    area->render(&image);
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG")) return QObject::tr("the image could not be encoded as PNG");
    return write_bytes(path, png);
}

std::optional<QString> export_timeline_svg(TimelineView& view, const QString& path) {
    QWidget* area = view.viewport();
    QByteArray svg;
    QBuffer buffer(&svg);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(area->size());
    generator.setViewBox(QRect(QPoint(0, 0), area->size()));
    generator.setTitle(QObject::tr("ParaSight timeline"));
    {
        QPainter painter(&generator);
        area->render(&painter);
    }
    return write_bytes(path, svg);
}

std::optional<QString> export_chrome_trace(const Timeline& timeline, const QString& path) {
    return write_whole(path, [&timeline](std::ostream& out) { write_chrome_trace(out, timeline); });
}

}  // namespace parasight::gui
