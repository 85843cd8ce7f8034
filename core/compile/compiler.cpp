#include "compile/compiler.h"

#include "compile/graph_builder.h"
#include "model/model_structure.h"

#include <algorithm>
#include <array>
#include <limits>
#include <cstdio>

namespace parasight {
namespace {

// What every simulated device runs at least for each of its layers and micro-batches: a CNN layer's forward and
// backward; a transformer layer's attention and MLP forward and backward, and with tensor parallelism a collective
// after each block's forward and before each block's backward.
double minimum_task_count(const Scenario& scenario, const CompileOptions& options) {
    const double devices_per_stage =
        options.all_devices ? static_cast<double>(scenario.topology().device_count()) / scenario.parallelism.pp : 1.0;
    double per_layer = 2.0;
    if (scenario.model.kind == ModelKind::transformer) per_layer = scenario.parallelism.tp > 1 ? 8.0 : 4.0;
    return per_layer * static_cast<double>(scenario.micro_batches()) * pipeline_layer_count(scenario.model) *
           devices_per_stage;
}

// 128000000 rather than 1.28e+08.
std::string whole_number(double value) {
    std::array<char, 64> buffer{};
    std::snprintf(buffer.data(), buffer.size(), "%.0f", value);
    return buffer.data();
}

SimulationError too_large(double tasks, bool at_least, const Scenario& scenario, const CompileOptions& options) {
    std::string message = "the execution graph would hold " + std::string(at_least ? "at least " : "more than ") +
                          whole_number(tasks) + " tasks (" +
                          std::to_string(scenario.micro_batches()) + " micro-batches per pipeline";
    if (options.all_devices) message += ", every device simulated";
    message += "); the limit is " + std::to_string(options.max_tasks) +
               ". Simulate fewer micro-batches (a larger training.micro_batch or a smaller global_batch)";
    if (options.all_devices) message += " or one device per symmetry class";
    SimulationError error;
    error.kind = SimulationErrorKind::too_large;
    error.phase = SimulationPhase::compile;
    error.message = std::move(message);
    error.graph_tasks = tasks;
    error.graph_tasks_at_least = at_least;
    error.task_limit = options.max_tasks;
    return error;
}

}  // namespace

Expected<ExecutionGraph, SimulationError> compile_scenario(const ValidatedScenario& validated,
                                                          const CompileOptions& requested) {
    const Scenario& scenario = validated.value();
    CompileOptions options = requested;
    options.max_tasks = std::min<std::int64_t>(options.max_tasks, std::numeric_limits<TaskId>::max());
    if (const double tasks = minimum_task_count(scenario, options); tasks > static_cast<double>(options.max_tasks)) {
        return too_large(tasks, true, scenario, options);
    }
    GraphBuilder builder(validated, options);
    auto graph = builder.build();
    switch (builder.stop()) {
    case GraphBuilder::Stop::none: break;
    case GraphBuilder::Stop::too_large:
        return too_large(static_cast<double>(builder.task_count()), false, scenario, options);
    case GraphBuilder::Stop::cancelled:
        return SimulationError{SimulationErrorKind::cancelled, SimulationPhase::compile, "the simulation was cancelled",
                               {}, 0.0, false, 0};
    }
    return std::move(*graph);
}

}  // namespace parasight
