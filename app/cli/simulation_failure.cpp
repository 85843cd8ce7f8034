#include "simulation_failure.h"

#include "commands.h"

#include <ostream>

namespace parasight::cli {

int report_simulation_failure(std::ostream& err, std::string_view command, const std::string& file,
                              const SimulationError& error, bool all_devices) {
    switch (error.kind) {
    case SimulationErrorKind::invalid:
        for (const Diagnostic& diagnostic : error.diagnostics) err << file << ": " << diagnostic.to_string() << '\n';
        if (error.diagnostics.empty()) err << file << ": " << error.message << '\n';
        return exit_bad_input;
    case SimulationErrorKind::too_large:
        err << file << ": " << error.message;
        if (all_devices) err << " (without --all-devices)";
        err << "; --max-tasks N raises the limit, up to 2147483647\n";
        return exit_bad_input;
    case SimulationErrorKind::degenerate: err << file << ": " << error.message << '\n'; return exit_bad_input;
    case SimulationErrorKind::cancelled:
    case SimulationErrorKind::out_of_memory:  // only when asked to stop there, which the commands do not
    case SimulationErrorKind::internal: break;
    }
    err << "parasight-cli " << command << ": internal error while " << name_of(error.phase, simulation_phase_names)
        << ": " << error.message << '\n';
    return exit_internal_error;
}

}  // namespace parasight::cli
