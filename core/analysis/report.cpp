#include "analysis/report.h"

#include "analysis/stage_sum.h"
#include "model/transformer_costs.h"

#include <algorithm>

namespace parasight {
namespace {

// What a task allocated, `later_micro_batches` after its own micro-batch (a short run's task standing for one that
// many micro-batches later in the whole run).
std::string tensor_name(const ExecutionGraph& graph, TaskId task, std::int64_t later_micro_batches) {
    if (task < 0) return "weights, gradients and optimizer state";
    const Task& t = graph.tasks[static_cast<std::size_t>(task)];
    std::string name = std::string(name_of(t.allocate_category, memory_category_names)) + " allocated by " +
                       graph.labels[static_cast<std::size_t>(t.label)];
    if (t.layer >= 0) name += ", layer " + std::to_string(t.layer);
    if (t.micro_batch >= 0) name += ", micro-batch " + std::to_string(t.micro_batch + later_micro_batches);
    return name;
}

// A short run whose steady period repeats: the window [T − Δ, T) `repeats` more times, which adds `added_s` to every
// time from T on and `added_micro_batches` to the micro-batches that start there.
struct Repetition {
    RepeatedWindow window;
    double added_s = 0.0;
    std::int64_t added_micro_batches = 0;

    [[nodiscard]] bool after(double time_s) const noexcept { return time_s >= window.to_s; }
};

Warning oom_warning(const ExecutionGraph& graph, const EngineRun& run, std::size_t device, double capacity_bytes,
                    const Repetition* repetition) {
    const DeviceMemory& memory = run.memory[device];
    const bool later = repetition != nullptr && repetition->after(memory.over_capacity_time_s);
    Warning warning;
    warning.code = WarningCode::out_of_memory;
    warning.npu = graph.devices[device].npu;
    warning.subject = "NPU " + std::to_string(warning.npu);
    warning.needed_bytes = memory.peak_bytes;
    warning.capacity_bytes = capacity_bytes;
    warning.tensor = tensor_name(graph, memory.over_capacity_task, later ? repetition->added_micro_batches : 0);
    warning.time_s = memory.over_capacity_time_s + (later ? repetition->added_s : 0.0);
    return warning;
}

// Sums a per-device quantity over all real devices. Devices are grouped by pipeline stage; a stage whose simulated
// devices agree exactly counts that value once per real device it stands for, so that simulating one representative
// per stage and simulating every device give bit-identical results on a homogeneous cluster.
template <class Value>
double sum_over_devices(const ExecutionGraph& graph, int stages, Value value_of_device) {
    // At least one entry: without it GCC 12 at -O3 reports a bad free in the vector's deallocation
    // (-Wfree-nonheap-object, a false positive) and the warnings-as-errors build stops.
    std::vector<StageSum> by_stage(static_cast<std::size_t>(std::max(stages, 1)));
    for (std::size_t d = 0; d < graph.devices.size(); ++d) {
        by_stage[static_cast<std::size_t>(graph.devices[d].stage)].add(value_of_device(d), graph.devices[d].weight);
    }
    double total = 0.0;
    for (const StageSum& stage : by_stage) total += stage.total();
    return total;
}

std::optional<Report> analyse_run(const Scenario& scenario, const ExecutionGraph& graph, const EngineRun& run,
                                  const PhaseProgress& progress, const Repetition* repetition) {
    if (progress.report(0.0)) return std::nullopt;
    Report report;
    const double iteration_s = run.makespan_s + (repetition != nullptr ? repetition->added_s : 0.0);
    report.iteration_time_s = iteration_s;
    report.devices = scenario.device_count();
    const double samples = static_cast<double>(scenario.training.global_batch);
    report.samples_per_s = iteration_s > 0.0 ? samples / iteration_s : 0.0;
    report.tokens_per_s = report.samples_per_s * scenario.model.seq_len;
    report.model_flops_per_iteration = model_flops_per_iteration(scenario.model, samples);
    const auto peak = scenario.cluster.device.peak_flops.find(scenario.training.dtype);
    const double peak_flops = peak != scenario.cluster.device.peak_flops.end() ? peak->second : 0.0;
    const PhaseProgress& per_device = progress;
    std::vector<double> device_flops(graph.devices.size(), 0.0);
    const bool pipelined = scenario.parallelism.pp > 1;
    std::size_t peak_device = 0;
    std::uint64_t repeated_tasks = 0;  // the window's, on every simulated device
    for (std::size_t d = 0; d < graph.devices.size(); ++d) {
        if (per_device.report(static_cast<double>(d) / static_cast<double>(graph.devices.size()))) return std::nullopt;
        const SimulatedDevice& device = graph.devices[d];
        DeviceReport entry;
        entry.npu = device.npu;
        entry.stage = device.stage;
        entry.weight = device.weight;
        const auto device_index = static_cast<std::int32_t>(d);
        // The device's tasks, stream by stream (the compute stream's first: their FLOPs add in TaskId order).
        const auto device_tasks = graph.device_stream_tasks(device_index);
        if (repetition == nullptr) {
            entry.breakdown = device_breakdown(graph, run, device_index, iteration_s, pipelined);
            for (const TaskId task : device_tasks) device_flops[d] += graph.tasks[static_cast<std::size_t>(task)].flops;
        } else {
            entry.breakdown =
                repeated_device_breakdown(graph, run, device_index, run.makespan_s, repetition->window, pipelined);
            double window_flops = 0.0;
            for (const TaskId task : device_tasks) {
                const double flops = graph.tasks[static_cast<std::size_t>(task)].flops;
                device_flops[d] += flops;
                const double start_s = run.timings[static_cast<std::size_t>(task)].start_s;
                if (start_s >= repetition->window.from_s && start_s < repetition->window.to_s) {
                    window_flops += flops;
                    ++repeated_tasks;
                }
            }
            device_flops[d] += static_cast<double>(repetition->window.repeats) * window_flops;
        }
        entry.peak_memory_bytes = run.memory[d].peak_bytes;
        entry.memory_at_peak_bytes = run.memory[d].at_peak_bytes;
        if (run.memory[d].peak_bytes > run.memory[peak_device].peak_bytes) peak_device = d;
        report.per_device.push_back(entry);
    }
    const int stages = scenario.parallelism.pp;
    report.hardware_flops_per_iteration =
        sum_over_devices(graph, stages, [&](std::size_t d) { return device_flops[d]; });
    const double device_seconds = iteration_s * static_cast<double>(report.devices);
    if (device_seconds > 0.0) {
        report.model_tflops_per_device = report.model_flops_per_iteration / device_seconds / 1e12;
        report.mfu = report.model_flops_per_iteration / (device_seconds * peak_flops);
        report.hfu = report.hardware_flops_per_iteration / (device_seconds * peak_flops);
    }
    const double devices = static_cast<double>(report.devices);
    auto mean = [&](auto field) {
        return sum_over_devices(graph, stages, [&](std::size_t d) { return field(report.per_device[d].breakdown); }) /
               devices;
    };
    TimeBreakdown& mean_breakdown = report.breakdown;
    mean_breakdown.compute_s = mean([](const TimeBreakdown& b) { return b.compute_s; });
    mean_breakdown.exposed_local_memory_s = mean([](const TimeBreakdown& b) { return b.exposed_local_memory_s; });
    for (std::size_t g = 0; g < comm_group_count; ++g) {
        mean_breakdown.exposed_comm_s[g] = mean([g](const TimeBreakdown& b) { return b.exposed_comm_s[g]; });
    }
    mean_breakdown.exposed_remote_memory_s = mean([](const TimeBreakdown& b) { return b.exposed_remote_memory_s; });
    mean_breakdown.bubble_s = mean([](const TimeBreakdown& b) { return b.bubble_s; });
    mean_breakdown.idle_s = mean([](const TimeBreakdown& b) { return b.idle_s; });

    report.warnings = graph.warnings;
    report.offloads = graph.offloads;
    report.memory_capacity_bytes = scenario.cluster.device.memory_bytes;
    if (!run.memory.empty()) {
        const DeviceMemory& memory = run.memory[peak_device];
        report.peak_memory_bytes = memory.peak_bytes;
        report.memory_by_category_bytes = memory.at_peak_bytes;
        if (memory.over_capacity_task != -2) {
            Warning warning = oom_warning(graph, run, peak_device, report.memory_capacity_bytes, repetition);
            report.out_of_memory = OutOfMemory{warning.npu, warning.tensor, warning.time_s};
            report.warnings.push_back(std::move(warning));
        }
    }
    if (report.iteration_time_s > implausible_iteration_time_s) {
        Warning warning;
        warning.code = WarningCode::implausible_iteration_time;
        warning.subject = "iteration";
        warning.time_s = report.iteration_time_s;
        report.warnings.push_back(std::move(warning));
    }
    report.events = run.events;
    if (repetition != nullptr) report.events += 2 * static_cast<std::uint64_t>(repetition->window.repeats) * repeated_tasks;
    if (progress.report(1.0)) return std::nullopt;
    return report;
}


}  // namespace

Warning out_of_memory_warning(const ExecutionGraph& graph, const EngineRun& run, std::size_t device,
                              double capacity_bytes) {
    return oom_warning(graph, run, device, capacity_bytes, nullptr);
}

std::optional<Report> analyse(const Scenario& scenario, const ExecutionGraph& graph, const EngineRun& run,
                              const PhaseProgress& progress) {
    return analyse_run(scenario, graph, run, progress, nullptr);
}

std::optional<Report> analyse_repeated(const Scenario& scenario, const ExecutionGraph& short_graph,
                                       const EngineRun& short_run, const SteadyPeriod& period, std::int64_t repeats,
                                       const PhaseProgress& progress) {
    Repetition repetition;
    repetition.window = RepeatedWindow{period.boundary_s - period.period_s, period.boundary_s, repeats};
    repetition.added_s = static_cast<double>(repeats) * period.period_s;
    repetition.added_micro_batches = repeats * period.micro_batches;
    return analyse_run(scenario, short_graph, short_run, progress, &repetition);
}

}  // namespace parasight
