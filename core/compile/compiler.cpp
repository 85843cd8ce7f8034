#include "compile/compiler.h"

#include "common/message_text.h"
#include "compile/graph_builder.h"
#include "model/model_structure.h"
#include "units/quantity.h"

#include <algorithm>
#include <limits>
#include <string_view>

namespace parasight {

double minimum_task_count(const Scenario& scenario, const CompileOptions& options) {
    const double devices_per_stage =
        options.all_devices ? static_cast<double>(scenario.topology().device_count()) / scenario.parallelism.pp : 1.0;
    double per_layer = 2.0;
    if (scenario.model.kind == ModelKind::transformer) per_layer = scenario.parallelism.tp > 1 ? 8.0 : 4.0;
    return per_layer * static_cast<double>(compiled_micro_batches(scenario, options)) * pipeline_layer_count(scenario.model) *
           devices_per_stage;
}

namespace {

// How the task count of a refused graph was found: estimated from below before building, counted exactly from one
// device per stage, or reached while building when the builder stopped.
enum class TaskCount : std::uint8_t { at_least, exactly, more_than };

std::string_view task_count_words(TaskCount count) {
    switch (count) {
    case TaskCount::at_least: return "at least ";
    case TaskCount::exactly: return "";
    case TaskCount::more_than: return "more than ";
    }
    return "";
}

SimulationError too_large(double tasks, TaskCount count, const Scenario& scenario, const CompileOptions& options) {
    std::string message = "the execution graph would hold " + std::string(task_count_words(count)) +
                          units::format_fixed(tasks, 0) + " tasks (" +  // 128000000 rather than 1.28e+08
                          count_phrase(compiled_micro_batches(scenario, options), "micro-batch", "micro-batches") + " per pipeline";
    if (options.all_devices) message += ", every device simulated";
    message += "); the limit is " + std::to_string(options.max_tasks) +
               ". Simulate fewer micro-batches (a larger training.micro_batch or a smaller global_batch)";
    if (options.all_devices) message += " or one device per symmetry class";
    if (scenario.parallelism.offload_optimizer != OffloadTarget::none ||
        scenario.parallelism.offload_gradients != OffloadTarget::none) {
        message += ", or move the offloaded optimizer states and gradients in larger sub-groups "
                   "(parallelism.offload_sub_group: up to four tasks each)";
    }
    SimulationError error;
    error.kind = SimulationErrorKind::too_large;
    error.phase = SimulationPhase::compile;
    error.message = std::move(message);
    error.graph_tasks = tasks;
    error.graph_tasks_at_least = count == TaskCount::at_least;
    error.task_limit = options.max_tasks;
    return error;
}

CompileOptions limited(const CompileOptions& requested) {
    CompileOptions options = requested;
    options.max_tasks = std::min<std::int64_t>(options.max_tasks, std::numeric_limits<TaskId>::max());
    return options;
}

}  // namespace

std::int64_t compiled_micro_batches(const Scenario& scenario, const CompileOptions& options) noexcept {
    return options.micro_batches > 0 ? options.micro_batches : scenario.micro_batches();
}

std::optional<SimulationError> refusal_before_building(const ValidatedScenario& validated,
                                                       const CompileOptions& requested) {
    const Scenario& scenario = validated.value();
    const CompileOptions options = limited(requested);
    if (const double tasks = minimum_task_count(scenario, options); tasks > static_cast<double>(options.max_tasks)) {
        return too_large(tasks, TaskCount::at_least, scenario, options);
    }
    if (options.all_devices) {
        // Every device of a stage runs as many tasks as the stage's representative, so one representative per stage
        // counts the whole graph exactly, at a fraction of its cost: a graph past the limit is refused before it is
        // built, however many devices there are.
        CompileOptions representative = options;
        representative.all_devices = false;
        representative.progress = nullptr;
        GraphBuilder counter(validated, representative);
        const auto counted = counter.build();
        if (counter.stop() == GraphBuilder::Stop::none) {
            const double devices_per_stage = static_cast<double>(scenario.device_count()) / scenario.parallelism.pp;
            const double tasks = static_cast<double>(counted->tasks.size()) * devices_per_stage;
            if (tasks > static_cast<double>(options.max_tasks)) {
                return too_large(tasks, TaskCount::exactly, scenario, options);
            }
        }
    }
    return std::nullopt;
}

std::optional<SimulationError> refusal_of_count(std::int64_t tasks, const Scenario& scenario,
                                                const CompileOptions& requested) {
    const CompileOptions options = limited(requested);
    if (tasks <= options.max_tasks) return std::nullopt;
    return too_large(static_cast<double>(tasks), TaskCount::exactly, scenario, options);
}

Expected<ExecutionGraph, SimulationError> compile_scenario(const ValidatedScenario& validated,
                                                          const CompileOptions& requested) {
    const Scenario& scenario = validated.value();
    const CompileOptions options = limited(requested);
    if (auto refusal = refusal_before_building(validated, options)) return std::move(*refusal);
    GraphBuilder builder(validated, options);
    auto graph = builder.build();
    switch (builder.stop()) {
    case GraphBuilder::Stop::none: break;
    case GraphBuilder::Stop::too_large:
        return too_large(static_cast<double>(builder.task_count()), TaskCount::more_than, scenario, options);
    case GraphBuilder::Stop::cancelled: return cancelled_in(SimulationPhase::compile);
    }
    return std::move(*graph);
}

}  // namespace parasight
