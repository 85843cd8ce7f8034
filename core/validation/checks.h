#pragma once
// The two passes of validate(); internal to core/validation.

#include "scenario/scenario.h"
#include "common/did_you_mean.h"
#include "validation/problem_list.h"

#include <algorithm>

namespace parasight {

// Each value on its own: ranges, names, known enum values and presets, the topology's shape, strategy-tree entries.
void check_fields(const Scenario& scenario, ProblemList& problems);

// Values against one another, once every field is in range: parallel degrees against the cluster (deriving the
// `auto` one) and the model, batch divisibility, schedules, strategy-tree stages and layers, the dtype against the
// device. Completes `scenario` (the derived degree).
void check_cross_section(Scenario& scenario, ProblemList& problems);

// A value of an enum that is one of `names` (a scenario built in memory may hold any value of the type).
template <class Enum, std::size_t N>
void known(ProblemList& problems, const std::string& path, Enum value, const std::array<EnumName<Enum>, N>& names) {
    const bool listed =
        std::any_of(names.begin(), names.end(), [&](const auto& entry) { return entry.value == value; });
    if (!listed) problems.add(path, path + " holds an unknown value; expected " + join_alternatives(names_of(names)));
}

// what_if (check_what_if.cpp): each rule's values, in check_fields' pass; the NPUs, dimensions and layers it names
// against the cluster and model, in check_cross_section's.
void check_what_if_fields(const WhatIfSpec& what_if, ProblemList& problems);
void check_what_if_targets(const Scenario& scenario, ProblemList& problems);

}  // namespace parasight
