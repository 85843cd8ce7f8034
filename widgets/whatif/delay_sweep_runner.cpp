#include "whatif/delay_sweep_runner.h"

#include <QMetaObject>

#include <chrono>

namespace parasight::gui {

// One sweep: its id, what it sweeps, and the flag the worker polls. Shared by the runner and the worker thread.
struct DelaySweepRunner::Job : ProgressSink {
    std::uint64_t id = 0;
    std::shared_ptr<const ValidatedScenario> scenario;
    CollectiveDelay rule;
    std::vector<double> delays_s;
    SimulateOptions options;
    std::atomic<bool> cancel_requested{false};
    DelaySweepRunner* runner = nullptr;
    std::chrono::steady_clock::time_point last_report{};

    void progress(SimulationPhase, double fraction) override {
        // From the worker thread, often: posted at most every 50 ms.
        const auto now = std::chrono::steady_clock::now();
        if (now - last_report < std::chrono::milliseconds(50)) return;
        last_report = now;
        const quint64 job = id;
        QMetaObject::invokeMethod(
            runner,
            [runner = runner, job, fraction] {
                if (job == runner->running_job_) Q_EMIT runner->progressed(job, fraction);
            },
            Qt::QueuedConnection);
    }
    [[nodiscard]] bool cancelled() const override { return cancel_requested.load(std::memory_order_relaxed); }
};

DelaySweepRunner::DelaySweepRunner(QObject* parent) : QObject(parent) {
    qRegisterMetaType<std::shared_ptr<const DelaySweep>>();
    qRegisterMetaType<SimulationError>();
    pool_.setMaxThreadCount(1);  // a newer sweep waits for the cancelled one to let go of its memory
}

DelaySweepRunner::~DelaySweepRunner() {
    if (current_) current_->cancel_requested = true;
    pool_.waitForDone();
}

std::uint64_t DelaySweepRunner::start(std::shared_ptr<const ValidatedScenario> scenario, const CollectiveDelay& rule,
                                      std::vector<double> delays_s, const SimulateOptions& options) {
    if (current_) current_->cancel_requested = true;
    auto job = std::make_shared<Job>();
    job->id = ++latest_job_;
    job->scenario = std::move(scenario);
    job->rule = rule;
    job->delays_s = std::move(delays_s);
    job->options = options;
    job->options.progress = job.get();
    job->runner = this;
    current_ = job;
    running_job_ = job->id;
    Q_EMIT started(job->id);
    pool_.start([this, job] {
        auto outcome = sweep_delay(*job->scenario, job->rule, job->delays_s, job->options);
        QMetaObject::invokeMethod(
            this, [this, job, outcome = std::move(outcome)]() mutable { deliver(job, std::move(outcome)); },
            Qt::QueuedConnection);
    });
    return job->id;
}

void DelaySweepRunner::cancel() {
    if (current_) current_->cancel_requested = true;
}

void DelaySweepRunner::deliver(const std::shared_ptr<Job>& job, Expected<DelaySweep, SimulationError> outcome) {
    if (job->id != latest_job_) return;  // superseded: a newer sweep is on its way
    running_job_ = 0;
    current_.reset();
    if (outcome) {
        Q_EMIT finished(job->id, std::make_shared<const DelaySweep>(std::move(outcome).value()));
    } else if (outcome.error().kind == SimulationErrorKind::cancelled) {
        Q_EMIT cancelled(job->id);
    } else {
        Q_EMIT failed(job->id, outcome.error());
    }
}

}  // namespace parasight::gui
