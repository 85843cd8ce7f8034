// No file is ever lost (docs/contracts.md, "Reliability rules"; docs/cli.md, "Files"): parasight-cli writes its
// outputs to a temporary file beside the target and renames it into place only when the whole command succeeded, so
// a failing command leaves every existing file byte for byte as it was; it refuses outputs that are its input, the same
// path twice or not regular files before any work; it reads inputs through one bounded reader that refuses what is
// not a regular file or is too large, at once; and a report that cannot reach standard output is exit status 1.

#include "cli_runner.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace parasight::testing;

namespace {

QString small_pipeline() { return data_path(QStringLiteral("cli/small_pipeline.yaml")); }
QString bad_file() { return data_path(QStringLiteral("cli/bad.yaml")); }
QString too_large_file() { return data_path(QStringLiteral("cli/too_many_micro_batches.yaml")); }

const QByteArray precious = "these bytes must survive\n";

QByteArray read_file(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<unreadable>");
}

// The folder's entries other than `keep`: temporary files left behind, say.
QStringList others_in(const QString& folder, const QStringList& keep) {
    QStringList others;
    for (const QString& name : QDir(folder).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot)) {
        if (!keep.contains(name)) others << name;
    }
    return others;
}

}  // namespace

class TestCliFileSafety : public QObject {
    Q_OBJECT
private slots:
    void failingRunsLeaveOutputsUntouched_data();
    void failingRunsLeaveOutputsUntouched();
    void aLinkedOutputReplacesItsTargetAndKeepsTheLink();
    void outputsThatAreInputsAreRefused_data();
    void outputsThatAreInputsAreRefused();
    void outputsThatAreNotRegularFilesAreRefused_data();
    void outputsThatAreNotRegularFilesAreRefused();
    void inputsAreReadBounded_data();
    void inputsAreReadBounded();
    void standardOutputThatCannotBeWrittenFails_data();
    void standardOutputThatCannotBeWrittenFails();
    void aRunawayPathIsEchoedCutShort_data();
    void aRunawayPathIsEchoedCutShort();
};

void TestCliFileSafety::failingRunsLeaveOutputsUntouched_data() {
    QTest::addColumn<QStringList>("arguments");  // OUT stands for an existing file, SCENARIO for a copy of small_pipeline
    QTest::addColumn<QString>("message");        // a part of stderr
    QTest::newRow("--trace, a scenario with problems")
        << QStringList{QStringLiteral("simulate"), bad_file(), QStringLiteral("--trace"), QStringLiteral("OUT")}
        << QStringLiteral("unknown key 'micro_bach'");
    QTest::newRow("--csv, a scenario with problems")
        << QStringList{QStringLiteral("simulate"), bad_file(), QStringLiteral("--csv"), QStringLiteral("OUT")}
        << QStringLiteral("unknown key 'micro_bach'");
    QTest::newRow("--trace, a graph past --max-tasks")
        << QStringList{QStringLiteral("simulate"), too_large_file(), QStringLiteral("--trace"), QStringLiteral("OUT")}
        << QStringLiteral("--max-tasks N raises the limit");
    QTest::newRow("--trace, a usage error after it")
        << QStringList{QStringLiteral("simulate"), small_pipeline(), QStringLiteral("--trace"), QStringLiteral("OUT"),
                       QStringLiteral("--max-tasks"), QStringLiteral("zero")}
        << QStringLiteral("--max-tasks must be a whole number");
    QTest::newRow("--trace is the scenario")
        << QStringList{QStringLiteral("simulate"), QStringLiteral("SCENARIO"), QStringLiteral("--trace"),
                       QStringLiteral("SCENARIO")}
        << QStringLiteral("is the scenario file itself");
    QTest::newRow("--csv is the scenario")
        << QStringList{QStringLiteral("simulate"), QStringLiteral("SCENARIO"), QStringLiteral("--csv"),
                       QStringLiteral("SCENARIO")}
        << QStringLiteral("is the scenario file itself");
    QTest::newRow("--trace and --csv the same file")
        << QStringList{QStringLiteral("simulate"), small_pipeline(), QStringLiteral("--trace"), QStringLiteral("OUT"),
                       QStringLiteral("--csv"), QStringLiteral("OUT")}
        << QStringLiteral("--trace and --csv name the same file");
}

void TestCliFileSafety::failingRunsLeaveOutputsUntouched() {
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    const QString out = folder.filePath(QStringLiteral("prev.json"));
    const QString scenario = folder.filePath(QStringLiteral("mine.yaml"));
    QVERIFY(write_file(out, precious));
    const QByteArray scenario_bytes = read_file(small_pipeline());
    QVERIFY(write_file(scenario, scenario_bytes));
    for (QString& argument : arguments) {
        if (argument == QStringLiteral("OUT")) argument = out;
        if (argument == QStringLiteral("SCENARIO")) argument = scenario;
    }
    RUN_CLI(run, arguments);
    EXPECT_EXIT(run, 2);
    QVERIFY2(run.err.contains(message), qPrintable(describe(run)));
    QCOMPARE(read_file(out), precious);
    QCOMPARE(read_file(scenario), scenario_bytes);
    // Nothing else is left in the folder: no temporary file outlives the command.
    QCOMPARE(others_in(folder.path(), {QStringLiteral("prev.json"), QStringLiteral("mine.yaml")}), QStringList{});
}

void TestCliFileSafety::aLinkedOutputReplacesItsTargetAndKeepsTheLink() {
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    const QString target = folder.filePath(QStringLiteral("target.json"));
    const QString link = folder.filePath(QStringLiteral("link.json"));
    QVERIFY(write_file(target, precious));
    QVERIFY(QFile::link(target, link));
    // A failing run leaves both as they were.
    RUN_CLI(failed, QStringList{QStringLiteral("simulate"), bad_file(), QStringLiteral("--trace"), link});
    EXPECT_EXIT(failed, 2);
    QCOMPARE(read_file(target), precious);
    QVERIFY(QFileInfo(link).isSymLink());
    // A run that succeeds writes the trace into the link's target and keeps the link.
    RUN_CLI(succeeded, QStringList{QStringLiteral("simulate"), small_pipeline(), QStringLiteral("--trace"), link,
                                   QStringLiteral("--json")});
    EXPECT_EXIT(succeeded, 0);
    QVERIFY(QFileInfo(link).isSymLink());
    QVERIFY(read_file(target).startsWith("{\"displayTimeUnit\""));
    QCOMPARE(others_in(folder.path(), {QStringLiteral("target.json"), QStringLiteral("link.json")}), QStringList{});
}

// Every output of every command is compared with what the command reads and keeps — the scenario, its measured
// operations table, the results database and SQLite's companion files beside it (-wal, -shm, -journal) — and with
// the other outputs, as files: through a symbolic link and a hard link too. A clash is exit status 2 before anything
// is written; before this check `simulate S --db R.db --csv R.db` replaced the database with a CSV and exited 0.
void TestCliFileSafety::outputsThatAreInputsAreRefused_data() {
    QTest::addColumn<QStringList>("arguments");  // DB, SCENARIO, TABLE, LINK (→ DB), HARD (= DB) stand for files
    QTest::addColumn<QString>("message");        // stderr after "parasight-cli COMMAND: "
    const QString simulate = QStringLiteral("simulate");
    const QString runs = QStringLiteral("runs");
    const QString db = QStringLiteral("--db");
    QTest::newRow("simulate --csv is --db")
        << QStringList{simulate, QStringLiteral("SCENARIO"), db, QStringLiteral("DB"), QStringLiteral("--csv"),
                       QStringLiteral("DB")}
        << QStringLiteral("--csv and --db name the same file 'DB'; give each its own file");
    QTest::newRow("simulate --trace is --db")
        << QStringList{simulate, QStringLiteral("SCENARIO"), QStringLiteral("--trace"), QStringLiteral("DB"), db,
                       QStringLiteral("DB")}
        << QStringLiteral("--trace and --db name the same file 'DB'; give each its own file");
    QTest::newRow("simulate --trace is a link to --db")
        << QStringList{simulate, QStringLiteral("SCENARIO"), db, QStringLiteral("DB"), QStringLiteral("--trace"),
                       QStringLiteral("LINK")}
        << QStringLiteral("--trace 'LINK' and --db 'DB' are the same file; give each its own file");
    QTest::newRow("simulate --csv is a hard link to --db")
        << QStringList{simulate, QStringLiteral("SCENARIO"), db, QStringLiteral("DB"), QStringLiteral("--csv"),
                       QStringLiteral("HARD")}
        << QStringLiteral("--csv 'HARD' and --db 'DB' are the same file; give each its own file");
    QTest::newRow("simulate --trace is --db's write-ahead log")
        << QStringList{simulate, QStringLiteral("SCENARIO"), db, QStringLiteral("DB"), QStringLiteral("--trace"),
                       QStringLiteral("DB-wal")}
        << QStringLiteral("--trace 'DB-wal' is the write-ahead log of --db 'DB'; writing it would damage that "
                          "database: name another file");
    QTest::newRow("simulate --csv is the -shm of --db's link")
        << QStringList{simulate, QStringLiteral("SCENARIO"), db, QStringLiteral("LINK"), QStringLiteral("--csv"),
                       QStringLiteral("DB-shm")}
        << QStringLiteral("--csv 'DB-shm' is the shared-memory index of --db 'LINK'; writing it would damage that "
                          "database: name another file");
    QTest::newRow("simulate --csv is the measured operations table")
        << QStringList{simulate, QStringLiteral("SCENARIO"), QStringLiteral("--csv"), QStringLiteral("TABLE")}
        << QStringLiteral("--csv 'TABLE' is the measured operations table itself; name another file");
    QTest::newRow("simulate --db is the measured operations table")
        << QStringList{simulate, QStringLiteral("SCENARIO"), db, QStringLiteral("TABLE")}
        << QStringLiteral("--db 'TABLE' is the measured operations table itself; name another file");
    QTest::newRow("simulate --db is the scenario")
        << QStringList{simulate, QStringLiteral("SCENARIO"), db, QStringLiteral("SCENARIO")}
        << QStringLiteral("--db 'SCENARIO' is the scenario file itself; name another file");
    QTest::newRow("runs export --out is the database")
        << QStringList{runs, QStringLiteral("export"), QStringLiteral("run:1"), db, QStringLiteral("DB"),
                       QStringLiteral("--out"), QStringLiteral("LINK")}
        << QStringLiteral("--out 'LINK' is the results database 'DB' itself; name another file");
    QTest::newRow("runs export --out is the write-ahead log")
        << QStringList{runs, QStringLiteral("export"), QStringLiteral("run:1"), db, QStringLiteral("DB"),
                       QStringLiteral("--out"), QStringLiteral("DB-wal")}
        << QStringLiteral("--out 'DB-wal' is the write-ahead log of the results database 'DB'; writing it would "
                          "damage that database: name another file");
    QTest::newRow("runs export --out is the rollback journal")
        << QStringList{runs, QStringLiteral("export"), QStringLiteral("run:1"), db, QStringLiteral("DB"),
                       QStringLiteral("--out"), QStringLiteral("DB-journal")}
        << QStringLiteral("--out 'DB-journal' is the rollback journal of the results database 'DB'; writing it "
                          "would damage that database: name another file");
    QTest::newRow("merge into an input")
        << QStringList{QStringLiteral("merge"), QStringLiteral("LINK"), QStringLiteral("DB")}
        << QStringLiteral("the output database 'LINK' is the input database 'DB' itself; name another file");
    QTest::newRow("merge into an input's write-ahead log")
        << QStringList{QStringLiteral("merge"), QStringLiteral("DB-wal"), QStringLiteral("DB")}
        << QStringLiteral("the output database 'DB-wal' is the write-ahead log of the input database 'DB'; "
                          "writing it would damage that database: name another file");
    QTest::newRow("sweep --db is the scenario")
        << QStringList{QStringLiteral("sweep"), QStringLiteral("SCENARIO"), QStringLiteral("--axis"),
                       QStringLiteral("training.global_batch=1,2"), db, QStringLiteral("SCENARIO")}
        << QStringLiteral("--db 'SCENARIO' is the scenario file itself; name another file");
    QTest::newRow("sweep --db is the measured operations table")
        << QStringList{QStringLiteral("sweep"), QStringLiteral("SCENARIO"), QStringLiteral("--axis"),
                       QStringLiteral("training.global_batch=1,2"), db, QStringLiteral("TABLE")}
        << QStringLiteral("--db 'TABLE' is the measured operations table itself; name another file");
}

void TestCliFileSafety::outputsThatAreInputsAreRefused() {
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    // The measured-operations scenario and its table side by side, and a database holding one run of it.
    const QString scenario = folder.filePath(QStringLiteral("measured.yaml"));
    const QString table = folder.filePath(QStringLiteral("layer-ops.csv"));
    const QString database = folder.filePath(QStringLiteral("results.db"));
    QVERIFY(QFile::copy(data_path(QStringLiteral("measured/measured.yaml")), scenario));
    QVERIFY(QFile::copy(data_path(QStringLiteral("measured/layer-ops.csv")), table));
    RUN_CLI(stored, QStringList{QStringLiteral("simulate"), scenario, QStringLiteral("--db"), database});
    EXPECT_EXIT(stored, 0);
    const QString link = folder.filePath(QStringLiteral("link.db"));
    const QString hard = folder.filePath(QStringLiteral("hard.db"));
    QVERIFY(QFile::link(database, link));
    QCOMPARE(::link(QFile::encodeName(database).constData(), QFile::encodeName(hard).constData()), 0);
    const QStringList before = others_in(folder.path(), {});
    const QByteArray database_bytes = read_file(database);
    const QByteArray scenario_bytes = read_file(scenario);
    const QByteArray table_bytes = read_file(table);

    const std::pair<QString, QString> placeholders[] = {
        {QStringLiteral("DB"), database}, {QStringLiteral("SCENARIO"), scenario}, {QStringLiteral("TABLE"), table},
        {QStringLiteral("LINK"), link},   {QStringLiteral("HARD"), hard}};
    const auto substituted = [&](QString text) {
        // Whole words: "DB-wal" is the database's name and a suffix.
        for (const auto& [name, path] : placeholders) {
            text.replace(QRegularExpression(QStringLiteral("\\b%1\\b").arg(name)), path);
        }
        return text;
    };
    for (QString& argument : arguments) argument = substituted(argument);
    RUN_CLI(run, arguments);
    EXPECT_EXIT(run, 2);
    const QString expected = QStringLiteral("parasight-cli ") + arguments.front() + QStringLiteral(": ") +
                             substituted(message) + u'\n';
    QVERIFY2(run.err.startsWith(expected), qPrintable(expected + describe(run)));
    // Nothing was written: every file as it was, and nothing new beside them.
    QCOMPARE(read_file(database), database_bytes);
    QCOMPARE(read_file(scenario), scenario_bytes);
    QCOMPARE(read_file(table), table_bytes);
    QCOMPARE(others_in(folder.path(), {}), before);
}

void TestCliFileSafety::outputsThatAreNotRegularFilesAreRefused_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("message");
    QTest::newRow("a FIFO") << QStringLiteral("fifo") << QStringLiteral("it is a FIFO (named pipe), not a regular file");
    QTest::newRow("a character device")
        << QStringLiteral("/dev/null") << QStringLiteral("it is a character device, not a regular file");
    QTest::newRow("a directory") << QStringLiteral("directory")
                                 << QStringLiteral("it is a directory, not a regular file");
    QTest::newRow("a link that loops") << QStringLiteral("loop")
                                       << QStringLiteral("it is a symbolic link that loops (it leads back to itself)");
}

void TestCliFileSafety::outputsThatAreNotRegularFilesAreRefused() {
    QFETCH(QString, kind);
    QFETCH(QString, message);
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    QString path = kind;
    if (kind == QStringLiteral("fifo")) {
        path = folder.filePath(QStringLiteral("pipe"));
        QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
    } else if (kind == QStringLiteral("directory")) {
        path = folder.path();
    } else if (kind == QStringLiteral("loop")) {
        path = folder.filePath(QStringLiteral("loop"));
        QVERIFY(QFile::link(path, path));
    }
    for (const QString& option : {QStringLiteral("--trace"), QStringLiteral("--csv")}) {
        // Refused before anything runs; a FIFO with no reader must not block it.
        RUN_CLI(run, QStringList{QStringLiteral("simulate"), small_pipeline(), option, path});
        EXPECT_EXIT(run, 2);
        const QString expected = QStringLiteral("parasight-cli simulate: ") + option + QStringLiteral(": cannot write '") +
                                 path + QStringLiteral("': ") + message;
        QVERIFY2(run.err.startsWith(expected), qPrintable(expected + u'\n' + describe(run)));
    }
    if (kind == QStringLiteral("/dev/null")) {
        struct stat status{};
        QCOMPARE(::stat("/dev/null", &status), 0);
        QVERIFY(S_ISCHR(status.st_mode));  // still the device, not a file
    }
}

void TestCliFileSafety::inputsAreReadBounded_data() {
    QTest::addColumn<QString>("command");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("message");  // after "PATH: cannot load the scenario: "
    for (const QString& command : {QStringLiteral("validate"), QStringLiteral("simulate"), QStringLiteral("collective")}) {
        const QByteArray c = command.toUtf8();
        QTest::addRow("%s a directory", c.constData())
            << command << QStringLiteral("directory") << QStringLiteral("it is a directory, not a scenario file");
        QTest::addRow("%s a link that loops", c.constData())
            << command << QStringLiteral("loop")
            << QStringLiteral("it is a symbolic link that loops (it leads back to itself)");
        QTest::addRow("%s a dangling link", c.constData())
            << command << QStringLiteral("dangling")
            << QStringLiteral("it is a symbolic link to a file that does not exist");
        QTest::addRow("%s a missing file", c.constData())
            << command << QStringLiteral("missing") << QStringLiteral("it does not exist");
        QTest::addRow("%s a FIFO", c.constData())
            << command << QStringLiteral("fifo") << QStringLiteral("it is a FIFO (named pipe), not a scenario file");
        QTest::addRow("%s /dev/zero", c.constData())
            << command << QStringLiteral("/dev/zero") << QStringLiteral("it is a character device, not a scenario file");
        // 17 MiB, sparse: refused by its size before a byte is read.
        QTest::addRow("%s a 17 MiB file", c.constData())
            << command << QStringLiteral("large") << QStringLiteral("it is 17 MiB; a scenario file may be at most 16 MiB");
    }
}

void TestCliFileSafety::inputsAreReadBounded() {
    QFETCH(QString, command);
    QFETCH(QString, kind);
    QFETCH(QString, message);
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    QString path = kind;
    if (kind == QStringLiteral("directory")) {
        path = folder.path();
    } else if (kind == QStringLiteral("loop")) {
        path = folder.filePath(QStringLiteral("loop.yaml"));
        QVERIFY(QFile::link(path, path));
    } else if (kind == QStringLiteral("dangling")) {
        path = folder.filePath(QStringLiteral("dangling.yaml"));
        QVERIFY(QFile::link(folder.filePath(QStringLiteral("gone.yaml")), path));
    } else if (kind == QStringLiteral("missing")) {
        path = folder.filePath(QStringLiteral("missing.yaml"));
    } else if (kind == QStringLiteral("fifo")) {
        path = folder.filePath(QStringLiteral("pipe.yaml"));
        QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
    } else if (kind == QStringLiteral("large")) {
        path = folder.filePath(QStringLiteral("large.yaml"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QVERIFY(file.resize(17 * 1024 * 1024));
    }
    QStringList arguments{command, path};
    if (command == QStringLiteral("collective")) {
        arguments << QStringLiteral("--op") << QStringLiteral("all-reduce") << QStringLiteral("--size")
                  << QStringLiteral("1GiB");
    }
    RUN_CLI(run, arguments);
    EXPECT_EXIT(run, 2);
    const QString expected = path + QStringLiteral(": cannot load the scenario: ") + message + u'\n';
    QVERIFY2(run.err == expected, qPrintable(expected + describe(run)));
}

void TestCliFileSafety::standardOutputThatCannotBeWrittenFails_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("command");
    QTest::newRow("validate") << QStringList{QStringLiteral("validate"), small_pipeline()} << QStringLiteral("validate");
    QTest::newRow("simulate --json")
        << QStringList{QStringLiteral("simulate"), small_pipeline(), QStringLiteral("--json")}
        << QStringLiteral("simulate");
    QTest::newRow("simulate summary") << QStringList{QStringLiteral("simulate"), small_pipeline()}
                                      << QStringLiteral("simulate");
    QTest::newRow("presets list") << QStringList{QStringLiteral("presets"), QStringLiteral("list")}
                                  << QStringLiteral("presets");
    QTest::newRow("collective --json")
        << QStringList{QStringLiteral("collective"), small_pipeline(), QStringLiteral("--op"),
                       QStringLiteral("all-reduce"), QStringLiteral("--size"), QStringLiteral("1GiB"),
                       QStringLiteral("--json")}
        << QStringLiteral("collective");
    QTest::newRow("--help") << QStringList{QStringLiteral("--help")} << QStringLiteral("--help");
}

void TestCliFileSafety::standardOutputThatCannotBeWrittenFails() {
    QFETCH(QStringList, arguments);
    QFETCH(QString, command);
    // /dev/full: every write fails with ENOSPC. The command must say so and exit 1, not 0.
    const CliRun run = run_cli(arguments, QStringLiteral("/dev/full"));
    QVERIFY2(run.finished, qPrintable(run.failure));
    EXPECT_EXIT(run, 1);
    const QString expected = QStringLiteral("parasight-cli ") + command +
                             QStringLiteral(": cannot write to standard output: No space left on device\n");
    QVERIFY2(run.err.endsWith(expected), qPrintable(expected + describe(run)));
}

// A path is echoed whole up to 4096 characters, the longest Linux opens (docs/contracts.md), so a pasted runaway
// argument cannot flood the terminal: a 100 005-character path ('/tmp/' and 100 000 × 'a') is named by its first
// 4096 characters, "…" and "(95909 more characters)" — 100 005 − 4096 = 95 909; in quotes where a message quotes it.
void TestCliFileSafety::aRunawayPathIsEchoedCutShort_data() {
    QTest::addColumn<QStringList>("arguments");  // PATH stands for the runaway path
    QTest::addColumn<QString>("before");         // stderr up to the path
    QTest::addColumn<QString>("after");          // stderr after the path's cut
    QTest::addColumn<bool>("quoted");
    QTest::newRow("the scenario") << QStringList{QStringLiteral("simulate"), QStringLiteral("PATH")} << QString()
                                  << QStringLiteral(": cannot load the scenario: it cannot be read: File name too long\n")
                                  << false;
    QTest::newRow("--trace") << QStringList{QStringLiteral("simulate"), small_pipeline(), QStringLiteral("--trace"),
                                            QStringLiteral("PATH")}
                             << QStringLiteral("parasight-cli simulate: --trace: cannot write ")
                             << QStringLiteral(": it cannot be written: File name too long\n") << true;
    QTest::newRow("--trace and --csv") << QStringList{QStringLiteral("simulate"), small_pipeline(), QStringLiteral("--trace"),
                                                      QStringLiteral("PATH"), QStringLiteral("--csv"), QStringLiteral("PATH")}
                                       << QStringLiteral("parasight-cli simulate: --trace and --csv name the same file ")
                                       << QStringLiteral("; give each its own file\n") << true;
}

void TestCliFileSafety::aRunawayPathIsEchoedCutShort() {
    QFETCH(QStringList, arguments);
    QFETCH(QString, before);
    QFETCH(QString, after);
    QFETCH(bool, quoted);
    const QString path = QStringLiteral("/tmp/") + QString(100'000, u'a');
    arguments.replaceInStrings(QStringLiteral("PATH"), path);
    RUN_CLI(run, arguments);
    EXPECT_EXIT(run, 2);
    const QString cut = quoted ? u'\'' + path.left(4096) + QStringLiteral("…' (95909 more characters)")
                               : path.left(4096) + QStringLiteral("… (95909 more characters)");
    QVERIFY2(run.err.startsWith(before + cut + after), qPrintable(describe(run).left(600)));
}

QTEST_GUILESS_MAIN(TestCliFileSafety)
#include "test_cli_file_safety.moc"
