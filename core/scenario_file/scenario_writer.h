#pragma once
// Writes a Scenario as a schema-1 YAML file with every value spelled out (preset ids kept for reference), so that
// loading it back gives an equal Scenario.

#include "scenario/scenario.h"

#include <array>
#include <string>
#include <string_view>

namespace parasight {

[[nodiscard]] std::string write_scenario_yaml(const Scenario& scenario);

// Keys the writer leaves out while they hold their "unset" value, so that files written before they existed read and
// write the same (training.stack: none among them); a sweep or a lesson may still set them on a written scenario.
// A list entry's key is written with empty brackets: "cluster.topology[].algorithm".
extern const std::array<std::string_view, 30> paths_written_only_when_set;

}  // namespace parasight
