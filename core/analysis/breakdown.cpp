#include "analysis/breakdown.h"

#include <algorithm>
#include <cstdint>
#include <iterator>

namespace parasight {

const std::array<EnumName<CommGroup>, 5> comm_group_names{
    {{CommGroup::tp, "tp"}, {CommGroup::cp, "cp"}, {CommGroup::ep, "ep"}, {CommGroup::pp, "pp"}, {CommGroup::dp, "dp"}}};

double TimeBreakdown::exposed_comm_total_s() const noexcept {
    double total = 0.0;
    for (const double value : exposed_comm_s) total += value;
    return total;
}

double TimeBreakdown::total_s() const noexcept {
    return compute_s + exposed_local_memory_s + exposed_comm_total_s() + exposed_remote_memory_s + bubble_s + idle_s;
}

std::optional<CommGroup> comm_group_of(TaskKind kind) noexcept {
    switch (kind) {
    case TaskKind::tp_comm: return CommGroup::tp;
    case TaskKind::cp_comm: return CommGroup::cp;
    case TaskKind::ep_comm: return CommGroup::ep;
    case TaskKind::pp_comm: return CommGroup::pp;
    case TaskKind::dp_comm: return CommGroup::dp;
    case TaskKind::forward:
    case TaskKind::backward:
    case TaskKind::weight_gradient:
    case TaskKind::recompute:
    case TaskKind::optimizer:
    case TaskKind::injected_delay:
    case TaskKind::memory_load:
    case TaskKind::memory_store:
    case TaskKind::host_optimizer: return std::nullopt;
    }
    return std::nullopt;
}

std::optional<CommGroup> comm_group_of(const Task& task) noexcept {
    return comm_group_of(task.kind == TaskKind::injected_delay ? task.delayed_kind : task.kind);
}

CommGroup comm_group_of(ParallelAxis axis) noexcept {
    switch (axis) {
    case ParallelAxis::tp: return CommGroup::tp;
    case ParallelAxis::cp: return CommGroup::cp;
    case ParallelAxis::ep: return CommGroup::ep;
    case ParallelAxis::dp: return CommGroup::dp;
    case ParallelAxis::pp: return CommGroup::pp;
    }
    return CommGroup::tp;
}

namespace {

// What a task occupies while it runs: 0 compute, 1..5 a communication group, 6 a memory transfer.
constexpr std::size_t compute_class = 0;
constexpr std::size_t memory_class = 1 + comm_group_count;
constexpr std::size_t class_count = 2 + comm_group_count;

std::size_t class_of(const Task& task) {
    if (is_remote_memory_work(task.kind)) return memory_class;
    const std::optional<CommGroup> group = comm_group_of(task);
    return group ? 1 + static_cast<std::size_t>(*group) : compute_class;
}

struct Edge {
    double time_s;
    std::int32_t delta;
    std::uint32_t task_class;
};

// Time [from_s, to_s) of a sweep adds to, and the sums it makes: compute still holds the memory-bound share, which
// exposed_local_memory_s sums for the tasks that start in the span (computations never overlap, one compute stream,
// so compute time is the sum of their durations).
struct SweptSpan {
    double from_s = 0.0;
    double to_s = 0.0;
    TimeBreakdown sums;

    [[nodiscard]] double overlap_s(double begin_s, double end_s) const {
        return std::min(end_s, to_s) - std::max(begin_s, from_s);
    }
};

// One sweep of the device's task intervals over [0, iteration_s), attributing time as device_breakdown() says, to
// `whole` and, when given, to `window` (a part of it) as well.
void sweep(const ExecutionGraph& graph, const EngineRun& run, std::int32_t device, bool pipelined, SweptSpan& whole,
           SweptSpan* window) {
    // Each stream runs its tasks one after another in TaskId order (the graph's stream queues), so each stream's edges
    // are already sorted; merging the streams is linear where sorting would not be. The edge arrays are the thread's,
    // kept from one device to the next (allocating and first touching them was a tenth of the analysis).
    thread_local std::array<std::vector<Edge>, stream_count> by_stream;
    thread_local std::vector<Edge> edges;
    thread_local std::vector<Edge> merged;
    for (std::size_t s = 0; s < stream_count; ++s) {
        const auto stream_tasks = graph.stream_tasks(ExecutionGraph::stream_slot(device, static_cast<Stream>(s)));
        auto& stream_edges = by_stream[s];
        stream_edges.clear();
        stream_edges.reserve(2 * stream_tasks.size());
        for (const TaskId id : stream_tasks) {
            const TaskTiming& timing = run.timings[static_cast<std::size_t>(id)];
            if (timing.end_s <= timing.start_s) continue;
            const Task& task = graph.tasks[static_cast<std::size_t>(id)];
            const auto task_class = static_cast<std::uint32_t>(class_of(task));
            if (task_class == compute_class) {
                const double memory_s = (timing.end_s - timing.start_s) * task.memory_bound_share;
                whole.sums.exposed_local_memory_s += memory_s;
                if (window != nullptr && timing.start_s >= window->from_s && timing.start_s < window->to_s) {
                    window->sums.exposed_local_memory_s += memory_s;
                }
            }
            // A task that starts as the one before it on its stream ends, of the same class, continues it: neither
            // edge changes what runs.
            if (!stream_edges.empty() && stream_edges.back().time_s == timing.start_s &&
                stream_edges.back().task_class == task_class) {
                stream_edges.back().time_s = timing.end_s;
            } else {
                stream_edges.push_back(Edge{timing.start_s, +1, task_class});
                stream_edges.push_back(Edge{timing.end_s, -1, task_class});
            }
        }
    }
    // By time alone: edges at one time are applied together before the next stretch is attributed (the stretches
    // between them last no time), so their order among themselves changes nothing.
    const auto earlier = [](const Edge& a, const Edge& b) { return a.time_s < b.time_s; };
    // Merged two at a time, the shorter streams first (each merge copies what is merged so far), into arrays sized
    // beforehand. An unused stream (most devices' memory stream) is skipped.
    std::array<std::size_t, stream_count> order{};
    for (std::size_t s = 0; s < stream_count; ++s) order[s] = s;
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return by_stream[a].size() < by_stream[b].size(); });
    edges.clear();
    for (const std::size_t s : order) {
        std::vector<Edge>& stream_edges = by_stream[s];
        if (stream_edges.empty()) continue;
        if (edges.empty()) {
            std::swap(edges, stream_edges);
            continue;
        }
        merged.resize(edges.size() + stream_edges.size());
        std::merge(edges.begin(), edges.end(), stream_edges.begin(), stream_edges.end(), merged.begin(), earlier);
        std::swap(edges, merged);
    }
    std::array<int, class_count> running{};
    double now_s = 0.0;
    // [now_s, until_s) to whatever runs: computations; else the communication groups and memory transfers running,
    // shared evenly; else a bubble or idle time.
    auto attribute = [&](double until_s) {
        const double whole_s = whole.overlap_s(now_s, until_s);
        const double window_s = window != nullptr ? window->overlap_s(now_s, until_s) : 0.0;
        if (whole_s <= 0.0 && window_s <= 0.0) return;
        auto add = [&](double TimeBreakdown::*part, double share) {
            if (whole_s > 0.0) whole.sums.*part += whole_s * share;
            if (window_s > 0.0) window->sums.*part += window_s * share;
        };
        if (running[compute_class] > 0) {
            add(&TimeBreakdown::compute_s, 1.0);
            return;
        }
        int groups = running[memory_class] > 0 ? 1 : 0;
        for (std::size_t g = 0; g < comm_group_count; ++g) groups += running[1 + g] > 0 ? 1 : 0;
        if (groups > 0) {
            for (std::size_t g = 0; g < comm_group_count; ++g) {
                if (running[1 + g] == 0) continue;
                if (whole_s > 0.0) whole.sums.exposed_comm_s[g] += whole_s / groups;
                if (window_s > 0.0) window->sums.exposed_comm_s[g] += window_s / groups;
            }
            if (running[memory_class] > 0) {
                if (whole_s > 0.0) whole.sums.exposed_remote_memory_s += whole_s / groups;
                if (window_s > 0.0) window->sums.exposed_remote_memory_s += window_s / groups;
            }
            return;
        }
        add(pipelined ? &TimeBreakdown::bubble_s : &TimeBreakdown::idle_s, 1.0);
    };
    for (const Edge& edge : edges) {
        if (edge.time_s != now_s) {
            attribute(edge.time_s);
            now_s = edge.time_s;
        }
        running[edge.task_class] += edge.delta;
    }
    attribute(whole.to_s);
}

// The sums as a breakdown: compute without the memory-bound share. (The two add the same times in different orders:
// a device whose computations are all memory-bound could be left a rounding error below 0.)
TimeBreakdown settled(TimeBreakdown sums) {
    sums.compute_s = std::max(0.0, sums.compute_s - sums.exposed_local_memory_s);
    return sums;
}

}  // namespace

TimeBreakdown device_breakdown(const ExecutionGraph& graph, const EngineRun& run, std::int32_t device,
                               double iteration_s, bool pipelined) {
    SweptSpan whole{0.0, iteration_s, {}};
    sweep(graph, run, device, pipelined, whole, nullptr);
    return settled(whole.sums);
}

TimeBreakdown repeated_device_breakdown(const ExecutionGraph& graph, const EngineRun& run, std::int32_t device,
                                        double iteration_s, const RepeatedWindow& window, bool pipelined) {
    SweptSpan whole{0.0, iteration_s, {}};
    SweptSpan once{window.from_s, window.to_s, {}};
    sweep(graph, run, device, pipelined, whole, &once);
    TimeBreakdown sums = whole.sums;
    const auto times = static_cast<double>(window.repeats);
    sums.compute_s += times * once.sums.compute_s;
    sums.exposed_local_memory_s += times * once.sums.exposed_local_memory_s;
    for (std::size_t g = 0; g < comm_group_count; ++g) sums.exposed_comm_s[g] += times * once.sums.exposed_comm_s[g];
    sums.exposed_remote_memory_s += times * once.sums.exposed_remote_memory_s;
    sums.bubble_s += times * once.sums.bubble_s;
    sums.idle_s += times * once.sums.idle_s;
    return settled(sums);
}

}  // namespace parasight
