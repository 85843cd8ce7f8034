// A results database of schema version 2 — tests/data/store/schema-v2.db, made by `parasight-cli sweep` and
// `simulate --db` of that version (the golden sweep of tests/data/golden/sweep.yaml, then
// tests/data/store/warnings.yaml) — brought to version 3, where warnings are codes and parameters, and to version 4,
// where exposed_memory_s is exposed_remote_memory_s and exposed_local_memory_s follows compute_s: what `runs export`
// printed from it then (schema-v2-sweep.csv, schema-v2-run.csv, written by that version) it prints byte for byte now
// but for those two columns, and no sentence is left in the database.

#include "cli_runner.h"

#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

using namespace parasight::testing;

namespace {

QByteArray file_bytes(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("(cannot read ") + path.toUtf8() + ")";
}

// One value of `sql` on the database at `path`, as text.
QString one(const QString& path, const char* sql) {
    sqlite3* database = nullptr;
    sqlite3_open_v2(path.toUtf8().constData(), &database, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* statement = nullptr;
    QString value = QStringLiteral("(error)");
    if (sqlite3_prepare_v2(database, sql, -1, &statement, nullptr) == SQLITE_OK && sqlite3_step(statement) == SQLITE_ROW) {
        const auto* text = sqlite3_column_text(statement, 0);
        value = text != nullptr ? QString::fromUtf8(reinterpret_cast<const char*>(text)) : QStringLiteral("NULL");
    }
    sqlite3_finalize(statement);
    sqlite3_close_v2(database);
    return value;
}

// A CSV line's fields as written (quotes kept), split at the commas outside quotes.
QStringList raw_fields(const QString& line) {
    QStringList fields(QString{});
    bool quoted = false;
    for (const QChar c : line) {
        if (c == u'"') quoted = !quoted;
        if (c == u',' && !quoted) {
            fields.append(QString{});
        } else {
            fields.last().append(c);
        }
    }
    return fields;
}

// An export of schema version 2 or 3 as version 5 writes it: exposed_memory_s renamed, an empty exposed_local_memory_s
// (not known for those runs) after compute_s, and an empty runtime_bytes (not counted then) after buffers_bytes.
QByteArray as_version_5(const QByteArray& export_bytes) {
    const QStringList lines = QString::fromUtf8(export_bytes).split(u'\n');
    const qsizetype compute = raw_fields(lines.front()).indexOf(QStringLiteral("compute_s"));
    const qsizetype buffers = raw_fields(lines.front()).indexOf(QStringLiteral("buffers_bytes"));
    QStringList converted;
    for (const QString& line : lines) {
        if (line.isEmpty()) {
            converted.append(line);
            continue;
        }
        QStringList fields = raw_fields(line);
        const bool header = converted.isEmpty();
        fields.insert(buffers + 1, header ? QStringLiteral("runtime_bytes") : QString{});
        fields.insert(compute + 1, header ? QStringLiteral("exposed_local_memory_s") : QString{});
        if (header) fields.replaceInStrings(QStringLiteral("exposed_memory_s"), QStringLiteral("exposed_remote_memory_s"));
        converted.append(fields.join(u','));
    }
    return converted.join(u'\n').toUtf8();
}

}  // namespace

class TestCliStoreMigration : public QObject {
    Q_OBJECT
private slots:
    void aVersion2DatabaseReadsTheSameAfterItsMigration();
};

void TestCliStoreMigration::aVersion2DatabaseReadsTheSameAfterItsMigration() {
    QTemporaryDir folder;
    const QString db = folder.filePath(QStringLiteral("results.db"));
    QVERIFY(QFile::copy(data_path(QStringLiteral("store/schema-v2.db")), db));
    QFile::setPermissions(db, QFile::ReadOwner | QFile::WriteOwner);
    QCOMPARE(one(db, "PRAGMA user_version"), QStringLiteral("2"));

    // Read-only it is refused, and told how it is brought up to date: by storing into it. Storing one simulation
    // migrates the database first, and adds run 18 beside what was there. (The sweep that made it would run its points
    // again: a point is known by its scenario as written, and this version writes each GPU preset's streaming
    // multiprocessors.)
    RUN_CLI(refused, {QStringLiteral("runs"), QStringLiteral("list"), QStringLiteral("--db"), db});
    EXPECT_EXIT(refused, 1);
    QVERIFY2(refused.err.contains(QStringLiteral("older ParaSight (schema version 2)")), qPrintable(refused.err));
    RUN_CLI(again, {QStringLiteral("simulate"), data_path(QStringLiteral("golden/sweep.yaml")), QStringLiteral("--db"),
                    db});
    EXPECT_EXIT(again, 0);
    QCOMPARE(one(db, "SELECT max(id) FROM runs"), QStringLiteral("18"));
    QCOMPARE(one(db, "PRAGMA user_version"), QStringLiteral("5"));
    QCOMPARE(one(db, "PRAGMA integrity_check"), QStringLiteral("ok"));

    // Exported as the version that made it exported it: every reason and warning worded again from its code.
    RUN_CLI(sweep, {QStringLiteral("runs"), QStringLiteral("export"), QStringLiteral("sweep:1"), QStringLiteral("--db"), db});
    EXPECT_EXIT(sweep, 0);
    QCOMPARE(sweep.out_bytes, as_version_5(file_bytes(data_path(QStringLiteral("store/schema-v2-sweep.csv")))));
    RUN_CLI(run, {QStringLiteral("runs"), QStringLiteral("export"), QStringLiteral("run:17"), QStringLiteral("--db"), db});
    EXPECT_EXIT(run, 0);
    QCOMPARE(run.out_bytes, as_version_5(file_bytes(data_path(QStringLiteral("store/schema-v2-run.csv")))));

    // No sentence is stored: reasons only for invalid points (the loader's); warnings as codes.
    QCOMPARE(one(db, "SELECT count(*) FROM runs WHERE reason IS NOT NULL AND status <> 'invalid'"), QStringLiteral("0"));
    QCOMPARE(one(db, "SELECT count(*) FROM pragma_table_info('runs') WHERE name = 'warnings'"), QStringLiteral("0"));
    // Run 17 (warnings.yaml): three warnings in order; point 7 of the sweep ran out of memory on NPU 0.
    QCOMPARE(one(db, "SELECT group_concat(code, ' ') FROM (SELECT code FROM run_warnings WHERE run_id = 17 "
                     "ORDER BY position)"),
             QStringLiteral("recomputation_frees_nothing what_if_matches_nothing out_of_memory"));
    QCOMPARE(one(db, "SELECT code || ' ' || subject || ' ' || npu FROM run_warnings WHERE role = 'reason' AND "
                     "run_id = (SELECT run_id FROM sweep_points WHERE point = 7)"),
             QStringLiteral("out_of_memory NPU 0 0"));
    QCOMPARE(one(db, "SELECT count(*) FROM run_warnings WHERE code = 'memory_bound_exceeded'"), QStringLiteral("2"));
    QCOMPARE(one(db, "SELECT warnings FROM sweep_1 WHERE point = 12"), QStringLiteral("[\"in_flight_capped\"]"));
}

QTEST_GUILESS_MAIN(TestCliStoreMigration)
#include "test_cli_store_migration.moc"
