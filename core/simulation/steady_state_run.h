#pragma once
// The engine phase of a simulation: the scenario's graph run event by event, or — where its pipeline schedule
// settles into a repeating period — a graph of a few micro-batches run, its steady period found and repeated for the
// rest (engine/steady_period.h). Both give the same timings, memory and iteration; the second costs a fraction.
// simulation.steady_state: false always runs the whole graph.

#include "common/expected.h"
#include "common/simulation_error.h"
#include "compile/compiler.h"
#include "engine/engine.h"
#include "engine/steady_period.h"
#include "scenario/validated_scenario.h"

namespace parasight {

// Whether the schedule may settle into a repeating period, and its shape: how many micro-batches a stage holds in
// flight (its warm-up and drain) and how many a step of the schedule advances; or why it is run whole.
struct SteadyStatePlan {
    bool repeatable = false;
    std::int64_t in_flight = 0;
    int step_micro_batches = 1;  // 1F1B and ZB-H1: 1; interleaved: its micro-batch group
    std::string reason;          // why not, when not repeatable
};
[[nodiscard]] SteadyStatePlan plan_steady_state(const Scenario& scenario);

struct ScheduleRun {
    EngineRun run;
    SteadyStateUse steady_state;
};

// `graph` is the scenario compiled with `compile`; the engine runs with `engine`. Cancelled runs come back with
// EngineEnd::cancelled, as from run_engine().
[[nodiscard]] ScheduleRun run_schedule(const ValidatedScenario& scenario, const ExecutionGraph& graph,
                                       const CompileOptions& compile, const EngineOptions& engine);

}  // namespace parasight
