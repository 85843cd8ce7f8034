#include "analysis/repeated_events.h"

namespace parasight {

RepeatedEvents::RepeatedEvents(MicroBatchIndex index, const SteadyPeriod& period, std::int64_t repeats)
    : index_(std::move(index)), period_(period), repeats_(repeats) {}

std::optional<RepeatedEvents> RepeatedEvents::make(const ExecutionGraph& short_graph, const EngineRun& short_run,
                                                   int short_micro_batches, const SteadyPeriod& period,
                                                   std::int64_t repeats) {
    if (repeats < 1 || period.micro_batches < 1 || short_run.timings.size() != short_graph.tasks.size()) {
        return std::nullopt;
    }
    auto index = MicroBatchIndex::make(short_graph, short_micro_batches, true);
    if (!index) return std::nullopt;
    RepeatedEvents events(std::move(index).value(), period, repeats);
    const std::size_t tasks = short_graph.tasks.size();
    events.short_tasks_ = tasks;
    events.from_boundary_.assign(tasks, 0);
    events.window_index_.assign(tasks, -1);
    const double window_s = period.boundary_s - period.period_s;
    for (std::size_t t = 0; t < tasks; ++t) {
        const double start_s = short_run.timings[t].start_s;
        if (start_s >= period.boundary_s) {
            events.from_boundary_[t] = 1;
            continue;
        }
        if (start_s < window_s) continue;
        const Task& task = short_graph.tasks[t];
        if (task.micro_batch < 0) return std::nullopt;  // find_steady_period() never lets one into a period
        const auto key = events.window_key(task.device, events.index_.position(static_cast<TaskId>(t)), task.micro_batch);
        if (!events.window_by_key_.emplace(key, static_cast<std::uint32_t>(events.window_.size())).second) {
            return std::nullopt;
        }
        events.window_index_[t] = static_cast<std::int32_t>(events.window_.size());
        events.window_.push_back(static_cast<TaskId>(t));
    }
    return events;
}

std::uint64_t RepeatedEvents::window_key(std::int32_t device, std::int32_t position, std::int64_t micro_batch) const {
    const auto residue = static_cast<std::uint64_t>(micro_batch % period_.micro_batches);
    return (static_cast<std::uint64_t>(device) << 40U) | (static_cast<std::uint64_t>(position) << 20U) | residue;
}

RepeatedEvents::Source RepeatedEvents::source(std::uint32_t event) const {
    if (event < short_tasks_) {
        return Source{static_cast<TaskId>(event), from_boundary_[event] != 0 ? repeats_ : 0};
    }
    const std::size_t k = event - short_tasks_;
    return Source{window_[k % window_.size()], static_cast<std::int64_t>(k / window_.size()) + 1};
}

std::optional<std::uint32_t> RepeatedEvents::event_at(const ExecutionGraph& graph, std::int32_t device,
                                                      std::int64_t micro_batch, std::int32_t position) const {
    const auto as_event = [](TaskId task) { return static_cast<std::uint32_t>(task); };
    if (micro_batch < 0) {
        const TaskId task = index_.find(device, micro_batch, position);
        return task >= 0 ? std::optional(as_event(task)) : std::nullopt;
    }
    // Before the boundary: the short run's own task.
    if (const TaskId task = index_.find(device, micro_batch, position);
        task >= 0 && from_boundary_[static_cast<std::size_t>(task)] == 0) {
        return as_event(task);
    }
    // From the boundary on: the short run's task n periods earlier.
    const std::int64_t repeated_micro_batches = repeats_ * period_.micro_batches;
    if (const TaskId task = micro_batch >= repeated_micro_batches
                                ? index_.find(device, micro_batch - repeated_micro_batches, position)
                                : -1;
        task >= 0 && from_boundary_[static_cast<std::size_t>(task)] != 0) {
        return as_event(task);
    }
    // In a repetition: the period's task of the same place whose micro-batch is a whole number of periods earlier.
    const auto found = window_by_key_.find(window_key(device, position, micro_batch));
    if (found == window_by_key_.end()) return std::nullopt;
    const std::int64_t periods_on =
        (micro_batch - graph.tasks[static_cast<std::size_t>(window_[found->second])].micro_batch) /
        period_.micro_batches;
    if (periods_on < 1 || periods_on > repeats_) return std::nullopt;
    return repetition_event(found->second, periods_on);
}

void RepeatedEvents::append_lane(std::span<const std::uint32_t> short_lane, std::vector<std::uint32_t>& events) const {
    std::size_t from = 0;  // the first of the lane's tasks from the boundary on
    while (from < short_lane.size() && from_boundary_[short_lane[from]] == 0) ++from;
    std::size_t window = from;  // the first of the lane's tasks in the period, which ends where `from` begins
    while (window > 0 && window_index_[short_lane[window - 1]] >= 0) --window;
    events.insert(events.end(), short_lane.begin(), short_lane.begin() + static_cast<std::ptrdiff_t>(from));
    for (std::int64_t r = 1; r <= repeats_; ++r) {
        for (std::size_t k = window; k < from; ++k) {
            events.push_back(repetition_event(static_cast<std::size_t>(window_index_[short_lane[k]]), r));
        }
    }
    events.insert(events.end(), short_lane.begin() + static_cast<std::ptrdiff_t>(from), short_lane.end());
}

void RepeatedEvents::append_predecessor(const ExecutionGraph& graph, const Source& of, TaskId predecessor,
                                        std::vector<std::uint32_t>& events) const {
    const Task& task = graph.tasks[static_cast<std::size_t>(of.task)];
    const Task& before = graph.tasks[static_cast<std::size_t>(predecessor)];
    if (before.micro_batch < 0) {  // one task of no micro-batch in every run
        events.push_back(static_cast<std::uint32_t>(predecessor));
        return;
    }
    if (task.micro_batch < 0) {
        // A task of no micro-batch (the optimizer step) waits for one of every micro-batch: each of its predecessor's.
        events.push_back(static_cast<std::uint32_t>(predecessor));
        const std::int32_t w = window_index_[static_cast<std::size_t>(predecessor)];
        if (w < 0) return;
        for (std::int64_t r = 1; r <= repeats_; ++r) events.push_back(repetition_event(static_cast<std::size_t>(w), r));
        return;
    }
    const std::int64_t micro_batch = before.micro_batch + of.repetition * period_.micro_batches;
    if (const auto event = event_at(graph, before.device, micro_batch, index_.position(predecessor))) {
            events.push_back(*event);
    }
}

}  // namespace parasight
