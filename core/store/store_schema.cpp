#include "store/store_schema.h"

#include "store/sweep_views.h"
#include "store/warning_codes_migration.h"

#include <array>

namespace parasight::store {
namespace {

// Version 1: scenarios by content hash and the runs made of them, each Report metric a typed column.
constexpr std::string_view scenarios_and_runs = R"sql(
CREATE TABLE scenarios (
    hash TEXT PRIMARY KEY,      -- SHA-256 of yaml, as sha256sum prints it
    name TEXT NOT NULL,
    yaml TEXT NOT NULL
);
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    scenario_hash TEXT NOT NULL REFERENCES scenarios(hash),
    status TEXT NOT NULL CHECK (status IN ('ok', 'oom', 'oom_estimated', 'invalid', 'failed')),
    reason TEXT,
    core_version TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    mode TEXT,
    iteration_time_s REAL,
    samples_per_s REAL,
    tokens_per_s REAL,
    devices INTEGER,
    model_flops_per_iteration REAL,
    hardware_flops_per_iteration REAL,
    model_tflops_per_device REAL,
    mfu REAL,
    hfu REAL,
    compute_s REAL,
    exposed_tp_s REAL,
    exposed_cp_s REAL,
    exposed_ep_s REAL,
    exposed_pp_s REAL,
    exposed_dp_s REAL,
    exposed_memory_s REAL,
    bubble_s REAL,
    idle_s REAL,
    peak_memory_bytes REAL,
    memory_capacity_bytes REAL,
    weights_bytes REAL,
    gradients_bytes REAL,
    optimizer_bytes REAL,
    activations_bytes REAL,
    buffers_bytes REAL,
    oom_npu INTEGER,
    oom_tensor TEXT,
    events INTEGER,
    wall_s REAL,
    warnings TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX runs_by_scenario ON runs(scenario_hash);
)sql";

// Version 2: sweeps, their axes and their points, each point's axis values typed as written (an integer, a real, or
// text such as "150 GB/s"). A view per sweep (sweep_<id>) puts the values beside the run's metrics.
constexpr std::string_view sweeps = R"sql(
CREATE TABLE sweeps (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,   -- SHA-256 of the base scenario, the axes and the core version
    name TEXT NOT NULL,
    base_scenario_hash TEXT NOT NULL REFERENCES scenarios(hash),
    point_count INTEGER NOT NULL,
    core_version TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE TABLE sweep_axes (
    sweep_id INTEGER NOT NULL REFERENCES sweeps(id),
    position INTEGER NOT NULL,
    path TEXT NOT NULL,
    sweep_values TEXT NOT NULL,  -- JSON array of the values, as written
    zipped_with_previous INTEGER NOT NULL DEFAULT 0,  -- 1: takes its values in step with the axis before it
    PRIMARY KEY (sweep_id, position)
);
CREATE TABLE sweep_points (
    sweep_id INTEGER NOT NULL REFERENCES sweeps(id),
    point INTEGER NOT NULL,
    run_id INTEGER NOT NULL REFERENCES runs(id),
    PRIMARY KEY (sweep_id, point)
);
CREATE TABLE sweep_point_values (
    sweep_id INTEGER NOT NULL,
    point INTEGER NOT NULL,
    position INTEGER NOT NULL,
    value,
    PRIMARY KEY (sweep_id, point, position),
    FOREIGN KEY (sweep_id, point) REFERENCES sweep_points(sweep_id, point)
);
)sql";

// Version 3: a run's warnings, and why a sweep's point ran out of memory, as codes and parameters (common/warning.h)
// instead of sentences; run_warnings.role says which: the `reason` for the run's status, or one of its `warning`s.
constexpr std::string_view warning_table = R"sql(
CREATE TABLE run_warnings (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    role TEXT NOT NULL CHECK (role IN ('reason', 'warning')),
    position INTEGER NOT NULL,   -- the warning's place among the run's, from 0
    code TEXT NOT NULL,          -- common/warning.h: in_flight_capped, out_of_memory, …
    subject TEXT,                -- a strategy-tree node ("stage[1]"), a device ("NPU 3"), a what-if rule
    micro_batches INTEGER,
    requested_micro_batches INTEGER,
    operation TEXT,
    layers INTEGER,
    first_layer INTEGER,
    npu INTEGER,
    needed_bytes REAL,
    capacity_bytes REAL,
    tensor TEXT,
    time_s REAL,
    stage INTEGER,
    model_state_bytes REAL,
    activation_bytes REAL,
    PRIMARY KEY (run_id, role, position)
);
)sql";
// The sweep views name runs.warnings; they are dropped before it and made again after, listing the codes.
constexpr std::string_view drop_warning_sentences = "ALTER TABLE runs DROP COLUMN warnings;";

// Version 4: exposed memory split in two: what was exposed_memory_s (transfers beyond the device) is
// exposed_remote_memory_s, and exposed_local_memory_s is the memory-bound share of the computations, which earlier
// runs counted in compute_s (NULL for them). The sweep views list the run's columns, so they are made again.
constexpr std::string_view split_exposed_memory = R"sql(
ALTER TABLE runs RENAME COLUMN exposed_memory_s TO exposed_remote_memory_s;
ALTER TABLE runs ADD COLUMN exposed_local_memory_s REAL;
)sql";

// Version 5: the runtime's own memory (the CUDA context, cluster.device.context_memory) is a memory category of its
// own, on the peak device at its peak, and a part of the memory bound a warning names (NULL for earlier runs and
// warnings, which did not count it); warnings of layers the host's kernel launches bound give the GPU's own time.
constexpr std::string_view add_runtime_memory = R"sql(
ALTER TABLE runs ADD COLUMN runtime_bytes REAL;
ALTER TABLE run_warnings ADD COLUMN runtime_bytes REAL;
ALTER TABLE run_warnings ADD COLUMN gpu_time_s REAL;
)sql";

constexpr std::array<MigrationStep, 1> version_1{{{scenarios_and_runs}}};
constexpr std::array<MigrationStep, 1> version_2{{{sweeps}}};
constexpr std::array<MigrationStep, 5> version_3{{{warning_table},
                                                  {{}, convert_warning_sentences},
                                                  {{}, drop_sweep_views},
                                                  {drop_warning_sentences},
                                                  {{}, create_sweep_views}}};
constexpr std::array<MigrationStep, 3> version_4{{{{}, drop_sweep_views}, {split_exposed_memory}, {{}, create_sweep_views}}};
constexpr std::array<MigrationStep, 3> version_5{{{{}, drop_sweep_views}, {add_runtime_memory}, {{}, create_sweep_views}}};
constexpr std::array<Migration, 5> all_migrations{Migration{version_1}, Migration{version_2}, Migration{version_3},
                                                  Migration{version_4}, Migration{version_5}};

constexpr std::array<std::string_view, 37> run_column_names{
    "scenario_hash", "status", "reason", "core_version", "created_at", "mode", "iteration_time_s", "samples_per_s",
    "tokens_per_s", "devices", "model_flops_per_iteration", "hardware_flops_per_iteration",
    "model_tflops_per_device", "mfu", "hfu", "compute_s", "exposed_local_memory_s", "exposed_tp_s", "exposed_cp_s",
    "exposed_ep_s", "exposed_pp_s", "exposed_dp_s", "exposed_remote_memory_s", "bubble_s", "idle_s", "peak_memory_bytes",
    "memory_capacity_bytes", "weights_bytes", "gradients_bytes", "optimizer_bytes", "activations_bytes",
    "buffers_bytes", "runtime_bytes", "oom_npu", "oom_tensor", "events", "wall_s"};

}  // namespace

std::span<const std::string_view> run_columns() noexcept { return run_column_names; }

std::string run_column_list(std::string_view prefix) {
    std::string text;
    for (const std::string_view name : run_column_names) {
        if (!text.empty()) text += ", ";
        text += prefix;
        text += name;
    }
    return text;
}

std::span<const Migration> migrations() noexcept { return all_migrations; }

int current_schema_version() noexcept { return static_cast<int>(all_migrations.size()); }

}  // namespace parasight::store
