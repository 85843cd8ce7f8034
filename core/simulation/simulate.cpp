#include "simulation/simulate.h"

#include <chrono>
#include <exception>
#include <new>

namespace parasight {
namespace {

SimulationError stopped(SimulationErrorKind kind, SimulationPhase phase, std::string message) {
    SimulationError error;
    error.kind = kind;
    error.phase = phase;
    error.message = std::move(message);
    return error;
}

Expected<Simulation, SimulationError> run_phases(const ValidatedScenario& validated, const SimulateOptions& options,
                                                 SimulationPhase& phase) {
    const auto started = std::chrono::steady_clock::now();
    const Scenario& scenario = validated.value();
    phase = SimulationPhase::compile;
    auto graph = compile_scenario(validated, CompileOptions{options.all_devices, options.max_tasks, options.progress});
    if (!graph) return graph.error();
    Simulation simulation;
    simulation.graph = std::move(graph).value();

    phase = SimulationPhase::engine;
    EngineOptions engine;
    engine.overlap_slowdown = scenario.simulation.overlap_slowdown;
    engine.bandwidth_sharing = scenario.simulation.bandwidth_sharing;
    engine.record_memory_timeline = options.record_memory_timeline;
    engine.memory_capacity_bytes = scenario.cluster.device.memory_bytes;
    engine.progress = options.progress;
    simulation.run = run_engine(simulation.graph, engine);
    switch (simulation.run.end) {
    case EngineEnd::finished: break;
    case EngineEnd::cancelled:
        return stopped(SimulationErrorKind::cancelled, phase, "the simulation was cancelled");
    case EngineEnd::deadlocked:
        return stopped(SimulationErrorKind::internal, phase,
                       "the execution graph deadlocked: " + std::to_string(simulation.run.unfinished_tasks) +
                           " tasks never became ready");
    }

    phase = SimulationPhase::analysis;
    auto report = analyse(scenario, simulation.graph, simulation.run, options.progress);
    if (!report) return stopped(SimulationErrorKind::cancelled, phase, "the simulation was cancelled");
    simulation.report = std::move(*report);
    simulation.report.mode = options.all_devices ? "all-devices" : "representative";
    simulation.report.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return simulation;
}

}  // namespace

Expected<Simulation, SimulationError> simulate(const ValidatedScenario& scenario,
                                               const SimulateOptions& options) noexcept {
    SimulationPhase phase = SimulationPhase::compile;
    // Exceptions are left for bugs and exhausted memory; they end here, as a value a caller can show.
    try {
        return run_phases(scenario, options, phase);
    } catch (const std::bad_alloc&) {
        return stopped(SimulationErrorKind::internal, phase, "ran out of memory while " +
                                                                 std::string(name_of(phase, simulation_phase_names)));
    } catch (const std::exception& error) {
        return stopped(SimulationErrorKind::internal, phase, error.what());
    } catch (...) {
        return stopped(SimulationErrorKind::internal, phase, "an unknown exception");
    }
}

Expected<Simulation, SimulationError> simulate(const Scenario& scenario, const SimulateOptions& options) noexcept {
    try {
        Validation validation = validate(scenario);
        if (!validation.scenario) {
            SimulationError error = stopped(SimulationErrorKind::invalid, SimulationPhase::compile,
                                            "the scenario is not valid");
            error.diagnostics = std::move(validation.diagnostics);
            return error;
        }
        return simulate(*validation.scenario, options);
    } catch (...) {  // only std::bad_alloc can reach here, from copying the scenario
        return stopped(SimulationErrorKind::internal, SimulationPhase::compile, "ran out of memory while validating");
    }
}

}  // namespace parasight
