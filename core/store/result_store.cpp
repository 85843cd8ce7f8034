#include "store/result_store.h"

#include "common/number_text.h"
#include "common/sha256.h"
#include "export/json_writer.h"
#include "export/report_metrics.h"
#include "io/file_kind.h"
#include "store/run_warnings.h"
#include "store/schema_check.h"
#include "store/store_schema.h"
#include "store/sweep_views.h"

#include <sys/stat.h>

#include <array>
#include <ctime>
#include <fstream>

namespace parasight {

using store::Database;
using store::Statement;

namespace {

constexpr std::string_view sqlite_header{"SQLite format 3\0", 16};

// A file that exists and is not empty must start with SQLite's header; the reason when it does not.
std::optional<std::string> not_sqlite(const std::filesystem::path& path, std::uintmax_t size) {
    if (size == 0) return std::nullopt;
    std::ifstream in(path, std::ios::binary);
    std::string header(sqlite_header.size(), '\0');
    in.read(header.data(), static_cast<std::streamsize>(header.size()));
    if (!in && !in.eof()) return "cannot be read";
    if (static_cast<std::size_t>(in.gcount()) < header.size() || header != sqlite_header) {
        return "is not a SQLite database, so not a ParaSight results database; it is left as it is";
    }
    return std::nullopt;
}

// A value of a sweep axis with the type it is written in: an integer, a real, or text ("150 GB/s", "1f1b").
void bind_axis_value(Statement& statement, int index, const std::string& value) {
    if (const auto integer = parse_integer(value)) {
        statement.bind(index, static_cast<std::int64_t>(*integer));
    } else if (const auto real = parse_number(value)) {
        statement.bind(index, *real);
    } else {
        statement.bind(index, std::string_view(value));
    }
}

// Now, to the second, as ISO 8601 in UTC: "2026-11-23T10:04:05Z".
std::string utc_timestamp() {
    // The precise clock, as SQLite's 'now' reads it (time() may lag it by a tick): a run stored after a sweep is never
    // dated a second before it.
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm utc{};
    gmtime_r(&now, &utc);
    std::array<char, 32> text{};
    const std::size_t length = std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
    return {text.data(), length};
}

std::string json_array(const std::vector<std::string>& items) {
    JsonWriter json(false);
    json.begin_array();
    for (const std::string& item : items) json.value(item);
    json.end_array();
    return json.text();
}

}  // namespace

std::string sweep_key(const SweepRecord& sweep) {
    std::string text = sweep.base_yaml;
    text += '\0';
    for (const SweepAxis& axis : sweep.axes) {
        text += axis.path;
        text += '\0';
        for (const std::string& value : axis.values) {
            text += value;
            text += '\0';
        }
        text += axis.zipped_with_previous ? "&\n" : "\n";
    }
    text += PARASIGHT_VERSION;
    return sha256_hex(text);
}

Expected<ResultStore> ResultStore::open(const std::filesystem::path& path, Access access,
                                        std::chrono::milliseconds busy_timeout) {
    struct stat status {};
    const bool exists = ::stat(path.c_str(), &status) == 0;
    if (exists && !S_ISREG(status.st_mode)) {
        return Error{"is " + file_kind_text(status.st_mode) + ", not a results database"};
    }
    if (!exists && access == Access::read_only) return Error{"does not exist"};
    if (exists) {
        if (auto problem = not_sqlite(path, static_cast<std::uintmax_t>(status.st_size))) return Error{*problem};
    } else if (path.has_parent_path()) {
        std::error_code error;
        std::filesystem::create_directories(path.parent_path(), error);
        if (error) return Error{"cannot make its folder: " + error.message()};
    }

    const Database::Mode mode =
        access == Access::read_only ? Database::Mode::read_only : Database::Mode::read_write_create;
    Expected<Database> opened = Database::open(path, mode, static_cast<int>(busy_timeout.count()));
    if (!opened) return Error{opened.error()};
    ResultStore result(std::move(opened).value(), path);
    Database& database = result.database_;

    // Read-only questions first: nothing is written to a database that is not ours.
    const Expected<std::int64_t> tables = database.integer("SELECT count(*) FROM sqlite_schema");
    if (!tables) return Error{tables.error()};
    const Expected<std::int64_t> id = database.integer("PRAGMA application_id");
    if (!id) return Error{id.error()};
    const Expected<std::int64_t> version = database.integer("PRAGMA user_version");
    if (!version) return Error{version.error()};
    const bool empty = tables.value() == 0 && version.value() == 0;
    if (!empty && id.value() != store::application_id) {
        return Error{"is a SQLite database of another program (application_id " + std::to_string(id.value()) +
                     "), not a ParaSight results database; it is left as it is"};
    }
    const int current = store::current_schema_version();
    if (version.value() > current) {
        return Error{"was made by a newer ParaSight (schema version " + std::to_string(version.value()) +
                     "; this one knows up to " + std::to_string(current) +
                     "); it is left as it is: open it with that version, or choose another database"};
    }
    // Tables altered or dropped behind the version's back are found before anything is written.
    if (!empty && version.value() == current) {
        if (auto mismatch = store::schema_mismatch(database)) {
            return Error{"does not hold the tables a ParaSight results database of its version holds (" + *mismatch +
                         "); it is left as it is"};
        }
    }
    if (access == Access::read_only) {
        if (empty) return Error{"is empty: no results have been stored in it"};
        if (version.value() < current) {
            return Error{"was made by an older ParaSight (schema version " + std::to_string(version.value()) +
                         "); it is brought up to date when results are next stored in it (a sweep or a merge into "
                         "it)"};
        }
        return result;
    }
    if (!empty) {
        Expected<Statement> check = database.prepare("PRAGMA quick_check");
        if (!check) return Error{check.error()};
        Expected<bool> row = check.value().step();
        if (!row) return Error{row.error()};
        if (!row.value() || check.value().text(0) != "ok") {
            return Error{"is damaged (SQLite's quick check: " + check.value().text(0) + "); it is left as it is"};
        }
    }
    if (auto problem = database.execute("PRAGMA journal_mode = WAL")) return Error{*problem};
    if (auto problem = database.execute("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON")) {
        return Error{*problem};
    }
    if (auto problem = result.migrate()) return Error{*problem};
    return result;
}

std::optional<std::string> ResultStore::migrate() {
    const auto steps = store::migrations();
    // Every version still missing in one transaction: a new store is made in one commit (a commit a version cost a
    // third of a short sweep's time), and a store is either migrated to the current version or left as it was.
    return store::in_transaction(database_, [&]() -> std::optional<std::string> {
        // Read inside the transaction: another process may have migrated meanwhile.
        const Expected<std::int64_t> version = database_.integer("PRAGMA user_version");
        if (!version) return version.error();
        if (version.value() >= static_cast<std::int64_t>(steps.size())) return std::nullopt;
        for (auto from = static_cast<std::size_t>(version.value()); from < steps.size(); ++from) {
            for (const store::MigrationStep& step : steps[from]) {
                auto error = step.convert != nullptr ? step.convert(database_) : database_.execute(step.sql);
                if (error) return error;
            }
        }
        return database_.execute("PRAGMA application_id = " + std::to_string(store::application_id) +
                                 "; PRAGMA user_version = " + std::to_string(steps.size()));
    });
}

Expected<std::string> ResultStore::add_scenario(const std::string& name, const std::string& yaml) {
    std::string hash = sha256_hex(yaml);
    Expected<Statement*> insert =
        database_.reused("INSERT OR IGNORE INTO scenarios (hash, name, yaml) VALUES (?, ?, ?)");
    if (!insert) return Error{insert.error()};
    insert.value()->bind(1, std::string_view(hash)).bind(2, std::string_view(name)).bind(3, std::string_view(yaml));
    if (auto problem = insert.value()->run()) return Error{*problem};
    return hash;
}

Expected<std::int64_t> ResultStore::insert_run(const std::string& scenario_hash, PointStatus status,
                                               const std::string& reason, const Warning* cause, const Report* report,
                                               const MemoryEstimate* estimate) {
    static const std::string sql =
        "INSERT INTO runs (" + store::run_column_list() + ") VALUES (" + store::run_column_list(":") + ")";
    Expected<Statement*> prepared = database_.reused(sql);
    if (!prepared) return Error{prepared.error()};
    Statement& insert = *prepared.value();
    insert.bind("scenario_hash", std::string_view(scenario_hash));
    insert.bind("status", name_of(status, point_status_names));
    if (!reason.empty()) insert.bind("reason", std::string_view(reason));
    insert.bind("core_version", std::string_view(PARASIGHT_VERSION));
    insert.bind("created_at", std::string_view(utc_timestamp()));
    if (estimate != nullptr) {
        insert.bind("peak_memory_bytes", estimate->needed_bytes);
        insert.bind("memory_capacity_bytes", estimate->capacity_bytes);
    }
    if (report != nullptr) {
        insert.bind("mode", std::string_view(report->mode));
        for (const ReportMetric& metric : report_metrics(*report)) {
            if (metric.name == "devices") {
                insert.bind("devices", static_cast<std::int64_t>(report->devices));
            } else {
                insert.bind(metric.name, metric.value);
            }
        }
        if (report->out_of_memory) {
            insert.bind("oom_npu", static_cast<std::int64_t>(report->out_of_memory->npu));
            insert.bind("oom_tensor", std::string_view(report->out_of_memory->tensor));
        }
        insert.bind("events", static_cast<std::int64_t>(report->events));
        insert.bind("wall_s", report->wall_s);
    }
    if (auto problem = insert.run()) return Error{*problem};
    const std::int64_t run_id = database_.last_insert_rowid();
    if (cause != nullptr) {
        if (auto problem = store::insert_run_warning(database_, run_id, "reason", 0, *cause)) return Error{*problem};
    }
    if (report != nullptr) {
        for (std::size_t w = 0; w < report->warnings.size(); ++w) {
            if (auto problem = store::insert_run_warning(database_, run_id, "warning", static_cast<std::int64_t>(w),
                                                         report->warnings[w])) {
                return Error{*problem};
            }
        }
    }
    return run_id;
}

Expected<std::int64_t> ResultStore::add_run(const std::string& scenario_name, const std::string& scenario_yaml,
                                            const Report& report) {
    std::int64_t id = 0;
    auto problem = store::in_transaction(database_, [&]() -> std::optional<std::string> {
        Expected<std::string> hash = add_scenario(scenario_name, scenario_yaml);
        if (!hash) return hash.error();
        const PointStatus status = report.out_of_memory ? PointStatus::oom : PointStatus::ok;
        Expected<std::int64_t> run = insert_run(hash.value(), status, {}, nullptr, &report, nullptr);
        if (!run) return run.error();
        id = run.value();
        return std::nullopt;
    });
    if (problem) return Error{*problem};
    return id;
}

Expected<std::int64_t> ResultStore::open_sweep(const SweepRecord& sweep) {
    const std::string key = sweep_key(sweep);
    std::int64_t id = 0;
    auto problem = store::in_transaction(database_, [&]() -> std::optional<std::string> {
        Expected<Statement> find = database_.prepare("SELECT id FROM sweeps WHERE key = ?");
        if (!find) return find.error();
        find.value().bind(1, std::string_view(key));
        Expected<bool> found = find.value().step();
        if (!found) return found.error();
        if (found.value()) {
            id = find.value().integer(0);
            return std::nullopt;
        }
        Expected<std::string> base = add_scenario(sweep.name, sweep.base_yaml);
        if (!base) return base.error();
        Expected<Statement> insert = database_.prepare(
            "INSERT INTO sweeps (key, name, base_scenario_hash, point_count, core_version) VALUES (?, ?, ?, ?, ?)");
        if (!insert) return insert.error();
        insert.value()
            .bind(1, std::string_view(key))
            .bind(2, std::string_view(sweep.name))
            .bind(3, std::string_view(base.value()))
            .bind(4, static_cast<std::int64_t>(sweep.point_count))
            .bind(5, std::string_view(PARASIGHT_VERSION));
        if (auto error = insert.value().run()) return error;
        id = database_.last_insert_rowid();
        Expected<Statement> axis = database_.prepare(
            "INSERT INTO sweep_axes (sweep_id, position, path, sweep_values, zipped_with_previous) "
            "VALUES (?, ?, ?, ?, ?)");
        if (!axis) return axis.error();
        for (std::size_t position = 0; position < sweep.axes.size(); ++position) {
            axis.value()
                .bind(1, id)
                .bind(2, static_cast<std::int64_t>(position))
                .bind(3, std::string_view(sweep.axes[position].path))
                .bind(4, std::string_view(json_array(sweep.axes[position].values)))
                .bind(5, std::int64_t{sweep.axes[position].zipped_with_previous ? 1 : 0});
            if (auto error = axis.value().run()) return error;
        }
        return store::create_sweep_view(database_, id);
    });
    if (problem) return Error{*problem};
    return id;
}

Expected<std::vector<std::uint64_t>> ResultStore::stored_points(std::int64_t sweep_id) {
    Expected<Statement> select = database_.prepare("SELECT point FROM sweep_points WHERE sweep_id = ? ORDER BY point");
    if (!select) return Error{select.error()};
    select.value().bind(1, sweep_id);
    std::vector<std::uint64_t> points;
    const auto problem = select.value().each_row(
        [&](const Statement& row) { points.push_back(static_cast<std::uint64_t>(row.integer(0))); });
    if (problem) return Error{*problem};
    return points;
}

std::optional<std::string> ResultStore::add_points(std::int64_t sweep_id, std::span<const PointResult> points) {
    return store::in_transaction(database_, [&]() -> std::optional<std::string> {
        Expected<Statement> exists = database_.prepare("SELECT 1 FROM sweep_points WHERE sweep_id = ? AND point = ?");
        Expected<Statement> point_row =
            database_.prepare("INSERT INTO sweep_points (sweep_id, point, run_id) VALUES (?, ?, ?)");
        Expected<Statement> value_row = database_.prepare(
            "INSERT INTO sweep_point_values (sweep_id, point, position, value) VALUES (?, ?, ?, ?)");
        if (!exists) return exists.error();
        if (!point_row) return point_row.error();
        if (!value_row) return value_row.error();
        for (const PointResult& point : points) {
            exists.value().bind(1, sweep_id).bind(2, static_cast<std::int64_t>(point.point));
            Expected<bool> stored = exists.value().step();
            exists.value().reset();
            if (!stored) return stored.error();
            if (stored.value()) continue;
            Expected<std::string> hash = add_scenario(point.scenario_name, point.scenario_yaml);
            if (!hash) return hash.error();
            const Report* report = point.report ? &*point.report : nullptr;
            const MemoryEstimate* estimate = point.memory_estimate ? &*point.memory_estimate : nullptr;
            const Warning* cause = point.cause ? &*point.cause : nullptr;
            Expected<std::int64_t> run =
                insert_run(hash.value(), point.status, point.reason, cause, report, estimate);
            if (!run) return run.error();
            point_row.value().bind(1, sweep_id).bind(2, static_cast<std::int64_t>(point.point)).bind(3, run.value());
            if (auto error = point_row.value().run()) return error;
            for (std::size_t position = 0; position < point.values.size(); ++position) {
                value_row.value()
                    .bind(1, sweep_id)
                    .bind(2, static_cast<std::int64_t>(point.point))
                    .bind(3, static_cast<std::int64_t>(position));
                bind_axis_value(value_row.value(), 4, point.values[position].value);
                if (auto error = value_row.value().run()) return error;
            }
        }
        return std::nullopt;
    });
}

}  // namespace parasight
