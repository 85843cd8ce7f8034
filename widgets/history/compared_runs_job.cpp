#include "history/compared_runs_job.h"

#include "document/results_database.h"
#include "scenario_file/scenario_loader.h"
#include "simulation/simulate.h"

namespace parasight::gui {
namespace {

// One half of the job's progress: run A's simulation the first, B's the second.
class HalfProgress final : public ProgressSink {
public:
    HalfProgress(JobRunner::Context& context, int half, QString run) : context_(context), half_(half), run_(run) {}
    void progress(SimulationPhase, double fraction) override {
        context_.report(run_, 0.5 * (half_ + fraction));
    }
    [[nodiscard]] bool cancelled() const override { return context_.cancelled(); }

private:
    JobRunner::Context& context_;
    int half_;
    QString run_;
};

struct Simulated {
    Report report;
    std::shared_ptr<const Timeline> timeline;
};

Expected<Simulated> simulate_again(ResultStore& store, std::int64_t run, int half, JobRunner::Context& context) {
    const std::string name = "run:" + std::to_string(run);
    const Expected<StoredScenario> stored = store.run_scenario(run);
    if (!stored) return Error{"the database " + stored.error()};
    const LoadResult loaded = load_scenario_text(stored.value().yaml, name);
    if (!loaded.scenario) return Error{name + " could not be simulated again: its scenario no longer reads"};
    HalfProgress progress(context, half, QString::fromStdString(name));
    SimulateOptions options;
    options.progress = &progress;
    options.timeline = TimelineDetail::events;
    auto simulated = simulate(*loaded.scenario, options);
    if (!simulated) return Error{name + " could not be simulated again: " + simulated.error().message};
    return Simulated{std::move(simulated.value().report), std::move(simulated.value().timeline)};
}

}  // namespace

std::function<ComparedRunsOutcome(JobRunner::Context&)> compared_runs_work(std::string database, std::int64_t a,
                                                                            std::int64_t b) {
    return [database = std::move(database), a, b](JobRunner::Context& context) -> ComparedRunsOutcome {
        Expected<ResultStore> store = open_results_for_reading(database);
        if (!store) return Error{store.error()};
        Expected<Simulated> first = simulate_again(store.value(), a, 0, context);
        if (!first) return Error{first.error()};
        Expected<Simulated> second = simulate_again(store.value(), b, 1, context);
        if (!second) return Error{second.error()};
        auto compared = std::make_shared<ComparedRuns>();
        compared->a_run = a;
        compared->b_run = b;
        compared->a_report = std::move(first.value().report);
        compared->b_report = std::move(second.value().report);
        compared->a = std::move(first.value().timeline);
        compared->b = std::move(second.value().timeline);
        compared->comparison = compare_timelines(*compared->a, *compared->b);
        for (const EventChange& change : largest_changes(compared->comparison, *compared->a, *compared->b, 5)) {
            compared->largest_changes.push_back(event_change_text(*compared->a, *compared->b, change));
        }
        return std::shared_ptr<const ComparedRuns>(std::move(compared));
    };
}

}  // namespace parasight::gui
