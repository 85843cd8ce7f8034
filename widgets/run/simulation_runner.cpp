#include "run/simulation_runner.h"

#include <QMetaObject>

#include <chrono>
#include <mutex>

namespace parasight::gui {

namespace {

// The share of a run's wall time each phase takes, roughly (docs/performance.md): compile, engine, analysis.
constexpr double compile_share = 0.15;
constexpr double engine_share = 0.6;

double overall_fraction(SimulationPhase phase, double fraction) {
    switch (phase) {
    case SimulationPhase::compile: return compile_share * fraction;
    case SimulationPhase::engine: return compile_share + engine_share * fraction;
    case SimulationPhase::analysis: return compile_share + engine_share + (1.0 - compile_share - engine_share) * fraction;
    }
    return fraction;
}

}  // namespace

// One run: its id, its scenario, and the flag the worker polls. Shared by the runner and the worker thread.
struct SimulationRunner::Job : ProgressSink {
    std::uint64_t id = 0;
    std::shared_ptr<const ValidatedScenario> scenario;
    SimulateOptions options;
    std::atomic<bool> cancel_requested{false};
    SimulationRunner* runner = nullptr;
    std::chrono::steady_clock::time_point last_report{};

    void progress(SimulationPhase phase, double fraction) override {
        // Called from the worker thread, often: post at most every 50 ms.
        const auto now = std::chrono::steady_clock::now();
        if (now - last_report < std::chrono::milliseconds(50)) return;
        last_report = now;
        const QString phase_name = QString::fromUtf8(name_of(phase, simulation_phase_names));
        const double overall = overall_fraction(phase, fraction);
        const quint64 job = id;
        QMetaObject::invokeMethod(
            runner,
            [runner = runner, job, phase_name, overall] {
                if (job == runner->running_job_) Q_EMIT runner->progressed(job, phase_name, overall);
            },
            Qt::QueuedConnection);
    }
    [[nodiscard]] bool cancelled() const override { return cancel_requested.load(std::memory_order_relaxed); }
};

namespace {

SimulationError cancelled_in_analysis() {
    SimulationError cancelled;
    cancelled.kind = SimulationErrorKind::cancelled;
    cancelled.phase = SimulationPhase::analysis;
    cancelled.message = "cancelled";
    return cancelled;
}

}  // namespace

// On the worker: the simulation, and what the views read of its timeline derived there too, so that the GUI thread
// only reads it.
SimulationRunner::Outcome SimulationRunner::run(Job& job) {
    auto simulated = simulate(*job.scenario, job.options);
    if (!simulated) return simulated.error();
    auto result = make_result(job.scenario, std::move(simulated).value(), PhaseProgress(&job, SimulationPhase::analysis));
    if (!result) return cancelled_in_analysis();
    return result;
}

SimulationRunner::SimulationRunner(QObject* parent) : QObject(parent) {
    qRegisterMetaType<std::shared_ptr<const SimulationResult>>();
    qRegisterMetaType<SimulationError>();
    // One job at a time runs; a newer one waits for the cancelled one to let go of its memory.
    pool_.setMaxThreadCount(1);
}

SimulationRunner::~SimulationRunner() {
    if (current_) current_->cancel_requested = true;
    pool_.waitForDone();
}

std::uint64_t SimulationRunner::start(std::shared_ptr<const ValidatedScenario> scenario, const SimulateOptions& options) {
    if (current_) current_->cancel_requested = true;
    auto job = std::make_shared<Job>();
    job->id = ++latest_job_;
    job->scenario = std::move(scenario);
    job->options = options;
    job->options.progress = job.get();
    job->runner = this;
    current_ = job;
    running_job_ = job->id;
    ++jobs_in_flight_;
    Q_EMIT started(job->id);
    pool_.start([this, job] {
        // A job superseded before it starts stops at simulate()'s first progress poll.
        Outcome outcome = run(*job);
        QMetaObject::invokeMethod(
            this, [this, job, outcome = std::move(outcome)]() mutable { deliver(job, std::move(outcome)); },
            Qt::QueuedConnection);
    });
    return job->id;
}

void SimulationRunner::cancel() {
    if (current_) current_->cancel_requested = true;
}

void SimulationRunner::deliver(const std::shared_ptr<Job>& job, Outcome outcome) {
    --jobs_in_flight_;
    const bool newest = job->id == latest_job_;
    if (newest) {
        running_job_ = 0;
        current_.reset();
        if (outcome) {
            std::shared_ptr<SimulationResult> result = std::move(outcome).value();
            result->job = job->id;
            Q_EMIT finished(std::shared_ptr<const SimulationResult>(std::move(result)));
        } else if (outcome.error().kind == SimulationErrorKind::cancelled) {
            Q_EMIT cancelled(job->id);
        } else {
            Q_EMIT failed(job->id, outcome.error());
        }
    }
    // A superseded job's outcome is dropped: a newer one is on its way.
    if (jobs_in_flight_ == 0) Q_EMIT idle();
}

}  // namespace parasight::gui
