// ResultStore::sweep_grid: a stored sweep aggregated into a heatmap's cells in SQL.
#include "store/sweep_grid.h"

#include "common/did_you_mean.h"
#include "common/message_text.h"
#include "export/warning_text.h"
#include "store/run_warnings.h"
#include "store/sql_text.h"

#include <algorithm>
#include <array>

namespace parasight {

using store::quoted_identifier;

using store::Statement;

namespace {

constexpr std::array<GridMetric, 11> metrics{{
    {"iteration_time_s", "iteration_time_s", false},
    {"samples_per_s", "samples_per_s", true},
    {"tokens_per_s", "tokens_per_s", true},
    {"mfu", "mfu", true},
    {"peak_memory_bytes", "peak_memory_bytes", false},
    {"exposed_tp_share", "exposed_tp_s / iteration_time_s", false},
    {"exposed_cp_share", "exposed_cp_s / iteration_time_s", false},
    {"exposed_ep_share", "exposed_ep_s / iteration_time_s", false},
    {"exposed_pp_share", "exposed_pp_s / iteration_time_s", false},
    {"exposed_dp_share", "exposed_dp_s / iteration_time_s", false},
    {"bubble_share", "bubble_s / iteration_time_s", false},
}};

// Which status a cell without a fitting point shows: the one nearest to fitting.
int status_rank(PointStatus status) {
    switch (status) {
        case PointStatus::ok: return 0;
        case PointStatus::oom: return 1;
        case PointStatus::oom_estimated: return 2;
        case PointStatus::failed: return 3;
        case PointStatus::invalid: return 4;
    }
    return 5;
}

std::size_t index_of(const std::vector<StoredValue>& values, const StoredValue& value) {
    return static_cast<std::size_t>(std::find(values.begin(), values.end(), value) - values.begin());
}

// The stored breakdown of each cell's shown point that ran (a point that did not has none stored).
std::optional<std::string> read_time_breakdowns(store::Database& database, const std::string& view, SweepGrid& grid) {
    std::string shown;
    std::map<std::int64_t, std::size_t> cell_of_point;
    for (std::size_t c = 0; c < grid.cells.size(); ++c) {
        if (grid.cells[c].point < 0) continue;
        shown += (shown.empty() ? "" : ", ") + std::to_string(grid.cells[c].point);
        cell_of_point[grid.cells[c].point] = c;
    }
    if (shown.empty()) return std::nullopt;
    Expected<Statement> select = database.prepare(
        "SELECT point, compute_s, exposed_tp_s, exposed_cp_s, exposed_ep_s, exposed_pp_s, exposed_dp_s, "
        "exposed_remote_memory_s, bubble_s, idle_s, exposed_local_memory_s FROM " + view +
        " WHERE compute_s IS NOT NULL AND point IN (" + shown + ")");
    if (!select) return select.error();
    return select.value().each_row([&](const Statement& row) {
        const auto found = cell_of_point.find(row.integer(0));
        if (found == cell_of_point.end()) return;
        const auto seconds = [&](int column) { return row.is_null(column) ? 0.0 : row.real(column); };
        TimeBreakdown times;
        times.compute_s = seconds(1);
        for (std::size_t g = 0; g < comm_group_count; ++g) times.exposed_comm_s[g] = seconds(2 + static_cast<int>(g));
        times.exposed_remote_memory_s = seconds(7);
        times.bubble_s = seconds(8);
        times.idle_s = seconds(9);
        times.exposed_local_memory_s = seconds(10);  // NULL for a run stored before it was told apart from compute
        grid.cells[found->second].time_breakdown = times;
    });
}

}  // namespace

std::span<const GridMetric> grid_metrics() noexcept { return metrics; }

Expected<GridMetric> grid_metric(std::string_view name) {
    std::vector<std::string_view> names;
    for (const GridMetric& metric : metrics) {
        if (metric.name == name) return metric;
        names.push_back(metric.name);
    }
    return Error{"unknown metric " + in_quotes(name) + did_you_mean_suffix(name, names) + "; the metrics are " +
                 join_alternatives(names)};
}

Expected<SweepGrid> ResultStore::sweep_grid(const GridRequest& request) {
    const Expected<SweepSummary> sweep = this->sweep(request.sweep_id);
    if (!sweep) return Error{sweep.error()};
    const std::vector<std::string>& paths = sweep.value().axis_paths;
    const auto has_axis = [&](const std::string& path) {
        return std::find(paths.begin(), paths.end(), path) != paths.end();
    };
    for (const std::string* path : {&request.x_axis, &request.y_axis}) {
        if (!has_axis(*path)) {
            std::vector<std::string_view> names(paths.begin(), paths.end());
            return Error{"sweep " + std::to_string(request.sweep_id) + " has no axis " + in_quotes(*path) +
                         did_you_mean_suffix(*path, names)};
        }
    }
    if (request.x_axis == request.y_axis) return Error{"the two axes of a grid are different axes"};
    for (const auto& [path, value] : request.fixed) {
        if (!has_axis(path)) {
            return Error{"sweep " + std::to_string(request.sweep_id) + " has no axis " + in_quotes(path)};
        }
    }
    const std::string view = "sweep_" + std::to_string(request.sweep_id);
    const std::string x = quoted_identifier(request.x_axis);
    const std::string y = quoted_identifier(request.y_axis);
    std::string where;
    for (const auto& [path, value] : request.fixed) where += " AND " + quoted_identifier(path) + " IS ?";
    if (!request.where.empty()) where += " AND (" + request.where + ")";

    SweepGrid grid;
    // Each axis's values in the order the sweep runs them (the last axis varies fastest, so by point number), every
    // axis in one pass over the stored values rather than one pass over the view per axis.
    for (const std::string& path : paths) grid.axes.push_back(GridAxis{path, {}});
    {
        Expected<Statement> select = database_.prepare(
            "SELECT position, value, min(point) AS first FROM sweep_point_values WHERE sweep_id = ? "
            "GROUP BY position, value ORDER BY position, first");
        if (!select) return Error{select.error()};
        select.value().bind(1, request.sweep_id);
        const auto problem = select.value().each_row([&](const Statement& row) {
            const auto position = static_cast<std::size_t>(row.integer(0));
            if (position < grid.axes.size()) grid.axes[position].values.push_back(row.value(1));
        });
        if (problem) return Error{*problem};
    }
    for (const GridAxis& axis : grid.axes) {
        if (axis.path == request.x_axis) grid.x_values = axis.values;
        if (axis.path == request.y_axis) grid.y_values = axis.values;
    }
    grid.cells.resize(grid.x_values.size() * grid.y_values.size());

    // Every point of the cells: its status and the metric, the cell's fitting ones in order of the metric.
    const std::string metric = "(" + std::string(request.metric.sql) + ")";
    Expected<Statement> select = database_.prepare(
        "SELECT " + x + ", " + y + ", point, status, " + metric + ", run_id, reason FROM " + view + " WHERE 1" + where +
        " ORDER BY " + x + ", " + y + ", status = 'ok' DESC, " + metric +
        (request.metric.higher_is_better ? " DESC" : " ASC") + ", point");
    if (!select) return Error{select.error()};
    int index = 1;
    for (const auto& [path, value] : request.fixed) select.value().bind(index++, value);
    // The fitting points' values per cell, best first; and for a cell none fits, its run to word the reason.
    std::vector<std::vector<std::pair<double, std::int64_t>>> fitting(grid.cells.size());
    std::vector<std::int64_t> shown_run(grid.cells.size(), -1);
    std::vector<std::string> stored_reason(grid.cells.size());
    const auto problem = select.value().each_row([&](const Statement& row) {
        const std::size_t cx = index_of(grid.x_values, row.value(0));
        const std::size_t cy = index_of(grid.y_values, row.value(1));
        if (cx >= grid.x_values.size() || cy >= grid.y_values.size()) return;
        const std::size_t c = cy * grid.x_values.size() + cx;
        GridCell& cell = grid.cells[c];
        ++cell.points;
        const PointStatus status = value_of(row.text(3), point_status_names).value_or(PointStatus::failed);
        if (status == PointStatus::ok && !row.is_null(4)) {
            ++cell.fitting;
            fitting[c].emplace_back(row.real(4), row.integer(2));
            return;
        }
        if (cell.fitting == 0 && (cell.point < 0 || status_rank(status) < status_rank(cell.status))) {
            cell.status = status;
            cell.point = row.integer(2);
            shown_run[c] = row.integer(5);
            stored_reason[c] = row.is_null(6) ? std::string() : row.text(6);
        }
    });
    if (problem) return Error{*problem};

    std::string runs_without_reason;
    for (std::size_t c = 0; c < grid.cells.size(); ++c) {
        GridCell& cell = grid.cells[c];
        const auto& values = fitting[c];
        if (!values.empty()) {
            // Best first: the best is the first, the worst the last, the median the lower middle one.
            const std::size_t chosen = request.aggregation == GridAggregation::best    ? 0
                                       : request.aggregation == GridAggregation::worst ? values.size() - 1
                                                                                       : (values.size() - 1) / 2;
            cell.value = values[chosen].first;
            cell.point = values[chosen].second;
            cell.status = PointStatus::ok;
            continue;
        }
        cell.reason = stored_reason[c];
        if (cell.reason.empty() && shown_run[c] >= 0) {
            runs_without_reason += (runs_without_reason.empty() ? "" : ", ") + std::to_string(shown_run[c]);
        }
    }
    // Reasons kept as codes (an out-of-memory point's, an estimated one's) are worded as a reader shows them.
    if (!runs_without_reason.empty()) {
        auto warnings = store::read_run_warnings(database_, "run_id IN (" + runs_without_reason + ")");
        if (!warnings) return Error{warnings.error()};
        for (std::size_t c = 0; c < grid.cells.size(); ++c) {
            const auto found = warnings.value().find(shown_run[c]);
            if (grid.cells[c].reason.empty() && found != warnings.value().end() && found->second.reason) {
                grid.cells[c].reason = warning_text(*found->second.reason);
            }
        }
    }
    if (auto unread = read_time_breakdowns(database_, view, grid)) return Error{*unread};
    for (std::size_t c = 0; c < grid.cells.size(); ++c) {
        const auto& value = grid.cells[c].value;
        if (!value) continue;
        const bool better = !grid.best || (request.metric.higher_is_better ? *value > *grid.cells[*grid.best].value
                                                                         : *value < *grid.cells[*grid.best].value);
        if (better) grid.best = c;
    }
    return grid;
}

}  // namespace parasight
