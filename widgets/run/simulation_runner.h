#pragma once
// Runs the core's simulate() on a worker thread, never the GUI thread. Each run is a job with an id; starting a new
// one cancels the one running (through the core's ProgressSink, honoured within milliseconds in every phase), and
// only the newest job's outcome is delivered: a result as one immutable value, or the error, by queued signal on
// the runner's thread. Progress arrives the same way, at most every 50 ms.

#include "run/simulation_result.h"

#include <QObject>
#include <QThreadPool>

#include <atomic>
#include <cstdint>
#include <memory>

namespace parasight::gui {

class SimulationRunner : public QObject {
    Q_OBJECT

public:
    explicit SimulationRunner(QObject* parent = nullptr);
    ~SimulationRunner() override;  // cancels the running job and waits for its thread

    // Cancels the running job, if any, and starts one for `scenario`; returns its id (ids increase from 1).
    std::uint64_t start(std::shared_ptr<const ValidatedScenario> scenario, const SimulateOptions& options = {});
    // Asks the running job to stop; `cancelled` follows once it has.
    void cancel();
    [[nodiscard]] bool isRunning() const noexcept { return running_job_ != 0; }
    [[nodiscard]] std::uint64_t latestJob() const noexcept { return latest_job_; }

Q_SIGNALS:
    void started(quint64 job);
    // `fraction` of the whole run (compile, engine and analysis weighted by their usual share); `phase` names it.
    void progressed(quint64 job, const QString& phase, double fraction);
    void finished(std::shared_ptr<const parasight::gui::SimulationResult> result);
    void failed(quint64 job, const parasight::SimulationError& error);
    void cancelled(quint64 job);
    // No job runs any more (each finished, failed or cancelled job's signal comes first).
    void idle();

private:
    struct Job;
    using Outcome = Expected<std::shared_ptr<SimulationResult>, SimulationError>;
    static Outcome run(Job& job);
    void deliver(const std::shared_ptr<Job>& job, Outcome outcome);

    QThreadPool pool_;
    std::shared_ptr<Job> current_;
    std::uint64_t latest_job_ = 0;
    std::uint64_t running_job_ = 0;
    int jobs_in_flight_ = 0;
};

}  // namespace parasight::gui

Q_DECLARE_METATYPE(std::shared_ptr<const parasight::gui::SimulationResult>)
Q_DECLARE_METATYPE(parasight::SimulationError)
