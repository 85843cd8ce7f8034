#pragma once
// Chrome trace-event JSON ({"traceEvents": [...]}, opened by Perfetto and chrome://tracing): one process per
// simulated device, one thread per stream (Perfetto drops overlapping slices on one thread, and a stream never
// overlaps itself), complete events (ph "X") in microseconds, metadata events (ph "M") naming processes and threads,
// and a counter track (ph "C") of each device's allocated memory.

#include "compile/execution_graph.h"
#include "engine/engine.h"

#include <ostream>

namespace parasight {

void write_chrome_trace(std::ostream& out, const ExecutionGraph& graph, const EngineRun& run);

}  // namespace parasight
