#pragma once
// Where a device's iteration time goes (ASTRA-sim 2.0 Fig. 4's exposed-time breakdown, split further): compute;
// exposed local memory, the part of the computations' time the device's own memory bounds; communication that
// nothing hides, by parallel group; exposed remote memory, transfers to and from memory beyond the device that
// nothing hides; pipeline bubble; other idle. The parts sum to the iteration time exactly.

#include "common/progress.h"
#include "compile/execution_graph.h"
#include "engine/engine.h"
#include "topology/parallel_layout.h"

#include <array>
#include <optional>
#include <span>
#include <vector>

namespace parasight {

// Exposed communication by group, in this order.
enum class CommGroup : std::uint8_t { tp, cp, ep, pp, dp };
inline constexpr std::size_t comm_group_count = 5;
extern const std::array<EnumName<CommGroup>, 5> comm_group_names;
// The group a communication task's kind belongs to; none for computation and injected delays.
[[nodiscard]] std::optional<CommGroup> comm_group_of(TaskKind kind) noexcept;
// The group a task's time is charged to when nothing computes beside it: its kind's, or for an injected delay the
// delayed communication's (the delay is part of that communication's time, as NeuronaBox adds it).
[[nodiscard]] std::optional<CommGroup> comm_group_of(const Task& task) noexcept;
// The group a parallel axis's collectives run in.
[[nodiscard]] CommGroup comm_group_of(ParallelAxis axis) noexcept;

struct TimeBreakdown {
    double compute_s = 0.0;
    // Computations waiting on the device's memory (the memory-bound share of each running computation's time): a
    // computation hides communication as well when it is memory-bound, so this is exposed only in the sense of ASTRA-sim
    // 2.0's local memory, time the compute units spend waiting on memory.
    double exposed_local_memory_s = 0.0;
    std::array<double, comm_group_count> exposed_comm_s{};
    double exposed_remote_memory_s = 0.0;  // loads and stores of memory beyond the device with neither compute nor comm
    double bubble_s = 0.0;  // idle on a pipelined device: waiting for another stage
    double idle_s = 0.0;    // idle otherwise

    [[nodiscard]] double exposed_comm_total_s() const noexcept;
    [[nodiscard]] double total_s() const noexcept;
};

// Sweeps the device's task intervals: at each instant a running computation counts as compute and exposed local
// memory in the shares its memory_bound_share says; otherwise running communications (and injected delays, with the
// communication they delay) and memory transfers count as exposed (shared equally between the communication groups
// and the remote memory that run at once); otherwise the device is idle — a bubble when it is one stage of a
// pipeline.
[[nodiscard]] TimeBreakdown device_breakdown(const ExecutionGraph& graph, const EngineRun& run, std::int32_t device,
                                             double iteration_s, bool pipelined);

// A window of a run that repeats: [from_s, to_s) runs `repeats` more times, one after another, before the rest of
// the run (a steady period, engine/steady_period.h). Its tasks are those that start in it.
struct RepeatedWindow {
    double from_s = 0.0;
    double to_s = 0.0;
    std::int64_t repeats = 0;
};

// device_breakdown() of the longer run: `run` (of length `iteration_s`) with `window` repeated — the run's sums plus
// `repeats` times the window's, without the longer run's tasks. Equal to the longer run's breakdown where each
// repetition is made of the window's tasks shifted (engine/steady_period.h, find_steady_period()).
[[nodiscard]] TimeBreakdown repeated_device_breakdown(const ExecutionGraph& graph, const EngineRun& run,
                                                      std::int32_t device, double iteration_s,
                                                      const RepeatedWindow& window, bool pipelined);

}  // namespace parasight
