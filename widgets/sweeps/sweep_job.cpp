#include "sweeps/sweep_job.h"

#include "run/worker_priority.h"
#include "store/stored_sweep_run.h"
#include "units/quantity.h"

#include <QCoreApplication>

#include <chrono>

namespace parasight::gui {
namespace {

// Stores each batch, stops when the job is cancelled, says how far it is.
class JobObserver final : public StoringSweepObserver {
public:
    JobObserver(ResultStore& store, std::int64_t sweep_id, JobRunner::Context& context, std::uint64_t to_run)
        : StoringSweepObserver(store, sweep_id, RankingMetric{"iteration_time_s"}), context_(context),
          to_run_(to_run) {}

    [[nodiscard]] bool cancelled() const override { return context_.cancelled(); }

private:
    void batch_stored() override {
        const double fraction = to_run_ > 0 ? static_cast<double>(stored_now()) / static_cast<double>(to_run_) : 1.0;
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
        const double rate = seconds > 0.0 ? static_cast<double>(stored_now()) / seconds : 0.0;
        QString text = QCoreApplication::translate("SweepJob", "%1 of %2 points, %3 points/s")
                           .arg(stored_now())
                           .arg(to_run_)
                           .arg(QString::fromStdString(units::format_fixed(rate, 1)));
        if (rate > 0.0 && stored_now() < to_run_) {
            const double left_s = static_cast<double>(to_run_ - stored_now()) / rate;
            text += QCoreApplication::translate("SweepJob", ", %1 left")
                        .arg(QString::fromStdString(units::format_readable(left_s, units::Dimension::time)));
        }
        context_.report(text, fraction);
    }

    JobRunner::Context& context_;
    std::uint64_t to_run_;
    std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

}  // namespace

std::function<SweepRun(JobRunner::Context&)> sweep_work(SweepPlan plan, std::string database, int threads) {
    return [plan = std::move(plan), database = std::move(database), threads](JobRunner::Context& context) {
        SweepRun run;
        Expected<ResultStore> store = ResultStore::open(database, ResultStore::Access::read_write);
        if (!store) {
            run.error = store.error();
            return run;
        }
        SweepOptions options;
        options.jobs = threads;
        options.batch_seconds = 0.25;  // the heatmap fills in as batches are stored
        options.worker_started = give_way_to_gui_thread;
        const Expected<StoredSweepStart> start = start_stored_sweep(store.value(), plan, options);
        if (!start) {
            run.error = start.error();
            return run;
        }
        run.sweep_id = start.value().sweep_id;
        run.stored_before = start.value().stored_in_shard;
        JobObserver observer(store.value(), run.sweep_id, context, start.value().in_shard - run.stored_before);
        const SweepOutcome outcome = run_sweep(plan, options, observer);
        run.run = outcome.run;
        if (outcome.error) run.error = *outcome.error;
        return run;
    };
}

}  // namespace parasight::gui
