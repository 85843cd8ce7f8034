// ResultStore::sweep_slices: the metric along each axis through the best point, read in SQL.
#include "store/sweep_slices.h"

#include "export/run_column_text.h"
#include "store/sql_text.h"
#include "store/stored_table.h"

#include <cmath>
#include <cstdio>

namespace parasight {

using store::quoted_identifier;
using store::Statement;

namespace {

}  // namespace

std::vector<std::string> sensitivity_lines(const SweepSlice& slice, const GridMetric& metric) {
    std::vector<std::string> lines;
    if (slice.points.empty() || !slice.points[slice.best].metric) return lines;
    const SlicePoint& best = slice.points[slice.best];
    const double best_value = *best.metric;
    for (const int step : {-1, 1}) {
        const auto at = static_cast<std::ptrdiff_t>(slice.best) + step;
        if (at < 0 || at >= static_cast<std::ptrdiff_t>(slice.points.size())) continue;
        const SlicePoint& neighbour = slice.points[static_cast<std::size_t>(at)];
        std::string line = slice.axis + " " + stored_text(best.value) + " → " + stored_text(neighbour.value) + ": ";
        if (neighbour.point < 0) {
            line += "not stored";
        } else if (!neighbour.metric) {
            line += point_status_label(neighbour.status);
        } else {
            const double change = best_value != 0.0 ? std::abs(*neighbour.metric - best_value) / std::abs(best_value) : 0.0;
            const bool worse = metric.higher_is_better ? *neighbour.metric < best_value : *neighbour.metric > best_value;
            char percent[32];
            std::snprintf(percent, sizeof percent, "%.1f%%", 100.0 * change);
            line += change == 0.0 ? std::string("the same") : std::string(percent) + (worse ? " worse" : " better");
            line += " (" + run_column_text(metric.name, *neighbour.metric) + ")";
        }
        lines.push_back(std::move(line));
    }
    return lines;
}

Expected<SweepSlices> ResultStore::sweep_slices(std::int64_t sweep_id, const GridMetric& metric, const std::string& where) {
    const Expected<SweepSummary> sweep = this->sweep(sweep_id);
    if (!sweep) return Error{sweep.error()};
    const std::vector<std::string>& paths = sweep.value().axis_paths;
    const std::string view = "sweep_" + std::to_string(sweep_id);
    const std::string value = "(" + std::string(metric.sql) + ")";
    const std::string filter = where.empty() ? std::string() : " AND (" + where + ")";
    std::string columns;
    for (const std::string& path : paths) columns += ", " + quoted_identifier(path);

    SweepSlices slices;
    std::vector<StoredValue> best_values;
    {
        Expected<Statement> best = database_.prepare("SELECT point, " + value + columns + " FROM " + view +
                                                     " WHERE status = 'ok' AND " + value + " IS NOT NULL" + filter +
                                                     " ORDER BY " + value + (metric.higher_is_better ? " DESC" : " ASC") +
                                                     ", point LIMIT 1");
        if (!best) return Error{best.error()};
        Expected<bool> found = best.value().step();
        if (!found) return Error{found.error()};
        if (!found.value()) return slices;
        slices.best_point = best.value().integer(0);
        slices.best_metric = best.value().real(1);
        for (std::size_t a = 0; a < paths.size(); ++a) best_values.push_back(best.value().value(2 + static_cast<int>(a)));
    }
    for (std::size_t a = 0; a < paths.size(); ++a) {
        const std::size_t values = a < sweep.value().axis_value_counts.size() ? sweep.value().axis_value_counts[a] : 0;
        if (values < 2) continue;
        std::string held;
        for (std::size_t other = 0; other < paths.size(); ++other) {
            if (other != a) held += " AND " + quoted_identifier(paths[other]) + " IS ?";
        }
        Expected<Statement> select = database_.prepare("SELECT " + quoted_identifier(paths[a]) + ", point, status, " +
                                                       value + " FROM " + view + " WHERE 1" + held + filter +
                                                       " ORDER BY point");
        if (!select) return Error{select.error()};
        int index = 1;
        for (std::size_t other = 0; other < paths.size(); ++other) {
            if (other != a) select.value().bind(index++, best_values[other]);
        }
        SweepSlice slice{paths[a], {}, 0};
        const auto problem = select.value().each_row([&](const Statement& row) {
            SlicePoint point;
            point.value = row.value(0);
            point.point = row.integer(1);
            point.status = value_of(row.text(2), point_status_names).value_or(PointStatus::failed);
            if (point.status == PointStatus::ok && !row.is_null(3)) point.metric = row.real(3);
            if (point.point == slices.best_point) slice.best = slice.points.size();
            slice.points.push_back(std::move(point));
        });
        if (problem) return Error{*problem};
        slices.slices.push_back(std::move(slice));
    }
    return slices;
}

}  // namespace parasight
