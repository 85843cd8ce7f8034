#pragma once
// The Report as the JSON object `parasight-cli simulate --json` prints (the contract in docs/cli.md).

#include "analysis/report.h"

#include <string>

namespace parasight {

[[nodiscard]] std::string report_json(const Report& report);

}  // namespace parasight
