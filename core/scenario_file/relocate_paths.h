#pragma once
// The paths a scenario holds (simulation.measured_operations) name files next to it. A file gives them relative
// to its folder, so that the folder can move; an editor holds them absolute, so that the scenario can be saved
// anywhere: these two turn one form into the other.

#include "scenario/scenario.h"

#include <filesystem>

namespace parasight {

// Relative paths made absolute from `directory`, the folder the scenario was read from. With no folder (the
// scenario was not read from a file) they are kept as written: nothing says where they start.
[[nodiscard]] Scenario with_absolute_paths(Scenario scenario, const std::filesystem::path& directory);
// Absolute paths made relative to `directory` (absolute), the folder the scenario is written to.
[[nodiscard]] Scenario with_relative_paths(Scenario scenario, const std::filesystem::path& directory);

}  // namespace parasight
