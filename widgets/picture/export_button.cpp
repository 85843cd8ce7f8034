#include "picture/export_button.h"

#include "picture/picture_export.h"

#include <QCoreApplication>
#include <QMenu>
#include <QPainter>
#include <QPalette>
#include <QToolButton>
#include <QWidget>

namespace parasight::gui {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("ExportButton", text); }

}  // namespace

QToolButton* make_export_button(QWidget* parent, std::vector<ExportChoice> choices) {
    auto* button = new QToolButton(parent);
    button->setText(tr("Export"));
    button->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(button);
    for (ExportChoice& choice : choices) {
        const QString text = choice.menu_text;  // before the choice moves into its action
        menu->addAction(text, parent, [parent, choice = std::move(choice)] {
            export_with_dialog(parent, choice.title, choice.filter, choice.suffix, choice.write);
        });
    }
    button->setMenu(menu);
    return button;
}

std::vector<ExportChoice> picture_choices(QWidget* shown, const QString& what) {
    const auto paint = [shown](QPainter& painter) { shown->render(&painter); };
    return {
        ExportChoice{tr("%1 as &PNG…").arg(what), tr("Export the %1 as PNG").arg(what.toLower()),
                     tr("PNG images (*.png)"), QStringLiteral(".png"),
                     [shown, paint](const QString& path) {
                         return export_png(shown->size(), shown->palette().color(QPalette::Base), paint, path);
                     }},
        ExportChoice{tr("%1 as &SVG…").arg(what), tr("Export the %1 as SVG").arg(what.toLower()),
                     tr("SVG images (*.svg)"), QStringLiteral(".svg"),
                     [shown, paint, what](const QString& path) {
                         return export_svg(shown->size(), tr("ParaSight %1").arg(what.toLower()), paint, path);
                     }},
    };
}

}  // namespace parasight::gui
