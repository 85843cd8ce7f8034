#include "run/job_runner.h"

#include "run/background_pool.h"
#include "run/worker_priority.h"

#include <QMetaObject>

#include <exception>

namespace parasight::gui {

struct Link {
    std::mutex mutex;
    JobRunner* runner = nullptr;  // posted to under the mutex; null once the runner's destructor has begun
};

struct JobRunner::Job {
    std::uint64_t id = 0;
    Context context;
};

void JobRunner::Context::progress(SimulationPhase phase, double fraction) {
    report(QString::fromUtf8(name_of(phase, simulation_phase_names)), fraction);
}

void JobRunner::Context::report(const QString& phase, double fraction) {
    // Called from the worker thread, often: posted at most every 50 ms, and only while this is the newest job.
    const auto now = std::chrono::steady_clock::now();
    if (now - last_report_ < std::chrono::milliseconds(50)) return;
    last_report_ = now;
    const quint64 job = job_;
    // Queued to the runner while it lives: a post made before its destructor began is dropped with it.
    const std::lock_guard lock(link_->mutex);
    if (!link_->runner) return;
    QMetaObject::invokeMethod(
        link_->runner,
        [runner = link_->runner, job, phase, fraction] {
            if (job == runner->running_job_) Q_EMIT runner->progressed(job, phase, fraction);
        },
        Qt::QueuedConnection);
}

JobRunner::JobRunner(QObject* parent, OnDestroy on_destroy)
    : QObject(parent), on_destroy_(on_destroy), link_(std::make_shared<Link>()) {
    link_->runner = this;
    // One job at a time runs; a newer one waits for the cancelled one to let go of its memory.
    pool_.setMaxThreadCount(1);
}

JobRunner::~JobRunner() {
    if (current_) current_->context.cancel_requested_ = true;
    {
        const std::lock_guard lock(link_->mutex);
        link_->runner = nullptr;
    }
    if (on_destroy_ == OnDestroy::wait) pool_.waitForDone();
}

QThreadPool& JobRunner::pool() noexcept {
    QThreadPool* background = on_destroy_ == OnDestroy::abandon ? background_pool() : nullptr;
    return background != nullptr ? *background : pool_;
}

std::uint64_t JobRunner::start_erased(std::function<std::function<void()>(Context&, std::uint64_t)> work) {
    if (current_) current_->context.cancel_requested_ = true;
    auto job = std::make_shared<Job>();
    job->id = ++latest_job_;
    job->context.job_ = job->id;
    job->context.link_ = link_;
    current_ = job;
    running_job_ = job->id;
    ++jobs_in_flight_;
    Q_EMIT started(job->id);
    pool().start([gate = gate_, job, work = std::move(work)]() mutable {
        give_way_to_gui_thread();
        std::function<void()> delivery;
        QString failure;
        {
            const std::lock_guard one_at_a_time(*gate);
            // A job cancelled or superseded before its turn does not start; one that has started stops at the core's
            // first progress poll.
            try {
                if (!job->context.cancelled()) delivery = work(job->context, job->id);
            } catch (const std::exception& error) {
                failure = QString::fromUtf8(error.what());
            } catch (...) {
                failure = QStringLiteral("an unknown error");
            }
            work = nullptr;  // what the work holds is let go of before the next job of this runner starts
        }
        if (failure.isEmpty() && !delivery) failure = QStringLiteral("the job gave no result");
        Link& link = *job->context.link_;
        const std::lock_guard lock(link.mutex);
        if (!link.runner) return;  // destroyed: nothing is delivered
        QMetaObject::invokeMethod(
            link.runner,
            [runner = link.runner, job, delivery = std::move(delivery), failure]() mutable {
                runner->settle(job, std::move(delivery), failure);
            },
            Qt::QueuedConnection);
    });
    return job->id;
}

void JobRunner::cancel() {
    if (current_) current_->context.cancel_requested_ = true;
}

void JobRunner::settle(const std::shared_ptr<Job>& job, std::function<void()> delivery, const QString& failure) {
    --jobs_in_flight_;
    // A superseded job's outcome is dropped: a newer one is on its way.
    if (job->id == latest_job_) {
        running_job_ = 0;
        current_.reset();
        if (job->context.cancelled()) {
            Q_EMIT cancelled(job->id);
        } else if (!failure.isEmpty()) {
            Q_EMIT failed(job->id, failure);
        } else {
            delivery();
        }
    }
    if (jobs_in_flight_ == 0) Q_EMIT idle();
}

}  // namespace parasight::gui
