#pragma once
// A filter over a sweep's points as a person types it in a filter bar: clauses joined by "," or "and", each either
// `fits` (simulated and fitting in memory) or `NAME OP VALUE`, OP one of < <= > >= = != (== is =). NAME is an axis
// — its path, or its last part when that names one axis (`pp` for `parallelism.pp`) — a column of runs (`mfu`,
// `iteration_time_s`, `peak_memory_bytes`, `status`) or a share of the iteration (`bubble_share`, `exposed_dp_share`).
// VALUE is a number, a quantity in the column's unit for a time or a size (`20 ms`, `40 GiB`), or a word compared
// as text (`status = oom`, `cluster.topology[1].bandwidth = 100 GB/s`). The filter becomes SQL over the sweep's view
// (store/sweep_views.h) with quoted names and literal values, never the person's text.

#include "common/expected.h"

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace parasight {

struct PointFilter {
    std::string where;  // empty: every point
};

struct PointFilterProblem {
    std::size_t column = 1;  // where in the text, from 1
    std::string message;     // "unknown name 'ppp' (did you mean 'pp'?)"
    // "filter:1:COL: message", as the window and the command line say it.
    [[nodiscard]] std::string located() const;
};

[[nodiscard]] Expected<PointFilter, PointFilterProblem> parse_point_filter(std::string_view text,
                                                                          std::span<const std::string> axis_paths);

}  // namespace parasight
