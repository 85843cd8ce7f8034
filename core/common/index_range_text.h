#pragma once
// Index ranges as scenario files and the GUI write them: "7" or "4..11" (both ends included), and lists of them,
// "0, 8..15", for NPU lists and layer ranges.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace parasight {

// "7" or "4..11": the first and last index, or nothing when the text is neither. Not checked for order or range.
[[nodiscard]] std::optional<std::pair<std::int64_t, std::int64_t>> parse_index_range(std::string_view text);

// "7" for a range of one, else "4..11".
[[nodiscard]] std::string index_range_text(std::int64_t first, std::int64_t last);

// Sorted, distinct indices as their runs of consecutive ones: {0, 8, 9, 10} → {(0, 0), (8, 10)}.
[[nodiscard]] std::vector<std::pair<std::int64_t, std::int64_t>> index_runs(const std::vector<std::int64_t>& indices);

// Sorted, distinct indices written compactly: {0, 8, 9, 10} → "0, 8..10".
[[nodiscard]] std::string index_list_text(const std::vector<std::int64_t>& indices);

}  // namespace parasight
