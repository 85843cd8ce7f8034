#include "picture/picture_export.h"

#include "document/save_path_dialog.h"

#include "io/atomic_output.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QMessageBox>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>

namespace parasight::gui {

namespace {

std::optional<QString> write_bytes(const QString& path, const QByteArray& bytes) {
    return write_file_atomically(path, [&bytes](std::ostream& out) { out.write(bytes.constData(), bytes.size()); });
}

}  // namespace

void export_with_dialog(QWidget* parent, const QString& title, const QString& filter, const QString& suffix,
                        const std::function<std::optional<QString>(const QString& path)>& write) {
    const QString path = ask_save_path(parent, title, QString(), filter, suffix);
    if (path.isEmpty()) return;
    if (const std::optional<QString> error = write(path)) {
        QMessageBox::critical(parent, QCoreApplication::translate("PictureExport", "Cannot export"),
                              QCoreApplication::translate("PictureExport", "Writing %1 failed: %2").arg(path, *error));
    }
}

std::optional<QString> write_file_atomically(const QString& path, const std::function<void(std::ostream&)>& write) {
    auto output = AtomicOutput::open(path.toStdString());
    if (!output) return QString::fromStdString(output.error());
    write((*output)->stream());
    if (const auto error = (*output)->commit()) return QString::fromStdString(*error);
    return std::nullopt;
}

std::optional<QString> export_png(const QSize& size, const QColor& background, const PaintPicture& paint,
                                  const QString& path) {
    constexpr qreal scale = 2.0;
    QImage image(size * scale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(background);
    {
        QPainter painter(&image);
        paint(painter);
    }
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG")) {
        return QCoreApplication::translate("PictureExport", "the image could not be encoded as PNG");
    }
    return write_bytes(path, png);
}

std::optional<QString> export_svg(const QSize& size, const QString& title, const PaintPicture& paint,
                                  const QString& path) {
    QByteArray svg;
    QBuffer buffer(&svg);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setTitle(title);
    {
        QPainter painter(&generator);
        paint(painter);
    }
    return write_bytes(path, svg);
}

}  // namespace parasight::gui
