#pragma once
// Per-device time breakdowns and peak memory as CSV, one row per simulated device.

#include "analysis/report.h"

#include <ostream>

namespace parasight {

void write_breakdown_csv(std::ostream& out, const Report& report);

}  // namespace parasight
