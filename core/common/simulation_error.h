#pragma once
// Why a simulation gave no result, as a value: simulate() never throws. Front ends decide what to say and do for
// each kind (the command line maps them to exit codes, the GUI to a status line); the message is for a person and
// names no front end's options.

#include "common/progress.h"
#include "common/warning.h"
#include "diagnostics/diagnostic.h"

#include <cstdint>
#include <string>

namespace parasight {

enum class SimulationErrorKind : std::uint8_t {
    invalid,    // the scenario did not pass validate(): see diagnostics
    too_large,  // the execution graph would pass the task limit: see graph_tasks and task_limit
    cancelled,  // the ProgressSink asked to stop
    internal,   // a bug in ParaSight (or memory ran out): the message says what went wrong
    // The run finished, but its result means nothing: an iteration that takes no time (every operation measured at
    // 0 s and nothing to communicate), whose throughput and utilization would be infinite. The message says why.
    degenerate,
    // Asked to stop there (SimulateOptions::stop_at_out_of_memory): a device needed more than its memory, so the
    // run ended at that allocation; out_of_memory says which device, what and when.
    out_of_memory,
};
inline constexpr std::array<EnumName<SimulationErrorKind>, 6> simulation_error_kind_names{
    {{SimulationErrorKind::invalid, "invalid"},
     {SimulationErrorKind::too_large, "too_large"},
     {SimulationErrorKind::degenerate, "degenerate"},
     {SimulationErrorKind::cancelled, "cancelled"},
     {SimulationErrorKind::internal, "internal"},
     {SimulationErrorKind::out_of_memory, "out_of_memory"}}};

struct SimulationError {
    SimulationErrorKind kind = SimulationErrorKind::internal;
    SimulationPhase phase = SimulationPhase::compile;  // where the run stopped
    std::string message;
    Diagnostics diagnostics;        // invalid
    double graph_tasks = 0.0;       // too_large: the tasks the graph would hold (at least, when graph_tasks_at_least)
    bool graph_tasks_at_least = false;
    std::int64_t task_limit = 0;    // too_large: the limit it passed
    Warning out_of_memory;          // out_of_memory: the device, its memory when it crossed, the allocation
};

// The error of a run its ProgressSink stopped in `phase`.
[[nodiscard]] inline SimulationError cancelled_in(SimulationPhase phase) {
    SimulationError error;
    error.kind = SimulationErrorKind::cancelled;
    error.phase = phase;
    error.message = "the simulation was cancelled";
    return error;
}

}  // namespace parasight
