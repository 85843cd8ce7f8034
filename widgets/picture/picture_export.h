#pragma once
// Pictures of a view for slides and papers: PNG at twice the screen's resolution, or SVG (vectors). The view paints
// itself with `paint` onto a canvas of `size`; the file is written whole or not at all (core io/atomic_output.h),
// and the result is the reason it could not be, or nothing.

#include <QColor>
#include <QSize>
#include <QString>

#include <functional>
#include <optional>
#include <ostream>

class QPainter;
class QWidget;

namespace parasight::gui {

using PaintPicture = std::function<void(QPainter&)>;

[[nodiscard]] std::optional<QString> export_png(const QSize& size, const QColor& background, const PaintPicture& paint,
                                                const QString& path);
[[nodiscard]] std::optional<QString> export_svg(const QSize& size, const QString& title, const PaintPicture& paint,
                                                const QString& path);

// Asks where to save (document/save_path_dialog.h: a file dialog over `parent` titled `title`, showing `filter`;
// `suffix` added when missing), writes there with `write` and says why not in a message box when it fails.
void export_with_dialog(QWidget* parent, const QString& title, const QString& filter, const QString& suffix,
                        const std::function<std::optional<QString>(const QString& path)>& write);

// Writes what `write` streams to `path` atomically.
[[nodiscard]] std::optional<QString> write_file_atomically(const QString& path,
                                                           const std::function<void(std::ostream&)>& write);

}  // namespace parasight::gui
