// ResultStore::merge_from: what another results database holds and this one does not, copied in one transaction.
#include "store/result_store.h"

#include "io/atomic_output.h"
#include "store/store_schema.h"
#include "store/sweep_views.h"

namespace parasight {

using store::Database;
using store::Statement;

namespace {

// Every row of a one-column query as integers.
Expected<std::vector<std::int64_t>> integers(Database& database, const std::string& sql) {
    Expected<Statement> select = database.prepare(sql);
    if (!select) return Error{select.error()};
    std::vector<std::int64_t> values;
    const auto problem = select.value().each_row([&](const Statement& row) { values.push_back(row.integer(0)); });
    if (problem) return Error{*problem};
    return values;
}

}  // namespace

std::optional<std::string> ResultStore::check_mergeable(const std::filesystem::path& other) {
    // The same checks as any reader (ours, not newer, not older, tables as this version makes them), and not damaged.
    Expected<ResultStore> source = open(other, Access::read_only, std::chrono::milliseconds(0));
    if (!source) return source.error();
    Expected<Statement> check = source.value().database_.prepare("PRAGMA quick_check");
    if (!check) return check.error();
    Expected<bool> row = check.value().step();
    if (!row) return row.error();
    if (!row.value() || check.value().text(0) != "ok") {
        return "is damaged (SQLite's quick check: " + check.value().text(0) + ")";
    }
    return std::nullopt;
}

std::optional<std::string> ResultStore::merge_from(const std::filesystem::path& other) {
    if (same_file(other, path_)) return "is the database being merged into";
    if (auto problem = check_mergeable(other)) return problem;
    {
        Expected<Statement> attach = database_.prepare("ATTACH DATABASE ? AS source");
        if (!attach) return attach.error();
        attach.value().bind(1, std::string_view(store::reader_uri(other)));
        if (auto problem = attach.value().run()) return problem;
    }
    auto problem = store::in_transaction(database_, [&]() -> std::optional<std::string> {
        if (auto error = database_.execute("INSERT OR IGNORE INTO main.scenarios SELECT hash, name, yaml "
                                           "FROM source.scenarios")) {
            return error;
        }
        const std::string columns = store::run_column_list();
        const std::string copy_run =
            "INSERT INTO main.runs (" + columns + ") SELECT " + columns + " FROM source.runs WHERE id = ?";
        Expected<Statement> runs = database_.prepare(copy_run);
        if (!runs) return runs.error();
        // A copied run's warnings go with it, under its id here.
        Expected<Statement> warnings = database_.prepare(
            "INSERT INTO main.run_warnings SELECT ?, role, position, code, subject, micro_batches, "
            "requested_micro_batches, operation, layers, first_layer, npu, needed_bytes, capacity_bytes, tensor, "
            "time_s, stage, model_state_bytes, activation_bytes, runtime_bytes, gpu_time_s FROM source.run_warnings WHERE run_id = ?");
        if (!warnings) return warnings.error();
        // The copy's id here, or why it could not be made.
        const auto copy_with_warnings = [&](std::int64_t source_run) -> Expected<std::int64_t> {
            runs.value().bind(1, source_run);
            if (auto error = runs.value().run()) return Error{*error};
            const std::int64_t copied = database_.last_insert_rowid();
            warnings.value().bind(1, copied).bind(2, source_run);
            if (auto error = warnings.value().run()) return Error{*error};
            return copied;
        };

        // Runs outside any sweep that are not here yet (the same scenario, status, version and moment).
        Expected<std::vector<std::int64_t>> single = integers(
            database_,
            "SELECT r.id FROM source.runs r WHERE r.id NOT IN (SELECT run_id FROM source.sweep_points) "
            "AND NOT EXISTS (SELECT 1 FROM main.runs m WHERE m.scenario_hash = r.scenario_hash "
            "AND m.status = r.status AND m.core_version = r.core_version AND m.created_at = r.created_at "
            "AND m.id NOT IN (SELECT run_id FROM main.sweep_points)) ORDER BY r.id");
        if (!single) return single.error();
        for (const std::int64_t id : single.value()) {
            if (Expected<std::int64_t> copied = copy_with_warnings(id); !copied) return copied.error();
        }

        Expected<std::vector<std::int64_t>> sweeps = integers(database_, "SELECT id FROM source.sweeps ORDER BY id");
        if (!sweeps) return sweeps.error();
        for (const std::int64_t source_sweep : sweeps.value()) {
            // The sweep here with the same key, or a copy of it.
            Expected<Statement> find = database_.prepare(
                "SELECT m.id FROM main.sweeps m JOIN source.sweeps s ON s.key = m.key WHERE s.id = ?");
            if (!find) return find.error();
            find.value().bind(1, source_sweep);
            Expected<bool> found = find.value().step();
            if (!found) return found.error();
            std::int64_t sweep = 0;
            if (found.value()) {
                sweep = find.value().integer(0);
            } else {
                Expected<Statement> copy = database_.prepare(
                    "INSERT INTO main.sweeps (key, name, base_scenario_hash, point_count, core_version, created_at) "
                    "SELECT key, name, base_scenario_hash, point_count, core_version, created_at FROM source.sweeps "
                    "WHERE id = ?");
                if (!copy) return copy.error();
                copy.value().bind(1, source_sweep);
                if (auto error = copy.value().run()) return error;
                sweep = database_.last_insert_rowid();
                Expected<Statement> axes = database_.prepare(
                    "INSERT INTO main.sweep_axes (sweep_id, position, path, sweep_values, zipped_with_previous) "
                    "SELECT ?, position, path, sweep_values, zipped_with_previous FROM source.sweep_axes "
                    "WHERE sweep_id = ?");
                if (!axes) return axes.error();
                axes.value().bind(1, sweep).bind(2, source_sweep);
                if (auto error = axes.value().run()) return error;
                if (auto error = store::create_sweep_view(database_, sweep)) return error;
            }
            // Its points not here yet, each with its run and values.
            Expected<Statement> missing = database_.prepare(
                "SELECT point, run_id FROM source.sweep_points s WHERE s.sweep_id = ? AND NOT EXISTS "
                "(SELECT 1 FROM main.sweep_points m WHERE m.sweep_id = ? AND m.point = s.point) ORDER BY point");
            Expected<Statement> point_row =
                database_.prepare("INSERT INTO main.sweep_points (sweep_id, point, run_id) VALUES (?, ?, ?)");
            Expected<Statement> values = database_.prepare(
                "INSERT INTO main.sweep_point_values (sweep_id, point, position, value) "
                "SELECT ?, point, position, value FROM source.sweep_point_values WHERE sweep_id = ? AND point = ?");
            if (!missing) return missing.error();
            if (!point_row) return point_row.error();
            if (!values) return values.error();
            missing.value().bind(1, source_sweep).bind(2, sweep);
            for (;;) {
                Expected<bool> row = missing.value().step();
                if (!row) return row.error();
                if (!row.value()) break;
                const std::int64_t point = missing.value().integer(0);
                const Expected<std::int64_t> copied = copy_with_warnings(missing.value().integer(1));
                if (!copied) return copied.error();
                point_row.value().bind(1, sweep).bind(2, point).bind(3, copied.value());
                if (auto error = point_row.value().run()) return error;
                values.value().bind(1, sweep).bind(2, source_sweep).bind(3, point);
                if (auto error = values.value().run()) return error;
            }
        }
        return std::nullopt;
    });
    const auto detached = database_.execute("DETACH DATABASE source");
    if (problem) return problem;
    return detached;
}

}  // namespace parasight
