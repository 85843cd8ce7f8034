#include "document/save_path_dialog.h"

#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>

namespace parasight::gui {

QString ask_save_path(QWidget* parent, const QString& title, const QString& start, const QString& filter,
                      const QString& suffix) {
    QFileDialog dialog(parent, title, start, filter);
    dialog.setObjectName(QStringLiteral("SavePathDialog"));
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setDefaultSuffix(suffix.mid(1));  // without its dot
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty()) return {};
    QString path = dialog.selectedFiles().front();
    if (!QFileInfo(path).suffix().isEmpty()) return path;
    // A dialog of the desktop's that did not add the suffix itself.
    path += suffix;
    if (QFileInfo::exists(path)) {
        const auto answer = QMessageBox::question(
            parent, title,
            QCoreApplication::translate("SavePathDialog", "%1 already exists. Replace it?").arg(QFileInfo(path).fileName()),
            QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
        if (answer != QMessageBox::Yes) return {};
    }
    return path;
}

}  // namespace parasight::gui
