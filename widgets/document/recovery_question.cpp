#include "document/recovery_question.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>

namespace parasight::gui {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("MainWindow", text); }

}  // namespace

RecoveryAnswer ask_about_recovery(const LeftAutosave& left, QWidget* parent) {
    const QString original = left.originalPath();
    const QString name = original.isEmpty() ? tr("an untitled scenario") : QFileInfo(original).fileName();
    QMessageBox question(QMessageBox::Warning, tr("Recover Unsaved Changes"),
                         tr("ParaSight did not close normally, and %1 had changes that were not saved.").arg(name),
                         QMessageBox::NoButton, parent);
    const QString saved_at = QLocale().toString(left.savedAt(), QLocale::ShortFormat);
    question.setInformativeText(
        QFileInfo(original).isAbsolute()
            ? tr("They were autosaved at %1. Recover them? Save then writes them to %2. Discarding deletes the "
                 "autosaved copy.")
                  .arg(saved_at, QDir::toNativeSeparators(original))
            : tr("They were autosaved at %1. Recover them? They open untitled: Save asks where to write them. "
                 "Discarding deletes the autosaved copy.")
                  .arg(saved_at));
    question.setDetailedText(
        tr("Autosaved copy: %1\nIts file: %2")
            .arg(QDir::toNativeSeparators(left.path()),
                 original.isEmpty() ? tr("none (untitled)") : QDir::toNativeSeparators(original)));
    QPushButton* recover_button = question.addButton(tr("&Recover"), QMessageBox::AcceptRole);
    QPushButton* discard_button = question.addButton(tr("&Discard"), QMessageBox::DestructiveRole);
    question.addButton(tr("Ask &Later"), QMessageBox::RejectRole);
    question.setDefaultButton(recover_button);
    question.exec();
    if (question.clickedButton() == recover_button) return RecoveryAnswer::recover;
    if (question.clickedButton() == discard_button) return RecoveryAnswer::discard;
    return RecoveryAnswer::later;
}

}  // namespace parasight::gui
