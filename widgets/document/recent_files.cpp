#include "document/recent_files.h"

#include <QFileInfo>
#include <QSettings>

namespace parasight::gui {

namespace {

const QString settings_key = QStringLiteral("recentFiles");

void store(const QStringList& files) { QSettings().setValue(settings_key, files); }

}  // namespace

QStringList RecentFiles::files() {
    QStringList files = QSettings().value(settings_key).toStringList();
    files.removeAll(QString());
    files.removeDuplicates();
    if (files.size() > max_files) files.resize(max_files);  // settings edited by hand
    return files;
}

void RecentFiles::add(const QString& path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList list = files();
    list.removeAll(absolute);
    list.prepend(absolute);
    if (list.size() > max_files) list.resize(max_files);
    store(list);
}

void RecentFiles::remove(const QString& path) {
    QStringList list = files();
    list.removeAll(QFileInfo(path).absoluteFilePath());
    store(list);
}

void RecentFiles::clear() { store({}); }

}  // namespace parasight::gui
