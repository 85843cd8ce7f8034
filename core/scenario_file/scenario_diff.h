#pragma once
// What differs between two scenarios as their files write them (write_scenario_yaml): every value whose path holds
// another value, or is in one and not the other — "training.global_batch: 16 → 32" — for `parasight-cli runs
// compare`, which says which inputs changed between two runs beside how their metrics did.

#include <string>
#include <vector>

namespace parasight {

struct ScenarioDifference {
    std::string path;    // "training.global_batch", "cluster.topology[1].bandwidth"
    std::string before;  // as written; empty when the first scenario has no value there
    std::string after;   // likewise for the second
};

// In the order of their paths as text; empty when they are the same. Text that is not YAML compares as
// one value at the path "".
[[nodiscard]] std::vector<ScenarioDifference> scenario_differences(const std::string& before_yaml,
                                                                   const std::string& after_yaml);

}  // namespace parasight
