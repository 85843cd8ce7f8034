#pragma once
// What parasight-cli says and returns for each way a simulation can end without a result.

#include "common/simulation_error.h"

#include <iosfwd>
#include <string>
#include <string_view>

namespace parasight::cli {

// FILE: the problem, on err; exit_bad_input for what the user can change (an invalid scenario, a graph too large, a
// degenerate run), exit_internal_error otherwise. `all_devices`: the run simulated every device.
int report_simulation_failure(std::ostream& err, std::string_view command, const std::string& file,
                              const SimulationError& error, bool all_devices);

}  // namespace parasight::cli
