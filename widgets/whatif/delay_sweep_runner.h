#pragma once
// Runs the core's sweep_delay() (sweep/delay_sweep.h) on a worker thread: one simulation per delay, never on the GUI
// thread. Starting a sweep cancels the one under way, which stops within milliseconds (the core polls the sink in
// every phase of every run); only the newest sweep's outcome is delivered, by queued signal, with its progress at
// most every 50 ms on the way.

#include "run/simulation_runner.h"
#include "sweep/delay_sweep.h"

#include <QObject>
#include <QThreadPool>

#include <memory>

namespace parasight::gui {

class DelaySweepRunner : public QObject {
    Q_OBJECT

public:
    explicit DelaySweepRunner(QObject* parent = nullptr);
    ~DelaySweepRunner() override;  // cancels the sweep under way and waits for its thread

    // Cancels the sweep under way, if any, and starts this one; returns its id (ids increase from 1).
    std::uint64_t start(std::shared_ptr<const ValidatedScenario> scenario, const CollectiveDelay& rule,
                        std::vector<double> delays_s, const SimulateOptions& options = {});
    void cancel();
    [[nodiscard]] bool isRunning() const noexcept { return running_job_ != 0; }

Q_SIGNALS:
    void started(quint64 job);
    void progressed(quint64 job, double fraction);
    void finished(quint64 job, std::shared_ptr<const parasight::DelaySweep> sweep);
    void failed(quint64 job, const parasight::SimulationError& error);
    void cancelled(quint64 job);

private:
    struct Job;
    void deliver(const std::shared_ptr<Job>& job, Expected<DelaySweep, SimulationError> outcome);

    QThreadPool pool_;
    std::shared_ptr<Job> current_;
    std::uint64_t latest_job_ = 0;
    std::uint64_t running_job_ = 0;
};

}  // namespace parasight::gui

Q_DECLARE_METATYPE(std::shared_ptr<const parasight::DelaySweep>)
