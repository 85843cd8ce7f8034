#include "lesson/lesson_sweep.h"

#include "common/message_text.h"
#include "lesson/lesson_number.h"
#include "scenario_file/scenario_writer.h"
#include "sweep/sweep_ranking.h"
#include "sweep/sweep_setup.h"

#include <algorithm>

namespace parasight {

namespace {

// Keeps the best point that simulated and fits, by `metric`.
class BestPointObserver final : public SweepObserver {
public:
    explicit BestPointObserver(RankingMetric metric) : metric_(metric) {}

    [[nodiscard]] std::optional<std::string> points_done(std::span<const PointResult> points) override {
        for (const PointResult& point : points) {
            ++points_;
            if (point.status != PointStatus::ok || !point.report) continue;
            const double value = metric_.of(*point.report);
            if (!best_ || metric_.better(value, best_->value)) {
                best_ = LessonSweepBest{point.values, std::string(metric_.column), value};
            }
        }
        return std::nullopt;
    }
    [[nodiscard]] bool cancelled() const override { return false; }

    [[nodiscard]] LessonSweepRun run() const { return {points_, best_}; }

private:
    RankingMetric metric_;
    std::uint64_t points_ = 0;
    std::optional<LessonSweepBest> best_;
};

// Where in the lesson a setup problem belongs: the axis or strategy space as written, else the sweep.
SourceLocation place_of(const LessonSweep& sweep, const SweepSetupProblem& problem) {
    if (problem.source == SweepSetupProblem::Source::strategies && sweep.strategies) return sweep.strategies->where;
    const auto axis = std::find_if(sweep.axes.begin(), sweep.axes.end(),
                                   [&](const LocatedText& written) { return written.text == problem.given; });
    return axis != sweep.axes.end() ? axis->where : sweep.where;
}

std::string values_text(const std::vector<AxisValue>& values) {
    std::string text;
    for (const AxisValue& value : values) text += (text.empty() ? "" : ", ") + value.path + " " + value.value;
    return text;
}

}  // namespace

Expected<LessonSweepRun, Diagnostics> run_lesson_sweep(const LessonSweep& sweep, const Scenario& scenario,
                                                       const std::filesystem::path& directory, int jobs) {
    std::vector<std::string> axes;
    for (const LocatedText& axis : sweep.axes) axes.push_back(axis.text);
    const std::optional<std::string> strategies =
        sweep.strategies ? std::optional<std::string>(sweep.strategies->text) : std::nullopt;
    const Expected<SweepPlan, SweepSetupProblem> plan =
        plan_sweep(sweep_base(scenario, SweepSection{}, directory), axes, strategies);
    if (!plan) {
        const SweepSetupProblem& problem = plan.error();
        std::string message = problem.message;
        if (!problem.given.empty()) message = in_quotes(problem.given) + ": " + message;
        return Diagnostics{Diagnostic{place_of(sweep, problem), message, {}}};
    }
    const Expected<DefaultRanking> ranking =
        chosen_ranking(std::nullopt, axis_paths(plan.value()), scenario.model.kind == ModelKind::transformer);
    BestPointObserver observer(ranking.value().metric);
    SweepOptions options;
    options.jobs = std::max(1, jobs);
    static_cast<void>(run_sweep(plan.value(), options, observer));
    return observer.run();
}

Diagnostics check_lesson_sweep_best(const LessonSweep& sweep, const LessonSweepRun& run) {
    Diagnostics problems;
    if (sweep.points && static_cast<std::uint64_t>(*sweep.points) != run.points) {
        problems.push_back({sweep.points_where, "the lesson says the sweep has " + std::to_string(*sweep.points) +
                                                    " points, it has " + std::to_string(run.points), {}});
    }
    if (sweep.best.empty()) return problems;
    if (!run.best) {
        problems.push_back({sweep.best.front().second.where,
                            "the lesson names a best point, but no point of the sweep simulates and fits", {}});
        return problems;
    }
    for (const auto& entry : sweep.best) {
        const std::string& path = entry.first;  // named, not bound: a lambda below captures it
        const LocatedText& stated = entry.second;
        const auto value = std::find_if(run.best->values.begin(), run.best->values.end(),
                                        [&](const AxisValue& axis) { return axis.path == path; });
        if (value == run.best->values.end()) {
            problems.push_back({stated.where, path + " is not an axis of the sweep; its axes: " +
                                                  values_text(run.best->values), {}});
        } else if (value->value != stated.text) {
            problems.push_back({stated.where, "the lesson says the best point has " + path + " " + stated.text +
                                                  ", the sweep's best has " + value->value + " (" +
                                                  values_text(run.best->values) + ": " + run.best->metric + " " +
                                                  lesson_number_text(run.best->value) + ")", {}});
        }
    }
    return problems;
}

}  // namespace parasight
