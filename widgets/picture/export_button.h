#pragma once
// A view's Export button: a menu of what it can write — its chart as PNG or SVG, its table as CSV, a trace — each
// asking where (picture/picture_export.h's dialog: the suffix added, an existing file confirmed) and writing there
// whole or not at all, with a message box saying why not.

#include <QString>

#include <functional>
#include <optional>
#include <vector>

class QToolButton;
class QWidget;

namespace parasight::gui {

struct ExportChoice {
    QString menu_text;  // "Chart as &PNG…"
    QString title;      // of the file dialog
    QString filter;     // "PNG images (*.png)"
    QString suffix;     // ".png"
    // Writes the file at the path chosen; the reason when it could not.
    std::function<std::optional<QString>(const QString& path)> write;
};

[[nodiscard]] QToolButton* make_export_button(QWidget* parent, std::vector<ExportChoice> choices);

// `shown` (a chart view) as PNG, at twice the screen's pixels, and as SVG; `what` names it in the menu and dialogs
// ("Chart"). A view on a tab not shown is pictured at the size it would have there.
[[nodiscard]] std::vector<ExportChoice> picture_choices(QWidget* shown, const QString& what);

}  // namespace parasight::gui
