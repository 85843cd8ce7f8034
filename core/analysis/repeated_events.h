#pragma once
// The events of a whole schedule made from its short run and steady period (engine/steady_period.h), on demand: the
// whole run is the short run's tasks that start before the boundary T, the period [T − Δ, T)'s tasks again
// `repeats` times — the r-th time r·Δ later and r·P micro-batches on — and the short run's tasks from T on, n·Δ later
// and n·P micro-batches on. The Timeline numbers them without building the whole graph: the short run's tasks keep
// their ids, and the r-th repetition of the period's w-th task is S + (r − 1)·W + w (S tasks in the short run, W in
// the period). What a task waits for is what the short graph's task waits for, moved to the same repetition: found by
// device, micro-batch and place among that micro-batch's tasks, as the steady state matched them
// (engine/micro_batch_index.h).

#include "compile/execution_graph.h"
#include "engine/engine.h"
#include "engine/micro_batch_index.h"
#include "engine/steady_period.h"

#include <cstdint>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

namespace parasight {

class RepeatedEvents {
public:
    // A whole-run event as a short-run task and its repetition: 0 before the boundary, r for the period's r-th
    // repetition, `repeats` for the tasks from the boundary on.
    struct Source {
        TaskId task = 0;
        std::int64_t repetition = 0;
    };

    // None when a task's micro-batch is outside the short run's (the graph is not the short run of `period`).
    [[nodiscard]] static std::optional<RepeatedEvents> make(const ExecutionGraph& short_graph,
                                                            const EngineRun& short_run, int short_micro_batches,
                                                            const SteadyPeriod& period, std::int64_t repeats);

    [[nodiscard]] std::size_t event_count() const noexcept {
        return short_tasks_ + static_cast<std::size_t>(repeats_) * window_.size();
    }
    [[nodiscard]] std::int64_t repeats() const noexcept { return repeats_; }
    [[nodiscard]] const SteadyPeriod& period() const noexcept { return period_; }
    [[nodiscard]] Source source(std::uint32_t event) const;
    [[nodiscard]] double shift_s(const Source& source) const {
        return static_cast<double>(source.repetition) * period_.period_s;
    }
    [[nodiscard]] int micro_batch(const Source& source, int short_micro_batch) const {
        return short_micro_batch < 0
                   ? short_micro_batch
                   : short_micro_batch + static_cast<int>(source.repetition) * period_.micro_batches;
    }
    // The whole run's events on a lane whose short-run tasks are `short_lane` (in time order), in time order.
    void append_lane(std::span<const std::uint32_t> short_lane, std::vector<std::uint32_t>& events) const;
    // The events that `predecessor`, a task of the short graph `graph` that `of`'s task waits for, stands for in
    // what event `of` waits for in the whole run, appended to `events`. (Not the other way: the short run's last
    // micro-batches are followed by the optimizer step, the whole run's by more micro-batches.)
    void append_predecessor(const ExecutionGraph& graph, const Source& of, TaskId predecessor,
                            std::vector<std::uint32_t>& events) const;

private:
    RepeatedEvents(MicroBatchIndex index, const SteadyPeriod& period, std::int64_t repeats);
    // The event of the whole run's task at `position` among `device`'s tasks of `micro_batch`; none when there is none.
    [[nodiscard]] std::optional<std::uint32_t> event_at(const ExecutionGraph& graph, std::int32_t device,
                                                        std::int64_t micro_batch, std::int32_t position) const;
    [[nodiscard]] std::uint32_t repetition_event(std::size_t window_index, std::int64_t repetition) const {
        return static_cast<std::uint32_t>(short_tasks_ + static_cast<std::size_t>(repetition - 1) * window_.size() +
                                          window_index);
    }
    [[nodiscard]] std::uint64_t window_key(std::int32_t device, std::int32_t position, std::int64_t micro_batch) const;

    MicroBatchIndex index_;
    SteadyPeriod period_;
    std::int64_t repeats_ = 0;
    std::size_t short_tasks_ = 0;
    std::vector<std::uint8_t> from_boundary_;       // by short task: 1 where it starts at T or later
    std::vector<TaskId> window_;                    // the tasks that start in [T − Δ, T), in id order
    std::vector<std::int32_t> window_index_;        // by short task: its index in window_, or −1
    // A period's task by device, place and micro-batch modulo P: each repeats once a period, so one of each is in it.
    std::unordered_map<std::uint64_t, std::uint32_t> window_by_key_;
};

}  // namespace parasight
