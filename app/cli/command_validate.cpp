#include "commands.h"

#include "cli_arguments.h"
#include "common/message_text.h"
#include "scenario_file/scenario_loader.h"

#include <ostream>

namespace parasight::cli {

const std::string_view validate_help = R"(usage: parasight-cli validate FILE [FILE ...]

Checks scenario files: YAML syntax, keys, types, units, ranges, presets, and whether the parallel degrees fit the
model and the cluster. Prints one line per valid file; every problem is printed as FILE:LINE:COL: message.

exit status: 0 all files valid, 2 a file has problems (or cannot be read)
)";

int run_validate(const std::vector<std::string>& words, std::ostream& out, std::ostream& err) {
    const auto arguments = Arguments::parse(words, OptionSpec{});
    if (!arguments) return usage_error(err, "validate", arguments.error());
    if (arguments->positional().empty()) return usage_error(err, "validate", "name at least one scenario FILE");
    int status = exit_ok;
    for (const std::string& file : arguments->positional()) {
        const LoadResult result = load_scenario_file(file);
        if (!result.ok()) {
            for (const Diagnostic& diagnostic : result.diagnostics) err << diagnostic.to_string() << '\n';
            status = exit_bad_input;
            continue;
        }
        const Scenario& scenario = result.scenario->value();
        out << file << ": ok — " << (scenario.name.empty() ? "unnamed scenario" : shortened(scenario.name)) << ", "
            << count_phrase(scenario.device_count(), "device") << '\n';
    }
    return status;
}

}  // namespace parasight::cli
