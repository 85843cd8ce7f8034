#pragma once
// A lesson step's sweep (scenario_file/lesson_file.h, `sweep:`): its axes planned on the step's scenario as the Sweeps
// tab plans them, every point run, and the best point — by the default ranking, as the heatmap outlines it — compared
// with the values the lesson states (`best:`), so that a capstone's "the best cell is tp 8, pp 8" cannot drift from
// the model either.

#include "diagnostics/diagnostic.h"
#include "scenario/scenario.h"
#include "scenario_file/lesson_file.h"
#include "sweep/point_result.h"

#include <filesystem>
#include <optional>

namespace parasight {

// The sweep's best point by its default ranking (the shortest iteration, or the highest throughput when an axis
// changes the work): its values and the metric's, with the metric's column.
struct LessonSweepBest {
    std::vector<AxisValue> values;
    std::string metric;  // "iteration_time_s"
    double value = 0.0;
};

struct LessonSweepRun {
    std::uint64_t points = 0;
    std::optional<LessonSweepBest> best;  // none when no point simulated and fits
};

// Plans and runs `sweep` on `scenario` (whose relative paths start at `directory`) on `jobs` threads; each problem at
// its place in the lesson: an axis that makes no sweep, a best value that is not the sweep's best.
[[nodiscard]] Expected<LessonSweepRun, Diagnostics> run_lesson_sweep(const LessonSweep& sweep, const Scenario& scenario,
                                                                     const std::filesystem::path& directory, int jobs);

// The problems of `run` against what `sweep` states: its count of points, its best point's values.
[[nodiscard]] Diagnostics check_lesson_sweep_best(const LessonSweep& sweep, const LessonSweepRun& run);

}  // namespace parasight
