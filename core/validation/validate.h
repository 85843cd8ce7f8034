#pragma once
// validate(): every check the loader makes on a scenario's values — ranges, names, topology, parallel degrees
// against the cluster and the model (an `auto` degree derived), batch divisibility, schedules, strategy-tree
// consistency — on a Scenario from anywhere: a file, an editor, a sweep. Problems are located by scenario path
// (`parallelism.pp`, `strategy_tree[1].layers`); the loader turns paths into FILE:LINE:COL.
// Only validate() makes a ValidatedScenario (scenario/validated_scenario.h), and the compiler and simulate() take
// nothing else, so a scenario that was edited after its checks cannot reach them.

#include "diagnostics/diagnostic.h"
#include "scenario/validated_scenario.h"

#include <optional>

namespace parasight {

struct Validation {
    std::optional<ValidatedScenario> scenario;  // set only when there are no diagnostics
    Diagnostics diagnostics;

    [[nodiscard]] bool ok() const noexcept { return scenario.has_value(); }
};

// Checks `scenario` and completes it: kv_heads and ffn_hidden default from the model, and the degree written as
// `auto` (ParallelismSpec::derived_axis) is derived again from the device count.
[[nodiscard]] Validation validate(Scenario scenario);

}  // namespace parasight
