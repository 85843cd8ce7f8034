#pragma once
// Background work for the window, never on the GUI thread: one job at a time runs on a worker thread, each with an id
// (Hotspot's jobtracker). Starting a job asks the one running to stop (its Context says so, and the core's
// ProgressSink polls it in every phase); only the newest job's outcome reaches its delivery, on the runner's thread,
// so a result for an older question never arrives after the answer to a newer one. Progress comes the same way, at
// most every 50 ms. Whatever a job's work throws — in the core, or in what a view derives from a result on the
// worker — is caught there and reported as `failed`, never taking the window down.
//
// The simulation (run/simulation_job.h), the What-if tab's delay sweep and the design sweeps each run their work
// through one of these.

#include "common/progress.h"

#include <QObject>
#include <QThreadPool>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <utility>

namespace parasight::gui {

// What a job's thread reaches its runner through: null once the runner is gone (run/job_runner.cpp).
struct Link;

class JobRunner : public QObject {
    Q_OBJECT

public:
    // What a job's work is handed: the cancel flag and the progress line, as the core's ProgressSink (each report's
    // fraction is of that phase; a job that maps phases onto one bar reports through report()).
    class Context final : public ProgressSink {
    public:
        void progress(SimulationPhase phase, double fraction) override;
        [[nodiscard]] bool cancelled() const override { return cancel_requested_.load(std::memory_order_relaxed); }
        // `fraction` of the whole job; `phase` names what it is doing.
        void report(const QString& phase, double fraction);
        [[nodiscard]] std::uint64_t job() const noexcept { return job_; }

    private:
        friend class JobRunner;
        std::uint64_t job_ = 0;
        std::shared_ptr<Link> link_;  // the runner, while it lives
        std::atomic<bool> cancel_requested_{false};
        std::chrono::steady_clock::time_point last_report_{};
    };

    // What becomes of a job still running when the runner is destroyed: waited for (work that writes what must be
    // whole, a database), or left to finish on its own with its value dropped (work that only computes something
    // for the window to show, which closing the window should not wait for; the process waits for it at exit).
    enum class OnDestroy { wait, abandon };
    explicit JobRunner(QObject* parent = nullptr, OnDestroy on_destroy = OnDestroy::wait);
    ~JobRunner() override;  // asks the running job to stop; nothing is delivered after

    // Asks the running job to stop and starts `work` (on the worker: it must share nothing mutable with this thread);
    // its value reaches `deliver` here when it is still the newest job and was not cancelled. Returns the job's id
    // (ids increase from 1).
    template <class Result>
    std::uint64_t start(std::function<Result(Context&)> work, std::function<void(std::uint64_t, Result)> deliver) {
        return start_erased([work = std::move(work), deliver = std::move(deliver)](
                                Context& context, std::uint64_t job) mutable -> std::function<void()> {
            auto result = std::make_shared<Result>(work(context));
            return [deliver = std::move(deliver), result, job] { deliver(job, std::move(*result)); };
        });
    }
    // Asks the running job to stop; `cancelled` follows once it has.
    void cancel();
    [[nodiscard]] bool isRunning() const noexcept { return running_job_ != 0; }
    [[nodiscard]] std::uint64_t latestJob() const noexcept { return latest_job_; }

Q_SIGNALS:
    void started(quint64 job);
    void progressed(quint64 job, const QString& phase, double fraction);
    // The newest job stopped because it was asked to (cancel()); its work's value is dropped.
    void cancelled(quint64 job);
    // The newest job's work threw: what it said.
    void failed(quint64 job, const QString& what);
    // No job runs any more (the last job's delivery, cancelled or failed comes first).
    void idle();

private:
    struct Job;
    // `work` runs on the worker and returns what delivers its value on this thread.
    std::uint64_t start_erased(std::function<std::function<void()>(Context&, std::uint64_t)> work);
    void settle(const std::shared_ptr<Job>& job, std::function<void()> delivery, const QString& failure);

    // Where the work runs: the runner's own pool of one thread, or with OnDestroy::abandon the application's
    // background pool (run/background_pool.h), one job of this runner at a time (gate_), so that no pool of the
    // runner's outlives it.
    [[nodiscard]] QThreadPool& pool() noexcept;

    OnDestroy on_destroy_;
    QThreadPool pool_;
    std::shared_ptr<std::mutex> gate_ = std::make_shared<std::mutex>();
    std::shared_ptr<Link> link_;
    std::shared_ptr<Job> current_;
    std::uint64_t latest_job_ = 0;
    std::uint64_t running_job_ = 0;
    int jobs_in_flight_ = 0;
};

}  // namespace parasight::gui
