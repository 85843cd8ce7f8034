#pragma once
// One call from a Scenario to a Report and a Timeline: compile, run the engine, analyse. What the command line, the
// GUI's background jobs and sweeps call. It never throws: every way a run can end without a result is a
// SimulationError value.

#include "analysis/report.h"
#include "analysis/timeline.h"
#include "common/expected.h"
#include "common/simulation_error.h"
#include "compile/compiler.h"
#include "engine/engine.h"
#include "validation/validate.h"

#include <memory>

namespace parasight {

struct SimulateOptions {
    bool all_devices = false;
    bool record_memory_timeline = false;  // memory samples per device, for the timeline's memory lanes and traces
    ProgressSink* progress = nullptr;     // every phase reports through it and stops when it says so
    // End at the first allocation that takes a device past its memory, with SimulationErrorKind::out_of_memory
    // instead of a Report (sweeps: a configuration that does not fit costs a fraction of a full run).
    bool stop_at_out_of_memory = false;
    std::int64_t max_tasks = CompileOptions{}.max_tasks;  // larger graphs are refused (CompileOptions::max_tasks)
    // What to keep besides the Report: sweeps keep nothing, the trace writer the events, the GUI everything.
    TimelineDetail timeline = TimelineDetail::events_and_dependencies;
};

struct Simulation {
    Report report;
    std::shared_ptr<const Timeline> timeline;  // null with TimelineDetail::none
};

[[nodiscard]] Expected<Simulation, SimulationError> simulate(const ValidatedScenario& scenario,
                                                             const SimulateOptions& options) noexcept;
// Validates first; a scenario that does not pass gives SimulationErrorKind::invalid with the diagnostics.
[[nodiscard]] Expected<Simulation, SimulationError> simulate(const Scenario& scenario,
                                                             const SimulateOptions& options) noexcept;

// The compiler's graph and the engine's run as simulate() makes them, before a Timeline takes them: for the tests
// of the compiler and the engine, which check tasks one by one. Everything else reads the Timeline.
struct SimulatedGraph {
    ExecutionGraph graph;
    EngineRun run;
    Report report;
};
[[nodiscard]] Expected<SimulatedGraph, SimulationError> simulate_graph(const ValidatedScenario& scenario,
                                                                       const SimulateOptions& options) noexcept;

}  // namespace parasight
