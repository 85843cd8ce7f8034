#include "run/simulation_result.h"

namespace parasight::gui {

std::shared_ptr<SimulationResult> make_result(std::shared_ptr<const ValidatedScenario> scenario, Simulation simulation,
                                              const PhaseProgress& progress) {
    auto result = std::make_shared<SimulationResult>();
    result->scenario = std::move(scenario);
    result->simulation = std::move(simulation);
    if (const auto& timeline = result->simulation.timeline) {
        result->identical_devices = std::make_shared<const IdenticalDevices>(IdenticalDevices::of(*timeline));
        result->layer_times = layer_times(*timeline);
        result->traffic = dimension_traffic(*timeline, result->scenario->value().cluster.topology.size(),
                                            result->identical_devices.get());
        result->collectives = collective_table(*timeline, result->identical_devices.get());
        if (result->scenario->value().model.kind == ModelKind::cnn) {
            if (auto comparison = compare_oracle_with_simulation(*result->scenario, result->simulation)) {
                result->oracle_comparison = std::move(*comparison);
            }
        }
        result->timeline_levels = TimelineLevels::build(timeline, progress);
        if (!result->timeline_levels) return nullptr;
    }
    return result;
}

}  // namespace parasight::gui
