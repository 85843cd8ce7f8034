#pragma once
// Writes a Scenario as a schema-1 YAML file with every value spelled out (preset ids kept for reference), so that
// loading it back gives an equal Scenario.

#include "scenario/scenario.h"

#include <string>

namespace parasight {

[[nodiscard]] std::string write_scenario_yaml(const Scenario& scenario);

}  // namespace parasight
