#include "scenario_file/relocate_paths.h"

namespace parasight {

Scenario with_absolute_paths(Scenario scenario, const std::filesystem::path& directory) {
    std::string& written = scenario.simulation.measured_operations;
    const std::filesystem::path path(written);
    if (!written.empty() && !path.is_absolute() && !directory.empty()) {
        written = (directory / path).lexically_normal().string();
    }
    return scenario;
}

Scenario with_relative_paths(Scenario scenario, const std::filesystem::path& directory) {
    std::string& written = scenario.simulation.measured_operations;
    const std::filesystem::path path(written);
    if (path.is_absolute()) {
        // Empty only where no relative path leads there (another root name): then it stays absolute.
        const std::filesystem::path relative = path.lexically_normal().lexically_relative(directory.lexically_normal());
        if (!relative.empty()) written = relative.generic_string();
    }
    return scenario;
}

}  // namespace parasight
