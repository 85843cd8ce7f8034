#pragma once
// Reads scenario files on a worker thread (load_scenario_for_document), never the GUI thread: a file at the limits
// takes seconds to read. Each read is a job with an id; only the newest job's outcome is delivered, by queued signal
// on the loader's thread, and cancel() drops it. The core's loader cannot be interrupted, so a dropped read still
// runs to its end on the worker (at most a few seconds) and its outcome is discarded; the destructor waits for it.

#include "document/loaded_scenario_file.h"

#include <QObject>
#include <QThreadPool>

#include <cstdint>
#include <memory>

namespace parasight::gui {

class ScenarioFileLoader : public QObject {
    Q_OBJECT

public:
    explicit ScenarioFileLoader(QObject* parent = nullptr);
    ~ScenarioFileLoader() override;  // waits for a read still running

    // Drops the read in progress, if any, and starts one of `path`; returns its id (ids increase from 1).
    std::uint64_t start(const QString& path);
    // Drops the read in progress: `cancelled` follows at once, and its outcome is never delivered.
    void cancel();
    [[nodiscard]] bool isLoading() const noexcept { return loading_job_ != 0; }
    // The file being read; empty when none is.
    [[nodiscard]] const QString& loadingPath() const noexcept { return loading_path_; }

Q_SIGNALS:
    void started(quint64 job, const QString& path);
    // The file was read: loaded (file->ok()) or refused with its problems. The one receiver (the window) may move
    // the scenario out: copying the largest one took longer than the GUI thread may be kept.
    void finished(quint64 job, std::shared_ptr<parasight::gui::LoadedScenarioFile> file);
    void cancelled(quint64 job, const QString& path);

private:
    QThreadPool pool_;
    std::uint64_t latest_job_ = 0;
    std::uint64_t loading_job_ = 0;
    QString loading_path_;
};

}  // namespace parasight::gui

Q_DECLARE_METATYPE(std::shared_ptr<parasight::gui::LoadedScenarioFile>)
