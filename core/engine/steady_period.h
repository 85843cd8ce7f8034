#pragma once
// A pipeline's steady state, simulated once (DistSim's "cost identical events once", taken to the schedule). Past its
// warm-up, a 1F1B-like schedule repeats the same tasks a fixed period apart: every task of micro-batch j + P starts
// and ends exactly Δ after the same task of micro-batch j. A run of the same graph with fewer micro-batches (its
// "short run") holds that period; the full run is the short run with the period repeated as often as the missing
// micro-batches need:
//   - a short-run task that starts before the boundary T runs at the same time in the full run (the event-driven
//     run is causal: what happens before T does not depend on how many micro-batches follow);
//   - one that starts at or after T runs n·Δ later, for micro-batch j + n·P;
//   - the tasks of the short run's last period, [T − Δ, T), run again i·Δ later for micro-batch j + i·P, i = 1 … n.
// find_steady_period() looks for a boundary T whose state (engine/run_states.h) is the state a period earlier, every
// task replaced by its twin P micro-batches on; repeat_steady_period() builds the full run from it, checking that each
// task it times is the task it stands for. docs/model.md, "Steady state".

#include "compile/execution_graph.h"
#include "common/progress.h"
#include "engine/engine.h"

#include <cstdint>
#include <optional>
#include <string>

namespace parasight {

struct SteadyPeriod {
    int micro_batches = 1;       // P: micro-batches a period advances (1F1B: 1; interleaved: its micro-batch group)
    double period_s = 0.0;       // Δ
    double boundary_s = 0.0;     // T: the period [T − Δ, T) is the one repeated
    std::int32_t boundary_micro_batch = 0;  // the micro-batch whose first task on the first device starts at T
};

// How the engine ran a schedule, for the report: every micro-batch, or a short run whose steady period was repeated.
struct SteadyStateUse {
    bool used = false;
    std::string reason;                        // why not, when not used
    int period_micro_batches = 0;
    double period_s = 0.0;
    std::int64_t simulated_micro_batches = 0;  // by the short run
    std::int64_t repeated_micro_batches = 0;   // by repeating the period

    friend bool operator==(const SteadyStateUse&, const SteadyStateUse&) = default;
};

// The boundary in `short_run` (of `short_graph`, `short_micro_batches` micro-batches, recorded with its memory
// timeline and start order) whose state is the state a period earlier, shifted; none when no boundary's is.
// `repeats` is how many periods the full run adds: the time tolerance shrinks with it, so that n repetitions stay
// within 10^-10 of the run's length.
[[nodiscard]] std::optional<SteadyPeriod> find_steady_period(const ExecutionGraph& short_graph, const EngineRun& short_run,
                                                             int short_micro_batches, int period_micro_batches,
                                                             std::int64_t repeats);

// The run of `full_graph` (`short_micro_batches` + repeats·P micro-batches): `short_run` with `period` repeated
// `repeats` times. None when the two graphs do not correspond task for task (a task the full graph has and the
// period does not, or one that differs in its work); the caller then runs the full graph. The memory timeline is kept
// when `keep_memory_timeline`. Polls `progress` every 2^16 tasks; none when cancelled.
[[nodiscard]] std::optional<EngineRun> repeat_steady_period(const ExecutionGraph& full_graph,
                                                            const ExecutionGraph& short_graph, EngineRun short_run,
                                                            int short_micro_batches, const SteadyPeriod& period,
                                                            std::int64_t repeats, bool keep_memory_timeline,
                                                            const PhaseProgress& progress, bool& cancelled);

// A device's memory samples in the whole run: the short run's before the boundary, those of [T − Δ, T) again
// `repeats` times, each a period later, then the rest of the short run's, `repeats` periods later.
[[nodiscard]] std::vector<MemorySample> repeated_memory_timeline(const std::vector<MemorySample>& short_samples,
                                                                 const SteadyPeriod& period, std::int64_t repeats);

}  // namespace parasight
