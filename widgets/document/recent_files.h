#pragma once
// The scenario files opened or saved most recently, newest first, kept in the application's settings
// ("recentFiles") so that the next session offers them in File → Open Recent.

#include <QString>
#include <QStringList>

namespace parasight::gui {

class RecentFiles {
public:
    static constexpr qsizetype max_files = 10;

    // Newest first, each an absolute path, at most max_files.
    [[nodiscard]] static QStringList files();
    // Puts `path` first (moving it if listed), dropping the oldest beyond max_files.
    static void add(const QString& path);
    static void remove(const QString& path);
    static void clear();
};

}  // namespace parasight::gui
