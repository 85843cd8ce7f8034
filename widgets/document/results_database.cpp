#include "document/results_database.h"

#include "store/default_store_path.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>

namespace parasight::gui {

QString results_database_path(const QString& chosen) {
    if (!chosen.isEmpty()) return chosen;
    const auto found = default_store_path();
    return found ? QString::fromStdString(found->string()) : QString();
}

QString results_database_display(const QString& path) {
    const QString home = QDir::homePath();
    const QString native = QDir::toNativeSeparators(path);
    if (home.isEmpty() || home == QStringLiteral("/") || !path.startsWith(home + u'/')) return native;
    return QStringLiteral("~") + QDir::toNativeSeparators(path.mid(home.size()));
}

Expected<ResultStore> open_results_for_reading(const std::string& path) {
    return ResultStore::open(path, ResultStore::Access::read_only, std::chrono::seconds(5));
}

QString ask_for_results_database(QWidget* parent, const QString& current) {
    return QFileDialog::getOpenFileName(
        parent, QCoreApplication::translate("ResultsDatabase", "Open a results database"), QFileInfo(current).path(),
        QCoreApplication::translate("ResultsDatabase", "Results databases (*.db);;All files (*)"));
}

}  // namespace parasight::gui
