#pragma once
// The engine phase of a simulation: the scenario's graph run event by event, or — where its pipeline schedule
// settles into a repeating period — a graph of a few micro-batches run, its steady period found and repeated for the
// rest (engine/steady_period.h). Both give the same timings, memory and iteration; the second costs a fraction, and
// less again where only the report is wanted: then the whole graph is not even built.
// simulation.steady_state: false always runs the whole graph.

#include "common/expected.h"
#include "common/simulation_error.h"
#include "compile/compiler.h"
#include "engine/engine.h"
#include "engine/steady_period.h"
#include "scenario/validated_scenario.h"

#include <optional>

namespace parasight {

// Whether the schedule may settle into a repeating period, and its shape: how many micro-batches a stage holds in
// flight (its warm-up) and how many a step of the schedule advances; or why it is run whole.
struct SteadyStatePlan {
    bool repeatable = false;
    std::int64_t in_flight = 0;
    int step_micro_batches = 1;  // 1F1B and ZB-H1: 1; interleaved: its micro-batch group
    std::string reason;          // why not, when not repeatable
};
[[nodiscard]] SteadyStatePlan plan_steady_state(const Scenario& scenario);

// The micro-batches the engine runs first: the short run's of a schedule that may settle (its first try), else all
// of them — what the cost of simulating the scenario grows with.
[[nodiscard]] std::int64_t first_run_micro_batches(const Scenario& scenario);

struct ScheduleRun {
    ExecutionGraph graph;  // what `run` ran: the scenario's graph, or its short run's where `period` is set
    EngineRun run;
    SteadyStateUse steady_state;
    // Set when the whole graph was not wanted and the schedule settled: `run` is the short run, whose period repeats
    // `repeats` more times in the whole schedule (analyse_repeated()).
    std::optional<SteadyPeriod> period;
    std::int64_t repeats = 0;
};

// Compiles the scenario with `compile` and runs it with `engine`. With `whole_graph`, the graph of every micro-batch
// is compiled and every task timed (by repeating the steady period where the schedule settles); without it, a
// schedule that settles is left as its short run and period — the whole graph is compiled only where it is run
// whole. The graph's refusals (too large) and cancelling while compiling are errors; a run cancelled in the engine
// comes back with EngineEnd::cancelled, as from run_engine(). `phase` follows what it is doing (compiling, then
// simulating), for the message of an exception that interrupts it.
[[nodiscard]] Expected<ScheduleRun, SimulationError> run_schedule(const ValidatedScenario& scenario,
                                                                  const CompileOptions& compile,
                                                                  const EngineOptions& engine, bool whole_graph,
                                                                  SimulationPhase& phase);

}  // namespace parasight
