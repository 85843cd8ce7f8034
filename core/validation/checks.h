#pragma once
// The two passes of validate(); internal to core/validation.

#include "scenario/scenario.h"
#include "validation/problem_list.h"

namespace parasight {

// Each value on its own: ranges, names, known enum values and presets, the topology's shape, strategy-tree entries.
void check_fields(const Scenario& scenario, ProblemList& problems);

// Values against one another, once every field is in range: parallel degrees against the cluster (deriving the
// `auto` one) and the model, batch divisibility, schedules, strategy-tree stages and layers, the dtype against the
// device. Completes `scenario` (the derived degree).
void check_cross_section(Scenario& scenario, ProblemList& problems);

}  // namespace parasight
