#include "run/simulation_result.h"

#include "run/freed_off_gui_thread.h"

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
        auto levels = TimelineLevels::build(timeline, progress);
        if (!levels) return nullptr;
        // The views let go of the last copies on the GUI thread when the next result comes: freed on the pool.
        result->timeline_levels = freed_off_gui_thread(std::move(levels));
        result->simulation.timeline = freed_off_gui_thread(std::move(result->simulation.timeline));
    }
    return result;
}

}  // namespace parasight::gui
