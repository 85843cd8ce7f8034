#pragma once
// What a finished simulation hands to the views: the scenario it simulated, what came of it, and what the views read
// of its timeline, derived once where the simulation ran (the runner's worker) so that the GUI thread only reads it.

#include "analysis/collective_table.h"
#include "analysis/dimension_traffic.h"
#include "analysis/identical_devices.h"
#include "analysis/layer_times.h"
#include "analysis/timeline_levels.h"
#include "oracle_comparison/oracle_comparison.h"
#include "scenario/validated_scenario.h"
#include "simulation/simulate.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace parasight::gui {

// Never changed once handed to the views.
struct SimulationResult {
    std::uint64_t job = 0;
    std::shared_ptr<const ValidatedScenario> scenario;
    Simulation simulation;
    // For drawing simulation.timeline at any zoom, and which of its devices did the same; null when the run kept no
    // timeline.
    std::shared_ptr<const TimelineLevels> timeline_levels;
    std::shared_ptr<const IdenticalDevices> identical_devices;
    // Each layer's forward, backward and recompute time per device (empty without a timeline).
    std::vector<LayerTimes> layer_times;
    // What each topology dimension carried, and each group's bottleneck dimension (empty without a timeline).
    std::optional<TrafficReport> traffic;
    // Each kind of communication call: calls, bytes, time, algbw and busbw (empty without a timeline).
    std::vector<CollectiveRow> collectives;
    // A CNN scenario's oracle answer for its own strategy beside this simulation (empty for a transformer or without
    // a timeline).
    std::optional<OracleComparison> oracle_comparison;
};

// The result of `simulation` (of `scenario`) with the timeline's level-of-detail index, identical devices, layer
// times, dimension traffic, the communication table and a CNN's oracle comparison derived, on the calling thread; null when `progress` asked
// to stop meanwhile.
[[nodiscard]] std::shared_ptr<SimulationResult> make_result(std::shared_ptr<const ValidatedScenario> scenario,
                                                            Simulation simulation, const PhaseProgress& progress);

}  // namespace parasight::gui
