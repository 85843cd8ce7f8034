#pragma once
// The results database: one SQLite file holding scenarios by content hash, the runs made of them (every Report metric
// a typed column), and sweeps with their points (docs/store.md). Any SQLite client reads it.
//
// Opening never changes a database that is not ours: a file that is not SQLite, a SQLite database of another
// program, one that fails SQLite's quick check, one made by a newer ParaSight, or one locked by another process is
// refused with a sentence saying which, before anything is written. Ours of an older schema is brought up to date by
// the migrations of store_schema.h, each in its own transaction. Writes go in transactions in WAL mode, so a process
// killed at any moment leaves a database that passes PRAGMA integrity_check and holds whole points only.

#include "analysis/report.h"
#include "common/expected.h"
#include "scenario_file/sweep_section.h"
#include "store/sqlite_database.h"
#include "sweep/point_result.h"
#include "sweep/sweep_axis.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <array>
#include <optional>
#include <variant>
#include <span>
#include <string>
#include <vector>

namespace parasight {

struct GridRequest;
struct SweepGrid;
struct SweepSlices;
struct SweepPareto;
struct GridMetric;

// A sweep as the store identifies it: the same base scenario, axes and core version make the same sweep, so running
// it again (or another shard of it) adds to the stored one.
struct SweepRecord {
    std::string name;
    std::string base_yaml;
    std::vector<SweepAxis> axes;
    std::uint64_t point_count = 0;
};

// The key of a sweep: SHA-256 over the base scenario, each axis's path and values, and the core version.
[[nodiscard]] std::string sweep_key(const SweepRecord& sweep);

struct SweepSummary {
    std::int64_t id = 0;
    std::string name;
    std::string created_at;
    std::string core_version;
    std::uint64_t point_count = 0;
    std::vector<std::string> axis_paths;
    std::vector<std::size_t> axis_value_counts;  // how many values each axis takes
    std::string base_scenario_hash;  // its base scenario (ResultStore::scenario_yaml)
    std::string key;                 // sweep_key of its record: what finds it again to resume it
    std::array<std::uint64_t, 5> stored_by_status{};  // points stored, by PointStatus
    [[nodiscard]] std::uint64_t stored() const noexcept;
};

// A stored scenario: its name and its YAML, as it ran.
struct StoredScenario {
    std::string name;
    std::string yaml;
};

struct RunSummary {
    std::int64_t id = 0;
    std::string scenario_name;
    std::string status;
    std::string created_at;
    std::optional<double> iteration_time_s;
};

// Rows as they are read: the column names once, then each row's values.
class RowVisitor {
public:
    virtual ~RowVisitor() = default;
    virtual void columns(const std::vector<std::string>& names) = 0;
    virtual void row(const std::vector<StoredValue>& values) = 0;

protected:
    // A visitor that holds what it read may be moved as itself, never sliced through this interface.
    RowVisitor() = default;
    RowVisitor(const RowVisitor&) = default;
    RowVisitor(RowVisitor&&) = default;
    RowVisitor& operator=(const RowVisitor&) = default;
    RowVisitor& operator=(RowVisitor&&) = default;
};

class ResultStore {
public:
    enum class Access { read_only, read_write };

    // read_only: the file must exist and be of this schema version. read_write: made (with its folders) when
    // missing, migrated when older. A database another process is writing is waited on up to `busy_timeout`. The
    // error is a sentence without the path.
    [[nodiscard]] static Expected<ResultStore> open(const std::filesystem::path& path, Access access,
                                                    std::chrono::milliseconds busy_timeout = std::chrono::seconds(10));

    // The stored sweep with `sweep`'s key, or a new one (with its view sweep_<id>): its id.
    [[nodiscard]] Expected<std::int64_t> open_sweep(const SweepRecord& sweep);
    // The points of a sweep already stored, in increasing order.
    [[nodiscard]] Expected<std::vector<std::uint64_t>> stored_points(std::int64_t sweep_id);
    // Stores the points in one transaction; a point already stored keeps what it has (a re-run never duplicates).
    [[nodiscard]] std::optional<std::string> add_points(std::int64_t sweep_id, std::span<const PointResult> points);
    // One run outside any sweep (parasight-cli simulate --db): its id.
    [[nodiscard]] Expected<std::int64_t> add_run(const std::string& scenario_name, const std::string& scenario_yaml,
                                                 const Report& report);
    // Adds what `other` (a results database, opened read-only and never changed) holds and this one does not:
    // scenarios by hash, sweeps by key, points by number, single runs not already here. Merging twice adds nothing.
    [[nodiscard]] std::optional<std::string> merge_from(const std::filesystem::path& other);
    // Why `other` cannot be merged (not a results database of this version, damaged, locked), or nothing: what
    // merge_from checks first, for a front end to check every input before it makes or changes the output.
    [[nodiscard]] static std::optional<std::string> check_mergeable(const std::filesystem::path& other);

    [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }

    // Keeping the history (history_edits.cpp). A sweep's new name: not empty, at most 200 bytes.
    [[nodiscard]] std::optional<std::string> rename_sweep(std::int64_t id, const std::string& name);
    // A sweep with its points, their runs and warnings, its view, and the scenarios nothing else names.
    [[nodiscard]] std::optional<std::string> delete_sweep(std::int64_t id);
    // A single run with its warnings; a sweep's point is refused (the sweep is deleted whole).
    [[nodiscard]] std::optional<std::string> delete_run(std::int64_t id);
    // The newest single run of exactly this scenario YAML in this mode ("representative", "all-devices") by this
    // core version, if one is stored: the window stores a scenario's run once.
    [[nodiscard]] Expected<std::optional<std::int64_t>> stored_run_of(const std::string& scenario_yaml,
                                                                      const std::string& mode);

    // Reading (store_queries.cpp).
    [[nodiscard]] Expected<std::vector<SweepSummary>> sweeps();
    [[nodiscard]] Expected<SweepSummary> sweep(std::int64_t id);
    // Runs that belong to no sweep, oldest first.
    [[nodiscard]] Expected<std::vector<RunSummary>> single_runs();
    // Every point of a sweep (its view sweep_<id>) in point order; `where`, `order` and `limit` narrow it (SQL
    // over the view's columns, made by the caller from known column names, never from user text).
    [[nodiscard]] std::optional<std::string> read_sweep(std::int64_t id, RowVisitor& visitor,
                                                        const std::string& where = {}, const std::string& order = {},
                                                        std::int64_t limit = -1, std::int64_t offset = 0);
    // How many points of a sweep `where` (as read_sweep's) lets through.
    [[nodiscard]] Expected<std::int64_t> count_sweep_points(std::int64_t id, const std::string& where = {});
    // One run with its scenario's name: every column of runs.
    [[nodiscard]] std::optional<std::string> read_run(std::int64_t id, RowVisitor& visitor);
    // The YAML of the scenario stored under `hash` (a run's scenario_hash).
    [[nodiscard]] Expected<std::string> scenario_yaml(const std::string& hash);
    // The scenario of a sweep's point, as it ran (an invalid point's as it was written, problems and all).
    [[nodiscard]] Expected<StoredScenario> point_scenario(std::int64_t sweep_id, std::uint64_t point);
    // The run a sweep's point is stored as (to compare it with another run); the error names a point not held.
    [[nodiscard]] Expected<std::int64_t> point_run(std::int64_t sweep_id, std::uint64_t point);
    // The scenario of a run, as it ran.
    [[nodiscard]] Expected<StoredScenario> run_scenario(std::int64_t run_id);
    // A sweep's axes as a scenario file's `sweep:` section (scenario_file/sweep_section.h): its values as written,
    // zipped axes in one entry — what runs the same sweep again on its base scenario.
    [[nodiscard]] Expected<SweepSection> sweep_section(std::int64_t id);
    // A sweep seen from its best point by `metric` among those `where` lets through: the metric along each axis with
    // the others held at the best point's values (sweep_slices.cpp, store/sweep_slices.h).
    [[nodiscard]] Expected<SweepSlices> sweep_slices(std::int64_t sweep_id, const GridMetric& metric,
                                                     const std::string& where = {});
    // A sweep's cost against its result for every point that ran and fits, with the Pareto front (sweep_pareto.cpp,
    // store/sweep_pareto.h), among the points `where` lets through.
    [[nodiscard]] Expected<SweepPareto> sweep_pareto(std::int64_t sweep_id, const GridMetric& cost,
                                                     const GridMetric& result, const std::string& where = {});
    // A sweep as a heatmap's grid (sweep_grid.cpp, store/sweep_grid.h); the error names an axis the sweep lacks.
    [[nodiscard]] Expected<SweepGrid> sweep_grid(const GridRequest& request);

private:
    ResultStore(store::Database database, std::filesystem::path path)
        : database_(std::move(database)), path_(std::move(path)) {}

    [[nodiscard]] std::optional<std::string> migrate();
    [[nodiscard]] Expected<std::string> add_scenario(const std::string& name, const std::string& yaml);
    [[nodiscard]] Expected<std::int64_t> insert_run(const std::string& scenario_hash, PointStatus status,
                                                    const std::string& reason, const Warning* cause,
                                                    const Report* report, const MemoryEstimate* estimate);

    store::Database database_;
    std::filesystem::path path_;
};

}  // namespace parasight
