#include "sweep/sweep_setup.h"

#include "scenario_file/scenario_loader.h"
#include "scenario_file/scenario_writer.h"
#include "sweep/strategy_space.h"
#include "sweep/sweep_definition.h"
#include "sweep/sweep_point.h"
#include "validation/validate.h"

namespace parasight {
namespace {

SweepSetupProblem problem(SweepSetupProblem::Source source, std::string given, std::string message) {
    return SweepSetupProblem{source, std::move(given), std::move(message), {}};
}

}  // namespace

Expected<SweepBase, Diagnostics> read_sweep_base(const std::filesystem::path& file) {
    ReadResult read = read_scenario_file(file);
    if (!read.diagnostics.empty() || !read.scenario) return std::move(read.diagnostics);
    SweepSectionRead section = read_sweep_section_file(file);
    if (!section.diagnostics.empty()) return std::move(section.diagnostics);
    const std::filesystem::path folder = file.parent_path();
    return sweep_base(std::move(*read.scenario), section.section.value_or(SweepSection{}),
                      folder.empty() ? "." : folder);
}

SweepBase sweep_base(Scenario scenario, SweepSection section, std::filesystem::path directory) {
    const Validation validated = validate(scenario);
    std::string yaml = write_scenario_yaml(validated.ok() ? validated.scenario->value() : scenario);
    return SweepBase{std::move(scenario), std::move(yaml), std::move(section), std::move(directory)};
}

Expected<SweepPlan, SweepSetupProblem> plan_sweep(const SweepBase& base, const std::vector<std::string>& axis_specs,
                                                  const std::optional<std::string>& strategies) {
    using Source = SweepSetupProblem::Source;
    std::optional<StrategySpace> strategy_space;
    if (strategies) {
        if (!base.section.strategies.empty()) {
            return problem(Source::strategies, *strategies, "the file's sweep section already sets strategies");
        }
        const Expected<StrategySpace> space = parse_strategy_space(*strategies);
        if (!space) return problem(Source::strategies, *strategies, space.error());
        strategy_space = space.value();
    }
    const SweepDefinition definition = sweep_definition(base.section, base.scenario, base.yaml);
    if (!definition.diagnostics.empty()) return SweepSetupProblem{Source::section, {}, {}, definition.diagnostics};

    // The section's axes, then the ones written out, then the section's strategies, then the strategy space asked
    // for: the last axis varies fastest.
    std::vector<SweepAxis> axes = definition.axes;
    std::optional<ScenarioPaths> paths;  // the base read once, for the first axis
    for (const std::string& spec : axis_specs) {
        Expected<std::vector<SweepAxis>> parsed = parse_sweep_axes(spec);
        if (!parsed) return problem(Source::axis, spec, parsed.error());
        for (SweepAxis& axis : parsed.value()) {
            if (!paths) paths.emplace(base.yaml);
            if (auto missing = paths->missing(axis.path)) {
                return problem(Source::axis, spec, axis.path + ": " + *missing);
            }
            axes.push_back(std::move(axis));
        }
    }
    axes.insert(axes.end(), definition.strategy_axes.begin(), definition.strategy_axes.end());
    if (strategy_space) {
        const std::vector<SweepAxis> strategy = strategy_axes(base.scenario, *strategy_space);
        if (strategy.empty()) {
            return problem(Source::strategies, *strategies, "no strategy lays this model onto this cluster's devices");
        }
        axes.insert(axes.end(), strategy.begin(), strategy.end());
    }
    if (axes.empty()) return problem(Source::no_axes, {}, "nothing to sweep over");
    Expected<SweepSpace> space = SweepSpace::of(std::move(axes));
    if (!space) return problem(Source::space, {}, space.error());
    return SweepPlan{base.scenario.name, base.yaml, base.directory, std::move(space).value(),
                     name_facts(base.scenario)};
}

std::vector<std::string> axis_paths(const SweepPlan& plan) {
    std::vector<std::string> paths;
    for (const SweepAxis& axis : plan.space.axes()) paths.push_back(axis.path);
    return paths;
}

}  // namespace parasight
