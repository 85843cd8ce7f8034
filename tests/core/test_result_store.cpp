// The results database (store/result_store.h), read back with the SQLite C library as any other client would: typed
// columns, scenarios by SHA-256, sweeps with their axis values and a view per sweep, re-adding without duplicates,
// migration from schema version 1, merging, and every database that is not ours — or damaged, newer or locked —
// refused and left byte for byte as it was.

#include "common/sha256.h"
#include "export/warning_text.h"
#include "store/result_store.h"
#include "store/store_schema.h"
#include "store/stored_table.h"

#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

#include <fstream>
#include <sstream>

using namespace parasight;

namespace {

// A plain SQLite connection, as sqlite3, pandas or DuckDB would open the file.
class Client {
public:
    explicit Client(const std::string& path, int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) {
        sqlite3_open_v2(path.c_str(), &handle_, flags, nullptr);
    }
    ~Client() { sqlite3_close_v2(handle_); }
    Client(const Client&) = delete;
    Client& operator=(const Client&) = delete;

    // Every row of `sql`, each column as text (NULL as "NULL"), columns joined by '|'.
    std::vector<std::string> rows(const std::string& sql) {
        std::vector<std::string> result;
        sqlite3_stmt* statement = nullptr;
        if (sqlite3_prepare_v2(handle_, sql.c_str(), -1, &statement, nullptr) != SQLITE_OK) {
            result.push_back(std::string("error: ") + sqlite3_errmsg(handle_));
            return result;
        }
        while (sqlite3_step(statement) == SQLITE_ROW) {
            std::string row;
            for (int c = 0; c < sqlite3_column_count(statement); ++c) {
                if (c > 0) row += '|';
                const auto* text = sqlite3_column_text(statement, c);
                row += text != nullptr ? reinterpret_cast<const char*>(text) : "NULL";
            }
            result.push_back(row);
        }
        sqlite3_finalize(statement);
        return result;
    }
    std::string one(const std::string& sql) {
        const auto all = rows(sql);
        return all.empty() ? std::string("(no row)") : all.front();
    }
    bool execute(const std::string& sql) { return sqlite3_exec(handle_, sql.c_str(), nullptr, nullptr, nullptr) == 0; }
    sqlite3* handle() const { return handle_; }

private:
    sqlite3* handle_ = nullptr;
};

std::string file_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

// A Report with a distinct number in every field, so that a column filled from the wrong field shows.
Report numbered_report() {
    Report report;
    report.iteration_time_s = 1.5;
    report.samples_per_s = 10.25;
    report.tokens_per_s = 20992.0;
    report.devices = 8;
    report.model_flops_per_iteration = 3e15;
    report.hardware_flops_per_iteration = 4e15;
    report.model_tflops_per_device = 250.0;
    report.mfu = 0.5;
    report.hfu = 0.625;
    report.breakdown.compute_s = 1.0;
    report.breakdown.exposed_local_memory_s = 0.125;
    report.breakdown.exposed_comm_s = {0.01, 0.02, 0.03, 0.04, 0.05};
    report.breakdown.exposed_remote_memory_s = 0.0625;
    report.breakdown.bubble_s = 0.25;
    report.breakdown.idle_s = 0.1;
    report.peak_memory_bytes = 7e10;
    report.memory_capacity_bytes = 8e10;
    report.memory_by_category_bytes = {1e10, 2e10, 3e10, 0.4e10, 0.5e10, 0.1e10};
    report.events = 12345;
    report.wall_s = 0.002;
    report.mode = "representative";
    Warning warning;
    warning.code = WarningCode::implausible_iteration_time;
    warning.time_s = 4e7;
    report.warnings.push_back(warning);
    return report;
}

SweepRecord two_axis_sweep() {
    SweepRecord sweep;
    sweep.name = "small";
    sweep.base_yaml = "schema: 1\nname: small\n";
    sweep.axes = {{"parallelism.tp", {"1", "2"}}, {"cluster.topology[1].bandwidth", {"100 GB/s", "200 GB/s"}}};
    sweep.point_count = 4;
    return sweep;
}

PointResult point_result(std::uint64_t point, PointStatus status) {
    const std::vector<std::string> tp{"1", "2"};
    const std::vector<std::string> bandwidth{"100 GB/s", "200 GB/s"};
    PointResult result;
    result.point = point;
    result.values = {{"parallelism.tp", tp[point / 2]}, {"cluster.topology[1].bandwidth", bandwidth[point % 2]}};
    result.scenario_name = "small";
    result.scenario_yaml = "schema: 1\nname: small\n# point " + std::to_string(point) + "\n";
    result.status = status;
    if (status == PointStatus::ok) result.report = numbered_report();
    if (status == PointStatus::invalid) result.reason = "parallelism.tp: must divide heads";
    if (status == PointStatus::oom_estimated) {
        result.memory_estimate = MemoryEstimate{9e10, 8e10};
        Warning cause;
        cause.code = WarningCode::memory_bound_exceeded;
        cause.subject = "stage[0]";
        cause.needed_bytes = 9e10;
        cause.model_state_bytes = 9e10;
        cause.capacity_bytes = 8e10;
        result.cause = cause;
    }
    return result;
}

}  // namespace

class TestResultStore : public QObject {
    Q_OBJECT
private slots:
    void sha256MatchesTheStandardsVectors();
    void runsAreTypedColumnsAnyClientReads();
    void sweepsKeepTheirPointsOnceWithTypedAxisValues();
    void aSweepIsFoundAgainByItsKey();
    void anOlderSchemaIsMigratedAndItsRunsKept();
    void version2SentencesBecomeCodesAndReadTheSame();
    void version3ExposedMemoryBecomesRemoteMemory();
    void version4RunsGainRuntimeMemory();
    void hostBoundLayersKeepTheirTimes();
    void aSentenceNotRecognisedLeavesTheDatabaseAsItWas();
    void mergingAddsWhatIsMissingOnce();
    void databasesThatAreNotOursAreLeftUntouched_data();
    void databasesThatAreNotOursAreLeftUntouched();
    void aLockedDatabaseSaysSo();
    void theHistoryIsKept();
    void aSweepWritesItsSection();
};

void TestResultStore::sha256MatchesTheStandardsVectors() {
    // FIPS 180-4 examples (NIST's SHA256.pdf): one block, two blocks (56 bytes leave no room for the length), and a
    // million 'a'; the empty string as sha256sum prints it.
    QCOMPARE(sha256_hex(""), std::string("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
    QCOMPARE(sha256_hex("abc"), std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
    QCOMPARE(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
             std::string("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
    QCOMPARE(sha256_hex(std::string(1'000'000, 'a')),
             std::string("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"));
}

void TestResultStore::runsAreTypedColumnsAnyClientReads() {
    QTemporaryDir folder;
    const std::string path = folder.filePath("nested/folder/results.db").toStdString();
    {
        Expected<ResultStore> store = ResultStore::open(path, ResultStore::Access::read_write);
        QVERIFY2(store, store ? "" : store.error().c_str());
        const Expected<std::int64_t> run = store.value().add_run("small", "schema: 1\n", numbered_report());
        QVERIFY(run);
        QCOMPARE(run.value(), std::int64_t{1});
    }
    Client client(path);
    QCOMPARE(client.one("PRAGMA application_id"), std::string("1347643252"));  // 0x50536774, "PSgt"
    QCOMPARE(client.one("PRAGMA user_version"), std::to_string(store::current_schema_version()));
    QCOMPARE(client.one("PRAGMA journal_mode"), std::string("wal"));
    QCOMPARE(client.one("PRAGMA integrity_check"), std::string("ok"));
    // The scenario under its SHA-256, which sha256sum would print for the same bytes.
    QCOMPARE(client.one("SELECT hash, name, yaml FROM scenarios"), sha256_hex("schema: 1\n") + "|small|schema: 1\n");
    QCOMPARE(client.one("SELECT status, reason, core_version, mode FROM runs"),
             std::string("ok|NULL|" PARASIGHT_VERSION "|representative"));
    QCOMPARE(client.one("SELECT iteration_time_s, samples_per_s, tokens_per_s, devices, mfu, hfu, compute_s, "
                        "exposed_local_memory_s, exposed_tp_s, exposed_cp_s, exposed_ep_s, exposed_pp_s, exposed_dp_s, "
                        "exposed_remote_memory_s, bubble_s, idle_s, events FROM runs"),
             std::string("1.5|10.25|20992.0|8|0.5|0.625|1.0|0.125|0.01|0.02|0.03|0.04|0.05|0.0625|0.25|0.1|12345"));
    QCOMPARE(client.one("SELECT peak_memory_bytes, memory_capacity_bytes, weights_bytes, gradients_bytes, "
                        "optimizer_bytes, activations_bytes, buffers_bytes, runtime_bytes, oom_npu FROM runs"),
             std::string("70000000000.0|80000000000.0|10000000000.0|20000000000.0|30000000000.0|4000000000.0|"
                         "5000000000.0|1000000000.0|NULL"));
    // Types as stored, which pandas and DuckDB map to float64 and int64.
    QCOMPARE(client.one("SELECT typeof(iteration_time_s), typeof(devices), typeof(events), typeof(mfu) FROM runs"),
             std::string("real|integer|integer|real"));
    // Each warning as a row of its code and parameters, no sentence: a query filters on them.
    QCOMPARE(client.rows("SELECT run_id, role, position, code, subject, time_s, npu FROM run_warnings"),
             (std::vector<std::string>{"1|warning|0|implausible_iteration_time|NULL|40000000.0|NULL"}));
    // A reader gets them worded (export/warning_text.h), a JSON array in the column warnings.
    {
        Expected<ResultStore> store = ResultStore::open(path, ResultStore::Access::read_only);
        QVERIFY(store);
        struct Warnings final : RowVisitor {
            std::string text;
            int column = -1;
            void columns(const std::vector<std::string>& names) override {
                for (std::size_t c = 0; c < names.size(); ++c) column = names[c] == "warnings" ? int(c) : column;
            }
            void row(const std::vector<StoredValue>& values) override {
                text = std::get<std::string>(values[std::size_t(column)]);
            }
        } read;
        QVERIFY(!store.value().read_run(1, read));
        // 4e7 s / (365.25 · 86400 s) = 1.27 years.
        QCOMPARE(read.text, std::string("[\"one iteration takes 1.3 years (40000000 s): check the units of the link "
                                        "bandwidths and measured operation times\"]"));
    }
    QVERIFY(client.one("SELECT created_at FROM runs").size() == 20);  // 2026-11-23T10:04:05Z
}

void TestResultStore::sweepsKeepTheirPointsOnceWithTypedAxisValues() {
    QTemporaryDir folder;
    const std::string path = folder.filePath("results.db").toStdString();
    {
        Expected<ResultStore> store = ResultStore::open(path, ResultStore::Access::read_write);
        QVERIFY(store);
        const Expected<std::int64_t> sweep = store.value().open_sweep(two_axis_sweep());
        QVERIFY(sweep);
        const std::vector<PointResult> first{point_result(0, PointStatus::ok), point_result(3, PointStatus::invalid)};
        QVERIFY(!store.value().add_points(sweep.value(), first));
        // Point 3 again (a re-run), with point 1 and 2 new: 3 keeps what it had.
        std::vector<PointResult> second{point_result(1, PointStatus::oom_estimated), point_result(3, PointStatus::ok),
                                        point_result(2, PointStatus::ok)};
        QVERIFY(!store.value().add_points(sweep.value(), second));
        const Expected<std::vector<std::uint64_t>> stored = store.value().stored_points(sweep.value());
        QVERIFY(stored);
        QCOMPARE(stored.value(), (std::vector<std::uint64_t>{0, 1, 2, 3}));
    }
    Client client(path);
    QCOMPARE(client.one("SELECT count(*) FROM sweep_points"), std::string("4"));
    QCOMPARE(client.one("SELECT count(*) FROM runs"), std::string("4"));
    QCOMPARE(client.one("SELECT count(*) FROM scenarios"), std::string("5"));  // the base and four points
    QCOMPARE(client.one("SELECT name, point_count, core_version FROM sweeps"),
             std::string("small|4|" PARASIGHT_VERSION));
    QCOMPARE(client.rows("SELECT position, path, sweep_values FROM sweep_axes ORDER BY position"),
             (std::vector<std::string>{"0|parallelism.tp|[\"1\",\"2\"]",
                                       "1|cluster.topology[1].bandwidth|[\"100 GB/s\",\"200 GB/s\"]"}));
    // The view: one row per point, each axis a column named by its path, typed as written; the warnings' codes.
    QCOMPARE(client.rows("SELECT point, \"parallelism.tp\", typeof(\"parallelism.tp\"), "
                         "\"cluster.topology[1].bandwidth\", status, reason, iteration_time_s, peak_memory_bytes, "
                         "warnings FROM sweep_1 ORDER BY point"),
             (std::vector<std::string>{"0|1|integer|100 GB/s|ok|NULL|1.5|70000000000.0|[\"implausible_iteration_time\"]",
                                       "1|1|integer|200 GB/s|oom_estimated|NULL|NULL|90000000000.0|[]",
                                       "2|2|integer|100 GB/s|ok|NULL|1.5|70000000000.0|[\"implausible_iteration_time\"]",
                                       "3|2|integer|200 GB/s|invalid|parallelism.tp: must divide heads|NULL|NULL|[]"}));
    // Why point 1 was not simulated: its reason row, filterable by code and numbers.
    QCOMPARE(client.rows("SELECT p.point, w.code, w.subject, w.stage, w.needed_bytes, w.capacity_bytes, "
                         "w.activation_bytes FROM run_warnings w JOIN sweep_points p ON p.run_id = w.run_id "
                         "WHERE w.role = 'reason' AND w.needed_bytes > w.capacity_bytes"),
             (std::vector<std::string>{"1|memory_bound_exceeded|stage[0]|0|90000000000.0|80000000000.0|0.0"}));
}

void TestResultStore::aSweepIsFoundAgainByItsKey() {
    QTemporaryDir folder;
    const std::string path = folder.filePath("results.db").toStdString();
    Expected<ResultStore> store = ResultStore::open(path, ResultStore::Access::read_write);
    QVERIFY(store);
    const SweepRecord sweep = two_axis_sweep();
    const Expected<std::int64_t> first = store.value().open_sweep(sweep);
    const Expected<std::int64_t> again = store.value().open_sweep(sweep);
    QVERIFY(first && again);
    QCOMPARE(again.value(), first.value());
    // Another value on an axis, another base scenario: other sweeps.
    SweepRecord other_values = sweep;
    other_values.axes[1].values.push_back("400 GB/s");
    SweepRecord other_base = sweep;
    other_base.base_yaml += "# edited\n";
    QVERIFY(sweep_key(other_values) != sweep_key(sweep));
    QVERIFY(sweep_key(other_base) != sweep_key(sweep));
    const Expected<std::int64_t> third = store.value().open_sweep(other_values);
    QVERIFY(third);
    QCOMPARE(third.value(), first.value() + 1);
}

namespace {

// Opens the database at `path` for writing, which brings an older one up to date, and stores point 0 of
// two_axis_sweep() in it.
void store_one_sweep_point(const std::string& path) {
    Expected<ResultStore> store = ResultStore::open(path, ResultStore::Access::read_write);
    QVERIFY2(store, store ? "" : store.error().c_str());
    const Expected<std::int64_t> sweep = store.value().open_sweep(two_axis_sweep());
    QVERIFY(sweep);
    QVERIFY(!store.value().add_points(sweep.value(), std::vector<PointResult>{point_result(0, PointStatus::ok)}));
}

}  // namespace

void TestResultStore::anOlderSchemaIsMigratedAndItsRunsKept() {
    QTemporaryDir folder;
    const std::string path = folder.filePath("version1.db").toStdString();
    {
        // A database as ParaSight's schema version 1 made it: scenarios and runs, no sweeps yet.
        Client client(path);
        QVERIFY(client.execute(std::string(store::migrations()[0][0].sql)));
        QVERIFY(client.execute("PRAGMA application_id = " + std::to_string(store::application_id) +
                               "; PRAGMA user_version = 1"));
        QVERIFY(client.execute("INSERT INTO scenarios VALUES ('abc', 'old', 'schema: 1\n');"
                               "INSERT INTO runs (scenario_hash, status, core_version, iteration_time_s) "
                               "VALUES ('abc', 'ok', '0.0.9', 2.5)"));
    }
    // Read-only, it is not changed: the reader is told how it gets brought up to date.
    const Expected<ResultStore> reader = ResultStore::open(path, ResultStore::Access::read_only);
    QVERIFY(!reader);
    QVERIFY2(reader.error().find("older ParaSight (schema version 1)") != std::string::npos, reader.error().c_str());
    store_one_sweep_point(path);
    if (QTest::currentTestFailed()) return;
    Client client(path);
    QCOMPARE(client.one("PRAGMA user_version"), std::to_string(store::current_schema_version()));
    QCOMPARE(client.rows("SELECT id, core_version, iteration_time_s FROM runs ORDER BY id"),
             (std::vector<std::string>{"1|0.0.9|2.5", "2|" PARASIGHT_VERSION "|1.5"}));
    QCOMPARE(client.one("PRAGMA integrity_check"), std::string("ok"));
}

namespace {

Warning warning_of(WarningCode code) {
    Warning warning;
    warning.code = code;
    return warning;
}

// One warning of every code, each field its code has set to a number that words exactly (4 significant digits).
std::vector<Warning> one_of_each_warning() {
    Warning capped = warning_of(WarningCode::in_flight_capped);
    capped.subject = "stage[2]";
    capped.micro_batches = 3;
    Warning frees = warning_of(WarningCode::recomputation_frees_nothing);
    frees.subject = "layer[5].mlp.activation";
    frees.operation = "mlp.activation";
    frees.layers = 2;
    frees.first_layer = 5;
    Warning memory = warning_of(WarningCode::out_of_memory);
    memory.subject = "NPU 12";
    memory.npu = 12;
    memory.needed_bytes = 22.8 * 1024 * 1024 * 1024;
    memory.capacity_bytes = 22.49 * 1024 * 1024 * 1024;
    memory.tensor = "activations allocated by attention, layer 9, micro-batch 1";
    memory.time_s = 0.1766;
    Warning no_effect = warning_of(WarningCode::in_flight_cap_without_effect);
    no_effect.subject = "stage[0]";
    no_effect.requested_micro_batches = 4;
    no_effect.micro_batches = 2;
    Warning implausible = warning_of(WarningCode::implausible_iteration_time);
    implausible.time_s = 4e7;
    Warning nothing = warning_of(WarningCode::what_if_matches_nothing);
    nothing.subject = "what_if.collective_delays[1]";
    Warning bound = warning_of(WarningCode::memory_bound_exceeded);
    bound.subject = "stage[1]";
    bound.stage = 1;
    bound.needed_bytes = 39.17e6;
    bound.model_state_bytes = 29.47e6;
    bound.activation_bytes = 9.699e6;
    bound.micro_batches = 1;
    bound.capacity_bytes = 30e6;
    return {capped, frees, memory, no_effect, implausible, nothing, bound};
}

// A database as schema version 2 made it, holding one run whose warnings are `warnings` (JSON of sentences) and whose
// reason (status oom) is `reason`.
void write_version_2(const std::string& path, const std::string& warnings, const std::string& reason) {
    Client client(path);
    for (const store::Migration migration : {store::migrations()[0], store::migrations()[1]}) {
        QVERIFY(client.execute(std::string(migration[0].sql)));
    }
    QVERIFY(client.execute("PRAGMA application_id = " + std::to_string(store::application_id) +
                           "; PRAGMA user_version = 2"));
    QVERIFY(client.execute("INSERT INTO scenarios VALUES ('abc', 'old', 'schema: 1\n')"));
    sqlite3_stmt* insert = nullptr;
    QCOMPARE(sqlite3_prepare_v2(client.handle(), "INSERT INTO runs (scenario_hash, status, reason, core_version, "
                                                 "warnings) VALUES ('abc', 'oom', ?, '0.1.0', ?)", -1, &insert, nullptr),
             SQLITE_OK);
    sqlite3_bind_text(insert, 1, reason.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(insert, 2, warnings.c_str(), -1, SQLITE_TRANSIENT);
    QCOMPARE(sqlite3_step(insert), SQLITE_DONE);
    sqlite3_finalize(insert);
}

std::string sentences_json(const std::vector<Warning>& warnings) {
    std::string json = "[";
    for (const Warning& warning : warnings) {
        if (json.size() > 1) json += ",";
        json += "\"" + warning_text(warning) + "\"";
    }
    return json + "]";
}

// Every column of run `id` as a reader gets it.
StoredTable run_as_read(const std::string& path, std::int64_t id) {
    StoredTable table;
    Expected<ResultStore> store = ResultStore::open(path, ResultStore::Access::read_only);
    if (store) (void)store.value().read_run(id, table);
    return table;
}

}  // namespace

void TestResultStore::version2SentencesBecomeCodesAndReadTheSame() {
    QTemporaryDir folder;
    const std::string path = folder.filePath("version2.db").toStdString();
    const std::vector<Warning> warnings = one_of_each_warning();
    const std::string sentences = sentences_json(warnings);
    write_version_2(path, sentences, warning_text(warnings[2]));
    {
        Expected<ResultStore> store = ResultStore::open(path, ResultStore::Access::read_write);
        QVERIFY2(store, store ? "" : store.error().c_str());
    }
    Client client(path);
    QCOMPARE(client.one("PRAGMA user_version"), std::to_string(store::current_schema_version()));
    // Each sentence is now its code and parameters, the numbers as the sentence wrote them.
    QCOMPARE(client.rows("SELECT role, position, code, subject, micro_batches, requested_micro_batches, operation, "
                         "layers, first_layer, npu, tensor, time_s, stage FROM run_warnings ORDER BY role, position"),
             (std::vector<std::string>{
                 "reason|0|out_of_memory|NPU 12|NULL|NULL|NULL|NULL|NULL|12|activations allocated by attention, "
                 "layer 9, micro-batch 1|0.1766|NULL",
                 "warning|0|in_flight_capped|stage[2]|3|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL",
                 "warning|1|recomputation_frees_nothing|layer[5].mlp.activation|NULL|NULL|mlp.activation|2|5|NULL|NULL|"
                 "NULL|NULL",
                 "warning|2|out_of_memory|NPU 12|NULL|NULL|NULL|NULL|NULL|12|activations allocated by attention, "
                 "layer 9, micro-batch 1|0.1766|NULL",
                 "warning|3|in_flight_cap_without_effect|stage[0]|2|4|NULL|NULL|NULL|NULL|NULL|NULL|NULL",
                 "warning|4|implausible_iteration_time|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|40000000.0|NULL",
                 "warning|5|what_if_matches_nothing|what_if.collective_delays[1]|NULL|NULL|NULL|NULL|NULL|NULL|NULL|"
                 "NULL|NULL",
                 "warning|6|memory_bound_exceeded|stage[1]|1|NULL|NULL|NULL|NULL|NULL|NULL|NULL|1"}));
    // 22.8 GiB = 22.8 · 2^30 B; 39.17 MB = 39 170 000 B.
    QCOMPARE(client.one("SELECT needed_bytes FROM run_warnings WHERE code = 'out_of_memory' AND role = 'warning'"),
             std::string("24481313587.2"));
    QCOMPARE(client.one("SELECT needed_bytes, model_state_bytes, activation_bytes, capacity_bytes FROM run_warnings "
                        "WHERE code = 'memory_bound_exceeded'"),
             std::string("39170000.0|29470000.0|9699000.0|30000000.0"));
    QCOMPARE(client.one("SELECT reason FROM runs"), std::string("NULL"));
    // Read back, the sentences are what they were.
    const StoredTable run = run_as_read(path, 1);
    QCOMPARE(std::get<std::string>(run.at(0, "warnings")), sentences);
    QCOMPARE(std::get<std::string>(run.at(0, "reason")), warning_text(warnings[2]));
}

void TestResultStore::version3ExposedMemoryBecomesRemoteMemory() {
    // Before schema version 4 a run's exposed_memory_s was the time transfers beyond the device left exposed, and the
    // computations' wait on the device's own memory was part of compute_s: the column becomes
    // exposed_remote_memory_s with its values, and exposed_local_memory_s is NULL — not known — for the old runs.
    QTemporaryDir folder;
    const std::string path = folder.filePath("version2.db").toStdString();
    write_version_2(path, "[]", {});
    {
        Client client(path);
        QVERIFY(client.execute("UPDATE runs SET status = 'ok', compute_s = 1.5, exposed_memory_s = 0.75"));
    }
    store_one_sweep_point(path);
    if (QTest::currentTestFailed()) return;
    Client client(path);
    QCOMPARE(client.one("PRAGMA user_version"), std::to_string(store::current_schema_version()));
    QCOMPARE(client.one("SELECT compute_s, exposed_local_memory_s, exposed_remote_memory_s FROM runs WHERE id = 1"),
             std::string("1.5|NULL|0.75"));
    QCOMPARE(client.one("SELECT count(*) FROM pragma_table_info('runs') WHERE name = 'exposed_memory_s'"),
             std::string("0"));
    // The sweep's view lists the new columns, the new run's figures in them (numbered_report's).
    QCOMPARE(client.one("SELECT exposed_local_memory_s, exposed_remote_memory_s FROM sweep_1 WHERE point = 0"),
             std::string("0.125|0.0625"));
    QCOMPARE(client.one("PRAGMA integrity_check"), std::string("ok"));
}

void TestResultStore::version4RunsGainRuntimeMemory() {
    // Schema version 5 counts the runtime's own memory (the CUDA context) as a category: the old runs did not count
    // it, so their runtime_bytes is NULL — not known, not 0 — and their other figures stay; a new run stores its own.
    QTemporaryDir folder;
    const std::string path = folder.filePath("version2.db").toStdString();
    write_version_2(path, "[]", {});
    {
        Client client(path);
        QVERIFY(client.execute("UPDATE runs SET status = 'ok', peak_memory_bytes = 6e10, activations_bytes = 1e10"));
    }
    store_one_sweep_point(path);
    if (QTest::currentTestFailed()) return;
    Client client(path);
    QCOMPARE(client.one("PRAGMA user_version"), std::string("5"));
    QCOMPARE(client.one("SELECT peak_memory_bytes, activations_bytes, runtime_bytes FROM runs WHERE id = 1"),
             std::string("60000000000.0|10000000000.0|NULL"));
    // numbered_report's 1e9 bytes of runtime, through the sweep's view.
    QCOMPARE(client.one("SELECT runtime_bytes FROM sweep_1 WHERE point = 0"), std::string("1000000000.0"));
    QCOMPARE(client.one("PRAGMA integrity_check"), std::string("ok"));
}

void TestResultStore::hostBoundLayersKeepTheirTimes() {
    // The host-bound warning's two times are columns of their own (schema version 5), and it reads back worded as the
    // report words it.
    QTemporaryDir folder;
    const std::string path = folder.filePath("results.db").toStdString();
    Warning host_bound = warning_of(WarningCode::host_bound_layers);
    host_bound.subject = "cluster.device.kernel_launch";
    host_bound.layers = 12;
    host_bound.time_s = 43 * 40.53e-6;  // 43 kernels at 40.53 us
    host_bound.gpu_time_s = 612.4e-6;
    Report report = numbered_report();
    report.warnings = {host_bound};
    {
        Expected<ResultStore> store = ResultStore::open(path, ResultStore::Access::read_write);
        QVERIFY(store);
        QVERIFY(store.value().add_run("small", "schema: 1\n", report));
    }
    Client client(path);
    QCOMPARE(client.one("SELECT code, subject, layers, time_s, gpu_time_s, needed_bytes FROM run_warnings"),
             std::string("host_bound_layers|cluster.device.kernel_launch|12|0.00174279|0.0006124|NULL"));
    const StoredTable run = run_as_read(path, 1);
    QCOMPARE(std::get<std::string>(run.at(0, "warnings")), sentences_json({host_bound}));
}

void TestResultStore::aSentenceNotRecognisedLeavesTheDatabaseAsItWas() {
    QTemporaryDir folder;
    const std::string path = folder.filePath("version2.db").toStdString();
    write_version_2(path, "[\"the moon is made of cheese\"]", {});
    const Expected<ResultStore> store = ResultStore::open(path, ResultStore::Access::read_write);
    QVERIFY(!store);
    QCOMPARE(store.error(), std::string("run 1 holds a warning this version does not recognise, so it cannot be "
                                        "converted: 'the moon is made of cheese'"));
    Client client(path);
    QCOMPARE(client.one("PRAGMA user_version"), std::string("2"));
    QCOMPARE(client.one("SELECT warnings FROM runs"), std::string("[\"the moon is made of cheese\"]"));
    QCOMPARE(client.one("SELECT count(*) FROM sqlite_schema WHERE name = 'run_warnings'"), std::string("0"));
}

void TestResultStore::mergingAddsWhatIsMissingOnce() {
    QTemporaryDir folder;
    const std::string shard_a = folder.filePath("a.db").toStdString();
    const std::string shard_b = folder.filePath("b.db").toStdString();
    const std::string merged = folder.filePath("merged.db").toStdString();
    const auto write_shard = [](const std::string& path, std::vector<PointResult> points, bool single_run) {
        Expected<ResultStore> store = ResultStore::open(path, ResultStore::Access::read_write);
        QVERIFY(store);
        const Expected<std::int64_t> sweep = store.value().open_sweep(two_axis_sweep());
        QVERIFY(sweep);
        QVERIFY(!store.value().add_points(sweep.value(), points));
        if (single_run) QVERIFY(store.value().add_run("single", "schema: 1\nname: single\n", numbered_report()));
    };
    // Shard 1/2 holds the even points, 2/2 the odd ones; both hold point 2 (a shard re-run by hand).
    write_shard(shard_a, {point_result(0, PointStatus::ok), point_result(2, PointStatus::ok)}, true);
    write_shard(shard_b, {point_result(1, PointStatus::oom_estimated), point_result(3, PointStatus::invalid),
                          point_result(2, PointStatus::ok)},
                false);
    const std::string a_before = file_bytes(shard_a);
    {
        Expected<ResultStore> store = ResultStore::open(merged, ResultStore::Access::read_write);
        QVERIFY(store);
        for (const std::string& shard : {shard_a, shard_b, shard_a, shard_b}) {
            const auto problem = store.value().merge_from(shard);
            QVERIFY2(!problem, problem ? problem->c_str() : "");
        }
        const auto itself = store.value().merge_from(merged);
        QVERIFY(itself);
        QCOMPARE(*itself, std::string("is the database being merged into"));
    }
    QCOMPARE(file_bytes(shard_a), a_before);  // read, never written
    Client client(merged);
    QCOMPARE(client.one("SELECT count(*) FROM sweeps"), std::string("1"));
    QCOMPARE(client.rows("SELECT point, \"parallelism.tp\", status FROM sweep_1 ORDER BY point"),
             (std::vector<std::string>{"0|1|ok", "1|1|oom_estimated", "2|2|ok", "3|2|invalid"}));
    QCOMPARE(client.one("SELECT count(*) FROM runs"), std::string("5"));  // four points and the single run, once
    QCOMPARE(client.one("SELECT count(*) FROM runs WHERE id NOT IN (SELECT run_id FROM sweep_points)"),
             std::string("1"));
    QCOMPARE(client.one("SELECT count(*) FROM sweep_point_values"), std::string("8"));
    // Each run's warnings came with it, under its id here: the implausible time of the three simulated runs, and
    // point 1's reason for not being simulated.
    QCOMPARE(client.rows("SELECT s.name, w.role, w.code FROM run_warnings w JOIN runs r ON r.id = w.run_id "
                         "JOIN scenarios s ON s.hash = r.scenario_hash ORDER BY w.run_id"),
             (std::vector<std::string>{"single|warning|implausible_iteration_time",
                                       "small|warning|implausible_iteration_time",
                                       "small|warning|implausible_iteration_time",
                                       "small|reason|memory_bound_exceeded"}));
    QCOMPARE(client.one("SELECT count(*) FROM run_warnings w LEFT JOIN runs r ON r.id = w.run_id WHERE r.id IS NULL"),
             std::string("0"));
    QCOMPARE(client.one("PRAGMA integrity_check"), std::string("ok"));
}

void TestResultStore::databasesThatAreNotOursAreLeftUntouched_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("message");  // a part of the error
    QTest::newRow("text") << "text" << "is not a SQLite database";
    QTest::newRow("another program's database") << "foreign" << "is a SQLite database of another program";
    QTest::newRow("newer schema") << "newer" << "was made by a newer ParaSight (schema version 99";
    QTest::newRow("damaged") << "damaged" << "damaged";
    QTest::newRow("a folder") << "folder" << "is a directory";
}

void TestResultStore::databasesThatAreNotOursAreLeftUntouched() {
    QFETCH(QString, kind);
    QFETCH(QString, message);
    QTemporaryDir folder;
    const std::string path = folder.filePath("results.db").toStdString();
    if (kind == "text") {
        std::ofstream(path) << "name,iteration_time_s\nsmall,1.5\n";
    } else if (kind == "foreign") {
        Client client(path);
        QVERIFY(client.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, file TEXT); INSERT INTO photos "
                               "(file) VALUES ('a.jpg')"));
    } else if (kind == "newer") {
        Client client(path);
        QVERIFY(client.execute("CREATE TABLE future (x); PRAGMA application_id = " +
                               std::to_string(store::application_id) + "; PRAGMA user_version = 99"));
    } else if (kind == "damaged") {
        {
            Expected<ResultStore> store = ResultStore::open(path, ResultStore::Access::read_write);
            QVERIFY(store);
            const Expected<std::int64_t> sweep = store.value().open_sweep(two_axis_sweep());
            std::vector<PointResult> points;
            for (std::uint64_t p = 0; p < 4; ++p) points.push_back(point_result(p, PointStatus::ok));
            QVERIFY(sweep && !store.value().add_points(sweep.value(), points));
        }
        {
            Client client(path);  // fold the WAL into the file, then overwrite a page of the runs table
            QVERIFY(client.execute("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE"));
        }
        std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
        file.seekp(4096);  // page 2's header onwards
        const std::string garbage(3000, '\x5a');
        file.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
    } else if (kind == "folder") {
        QVERIFY(QDir().mkpath(QString::fromStdString(path)));
    }
    const std::string before = kind == "folder" ? std::string() : file_bytes(path);
    const Expected<ResultStore> store = ResultStore::open(path, ResultStore::Access::read_write);
    QVERIFY(!store);
    QVERIFY2(store.error().find(message.toStdString()) != std::string::npos, store.error().c_str());
    if (kind != "folder") {
        QCOMPARE(file_bytes(path), before);
        QVERIFY(!QFile::exists(QString::fromStdString(path + "-wal")));
    }
}

void TestResultStore::aLockedDatabaseSaysSo() {
    QTemporaryDir folder;
    const std::string path = folder.filePath("results.db").toStdString();
    {
        Expected<ResultStore> store = ResultStore::open(path, ResultStore::Access::read_write);
        QVERIFY(store);
    }
    Client other(path);
    QVERIFY(other.execute("BEGIN EXCLUSIVE; INSERT INTO scenarios VALUES ('x', 'x', 'x')"));
    Expected<ResultStore> store =
        ResultStore::open(path, ResultStore::Access::read_write, std::chrono::milliseconds(50));
    if (store) {
        // WAL lets the reader in; the first write waits and then gives up.
        const Expected<std::int64_t> sweep = store.value().open_sweep(two_axis_sweep());
        QVERIFY(!sweep);
        QVERIFY2(sweep.error().find("locked by another process") != std::string::npos, sweep.error().c_str());
    } else {
        QVERIFY2(store.error().find("locked by another process") != std::string::npos, store.error().c_str());
    }
    QVERIFY(other.execute("ROLLBACK"));
}

// Renaming a sweep, deleting it with what only it used, deleting a single run, and finding a scenario's run again.
void TestResultStore::theHistoryIsKept() {
    QTemporaryDir folder;
    const std::string path = folder.filePath("results.db").toStdString();
    std::int64_t single = 0;
    {
        Expected<ResultStore> store = ResultStore::open(path, ResultStore::Access::read_write);
        QVERIFY(store);
        const Expected<std::int64_t> sweep = store.value().open_sweep(two_axis_sweep());
        QVERIFY(sweep);
        const std::vector<PointResult> points{point_result(0, PointStatus::ok), point_result(1, PointStatus::oom_estimated)};
        QVERIFY(!store.value().add_points(sweep.value(), points));
        const Expected<std::int64_t> run = store.value().add_run("alone", "schema: 1\nname: alone\n", numbered_report());
        QVERIFY(run);
        single = run.value();
        QCOMPARE(store.value().run_scenario(single).value().yaml, std::string("schema: 1\nname: alone\n"));
        QCOMPARE(store.value().run_scenario(99).error(), std::string("holds no run 99"));

        QVERIFY(!store.value().rename_sweep(sweep.value(), "tp and bandwidth"));
        QCOMPARE(store.value().sweep(sweep.value()).value().name, std::string("tp and bandwidth"));
        QCOMPARE(store.value().rename_sweep(sweep.value(), "").value(), std::string("a sweep's name is not empty"));
        QCOMPARE(store.value().rename_sweep(sweep.value(), std::string(201, 'x')).value(),
                 std::string("a sweep's name is at most 200 bytes"));
        QCOMPARE(store.value().rename_sweep(9, "x").value(), std::string("holds no sweep 9"));

        // The same scenario and mode is found again; another mode, or another scenario, is not.
        const auto found = store.value().stored_run_of("schema: 1\nname: alone\n", "representative");
        QVERIFY(found);
        QCOMPARE(found.value(), std::optional<std::int64_t>(single));
        QCOMPARE(store.value().stored_run_of("schema: 1\nname: alone\n", "all-devices").value(),
                 std::optional<std::int64_t>());
        QCOMPARE(store.value().stored_run_of("schema: 1\nname: other\n", "representative").value(),
                 std::optional<std::int64_t>());
        // A sweep's point is never the window's run, nor deleted alone.
        QCOMPARE(store.value().stored_run_of(points[0].scenario_yaml, "representative").value(),
                 std::optional<std::int64_t>());
        QCOMPARE(store.value().delete_run(1).value(), std::string("run 1 is point 0 of sweep 1; delete the sweep instead"));

        QVERIFY(!store.value().delete_sweep(sweep.value()));
        QCOMPARE(store.value().delete_sweep(sweep.value()).value(), std::string("holds no sweep 1"));
    }
    Client client(path);
    // Only the single run and its scenario are left: no point, axis, view, warning or scenario of the sweep.
    QCOMPARE(client.one("SELECT count(*) FROM sweeps"), std::string("0"));
    QCOMPARE(client.one("SELECT count(*) FROM sweep_axes"), std::string("0"));
    QCOMPARE(client.one("SELECT count(*) FROM sweep_point_values"), std::string("0"));
    QCOMPARE(client.rows("SELECT id FROM runs"), (std::vector<std::string>{std::to_string(single)}));
    QCOMPARE(client.rows("SELECT name FROM scenarios"), (std::vector<std::string>{"alone"}));
    QCOMPARE(client.rows("SELECT DISTINCT run_id FROM run_warnings"), (std::vector<std::string>{std::to_string(single)}));
    QCOMPARE(client.one("SELECT count(*) FROM sqlite_schema WHERE type = 'view' AND name = 'sweep_1'"), std::string("0"));
    {
        Expected<ResultStore> store = ResultStore::open(path, ResultStore::Access::read_write);
        QVERIFY(store);
        QVERIFY(!store.value().delete_run(single));
        QCOMPARE(store.value().delete_run(single).value(), "holds no run " + std::to_string(single));
    }
    QCOMPARE(client.one("SELECT count(*) FROM runs") + client.one("SELECT count(*) FROM scenarios") +
                 client.one("SELECT count(*) FROM run_warnings"),
             std::string("000"));
}

// A stored sweep's axes as a `sweep:` section: its values as written, zipped axes in one entry; read back, the same.
void TestResultStore::aSweepWritesItsSection() {
    QTemporaryDir folder;
    Expected<ResultStore> store = ResultStore::open(folder.filePath("r.db").toStdString(), ResultStore::Access::read_write);
    QVERIFY(store);
    SweepRecord record = two_axis_sweep();
    record.axes.push_back({"parallelism.recompute", {"full", "selective"}, true});
    record.axes.push_back({"parallelism.sequence_parallel", {"false", "true"}, true});
    const Expected<std::int64_t> id = store.value().open_sweep(record);
    QVERIFY(id);
    const Expected<SweepSection> section = store.value().sweep_section(id.value());
    QVERIFY(section);
    const std::string yaml = write_sweep_section_yaml(section.value());
    QCOMPARE(yaml, std::string("sweep:\n"
                               "  axes:\n"
                               "    - {parallelism.tp: [1, 2]}\n"
                               "    - {\"cluster.topology[1].bandwidth\": [100 GB/s, 200 GB/s], parallelism.recompute: [full, "
                               "selective], parallelism.sequence_parallel: [false, true]}\n"));
    const SweepSectionRead read = read_sweep_section(yaml, "section.yaml");
    QVERIFY(read.diagnostics.empty());
    QCOMPARE(read.section->axes.size(), std::size_t{4});
    for (std::size_t a = 0; a < 4; ++a) {
        QCOMPARE(read.section->axes[a].path, section.value().axes[a].path);
        QCOMPARE(read.section->axes[a].values, section.value().axes[a].values);
        QCOMPARE(read.section->axes[a].zipped_with_previous, section.value().axes[a].zipped_with_previous);
    }
    QCOMPARE(store.value().sweep_section(7).error(), std::string("holds no sweep 7"));
}

QTEST_GUILESS_MAIN(TestResultStore)
#include "test_result_store.moc"
