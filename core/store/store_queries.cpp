// Reading the results database back: the sweeps and single runs it holds, a sweep's points, one run.
#include "common/message_text.h"
#include "export/json_writer.h"
#include "export/warning_text.h"
#include "store/result_store.h"
#include "store/run_warnings.h"
#include "store/store_schema.h"

#include <map>

namespace parasight {

using store::Statement;

namespace {

// The row `sql` selects for a sweep's point (its two parameters: the sweep, the point), stepped onto; the error names
// a point the sweep does not hold.
Expected<Statement> point_row(store::Database& database, const std::string& sql, std::int64_t sweep_id,
                              std::uint64_t point) {
    Expected<Statement> select = database.prepare(sql);
    if (!select) return Error{select.error()};
    select.value().bind(1, sweep_id).bind(2, static_cast<std::int64_t>(point));
    Expected<bool> found = select.value().step();
    if (!found) return Error{found.error()};
    if (!found.value()) {
        return Error{"holds no point " + std::to_string(point) + " of sweep " + std::to_string(sweep_id)};
    }
    return std::move(select).value();
}

std::optional<std::string> visit(Statement& statement, RowVisitor& visitor) {
    std::vector<std::string> names;
    for (int c = 0; c < statement.column_count(); ++c) names.push_back(statement.column_name(c));
    visitor.columns(names);
    std::vector<StoredValue> values(names.size());
    return statement.each_row([&](const Statement& row) {
        for (int c = 0; c < row.column_count(); ++c) values[static_cast<std::size_t>(c)] = row.value(c);
        visitor.row(values);
    });
}

// Passes rows on with each run's warnings and reason worded: the database holds codes and parameters
// (store/run_warnings.h); a reader gets the sentences (export/warning_text.h) — `warnings` a JSON array of them,
// `reason` the sentence of the run's reason row where the column itself is NULL.
class WordedWarnings final : public RowVisitor {
public:
    WordedWarnings(RowVisitor& next, std::string_view id_column, std::map<std::int64_t, store::RunWarnings> warnings)
        : next_(next), id_column_(id_column), warnings_(std::move(warnings)) {}

    void columns(const std::vector<std::string>& names) override {
        for (std::size_t c = 0; c < names.size(); ++c) {
            if (names[c] == id_column_) id_ = static_cast<int>(c);
            if (names[c] == "reason") reason_ = static_cast<int>(c);
            if (names[c] == "warnings") warnings_column_ = static_cast<int>(c);
        }
        next_.columns(names);
    }

    void row(const std::vector<StoredValue>& values) override {
        const auto* id = id_ >= 0 ? std::get_if<std::int64_t>(&values[static_cast<std::size_t>(id_)]) : nullptr;
        const auto found = id != nullptr ? warnings_.find(*id) : warnings_.end();
        if (found == warnings_.end() && warnings_column_ < 0) {
            next_.row(values);
            return;
        }
        worded_ = values;
        if (warnings_column_ >= 0) {
            JsonWriter json(false);
            json.begin_array();
            if (found != warnings_.end()) {
                for (const Warning& warning : found->second.warnings) json.value(warning_text(warning));
            }
            json.end_array();
            worded_[static_cast<std::size_t>(warnings_column_)] = json.text();
        }
        if (reason_ >= 0 && found != warnings_.end() && found->second.reason &&
            std::holds_alternative<std::monostate>(worded_[static_cast<std::size_t>(reason_)])) {
            worded_[static_cast<std::size_t>(reason_)] = warning_text(*found->second.reason);
        }
        next_.row(worded_);
    }

private:
    RowVisitor& next_;
    std::string_view id_column_;
    std::map<std::int64_t, store::RunWarnings> warnings_;
    int id_ = -1;
    int reason_ = -1;
    int warnings_column_ = -1;
    std::vector<StoredValue> worded_;
};

}  // namespace

std::uint64_t SweepSummary::stored() const noexcept {
    std::uint64_t total = 0;
    for (const std::uint64_t count : stored_by_status) total += count;
    return total;
}

Expected<std::vector<SweepSummary>> ResultStore::sweeps() {
    Expected<Statement> select = database_.prepare("SELECT id FROM sweeps ORDER BY id");
    if (!select) return Error{select.error()};
    std::vector<std::int64_t> ids;
    if (auto problem = select.value().each_row([&](const Statement& row) { ids.push_back(row.integer(0)); })) {
        return Error{*problem};
    }
    std::vector<SweepSummary> summaries;
    for (const std::int64_t id : ids) {
        Expected<SweepSummary> summary = sweep(id);
        if (!summary) return Error{summary.error()};
        summaries.push_back(std::move(summary).value());
    }
    return summaries;
}

Expected<SweepSummary> ResultStore::sweep(std::int64_t id) {
    Expected<Statement> select =
        database_.prepare("SELECT name, created_at, core_version, point_count, base_scenario_hash, key FROM sweeps "
                          "WHERE id = ?");
    if (!select) return Error{select.error()};
    select.value().bind(1, id);
    Expected<bool> found = select.value().step();
    if (!found) return Error{found.error()};
    if (!found.value()) return Error{"holds no sweep " + std::to_string(id)};
    SweepSummary summary;
    summary.id = id;
    summary.name = select.value().text(0);
    summary.created_at = select.value().text(1);
    summary.core_version = select.value().text(2);
    summary.point_count = static_cast<std::uint64_t>(select.value().integer(3));
    summary.base_scenario_hash = select.value().text(4);
    summary.key = select.value().text(5);

    Expected<Statement> axes = database_.prepare(
        "SELECT path, json_array_length(sweep_values) FROM sweep_axes WHERE sweep_id = ? ORDER BY position");
    if (!axes) return Error{axes.error()};
    axes.value().bind(1, id);
    const auto axes_read = axes.value().each_row([&](const Statement& row) {
        summary.axis_paths.push_back(row.text(0));
        summary.axis_value_counts.push_back(static_cast<std::size_t>(row.integer(1)));
    });
    if (axes_read) return Error{*axes_read};
    Expected<Statement> counts = database_.prepare(
        "SELECT r.status, count(*) FROM sweep_points p JOIN runs r ON r.id = p.run_id WHERE p.sweep_id = ? "
        "GROUP BY r.status");
    if (!counts) return Error{counts.error()};
    counts.value().bind(1, id);
    const auto problem = counts.value().each_row([&](const Statement& row) {
        if (const auto status = value_of(row.text(0), point_status_names)) {
            summary.stored_by_status[static_cast<std::size_t>(*status)] = static_cast<std::uint64_t>(row.integer(1));
        }
    });
    if (problem) return Error{*problem};
    return summary;
}

Expected<std::vector<RunSummary>> ResultStore::single_runs() {
    Expected<Statement> select = database_.prepare(
        "SELECT r.id, s.name, r.status, r.created_at, r.iteration_time_s FROM runs r "
        "JOIN scenarios s ON s.hash = r.scenario_hash WHERE r.id NOT IN (SELECT run_id FROM sweep_points) "
        "ORDER BY r.id");
    if (!select) return Error{select.error()};
    std::vector<RunSummary> runs;
    const auto problem = select.value().each_row([&](const Statement& row) {
        RunSummary run;
        run.id = row.integer(0);
        run.scenario_name = row.text(1);
        run.status = row.text(2);
        run.created_at = row.text(3);
        if (!row.is_null(4)) run.iteration_time_s = row.real(4);
        runs.push_back(std::move(run));
    });
    if (problem) return Error{*problem};
    return runs;
}

std::optional<std::string> ResultStore::read_sweep(std::int64_t id, RowVisitor& visitor, const std::string& where,
                                                   const std::string& order, std::int64_t limit, std::int64_t offset) {
    if (Expected<SweepSummary> exists = sweep(id); !exists) return exists.error();
    std::string sql = "SELECT * FROM sweep_" + std::to_string(id);
    if (!where.empty()) sql += " WHERE " + where;
    sql += " ORDER BY " + (order.empty() ? std::string("point") : order + ", point");
    if (limit >= 0) sql += " LIMIT " + std::to_string(limit);
    if (limit >= 0 && offset > 0) sql += " OFFSET " + std::to_string(offset);
    Expected<Statement> select = database_.prepare(sql);
    if (!select) return select.error();
    auto warnings = store::read_run_warnings(
        database_, "run_id IN (SELECT run_id FROM sweep_points WHERE sweep_id = " + std::to_string(id) + ")");
    if (!warnings) return warnings.error();
    WordedWarnings worded(visitor, "run_id", std::move(warnings).value());
    return visit(select.value(), worded);
}

std::optional<std::string> ResultStore::read_run(std::int64_t id, RowVisitor& visitor) {
    Expected<Statement> exists = database_.prepare("SELECT 1 FROM runs WHERE id = ?");
    if (!exists) return exists.error();
    exists.value().bind(1, id);
    Expected<bool> found = exists.value().step();
    if (!found) return found.error();
    if (!found.value()) return "holds no run " + std::to_string(id);
    Expected<Statement> select =
        database_.prepare("SELECT r.id, " + store::run_column_list("r.") + ", " + store::warning_codes_column("r") +
                          ", s.name AS scenario_name FROM runs r JOIN scenarios s ON s.hash = r.scenario_hash "
                          "WHERE r.id = ?");
    if (!select) return select.error();
    select.value().bind(1, id);
    auto warnings = store::read_run_warnings(database_, "run_id = " + std::to_string(id));
    if (!warnings) return warnings.error();
    WordedWarnings worded(visitor, "id", std::move(warnings).value());
    return visit(select.value(), worded);
}

Expected<std::string> ResultStore::scenario_yaml(const std::string& hash) {
    Expected<Statement> select = database_.prepare("SELECT yaml FROM scenarios WHERE hash = ?");
    if (!select) return Error{select.error()};
    select.value().bind(1, std::string_view(hash));
    Expected<bool> found = select.value().step();
    if (!found) return Error{found.error()};
    if (!found.value()) return Error{"holds no scenario " + hash};
    return select.value().text(0);
}

Expected<StoredScenario> ResultStore::point_scenario(std::int64_t sweep_id, std::uint64_t point) {
    Expected<Statement> row = point_row(database_,
                                        "SELECT s.name, s.yaml FROM sweep_points p JOIN runs r ON r.id = p.run_id "
                                        "JOIN scenarios s ON s.hash = r.scenario_hash WHERE p.sweep_id = ? AND p.point = ?",
                                        sweep_id, point);
    if (!row) return Error{row.error()};
    return StoredScenario{row.value().text(0), row.value().text(1)};
}

Expected<std::int64_t> ResultStore::point_run(std::int64_t sweep_id, std::uint64_t point) {
    Expected<Statement> row =
        point_row(database_, "SELECT run_id FROM sweep_points WHERE sweep_id = ? AND point = ?", sweep_id, point);
    if (!row) return Error{row.error()};
    return row.value().integer(0);
}

Expected<std::int64_t> ResultStore::count_sweep_points(std::int64_t id, const std::string& where) {
    if (Expected<SweepSummary> exists = sweep(id); !exists) return Error{exists.error()};
    // Every point: counted on the points alone, not through the view's joins.
    if (where.empty()) return database_.integer("SELECT count(*) FROM sweep_points WHERE sweep_id = " + std::to_string(id));
    return database_.integer("SELECT count(*) FROM sweep_" + std::to_string(id) + " WHERE " + where);
}

Expected<SweepSection> ResultStore::sweep_section(std::int64_t id) {
    if (Expected<SweepSummary> exists = sweep(id); !exists) return Error{exists.error()};
    Expected<Statement> select = database_.prepare(
        "SELECT a.position, a.path, a.zipped_with_previous, j.value FROM sweep_axes a, json_each(a.sweep_values) j "
        "WHERE a.sweep_id = ? ORDER BY a.position, j.key");
    if (!select) return Error{select.error()};
    select.value().bind(1, id);
    SweepSection section;
    std::int64_t position = -1;
    const auto problem = select.value().each_row([&](const Statement& row) {
        if (row.integer(0) != position) {
            position = row.integer(0);
            SweepSectionAxis axis;
            axis.path = row.text(1);
            axis.zipped_with_previous = row.integer(2) != 0;
            section.axes.push_back(std::move(axis));
        }
        section.axes.back().values.push_back(row.text(3));
    });
    if (problem) return Error{*problem};
    return section;
}

Expected<StoredScenario> ResultStore::run_scenario(std::int64_t run_id) {
    Expected<Statement> select =
        database_.prepare("SELECT s.name, s.yaml FROM runs r JOIN scenarios s ON s.hash = r.scenario_hash WHERE r.id = ?");
    if (!select) return Error{select.error()};
    select.value().bind(1, run_id);
    Expected<bool> found = select.value().step();
    if (!found) return Error{found.error()};
    if (!found.value()) return Error{"holds no run " + std::to_string(run_id)};
    return StoredScenario{select.value().text(0), select.value().text(1)};
}

}  // namespace parasight
