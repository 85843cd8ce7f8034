#include "document/scenario_file_loader.h"

#include "run/worker_priority.h"

#include <QMetaObject>

namespace parasight::gui {

ScenarioFileLoader::ScenarioFileLoader(QObject* parent) : QObject(parent) {
    qRegisterMetaType<std::shared_ptr<LoadedScenarioFile>>();
    // A dropped read runs on beside the next one rather than delaying it.
    pool_.setMaxThreadCount(2);
}

ScenarioFileLoader::~ScenarioFileLoader() { pool_.waitForDone(); }

std::uint64_t ScenarioFileLoader::start(const QString& path) {
    cancel();
    const std::uint64_t job = ++latest_job_;
    loading_job_ = job;
    loading_path_ = path;
    Q_EMIT started(job, path);
    pool_.start([this, job, path] {
        give_way_to_gui_thread();
        auto file = std::make_shared<LoadedScenarioFile>(load_scenario_for_document(path));
        // The pool is waited for before this object goes, so `this` outlives the queued call's posting; the call
        // itself runs on this object's thread.
        QMetaObject::invokeMethod(
            this,
            [this, job, file = std::move(file)] {
                if (job != loading_job_) return;  // dropped, or superseded by a newer read
                loading_job_ = 0;
                loading_path_.clear();
                Q_EMIT finished(job, file);
            },
            Qt::QueuedConnection);
    });
    return job;
}

void ScenarioFileLoader::cancel() {
    if (loading_job_ == 0) return;
    const std::uint64_t job = loading_job_;
    const QString path = loading_path_;
    loading_job_ = 0;
    loading_path_.clear();
    Q_EMIT cancelled(job, path);
}

}  // namespace parasight::gui
