#include "picture/export_button.h"

#include "picture/picture_export.h"

#include <QCoreApplication>
#include <QLayout>
#include <QMenu>
#include <QPainter>
#include <QPalette>
#include <QStackedWidget>
#include <QToolButton>
#include <QWidget>

#include <vector>

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

namespace {

// A view on a tab not shown keeps the size its page had when it last was (or none): each page on the way up that is
// not its stack's current one is given the current page's geometry and laid out, outermost first, so the view is
// pictured as it would be shown.
void lay_out_as_shown(QWidget* shown) {
    std::vector<QWidget*> hidden_pages;
    for (QWidget* page = shown; page->parentWidget() != nullptr; page = page->parentWidget()) {
        const auto* stack = qobject_cast<QStackedWidget*>(page->parentWidget());
        if (stack != nullptr && stack->currentWidget() != nullptr && page != stack->currentWidget()) {
            hidden_pages.push_back(page);
        }
    }
    for (auto page = hidden_pages.rbegin(); page != hidden_pages.rend(); ++page) {
        const auto* stack = qobject_cast<QStackedWidget*>((*page)->parentWidget());
        (*page)->setGeometry(stack->currentWidget()->geometry());
        if ((*page)->layout() != nullptr) (*page)->layout()->activate();
    }
}

}  // namespace

std::vector<ExportChoice> picture_choices(QWidget* shown, const QString& what) {
    const auto laid_out = [shown] {
        lay_out_as_shown(shown);
        return shown->size();
    };
    const auto paint = [shown](QPainter& painter) { shown->render(&painter); };
    return {
        ExportChoice{tr("%1 as &PNG…").arg(what), tr("Export the %1 as PNG").arg(what.toLower()),
                     tr("PNG images (*.png)"), QStringLiteral(".png"),
                     [shown, paint, laid_out](const QString& path) {
                         return export_png(laid_out(), shown->palette().color(QPalette::Base), paint, path);
                     }},
        ExportChoice{tr("%1 as &SVG…").arg(what), tr("Export the %1 as SVG").arg(what.toLower()),
                     tr("SVG images (*.svg)"), QStringLiteral(".svg"),
                     [paint, what, laid_out](const QString& path) {
                         return export_svg(laid_out(), tr("ParaSight %1").arg(what.toLower()), paint, path);
                     }},
    };
}

}  // namespace parasight::gui
