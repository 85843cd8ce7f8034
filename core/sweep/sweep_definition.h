#pragma once
// A sweep's axes from a scenario file's `sweep:` section (scenario_file/sweep_section.h): each entry's values — a
// list as written, or a range read as --axis reads it — with its path checked against the base scenario, entries of
// several paths zipped, and `strategies:` expanded (sweep/strategy_space.h). Every problem is a diagnostic at its
// place in the file.

#include "scenario/scenario.h"
#include "scenario_file/sweep_section.h"
#include "sweep/sweep_axis.h"

#include <string>
#include <vector>

namespace parasight {

struct SweepDefinition {
    std::vector<SweepAxis> axes;           // the section's entries, in order
    std::vector<SweepAxis> strategy_axes;  // its strategy space (strategy_space.h), or none; sweeps put it last
    Diagnostics diagnostics;               // none when the axes are good
};

// `base` is the scenario the file describes, `base_yaml` it as write_scenario_yaml writes it.
[[nodiscard]] SweepDefinition sweep_definition(const SweepSection& section, const Scenario& base,
                                               const std::string& base_yaml);

}  // namespace parasight
