#pragma once
// Whether a short run shows part of its schedule falling further behind every step, so that no period will ever
// repeat (engine/steady_period.h): between its warm-up and its drain, some task comes round more than a step later
// every step, by as much late as early and a tenth of a step or more in all — a stream slower than the rest (ZeRO-2
// storing or reduce-scattering each micro-batch's gradients more slowly than the micro-batch computes them) whose
// backlog grows every step. A schedule still converging to its period comes round later by less and less, or
// earlier one step and later the next; one that repeats only every few steps, likewise.

#include "compile/execution_graph.h"
#include "engine/engine.h"

namespace parasight {

// `run` is `graph`'s, `micro_batches` its micro-batches, `step` how many a step of its schedule advances,
// `in_flight` how many micro-batches its warm-up and its drain take.
[[nodiscard]] bool part_falls_behind(const ExecutionGraph& graph, const EngineRun& run, int micro_batches, int step,
                                     int in_flight);

}  // namespace parasight
