#pragma once
// The form's fields of the cluster's memory system (cluster.memory_system; docs/scenario-reference.md): the GPUs a
// node holds, host memory, NVMe and the disaggregated pool. Each tier may not be there: its first field is empty
// then, typing into it adds the tier (its other numbers 0, for the user to fill in, as validate() says), emptying it
// removes the tier; the pool's other fields are shown while it is there.

#include "scenario_form/scenario_fields.h"

#include <vector>

namespace parasight::gui {

void append_memory_system_fields(const Scenario& scenario, std::vector<ScenarioField>& fields);

}  // namespace parasight::gui
