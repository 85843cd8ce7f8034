#pragma once
// A stored sweep as a grid for a heatmap: two of its axes across and down, a metric in each cell, every other axis
// either fixed at one of its values or aggregated by a stated rule — the best, the median or the worst point of the
// cell by that metric. Cells are real points only, never interpolated; a cell without a simulated point that fits
// says why, from its points' statuses and stored reasons. Aggregated in SQL, so that a sweep of 10^5 points costs one
// query, not 10^5 rows in the window.

#include "analysis/breakdown.h"
#include "store/result_store.h"
#include "sweep/point_result.h"

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace parasight {

// What a heatmap cell can show: a column of runs or a share of the iteration, and which way is better.
struct GridMetric {
    std::string_view name;  // "iteration_time_s", "bubble_share"
    std::string_view sql;   // its expression over the sweep's view
    bool higher_is_better = false;
};
// Iteration time, samples/s, tokens/s, MFU, peak memory, and the shares of the iteration exposed per communication
// group and in the pipeline bubble.
[[nodiscard]] std::span<const GridMetric> grid_metrics() noexcept;
// The metric named `name`; the error lists the names.
[[nodiscard]] Expected<GridMetric> grid_metric(std::string_view name);

enum class GridAggregation : std::uint8_t { best, median, worst };
inline constexpr std::array<EnumName<GridAggregation>, 3> grid_aggregation_names{
    {{GridAggregation::best, "best"}, {GridAggregation::median, "median"}, {GridAggregation::worst, "worst"}}};

struct GridRequest {
    std::int64_t sweep_id = 0;
    GridMetric metric;
    std::string x_axis;  // axis paths of the sweep
    std::string y_axis;
    std::map<std::string, StoredValue> fixed;  // other axes held at one value; the rest are aggregated
    GridAggregation aggregation = GridAggregation::best;
    std::string where;  // only the points this lets through (store/point_filter.h's SQL); empty: all
};

struct GridCell {
    std::int64_t points = 0;     // the sweep's points that fall in the cell (past the fixed axes)
    std::int64_t fitting = 0;    // of those, simulated and fitting in memory (status ok)
    std::optional<double> value;  // the metric, aggregated over the fitting points; none when none fits
    std::int64_t point = -1;     // the point whose value it shows (the median: the lower middle one); or, when none
                                 // fits, whose status and reason it shows; -1 for an empty cell
    PointStatus status = PointStatus::ok;  // ok with a value; else the status it shows (oom before oom_estimated
                                           // before failed before invalid: the nearest to fitting)
    std::string reason;          // why, in words, when it has no value
    // Where the shown point's iteration went (the stored breakdown: compute, exposed communication by group, exposed
    // memory, bubble, idle), when it ran; what tells why a cell is slow.
    std::optional<TimeBreakdown> time_breakdown;
};

// An axis of the sweep and its values, in the order the sweep runs them.
struct GridAxis {
    std::string path;
    std::vector<StoredValue> values;
};

struct SweepGrid {
    std::vector<GridAxis> axes;         // every axis of the sweep, for a control per axis to fix
    std::vector<StoredValue> x_values;  // in the order the sweep runs them
    std::vector<StoredValue> y_values;
    std::vector<GridCell> cells;        // row by row: cells[y * x_values.size() + x]
    std::optional<std::size_t> best;    // the cell of the best value, first of equals in row order
    [[nodiscard]] const GridCell& at(std::size_t x, std::size_t y) const { return cells[y * x_values.size() + x]; }
};

}  // namespace parasight
