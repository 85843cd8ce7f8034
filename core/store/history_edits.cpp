// Keeping the results database's history: renaming a sweep, deleting a sweep or a single run (with what only they
// used), and finding the run of a scenario already stored, so that the window stores each scenario's run once.
#include "common/message_text.h"
#include "common/sha256.h"
#include "store/result_store.h"

namespace parasight {

using store::Statement;

namespace {

constexpr std::size_t longest_sweep_name = 200;

// Runs a statement with one integer parameter.
std::optional<std::string> run_with(store::Database& database, std::string_view sql, std::int64_t value) {
    Expected<Statement> statement = database.prepare(sql);
    if (!statement) return statement.error();
    statement.value().bind(1, value);
    return statement.value().run();
}

// Scenarios no run and no sweep names any more.
std::optional<std::string> drop_unused_scenarios(store::Database& database) {
    return database.execute("DELETE FROM scenarios WHERE hash NOT IN (SELECT scenario_hash FROM runs) AND "
                            "hash NOT IN (SELECT base_scenario_hash FROM sweeps)");
}

}  // namespace

std::optional<std::string> ResultStore::rename_sweep(std::int64_t id, const std::string& name) {
    if (name.empty()) return "a sweep's name is not empty";
    if (name.size() > longest_sweep_name) {
        return "a sweep's name is at most " + std::to_string(longest_sweep_name) + " bytes";
    }
    return store::in_transaction(database_, [&]() -> std::optional<std::string> {
        if (Expected<SweepSummary> exists = sweep(id); !exists) return exists.error();
        Expected<Statement> update = database_.prepare("UPDATE sweeps SET name = ? WHERE id = ?");
        if (!update) return update.error();
        update.value().bind(1, std::string_view(name)).bind(2, id);
        return update.value().run();
    });
}

std::optional<std::string> ResultStore::delete_sweep(std::int64_t id) {
    return store::in_transaction(database_, [&]() -> std::optional<std::string> {
        if (Expected<SweepSummary> exists = sweep(id); !exists) return exists.error();
        // Its points' runs (a run is one sweep's point, or a single run), their warnings, then the sweep itself.
        for (const std::string_view sql :
             {"DELETE FROM run_warnings WHERE run_id IN (SELECT run_id FROM sweep_points WHERE sweep_id = ?1)",
              "CREATE TEMP TABLE deleted_runs AS SELECT run_id FROM sweep_points WHERE sweep_id = ?1",
              "DELETE FROM sweep_point_values WHERE sweep_id = ?1", "DELETE FROM sweep_points WHERE sweep_id = ?1",
              "DELETE FROM runs WHERE id IN (SELECT run_id FROM temp.deleted_runs)",
              "DELETE FROM sweep_axes WHERE sweep_id = ?1", "DELETE FROM sweeps WHERE id = ?1"}) {
            if (auto problem = run_with(database_, sql, id)) return problem;
        }
        if (auto problem = database_.execute("DROP TABLE temp.deleted_runs")) return problem;
        if (auto problem = database_.execute("DROP VIEW IF EXISTS sweep_" + std::to_string(id))) return problem;
        return drop_unused_scenarios(database_);
    });
}

std::optional<std::string> ResultStore::delete_run(std::int64_t id) {
    return store::in_transaction(database_, [&]() -> std::optional<std::string> {
        Expected<Statement> find = database_.prepare(
            "SELECT r.id, p.sweep_id, p.point FROM runs r LEFT JOIN sweep_points p ON p.run_id = r.id WHERE r.id = ?");
        if (!find) return find.error();
        find.value().bind(1, id);
        Expected<bool> found = find.value().step();
        if (!found) return found.error();
        if (!found.value()) return "holds no run " + std::to_string(id);
        if (!find.value().is_null(1)) {
            return "run " + std::to_string(id) + " is point " + std::to_string(find.value().integer(2)) + " of sweep " +
                   std::to_string(find.value().integer(1)) + "; delete the sweep instead";
        }
        for (const std::string_view sql : {"DELETE FROM run_warnings WHERE run_id = ?", "DELETE FROM runs WHERE id = ?"}) {
            if (auto problem = run_with(database_, sql, id)) return problem;
        }
        return drop_unused_scenarios(database_);
    });
}

Expected<std::optional<std::int64_t>> ResultStore::stored_run_of(const std::string& scenario_yaml,
                                                                 const std::string& mode) {
    Expected<Statement> find = database_.prepare(
        "SELECT id FROM runs WHERE scenario_hash = ? AND core_version = ? AND mode IS ? AND "
        "id NOT IN (SELECT run_id FROM sweep_points) ORDER BY id DESC LIMIT 1");
    if (!find) return Error{find.error()};
    const std::string hash = sha256_hex(scenario_yaml);
    find.value().bind(1, std::string_view(hash)).bind(2, std::string_view(PARASIGHT_VERSION)).bind(3, std::string_view(mode));
    Expected<bool> found = find.value().step();
    if (!found) return Error{found.error()};
    if (!found.value()) return std::optional<std::int64_t>();
    return std::optional<std::int64_t>(find.value().integer(0));
}

}  // namespace parasight
