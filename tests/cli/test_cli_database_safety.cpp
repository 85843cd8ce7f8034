// What parasight-cli does with the results database and its outputs when things go wrong (docs/cli.md "Files",
// docs/store.md "Readers"): a database is only read where it is only read — in a read-only folder too, and without
// leaving SQLite's -wal and -shm files behind; a database whose tables were altered is refused before anything is
// written to it; a merge checks every input before it makes its output; a signal removes the hidden temporary file
// of an output; a closed pipe on standard output is status 1 with its reason. Each case failed before its fix.

#include "cli_runner.h"
#include "largest_strategy_tree.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace parasight::testing;

namespace {

QString small_pipeline() { return data_path(QStringLiteral("cli/small_pipeline.yaml")); }

// Runs `sql` on the database at `path` as a writer; empty on success, else SQLite's message.
QString execute(const QString& path, const QString& sql) {
    sqlite3* handle = nullptr;
    QString error;
    if (sqlite3_open_v2(path.toUtf8().constData(), &handle, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
        error = QString::fromUtf8(sqlite3_errmsg(handle));
    } else if (char* message = nullptr;
               sqlite3_exec(handle, sql.toUtf8().constData(), nullptr, nullptr, &message) != SQLITE_OK) {
        error = QString::fromUtf8(message);
        sqlite3_free(message);
    }
    sqlite3_close_v2(handle);
    return error;
}

// The number `sql` returns (its first column of its first row), read by a writer, which leaves no files behind.
qint64 count(const QString& path, const QString& sql) {
    sqlite3* handle = nullptr;
    qint64 value = -1;
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_open_v2(path.toUtf8().constData(), &handle, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK &&
        sqlite3_prepare_v2(handle, sql.toUtf8().constData(), -1, &statement, nullptr) == SQLITE_OK &&
        sqlite3_step(statement) == SQLITE_ROW) {
        value = sqlite3_column_int64(statement, 0);
    }
    sqlite3_finalize(statement);
    sqlite3_close_v2(handle);
    return value;
}

QStringList entries(const QString& folder) {
    return QDir(folder).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
}

// A results database holding one run of small_pipeline.yaml; false if it could not be made.
bool make_database(const QString& path) {
    const CliRun run = run_cli({QStringLiteral("simulate"), small_pipeline(), QStringLiteral("--db"), path});
    return run.finished && run.exit_code == 0;
}

// Root may write anywhere: a read-only folder is read-only to another user only. The command to run the CLI as
// `nobody` when this test runs as root (setpriv, from util-linux), else nothing to prefix.
QStringList as_unprivileged_user() {
    if (::geteuid() != 0) return {};
    return {QStringLiteral("setpriv"), QStringLiteral("--reuid=nobody"), QStringLiteral("--regid=nogroup"),
            QStringLiteral("--clear-groups"), QStringLiteral("--")};
}

CliRun run_prefixed(const QStringList& prefix, const QStringList& arguments) {
    if (prefix.isEmpty()) return run_cli(arguments);
    CliRun run;
    QProcess process;
    process.setProgram(prefix.front());
    process.setArguments(prefix.mid(1) + QStringList{QString::fromUtf8(PARASIGHT_CLI_PATH)} + arguments);
    process.start();
    if (!process.waitForStarted(10'000) || !process.waitForFinished(120'000)) {
        run.failure = QStringLiteral("cannot run %1: %2").arg(prefix.front(), process.errorString());
        return run;
    }
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    run.finished = process.exitStatus() == QProcess::NormalExit;
    run.exit_code = process.exitCode();
    if (!run.finished) run.failure = QStringLiteral("crashed: ") + run.err;
    return run;
}

}  // namespace

class TestCliDatabaseSafety : public QObject {
    Q_OBJECT
private slots:
    void readersLeaveNoCompanionFiles_data();
    void readersLeaveNoCompanionFiles();
    void readersWorkInAReadOnlyFolder();
    void alteredTablesAreRefusedBeforeAnyWrite_data();
    void alteredTablesAreRefusedBeforeAnyWrite();
    void aDamagedInputMakesNoMergeOutput();
    void aSignalRemovesAnOutputsTemporaryFile_data();
    void aSignalRemovesAnOutputsTemporaryFile();
    void aClosedPipeIsStatusOneWithItsReason();
};

// A read-only SQLite connection to a database in WAL mode makes its -wal and -shm files and cannot remove them:
// every `runs list` left two files beside the database.
void TestCliDatabaseSafety::readersLeaveNoCompanionFiles_data() {
    QTest::addColumn<QStringList>("arguments");  // DB stands for the database, OUT for a file in another folder
    QTest::newRow("runs list") << QStringList{QStringLiteral("runs"), QStringLiteral("list"), QStringLiteral("--db"),
                                              QStringLiteral("DB")};
    QTest::newRow("runs show") << QStringList{QStringLiteral("runs"), QStringLiteral("show"), QStringLiteral("run:1"),
                                              QStringLiteral("--db"), QStringLiteral("DB")};
    QTest::newRow("runs export") << QStringList{QStringLiteral("runs"), QStringLiteral("export"),
                                                QStringLiteral("run:1"), QStringLiteral("--db"), QStringLiteral("DB")};
    QTest::newRow("merge's input") << QStringList{QStringLiteral("merge"), QStringLiteral("OUT"), QStringLiteral("DB")};
}

void TestCliDatabaseSafety::readersLeaveNoCompanionFiles() {
    QFETCH(QStringList, arguments);
    QTemporaryDir folder;
    QTemporaryDir elsewhere;
    QVERIFY(folder.isValid() && elsewhere.isValid());
    const QString database = folder.filePath(QStringLiteral("results.db"));
    QVERIFY(make_database(database));
    QCOMPARE(entries(folder.path()), QStringList{QStringLiteral("results.db")});
    arguments.replaceInStrings(QStringLiteral("DB"), database);
    arguments.replaceInStrings(QStringLiteral("OUT"), elsewhere.filePath(QStringLiteral("out.db")));
    RUN_CLI(run, arguments);
    EXPECT_EXIT(run, 0);
    QCOMPARE(entries(folder.path()), QStringList{QStringLiteral("results.db")});
}

// A database in a folder its reader may not write (a read-only mount, a colleague's results): a read-only
// connection failed to make the -shm file it wanted ("unable to open database file").
void TestCliDatabaseSafety::readersWorkInAReadOnlyFolder() {
    const QStringList prefix = as_unprivileged_user();
    QTemporaryDir folder;
    QTemporaryDir writable;
    QVERIFY(folder.isValid() && writable.isValid());
    const QString database = folder.filePath(QStringLiteral("results.db"));
    QVERIFY(make_database(database));
    QVERIFY(QFile::setPermissions(database, QFileDevice::ReadOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther));
    const QFileDevice::Permissions read_and_enter = QFileDevice::ReadOwner | QFileDevice::ExeOwner |
                                                    QFileDevice::ReadGroup | QFileDevice::ExeGroup |
                                                    QFileDevice::ReadOther | QFileDevice::ExeOther;
    QVERIFY(QFile::setPermissions(folder.path(), read_and_enter));
    // The merge's output goes to a folder the reader may write.
    QVERIFY(QFile::setPermissions(writable.path(), read_and_enter | QFileDevice::WriteOwner | QFileDevice::WriteGroup |
                                                       QFileDevice::WriteOther));
    const auto restore = qScopeGuard([&] {
        QFile::setPermissions(folder.path(), read_and_enter | QFileDevice::WriteOwner);
    });

    const CliRun listed = run_prefixed(prefix, {QStringLiteral("runs"), QStringLiteral("list"),
                                                QStringLiteral("--db"), database});
    QVERIFY2(listed.finished, qPrintable(listed.failure));
    EXPECT_EXIT(listed, 0);
    QVERIFY2(listed.out.contains(QStringLiteral("run:1")), qPrintable(describe(listed)));
    const QString merged = writable.filePath(QStringLiteral("merged.db"));
    const CliRun merge = run_prefixed(prefix, {QStringLiteral("merge"), merged, database});
    QVERIFY2(merge.finished, qPrintable(merge.failure));
    EXPECT_EXIT(merge, 0);
    QCOMPARE(count(merged, QStringLiteral("SELECT count(*) FROM runs")), qint64{1});
    QCOMPARE(entries(folder.path()), QStringList{QStringLiteral("results.db")});
}

// A database whose user_version says "current" but whose tables were altered: a sweep inserted its sweeps row, then
// failed on the missing column, leaving the row behind.
void TestCliDatabaseSafety::alteredTablesAreRefusedBeforeAnyWrite_data() {
    QTest::addColumn<QString>("alteration");
    QTest::addColumn<QString>("reason");
    QTest::newRow("a column dropped") << QStringLiteral("ALTER TABLE runs DROP COLUMN wall_s")
                                      << QStringLiteral("its table runs has no column wall_s");
    QTest::newRow("a column added") << QStringLiteral("ALTER TABLE sweeps ADD COLUMN colour TEXT")
                                    << QStringLiteral("its table sweeps has a column colour this version does not make");
    QTest::newRow("a table dropped") << QStringLiteral("DROP TABLE sweep_point_values")
                                     << QStringLiteral("it has no table sweep_point_values");
}

void TestCliDatabaseSafety::alteredTablesAreRefusedBeforeAnyWrite() {
    QFETCH(QString, alteration);
    QFETCH(QString, reason);
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    const QString database = folder.filePath(QStringLiteral("results.db"));
    QVERIFY(make_database(database));
    QCOMPARE(execute(database, alteration), QString());
    const QString expected = QStringLiteral("'") + database +
                             QStringLiteral("' does not hold the tables a ParaSight results database of its version "
                                            "holds (") +
                             reason + QStringLiteral("); it is left as it is\n");
    RUN_CLI(sweep, {QStringLiteral("sweep"), small_pipeline(), QStringLiteral("--axis"),
                    QStringLiteral("training.micro_batch=1,2"), QStringLiteral("--db"), database});
    EXPECT_EXIT(sweep, 1);
    QVERIFY2(sweep.err.endsWith(expected), qPrintable(expected + describe(sweep)));
    RUN_CLI(simulate, {QStringLiteral("simulate"), small_pipeline(), QStringLiteral("--db"), database});
    EXPECT_EXIT(simulate, 1);
    RUN_CLI(listed, {QStringLiteral("runs"), QStringLiteral("list"), QStringLiteral("--db"), database});
    EXPECT_EXIT(listed, 1);
    QVERIFY2(listed.err.endsWith(expected), qPrintable(expected + describe(listed)));
    // Nothing was added: the one run made above, no sweep.
    QCOMPARE(count(database, QStringLiteral("SELECT count(*) FROM sweeps")), qint64{0});
    QCOMPARE(count(database, QStringLiteral("SELECT count(*) FROM runs")), qint64{1});
}

// merge made (and migrated) its output before it found the damaged input: an empty OUT.db was left.
void TestCliDatabaseSafety::aDamagedInputMakesNoMergeOutput() {
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    const QString good = folder.filePath(QStringLiteral("shard-1.db"));
    const QString damaged = folder.filePath(QStringLiteral("shard-2.db"));
    QVERIFY(make_database(good));
    QVERIFY(make_database(damaged));
    QCOMPARE(execute(damaged, QStringLiteral("ALTER TABLE runs DROP COLUMN mfu")), QString());
    const QString out = folder.filePath(QStringLiteral("merged.db"));
    RUN_CLI(run, {QStringLiteral("merge"), out, good, damaged});
    EXPECT_EXIT(run, 1);
    QVERIFY2(run.err.startsWith(QStringLiteral("parasight-cli merge: '") + damaged +
                                QStringLiteral("' does not hold the tables")),
             qPrintable(describe(run)));
    QVERIFY(!QFile::exists(out));
    QCOMPARE(entries(folder.path()), (QStringList{QStringLiteral("shard-1.db"), QStringLiteral("shard-2.db")}));
}

// A process stopped by a signal runs no destructor: SIGTERM during `simulate --trace` left the hidden, empty
// temporary file beside the trace. The scenario with the largest strategy tree takes long enough to load (a second
// or more) for the signal to arrive while the temporary file exists.
void TestCliDatabaseSafety::aSignalRemovesAnOutputsTemporaryFile_data() {
    QTest::addColumn<int>("signal_number");
    QTest::newRow("SIGTERM") << SIGTERM;
    QTest::newRow("SIGINT") << SIGINT;
    QTest::newRow("SIGHUP") << SIGHUP;
}

void TestCliDatabaseSafety::aSignalRemovesAnOutputsTemporaryFile() {
    QFETCH(int, signal_number);
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    const QString scenario = folder.filePath(QStringLiteral("largest.yaml"));
    QVERIFY(write_file(scenario, QByteArray::fromStdString(scenario_with_largest_strategy_tree())));
    const QString trace = folder.filePath(QStringLiteral("trace.json"));
    QProcess process;
    process.setProgram(QString::fromUtf8(PARASIGHT_CLI_PATH));
    process.setArguments({QStringLiteral("simulate"), scenario, QStringLiteral("--trace"), trace});
    process.start();
    QVERIFY(process.waitForStarted(10'000));
    // Wait for the hidden temporary file beside the trace, then stop the command.
    QElapsedTimer waited;
    waited.start();
    while (entries(folder.path()).size() < 2 && waited.elapsed() < 30'000) QThread::msleep(5);
    QCOMPARE(entries(folder.path()).size(), qsizetype{2});
    QVERIFY(entries(folder.path()).front().startsWith(QStringLiteral(".trace.json.parasight-")));
    QCOMPARE(::kill(static_cast<pid_t>(process.processId()), signal_number), 0);
    QVERIFY(process.waitForFinished(30'000));
    // Ended by the signal, as a shell expects (it reports 128 + the signal), with nothing left but the scenario.
    QCOMPARE(process.exitStatus(), QProcess::CrashExit);
    const QStringList left = entries(folder.path());
    QVERIFY2(left == QStringList{QStringLiteral("largest.yaml")}, qPrintable(left.join(QStringLiteral(", "))));
}

// `parasight-cli … | head -c1`: the reader goes away, the next write raises SIGPIPE, which ended the command
// silently with status 141. Standard output here is a pipe whose only reader was closed before the command started.
void TestCliDatabaseSafety::aClosedPipeIsStatusOneWithItsReason() {
    int ends[2] = {-1, -1};
    QCOMPARE(::pipe2(ends, O_CLOEXEC), 0);
    ::close(ends[0]);
    QProcess process;
    process.setProgram(QString::fromUtf8(PARASIGHT_CLI_PATH));
    process.setArguments({QStringLiteral("presets"), QStringLiteral("list")});
    const int write_end = ends[1];
    process.setChildProcessModifier([write_end] { ::dup2(write_end, STDOUT_FILENO); });
    process.start();
    QVERIFY(process.waitForStarted(10'000));
    QVERIFY(process.waitForFinished(30'000));
    ::close(write_end);
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(process.exitCode(), 1);
    QCOMPARE(QString::fromUtf8(process.readAllStandardError()),
             QStringLiteral("parasight-cli presets: cannot write to standard output: Broken pipe\n"));
}

QTEST_GUILESS_MAIN(TestCliDatabaseSafety)
#include "test_cli_database_safety.moc"
