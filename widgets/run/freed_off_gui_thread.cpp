#include "run/freed_off_gui_thread.h"

#include "run/background_pool.h"

#include <QCoreApplication>
#include <QThread>
#include <QThreadPool>

namespace parasight::gui {

void release_on_pool(std::shared_ptr<const void> owned) {
    const QCoreApplication* application = QCoreApplication::instance();
    // Off the GUI thread already (a worker dropping a superseded result), or with no application: freed here.
    if (application == nullptr || QThread::currentThread() != application->thread()) return;
    QThreadPool* pool = background_pool();
    if (pool == nullptr) return;
    pool->start([owned = std::move(owned)]() mutable { owned.reset(); });
}

}  // namespace parasight::gui
