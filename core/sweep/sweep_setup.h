#pragma once
// What a sweep is, from what a user gives: a base scenario and its axes from three places in order — the file's
// `sweep:` section, axes written as --axis writes them ("parallelism.tp=1,2,4"), then the built-in strategy space —
// each checked against the base before any point runs. The command line and the sweep views set up sweeps with it,
// so that both refuse the same axes with the same words.

#include "scenario/scenario.h"
#include "scenario_file/sweep_section.h"
#include "sweep/sweep_runner.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace parasight {

// A sweep's base: the scenario as read (not cross-checked: the axes may be what makes it valid), it as
// write_scenario_yaml writes it (completed — kv_heads, ffn_hidden from the model — when it is valid as it stands, so
// that every field has a path), its sweep section (empty when it has none) and the folder its relative paths start at.
struct SweepBase {
    Scenario scenario;
    std::string yaml;
    SweepSection section;
    std::filesystem::path directory;
};

// A scenario file as a sweep's base; the diagnostics are the file's reading problems, then its sweep section's.
[[nodiscard]] Expected<SweepBase, Diagnostics> read_sweep_base(const std::filesystem::path& file);
// A scenario already read (an editor's) with the sweep section it holds.
[[nodiscard]] SweepBase sweep_base(Scenario scenario, SweepSection section, std::filesystem::path directory);

// Why the axes make no sweep. `given` is what the user wrote (the axis as written, the strategy space's name);
// `message` says what is wrong with it, without repeating it.
struct SweepSetupProblem {
    enum class Source : std::uint8_t {
        section,     // the file's sweep section: `diagnostics` at their places in the file
        axis,        // an axis as written does not parse, or names no place in the scenario
        strategies,  // the strategy space: not all or degrees, set twice, or no strategy fits
        no_axes,     // nothing to sweep over
        space,       // the axes together: two on one path, zipped axes of unequal lengths, too many points
    };
    Source source = Source::no_axes;
    std::string given;
    std::string message;
    Diagnostics diagnostics;
};

// The plan of a sweep over the base's section, then `axis_specs`, then `strategies` ("all" or "degrees") when given.
[[nodiscard]] Expected<SweepPlan, SweepSetupProblem> plan_sweep(const SweepBase& base,
                                                                const std::vector<std::string>& axis_specs,
                                                                const std::optional<std::string>& strategies);

// The paths of a plan's axes, in order.
[[nodiscard]] std::vector<std::string> axis_paths(const SweepPlan& plan);

}  // namespace parasight
