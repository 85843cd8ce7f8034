#pragma once
// The Report as the JSON object `parasight-cli simulate --json` prints (the contract in docs/cli.md).

#include "analysis/report.h"

#include <string>

namespace parasight {

class JsonWriter;

[[nodiscard]] std::string report_json(const Report& report);

// Seconds by communication group as an object {tp, cp, ep, pp, dp}: the report's exposed_comm, and wherever else a
// contract prints the same split.
void write_comm_groups(JsonWriter& json, const std::array<double, comm_group_count>& seconds);

}  // namespace parasight
