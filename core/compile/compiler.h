#pragma once
// Scenario → ExecutionGraph: per simulated device, the forward, backward and recompute work of every layer and
// micro-batch in the pipeline schedule's order; tensor-, context- and expert-parallel collectives inside layers;
// pipeline sends between stages; data-parallel gradient reduction in buckets overlapped with backward; ZeRO stages
// 1-3; the optimizer step. Devices that do identical work form symmetry classes: by default one representative per
// pipeline stage is simulated, standing for its tp × cp × ep × dp peers.

#include "common/expected.h"
#include "common/progress.h"
#include "common/simulation_error.h"
#include "compile/execution_graph.h"
#include "scenario/validated_scenario.h"

#include <cstdint>
#include <optional>

namespace parasight {

struct CompileOptions {
    bool all_devices = false;  // simulate every device instead of one per symmetry class
    // The largest graph compiled: a task takes about 100 bytes with its links, and the engine keeps as much again,
    // so 50 million tasks need about 10 GB. Larger scenarios are refused with what to change. At most 2^31 − 1
    // (task ids are 32-bit); more counts as that.
    std::int64_t max_tasks = 50'000'000;
    ProgressSink* progress = nullptr;  // reports SimulationPhase::compile; polled once per pipeline step
    // Above 0: the schedule runs this many micro-batches instead of the scenario's (the steady state's short run).
    std::int64_t micro_batches = 0;
    // A forward or backward step of a later micro-batch copied from the first one emitted (emit_repeated_step.cpp);
    // false emits every step anew — the same graph, task for task and dependency for dependency, which
    // test_repeated_steps compares.
    bool repeat_steps = true;
};

// The micro-batches a compiled graph runs: the options' when set, else the scenario's.
[[nodiscard]] std::int64_t compiled_micro_batches(const Scenario& scenario, const CompileOptions& options) noexcept;

// What every simulated device runs at least for each of its layers and micro-batches: a CNN layer's forward and
// backward; a transformer layer's attention and MLP forward and backward, and with tensor parallelism a collective
// after each block's forward and before each block's backward. A lower bound of the graph's tasks, counted without
// building it.
[[nodiscard]] double minimum_task_count(const Scenario& scenario, const CompileOptions& options);

// Why a graph past options.max_tasks is refused before it is built: it holds at least the tasks every layer and
// micro-batch needs, or with every device simulated, exactly a representative per stage's tasks times the devices a
// stage has. None when it may fit.
[[nodiscard]] std::optional<SimulationError> refusal_before_building(const ValidatedScenario& scenario,
                                                                     const CompileOptions& options);
// The refusal of a graph counted at `tasks` without building it (a steady state's whole schedule); none within
// options.max_tasks.
[[nodiscard]] std::optional<SimulationError> refusal_of_count(std::int64_t tasks, const Scenario& scenario,
                                                              const CompileOptions& options);

// The graph, or why there is none: too_large (with the figure) or cancelled.
[[nodiscard]] Expected<ExecutionGraph, SimulationError> compile_scenario(const ValidatedScenario& scenario,
                                                                         const CompileOptions& options);

}  // namespace parasight
