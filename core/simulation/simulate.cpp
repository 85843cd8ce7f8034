#include "simulation/simulate.h"

#include <chrono>

namespace parasight {

Expected<Simulation> simulate(const Scenario& scenario, const SimulateOptions& options) {
    const auto started = std::chrono::steady_clock::now();
    auto graph = compile_scenario(scenario, CompileOptions{options.all_devices, options.max_tasks});
    if (!graph) return Error{graph.error()};
    Simulation simulation;
    simulation.graph = std::move(graph).value();
    EngineOptions engine;
    engine.overlap_slowdown = scenario.simulation.overlap_slowdown;
    engine.bandwidth_sharing = scenario.simulation.bandwidth_sharing;
    engine.record_memory_timeline = options.record_memory_timeline;
    engine.memory_capacity_bytes = scenario.cluster.device.memory_bytes;
    engine.progress = options.progress;
    simulation.run = run_engine(simulation.graph, engine);
    if (simulation.run.cancelled) return Error{"the simulation was cancelled"};
    simulation.report = analyse(scenario, simulation.graph, simulation.run);
    simulation.report.mode = options.all_devices ? "all-devices" : "representative";
    simulation.report.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return simulation;
}

}  // namespace parasight
