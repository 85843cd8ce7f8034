#pragma once
// Runs the built parasight-cli (PARASIGHT_CLI_PATH) with QProcess for the CLI suites and captures its exit status,
// stdout and stderr; data_path() names a file under tests/data.

#include <QByteArray>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTest>

namespace parasight::testing {

inline QString data_path(const QString& relative) {
    return QString::fromUtf8(PARASIGHT_SOURCE_DIR) + QStringLiteral("/tests/data/") + relative;
}

// Writes a test's input file whole; false when it could not.
[[nodiscard]] inline bool write_file(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

struct CliRun {
    bool finished = false;
    QString failure;  // why it did not finish normally
    int exit_code = -1;
    QByteArray out_bytes;
    QString out;
    QString err;
};

// `standard_output`: a file to send stdout to (e.g. /dev/full) instead of capturing it.
inline CliRun run_cli(const QStringList& arguments, const QString& standard_output = {}) {
    CliRun run;
    QProcess process;
    process.setProgram(QString::fromUtf8(PARASIGHT_CLI_PATH));
    process.setArguments(arguments);
    if (!standard_output.isEmpty()) process.setStandardOutputFile(standard_output);
    process.start();
    if (!process.waitForStarted(10'000)) {
        run.failure = QStringLiteral("cannot start %1: %2").arg(process.program(), process.errorString());
        return run;
    }
    if (!process.waitForFinished(120'000)) {
        process.kill();
        process.waitForFinished();
        run.failure = QStringLiteral("parasight-cli %1 did not finish in 120 s").arg(arguments.join(u' '));
        return run;
    }
    run.out_bytes = process.readAllStandardOutput();
    run.out = QString::fromUtf8(run.out_bytes);
    run.err = QString::fromUtf8(process.readAllStandardError());
    if (process.exitStatus() != QProcess::NormalExit) {
        run.failure = QStringLiteral("parasight-cli %1 crashed; stderr:\n%2").arg(arguments.join(u' '), run.err);
        return run;
    }
    run.finished = true;
    run.exit_code = process.exitCode();
    return run;
}

inline QString describe(const CliRun& run) {
    return QStringLiteral("exit %1\n--- stdout:\n%2--- stderr:\n%3").arg(run.exit_code).arg(run.out, run.err);
}

}  // namespace parasight::testing

// Runs parasight-cli with the given QStringList, failing the test if it does not start, hangs or crashes.
#define RUN_CLI(run, ...)                                                                \
    const ::parasight::testing::CliRun run = ::parasight::testing::run_cli(__VA_ARGS__); \
    QVERIFY2(run.finished, qPrintable(run.failure))

#define EXPECT_EXIT(run, code) QVERIFY2((run).exit_code == (code), qPrintable(::parasight::testing::describe(run)))

// Parses `run`'s stdout as exactly one JSON object (QJsonDocument refuses anything after it) into `json`, failing the
// test when it is not one or when `shape_problems(json)` — a function returning a QStringList — lists anything.
#define PARSE_JSON_OBJECT(json, run, shape_problems)                                                            \
    QJsonObject json;                                                                                          \
    {                                                                                                          \
        QJsonParseError parse_error;                                                                           \
        const QJsonDocument document = QJsonDocument::fromJson((run).out_bytes, &parse_error);                 \
        QVERIFY2(parse_error.error == QJsonParseError::NoError && document.isObject(),                         \
                 qPrintable(parse_error.errorString() + QStringLiteral("\n") + ::parasight::testing::describe(run))); \
        json = document.object();                                                                              \
        const QStringList problems = shape_problems(json);                                                     \
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n') + QStringLiteral("\n") +                  \
                                                ::parasight::testing::describe(run)));                         \
    }
