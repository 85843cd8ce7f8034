#pragma once
// A lesson brought to life: each step's scenario (its preset or file with its fields set, read as a sweep point is),
// simulated; its question's answer and its claims evaluated on the step's run. check_lesson is what `make test` runs
// on every bundled lesson (tests/core/test_lessons.cpp): every expression reads, every target and tab exists, every
// step simulates, every answer is a number, and every number the narrative states (a claim) is what the simulation
// gives, within its tolerance — so a lesson cannot drift from the model. Each problem at its FILE:LINE:COL.

#include "lesson/lesson_run.h"
#include "lesson/report_expression.h"
#include "scenario_file/lesson_file.h"
#include "scenario_file/scenario_loader.h"
#include "sweep/sweep_point.h"

#include <optional>
#include <vector>

namespace parasight {

// Step `index`'s scenario, or the problems, located in the lesson (a field set to a value the loader refuses: at that
// value; a scenario that does not hold together: at its preset's or file's name).
// Variant `variant` (0: the lesson as written; n ≥ 1: each of its variants' fields set to values[(n − 1 + i) mod
// count] for the i-th variant, in every step that does not set that field itself — so that neighbours' variants
// differ in every field).
[[nodiscard]] LoadResult lesson_step_scenario(const Lesson& lesson, std::size_t index, int variant = 0);
// The fields variant `variant` sets and their values (none for 0), as written in the lesson.
[[nodiscard]] std::vector<AxisValue> lesson_variant_values(const Lesson& lesson, int variant);

// Step `index`'s run of `scenario` (its scenario as lesson_step_scenario makes it): the report, and for a CNN the
// oracle's answer beside it; why it did not simulate, at the step's scenario.
[[nodiscard]] Expected<LessonRun, Diagnostic> simulate_lesson_step(const Lesson& lesson, std::size_t index,
                                                                   const ValidatedScenario& scenario);
// Every step's run of variant `variant`, as the window would make it (none for a step whose scenario does not load or
// simulate).
[[nodiscard]] std::vector<std::optional<LessonRun>> simulate_lesson(const Lesson& lesson, int variant = 0);

// The earlier steps (K of each step[K], 1-based, each once, increasing) that step `index`'s question, challenge and
// texts name: the runs its answers need.
[[nodiscard]] std::vector<int> earlier_steps_named(const Lesson& lesson, std::size_t index);

// An expression of the lesson read, or its problem at the place it was written (column by its offset).
[[nodiscard]] Expected<ReportExpression, Diagnostic> lesson_expression(const LocatedText& text);

// The value of `expression` on step `index`'s run, step[K] naming step K's (1-based; an earlier one); `runs` holds
// each step's run so far (none for a step not run).
[[nodiscard]] Expected<double> evaluate_in_lesson(const ReportExpression& expression,
                                                  const std::vector<std::optional<LessonRun>>& runs, std::size_t index);

// Whether `guess` is right for `answer`: within the relative tolerance (or exactly, for an answer of 0).
[[nodiscard]] bool within_tolerance(double guess, double answer, double tolerance) noexcept;

// Whether a run meets a step's challenge, and why not: the expression's value against its bound, or a field it keeps
// that differs from the step's scenario (`step_yaml` and `run_yaml` as scenario_writer writes them).
struct ChallengeVerdict {
    bool met = false;
    std::string said;  // "met: bubble_s / iteration_time_s is 0.2033, below 0.21"; "parallelism.pp is 8, not 4 as the step set it"
};
[[nodiscard]] ChallengeVerdict judge_challenge(const LessonChallenge& challenge, const ReportExpression& expression,
                                               const std::vector<std::optional<LessonRun>>& runs, std::size_t index,
                                               const std::string& step_yaml, const std::string& run_yaml);

// Every problem of the lesson past its file's form, each step simulated (one device per class of identical devices).
[[nodiscard]] Diagnostics check_lesson(const Lesson& lesson);

}  // namespace parasight
