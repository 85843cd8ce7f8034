#pragma once
// Chrome trace-event JSON ({"traceEvents": [...]}, opened by Perfetto and chrome://tracing) of a Timeline: one
// process per simulated device, one thread per stream (Perfetto drops overlapping slices on one thread, and a stream
// never overlaps itself), complete events (ph "X") in microseconds, metadata events (ph "M") naming processes and
// threads, and a counter track (ph "C") of each device's allocated memory. Written as it goes: memory use does not
// grow with the trace.

#include "analysis/timeline.h"

#include <ostream>

namespace parasight {

void write_chrome_trace(std::ostream& out, const Timeline& timeline);

}  // namespace parasight
