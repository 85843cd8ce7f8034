#include "store/sweep_views.h"

#include "store/run_warnings.h"
#include "store/sql_text.h"
#include "store/store_schema.h"

#include <vector>

namespace parasight::store {
namespace {

// Every row of a one-column query.
template <class Value, class Read>
Expected<std::vector<Value>> column_of(Database& database, const std::string& sql, Read read) {
    Expected<Statement> select = database.prepare(sql);
    if (!select) return Error{select.error()};
    std::vector<Value> values;
    if (auto problem = select.value().each_row([&](const Statement& row) { values.push_back(read(row)); })) {
        return Error{*problem};
    }
    return values;
}

}  // namespace

std::optional<std::string> create_sweep_view(Database& database, std::int64_t sweep_id) {
    Expected<Statement> axes = database.prepare("SELECT position, path FROM sweep_axes WHERE sweep_id = ? "
                                                "ORDER BY position");
    if (!axes) return axes.error();
    axes.value().bind(1, sweep_id);
    const std::string id = std::to_string(sweep_id);
    std::string columns = "p.point AS point";
    std::string joins;
    const auto problem = axes.value().each_row([&](const Statement& axis) {
        const std::string position = std::to_string(axis.integer(0));
        const std::string alias = "v" + position;
        columns += ", " + alias + ".value AS " + quoted_identifier(axis.text(1));
        joins += " LEFT JOIN sweep_point_values " + alias + " ON " + alias + ".sweep_id = p.sweep_id AND " + alias +
                 ".point = p.point AND " + alias + ".position = " + position;
    });
    if (problem) return problem;
    return database.execute("CREATE VIEW IF NOT EXISTS sweep_" + id + " AS SELECT " + columns +
                            ", r.id AS run_id, " + run_column_list() + ", " + warning_codes_column("r") +
                            ", s.name AS scenario_name FROM sweep_points p JOIN runs r ON r.id = p.run_id" +
                            " JOIN scenarios s ON s.hash = r.scenario_hash" + joins + " WHERE p.sweep_id = " + id);
}

std::optional<std::string> drop_sweep_views(Database& database) {
    const auto names = column_of<std::string>(
        database, "SELECT name FROM sqlite_schema WHERE type = 'view' AND name GLOB 'sweep_[0-9]*'",
        [](const Statement& row) { return row.text(0); });
    if (!names) return names.error();
    for (const std::string& name : names.value()) {
        if (auto problem = database.execute("DROP VIEW " + quoted_identifier(name))) return problem;
    }
    return std::nullopt;
}

std::optional<std::string> create_sweep_views(Database& database) {
    const auto ids = column_of<std::int64_t>(database, "SELECT id FROM sweeps ORDER BY id",
                                             [](const Statement& row) { return row.integer(0); });
    if (!ids) return ids.error();
    for (const std::int64_t id : ids.value()) {
        if (auto problem = create_sweep_view(database, id)) return problem;
    }
    return std::nullopt;
}

}  // namespace parasight::store
