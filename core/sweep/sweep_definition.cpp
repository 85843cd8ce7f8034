#include "sweep/sweep_definition.h"

#include "sweep/strategy_space.h"
#include "sweep/sweep_point.h"

namespace parasight {

SweepDefinition sweep_definition(const SweepSection& section, const Scenario& base, const std::string& base_yaml) {
    SweepDefinition definition;
    const auto problem = [&](const SourceLocation& where, const std::string& path, std::string message) {
        definition.diagnostics.push_back(Diagnostic{where, std::move(message), path});
    };
    std::optional<ScenarioPaths> paths;  // the base read once, for the first axis
    for (const SweepSectionAxis& entry : section.axes) {
        SweepAxis axis{entry.path, entry.values, entry.zipped_with_previous};
        if (!entry.text.empty()) {
            Expected<std::vector<std::string>> values = parse_axis_values(entry.text);
            if (!values) {
                problem(entry.location, entry.path, "sweep axis " + entry.path + ": " + values.error());
                continue;
            }
            axis.values = std::move(values).value();
        }
        if (!paths) paths.emplace(base_yaml);
        if (auto missing = paths->missing(entry.path)) {
            problem(entry.location, entry.path, "sweep axis " + entry.path + ": " + *missing);
            continue;
        }
        if (axis.zipped_with_previous && !definition.axes.empty() &&
            axis.values.size() != definition.axes.back().values.size()) {
            problem(entry.location, entry.path,
                    "zipped axes take their values together, so each needs as many: " + definition.axes.back().path +
                        " has " + std::to_string(definition.axes.back().values.size()) + ", " + entry.path + " has " +
                        std::to_string(axis.values.size()));
            continue;
        }
        definition.axes.push_back(std::move(axis));
    }
    if (!section.strategies.empty()) {
        const Expected<StrategySpace> space = parse_strategy_space(section.strategies);
        if (!space) {
            problem(section.strategies_location, "sweep.strategies", "sweep.strategies: " + space.error());
        } else {
            std::vector<SweepAxis> strategies = strategy_axes(base, space.value());
            if (strategies.empty()) {
                problem(section.strategies_location, "sweep.strategies",
                        "sweep.strategies: no strategy lays this model onto this cluster's devices");
            }
            definition.strategy_axes = std::move(strategies);
        }
    }
    return definition;
}

}  // namespace parasight
