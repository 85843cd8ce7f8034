#pragma once
// Opening a file in the window, which reads it on a worker: open_and_wait() starts it and waits until it has been
// read. Whether the document is now the file's.

#include "main_window/main_window.h"

#include <QSignalSpy>
#include <QString>

namespace parasight::testing {

[[nodiscard]] inline bool open_and_wait(gui::MainWindow& window, const QString& path) {
    QSignalSpy opened(&window, &gui::MainWindow::fileOpened);
    window.openFile(path);
    if (!opened.wait(60000)) return false;
    return opened.last().at(1).toBool();
}

}  // namespace parasight::testing
