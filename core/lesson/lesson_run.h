#pragma once
// What a lesson's expressions are evaluated on: a step's simulated run — its report — and, for a CNN, the oracle's
// answer for the same scenario's strategy beside it (docs/oracle.md §4), so that a lesson can set the closed forms
// against the simulation. The names an expression may use are the run columns' (export/report_metrics.h) and the
// oracle's.

#include "analysis/report.h"
#include "oracle_comparison/oracle_comparison.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parasight {

struct LessonRun {
    Report report;
    std::optional<OracleComparison> oracle;  // a CNN's; none for a transformer
};

// Every name: the run columns', then oracle_iteration_s, oracle_compute_s and oracle_communication_s (one iteration
// of a PE, as the oracle's closed forms give it).
[[nodiscard]] const std::vector<std::string_view>& lesson_run_names();

// The value of `name` on `run`; none for an oracle name when the run has no oracle answer, or a name not in
// lesson_run_names.
[[nodiscard]] std::optional<double> lesson_run_value(const LessonRun& run, std::string_view name);

}  // namespace parasight
