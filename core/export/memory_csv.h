#pragma once
// Per-device memory at its peak, by category, as CSV, one row per simulated device: what the Memory tab's table shows
// and exports.

#include "analysis/report.h"

#include <ostream>

namespace parasight {

void write_memory_csv(std::ostream& out, const Report& report);

}  // namespace parasight
