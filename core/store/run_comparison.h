#pragma once
// Two stored runs side by side: which inputs differ (their scenarios, path by path: scenario_file/scenario_diff.h),
// then every column of both — what `parasight-cli runs compare` prints and the sweep views' comparison shows.

#include "scenario_file/scenario_diff.h"
#include "store/result_store.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace parasight {

struct ComparedColumn {
    std::string name;  // a column of runs (store/store_schema.h), or scenario_name
    StoredValue a;
    StoredValue b;
    // b − a and b / a when both are numbers (the ratio also needs a ≠ 0).
    [[nodiscard]] std::optional<double> difference() const;
    [[nodiscard]] std::optional<double> ratio() const;
};

struct RunComparison {
    std::int64_t a = 0;
    std::int64_t b = 0;
    std::vector<ScenarioDifference> inputs;  // empty: the same scenario
    std::vector<ComparedColumn> columns;     // in the order of the runs table, without id
};

// Why two runs cannot be compared: the database holds no such run (the asker's mistake), or it cannot be read.
struct ComparisonProblem {
    bool run_not_held = false;
    std::string message;  // a sentence without the database's path: "holds no run 7"
};

[[nodiscard]] Expected<RunComparison, ComparisonProblem> compare_runs(ResultStore& store, std::int64_t a,
                                                                      std::int64_t b);

// One JSON object (docs/cli.md, `runs compare --json`): a, b, inputs [{path, a, b}], metrics {COLUMN: {a, b,
// difference}} with difference only between numbers.
[[nodiscard]] std::string run_comparison_json(const RunComparison& comparison);

}  // namespace parasight
