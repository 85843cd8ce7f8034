#pragma once
// Which row of a result view (results/device_rows.h) shows NPU `npu`: its own row when devices are listed, or its
// pipeline stage's row; none when no simulated device is that NPU (a representative run simulates one device of each
// kind: the others have no row).

#include "analysis/report.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>

namespace parasight::gui {

// `rows` rows, `first_device(row)` the first simulated device (index into Report::per_device) a row stands for.
[[nodiscard]] std::optional<int> row_showing_npu(const Report& report, int rows,
                                                 const std::function<std::optional<std::size_t>(int)>& first_device,
                                                 std::int64_t npu);

}  // namespace parasight::gui
