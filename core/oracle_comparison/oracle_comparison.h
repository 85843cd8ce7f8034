#pragma once
// The oracle next to the simulation (docs/oracle.md §4): for a CNN scenario whose strategy both can run — data
// parallelism over dp, layer (pipeline) parallelism over pp, or both — what the oracle's closed forms say one
// iteration costs a PE, what the simulation of the same scenario says the mean device spends, and each reason they
// differ, with its size: the pipeline's fill and drain, communication hidden behind computation, the collectives'
// cost, the slowdown of overlapped work.

#include "common/expected.h"
#include "oracle/strong_scaling.h"
#include "simulation/simulate.h"

#include <string>
#include <vector>

namespace parasight {

struct OracleComparison {
    OracleChoice oracle;                // the scenario's strategy and arrangement, one epoch
    double iterations = 1.0;            // per epoch
    double oracle_compute_s = 0.0;      // one iteration
    double oracle_communication_s = 0.0;
    // The simulation: the mean over the real devices, one iteration.
    double simulated_iteration_s = 0.0;
    double simulated_compute_s = 0.0;        // busy computing: forward, backward, optimizer
    double simulated_communication_s = 0.0;  // busy communicating: gradient all-reduces and pipeline sends
    double simulated_exposed_communication_s = 0.0;  // of it, with no computation beside it
    double simulated_bubble_s = 0.0;
    double simulated_idle_s = 0.0;
    std::vector<std::string> reasons;  // why the two differ, largest first

    [[nodiscard]] double oracle_iteration_s() const noexcept { return oracle_compute_s + oracle_communication_s; }
};

// An error when the model is not a CNN, or when the simulation has no timeline to measure busy times from.
[[nodiscard]] Expected<OracleComparison> compare_oracle_with_simulation(const ValidatedScenario& scenario,
                                                                        const Simulation& simulation);

}  // namespace parasight
