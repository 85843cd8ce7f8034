#pragma once
// The least memory a device of a scenario needs, in closed form and without simulating: the model states of its
// stage (weights, gradients, optimizer state), which a device allocates at the start and keeps for the whole
// iteration. A simulated device's peak is never below it, so a scenario whose bound passes the device's memory
// cannot fit — a sweep records such a point as out of memory without simulating it.

#include "scenario/validated_scenario.h"

namespace parasight {

struct MemoryLowerBound {
    double needed_bytes = 0.0;    // on the stage that needs the most
    int stage = 0;                // that stage
    double capacity_bytes = 0.0;  // the device's memory

    [[nodiscard]] bool exceeds_capacity() const noexcept {
        return capacity_bytes > 0.0 && needed_bytes > capacity_bytes;
    }
};

[[nodiscard]] MemoryLowerBound memory_lower_bound(const ValidatedScenario& scenario);

}  // namespace parasight
