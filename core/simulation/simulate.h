#pragma once
// One call from a Scenario to a Report: compile, run the engine, analyse. What the command line, the GUI's background
// jobs and sweeps call. It never throws: every way a run can end without a result is a SimulationError value.

#include "analysis/report.h"
#include "common/expected.h"
#include "common/simulation_error.h"
#include "compile/compiler.h"
#include "engine/engine.h"
#include "validation/validate.h"

namespace parasight {

struct SimulateOptions {
    bool all_devices = false;
    bool record_memory_timeline = false;  // for trace counters
    ProgressSink* progress = nullptr;     // every phase reports through it and stops when it says so
    std::int64_t max_tasks = CompileOptions{}.max_tasks;  // larger graphs are refused (CompileOptions::max_tasks)
};

struct Simulation {
    ExecutionGraph graph;
    EngineRun run;
    Report report;
};

[[nodiscard]] Expected<Simulation, SimulationError> simulate(const ValidatedScenario& scenario,
                                                             const SimulateOptions& options) noexcept;
// Validates first; a scenario that does not pass gives SimulationErrorKind::invalid with the diagnostics.
[[nodiscard]] Expected<Simulation, SimulationError> simulate(const Scenario& scenario,
                                                             const SimulateOptions& options) noexcept;

}  // namespace parasight
