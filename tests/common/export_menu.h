#pragma once
// Writes a file through a view's Export button (picture/export_button.h) as a user does: the action chosen by its
// text (its & left out) from the menu of the tool button named `button` under `root`, the file dialog answered with
// `path`. The error says what is missing: the button, or the action among those the menu has.

#include <QApplication>
#include <QFileDialog>
#include <QMenu>
#include <QString>
#include <QTimer>
#include <QToolButton>

inline QString export_through_menu(QWidget& root, const QString& button, const QString& action, const QString& path) {
    auto* exporter = root.findChild<QToolButton*>(button);
    if (exporter == nullptr || exporter->menu() == nullptr) return QStringLiteral("no export button ") + button;
    QAction* chosen = nullptr;
    QStringList texts;
    for (QAction* candidate : exporter->menu()->actions()) {
        texts << candidate->text();
        if (candidate->text().remove(u'&') == action) chosen = candidate;
    }
    if (chosen == nullptr) return action + QStringLiteral(" not among ") + texts.join(u'|');
    QTimer::singleShot(0, [path] {
        auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
        if (dialog == nullptr) return;
        dialog->selectFile(path);
        QMetaObject::invokeMethod(dialog, "accept");
    });
    chosen->trigger();
    return {};
}
