#include "simulation/simulate.h"

#include "simulation/steady_state_run.h"

#include <chrono>
#include <cmath>
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

// What run_phases() made: the graph and run simulated and their report, and, where `graph` is a short run whose
// steady period repeats, the period.
struct Phases {
    SimulatedGraph simulated;
    std::optional<SteadyPeriod> period;
    std::int64_t repeats = 0;
    int short_micro_batches = 0;
};

// Compile, run and analyse; the analysis reports up to `analysis_share` of its phase (the Timeline the rest). Without
// `whole_graph`, a schedule that settles into a steady period is analysed from its short run, and the graph in the
// result is that short run's.
Expected<Phases, SimulationError> run_phases(const ValidatedScenario& validated, const SimulateOptions& options,
                                             double analysis_share, bool whole_graph, SimulationPhase& phase) {
    const Scenario& scenario = validated.value();
    phase = SimulationPhase::compile;
    EngineOptions engine;
    engine.overlap_slowdown = scenario.simulation.overlap_slowdown;
    engine.bandwidth_sharing = scenario.simulation.bandwidth_sharing;
    engine.record_memory_timeline = options.record_memory_timeline;
    engine.memory_capacity_bytes = scenario.cluster.device.memory_bytes;
    engine.progress = options.progress;
    engine.stop_at_over_capacity = options.stop_at_out_of_memory;
    auto schedule = run_schedule(validated, CompileOptions{options.all_devices, options.max_tasks, options.progress},
                                 engine, whole_graph, phase);
    if (!schedule) return schedule.error();
    SimulatedGraph simulated;
    simulated.graph = std::move(schedule.value().graph);
    simulated.run = std::move(schedule.value().run);
    switch (simulated.run.end) {
    case EngineEnd::finished: break;
    case EngineEnd::out_of_memory: {
        // The device that crossed first (the run stopped there; another may have crossed at the same instant).
        std::size_t first = 0;
        double first_time_s = 0.0;
        bool found = false;
        for (std::size_t d = 0; d < simulated.run.memory.size(); ++d) {
            const DeviceMemory& memory = simulated.run.memory[d];
            if (memory.over_capacity_task == -2 || (found && memory.over_capacity_time_s >= first_time_s)) continue;
            first = d;
            first_time_s = memory.over_capacity_time_s;
            found = true;
        }
        SimulationError error = stopped(SimulationErrorKind::out_of_memory, phase, "a device runs out of memory");
        error.out_of_memory =
            out_of_memory_warning(simulated.graph, simulated.run, first, scenario.cluster.device.memory_bytes);
        return error;
    }
    case EngineEnd::cancelled: return cancelled_in(phase);
    case EngineEnd::deadlocked:
        return stopped(SimulationErrorKind::internal, phase,
                       "the execution graph deadlocked: " + std::to_string(simulated.run.unfinished_tasks) +
                           " tasks never became ready");
    }

    phase = SimulationPhase::analysis;
    const PhaseProgress progress =
        PhaseProgress(options.progress, SimulationPhase::analysis).part(0.0, analysis_share);
    const ScheduleRun& ran = schedule.value();
    auto report = ran.period ? analyse_repeated(scenario, simulated.graph, simulated.run, *ran.period, ran.repeats,
                                                progress)
                             : analyse(scenario, simulated.graph, simulated.run, progress);
    if (!report) return cancelled_in(phase);
    if (!std::isfinite(report->iteration_time_s)) {
        // The validator's floors on every rate keep times finite; this says so plainly should one still not be.
        return stopped(SimulationErrorKind::degenerate, phase,
                       std::string("the iteration time is ") +
                           (std::isnan(report->iteration_time_s) ? "not a number" : "infinite") +
                           ": a rate or a time in the scenario is out of any physical range");
    }
    if (!(report->iteration_time_s > 0.0)) {
        return stopped(SimulationErrorKind::degenerate, phase,
                       "the iteration takes no time: every operation it runs was measured at 0 s and nothing is "
                       "communicated, so throughput and utilization have no value; measure at least one operation "
                       "above 0 s");
    }
    simulated.report = std::move(*report);
    simulated.report.mode = options.all_devices ? "all-devices" : "representative";
    simulated.report.steady_state = ran.steady_state;
    return Phases{std::move(simulated), ran.period, ran.repeats,
                  static_cast<int>(ran.steady_state.simulated_micro_batches)};
}

Expected<Simulation, SimulationError> run_with_timeline(const ValidatedScenario& validated,
                                                        const SimulateOptions& options, SimulationPhase& phase) {
    const auto started = std::chrono::steady_clock::now();
    const bool keep_timeline = options.timeline != TimelineDetail::none;
    auto phases = run_phases(validated, options, keep_timeline ? 0.5 : 1.0, false, phase);
    if (!phases) return phases.error();
    std::optional<RepeatedEvents> repeated;
    if (keep_timeline && phases.value().period) {
        repeated = RepeatedEvents::make(phases.value().simulated.graph, phases.value().simulated.run,
                                        phases.value().short_micro_batches, *phases.value().period,
                                        phases.value().repeats);
        if (!repeated) {
            // A period whose events cannot be numbered from the short run (two of its tasks at one place of one
            // residue: no scenario tested has one) is shown from the whole graph, timed by repeating it.
            phases = run_phases(validated, options, 0.5, true, phase);
            if (!phases) return phases.error();
        }
    }
    SimulatedGraph& simulated = phases.value().simulated;
    Simulation simulation;
    simulation.report = std::move(simulated.report);
    if (keep_timeline) {
        // validate() has checked that the degrees lay out on the topology.
        auto layout = ParallelLayout::make(validated->topology(), validated->parallelism.layout_order()).value();
        const PhaseProgress progress = PhaseProgress(options.progress, SimulationPhase::analysis).part(0.5, 1.0);
        // The short run records its memory for finding the period; the timeline keeps it only when asked.
        if (repeated && !options.record_memory_timeline) {
            for (DeviceMemory& memory : simulated.run.memory) memory.timeline = {};
        }
        simulation.timeline =
            repeated ? Timeline::build_repeated(std::move(simulated.graph), std::move(simulated.run),
                                                std::move(*repeated), std::move(layout), options.timeline, progress)
                     : Timeline::build(std::move(simulated.graph), std::move(simulated.run), std::move(layout),
                                       options.timeline, progress);
        if (!simulation.timeline) return cancelled_in(phase);
    }
    simulation.report.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return simulation;
}

// Exceptions are left for bugs and exhausted memory; they end here, as a value a caller can show.
template <class Result, class Run>
Expected<Result, SimulationError> without_exceptions(Run&& run) noexcept {
    SimulationPhase phase = SimulationPhase::compile;
    try {
        return run(phase);
    } catch (const std::bad_alloc&) {
        return stopped(SimulationErrorKind::internal, phase,
                       "ran out of memory while " + std::string(name_of(phase, simulation_phase_names)));
    } catch (const std::exception& error) {
        return stopped(SimulationErrorKind::internal, phase, error.what());
    } catch (...) {
        return stopped(SimulationErrorKind::internal, phase, "an unknown exception");
    }
}

}  // namespace

Expected<Simulation, SimulationError> simulate(const ValidatedScenario& scenario,
                                               const SimulateOptions& options) noexcept {
    return without_exceptions<Simulation>(
        [&](SimulationPhase& phase) { return run_with_timeline(scenario, options, phase); });
}

Expected<SimulatedGraph, SimulationError> simulate_graph(const ValidatedScenario& scenario,
                                                         const SimulateOptions& options) noexcept {
    return without_exceptions<SimulatedGraph>([&](SimulationPhase& phase) {
        const auto started = std::chrono::steady_clock::now();
        auto phases = run_phases(scenario, options, 1.0, true, phase);
        if (!phases) return Expected<SimulatedGraph, SimulationError>(phases.error());
        SimulatedGraph simulated = std::move(phases.value().simulated);
        simulated.report.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        return Expected<SimulatedGraph, SimulationError>(std::move(simulated));
    });
}

Expected<Simulation, SimulationError> simulate(const Scenario& scenario, const SimulateOptions& options) noexcept {
    return without_exceptions<Simulation>([&](SimulationPhase&) -> Expected<Simulation, SimulationError> {
        Validation validation = validate(scenario);
        if (!validation.scenario) {
            SimulationError error =
                stopped(SimulationErrorKind::invalid, SimulationPhase::compile, "the scenario is not valid");
            error.diagnostics = std::move(validation.diagnostics);
            return error;
        }
        return simulate(*validation.scenario, options);
    });
}

}  // namespace parasight
