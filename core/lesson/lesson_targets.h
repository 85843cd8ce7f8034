#pragma once
// Whether a lesson step's targets (core target/target.h) name something its run has — an NPU of its cluster, a field
// of its scenario, a device its run simulates, events its timeline holds — so that a step cannot point the class at
// nothing: "events:forward" matches no event (forward events are named by their operation, "attention", "mlp").

#include "diagnostics/diagnostic.h"
#include "scenario/validated_scenario.h"
#include "scenario_file/lesson_file.h"

namespace parasight {

// The problems of `step`'s targets (a target that does not read is left to the caller) on its scenario; simulated
// with a timeline when a target needs one.
[[nodiscard]] Diagnostics lesson_target_problems(const LessonStep& step, const ValidatedScenario& scenario);

}  // namespace parasight
