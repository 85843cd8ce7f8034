#pragma once
// The event-driven executor (Proteus' HTAE, made event-driven): discrete events on a priority queue with
// deterministic tie-breaking. Each device runs its streams concurrently; a task starts when its predecessors are
// done, it is first on its stream and, for a collective, every member has reached it. Running tasks progress at a
// rate that is re-computed at every start and finish: communications that cross the same links of a device share
// them max-min fairly, and overlapped computation and communication slow each other by the overlap factor γ
// (Proteus §6.3). Memory is allocated and released by tasks; the peak is kept per device.

#include "compile/execution_graph.h"
#include "common/progress.h"

#include <array>
#include <cstdint>
#include <vector>

namespace parasight {

struct EngineOptions {
    double overlap_slowdown = 0.1;  // γ: an overlapped operation takes (1 + γ) times as long
    bool bandwidth_sharing = true;
    bool record_memory_timeline = false;
    bool record_start_order = false;  // EngineRun::start_order
    double memory_capacity_bytes = 0.0;  // per device; 0: unlimited
    // End the run (EngineEnd::out_of_memory) at the first allocation that takes a device past its capacity:
    // what a sweep needs to know of a configuration that does not fit, at a fraction of the cost.
    bool stop_at_over_capacity = false;
    ProgressSink* progress = nullptr;
};

struct TaskTiming {
    double start_s = 0.0;
    double end_s = 0.0;
};

struct MemorySample {
    double time_s = 0.0;
    double bytes = 0.0;
};

struct DeviceMemory {
    double peak_bytes = 0.0;
    double peak_time_s = 0.0;
    TaskId peak_task = -1;  // the task whose allocation reached the peak (-1: the static allocations)
    std::array<double, memory_category_count> at_peak_bytes{};
    // The first allocation that took the device past its capacity (-2: none did; -1: the static allocations).
    TaskId over_capacity_task = -2;
    double over_capacity_time_s = 0.0;
    std::vector<MemorySample> timeline;  // when recorded
};

enum class EngineEnd : std::uint8_t {
    finished,
    cancelled,   // the ProgressSink asked to stop
    deadlocked,  // tasks were left that could never start: a bug in the graph
    out_of_memory,  // stopped at the first allocation past the capacity (EngineOptions::stop_at_over_capacity)
};

struct EngineRun {
    std::vector<TaskTiming> timings;   // by TaskId
    std::vector<DeviceMemory> memory;  // by simulated device
    std::vector<TaskId> start_order;   // when recorded: every task in the order it started (so by start time)
    double makespan_s = 0.0;
    std::uint64_t events = 0;          // task starts and finishes
    EngineEnd end = EngineEnd::finished;
    std::size_t unfinished_tasks = 0;  // when deadlocked
};

[[nodiscard]] EngineRun run_engine(const ExecutionGraph& graph, const EngineOptions& options);

}  // namespace parasight
