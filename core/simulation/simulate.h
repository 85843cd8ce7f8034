#pragma once
// One call from a loaded Scenario to a Report: compile, run the engine, analyse. What the command line and the GUI's
// background jobs call.

#include "analysis/report.h"
#include "common/expected.h"
#include "compile/compiler.h"
#include "engine/engine.h"
#include "scenario/scenario.h"

namespace parasight {

struct SimulateOptions {
    bool all_devices = false;
    bool record_memory_timeline = false;  // for trace counters
    ProgressSink* progress = nullptr;
    std::int64_t max_tasks = CompileOptions{}.max_tasks;  // larger graphs are refused (CompileOptions::max_tasks)
};

struct Simulation {
    ExecutionGraph graph;
    EngineRun run;
    Report report;
};

// An error only for scenarios the simulator cannot run (the loader has already rejected invalid ones).
[[nodiscard]] Expected<Simulation> simulate(const Scenario& scenario, const SimulateOptions& options);

}  // namespace parasight
