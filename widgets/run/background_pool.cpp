#include "run/background_pool.h"

#include <algorithm>

#include <QCoreApplication>
#include <QPointer>
#include <QThread>
#include <QThreadPool>

namespace parasight::gui {

QThreadPool* background_pool() {
    static QPointer<QThreadPool> pool;  // the GUI thread's alone: made and asked for there
    if (pool == nullptr && QCoreApplication::instance() != nullptr) {
        pool = new QThreadPool(QCoreApplication::instance());
        pool->setMaxThreadCount(std::max(2, QThread::idealThreadCount()));
    }
    return pool;
}

}  // namespace parasight::gui
