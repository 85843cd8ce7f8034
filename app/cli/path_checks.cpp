#include "path_checks.h"

#include "commands.h"

namespace parasight::cli {

std::vector<CommandFile> scenario_inputs(const std::filesystem::path& scenario_file, const Scenario* loaded) {
    std::vector<CommandFile> inputs{{"the scenario file", scenario_file, false}};
    if (loaded != nullptr && !loaded->simulation.measured_operations.empty()) {
        const std::filesystem::path written(loaded->simulation.measured_operations);
        inputs.push_back({"the measured operations table",
                          written.is_absolute() ? written : scenario_file.parent_path() / written, false});
    }
    return inputs;
}

std::optional<int> refuse_path_clash(std::ostream& err, std::string_view command,
                                     const std::vector<CommandFile>& outputs, const std::vector<CommandFile>& inputs) {
    const auto clash = find_path_clash(outputs, inputs);
    if (!clash) return std::nullopt;
    return usage_error(err, command, *clash);
}

}  // namespace parasight::cli
