#include "validation/valid_layouts.h"

#include "validation/validate.h"

#include <algorithm>

namespace parasight {

Scenario with_degrees(Scenario scenario, const DegreeCandidate& degrees) {
    ParallelismSpec& parallelism = scenario.parallelism;
    parallelism.derived_axis.reset();
    const std::pair<ParallelAxis, std::int64_t> chosen[] = {
        {ParallelAxis::tp, degrees.tp}, {ParallelAxis::pp, degrees.pp}, {ParallelAxis::ep, degrees.ep},
        {ParallelAxis::dp, degrees.dp}};
    for (const auto& [axis, degree] : chosen) {
        parallelism.set_degree(axis, static_cast<int>(degree));
        const bool listed =
            std::find(parallelism.mapping.begin(), parallelism.mapping.end(), axis) != parallelism.mapping.end();
        if (degree > 1 && !listed) parallelism.mapping.push_back(axis);
    }
    return scenario;
}

std::vector<DegreeCandidate> valid_layouts(const Scenario& scenario) {
    std::vector<DegreeCandidate> valid;
    for (const DegreeCandidate& candidate :
         degree_candidates(scenario.model, scenario.device_count(), scenario.parallelism.cp)) {
        if (validate(with_degrees(scenario, candidate)).ok()) valid.push_back(candidate);
    }
    return valid;
}

}  // namespace parasight
