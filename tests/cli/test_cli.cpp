// parasight-cli end to end (docs/contracts.md "Command line", "Exit codes"): the built binary is run with QProcess and its exit status, its
// messages and its JSON are checked — usage and help, option errors, validate, presets, and collective on the
// ASTRA-sim 2.0 Table III scenarios (tests/data/astra) and on a small two-level cluster (tests/data/cli).
//
// Units in the working below: 1 GiB = 2^30 B = 1073741824 B, 1 MiB = 2^20 B; bandwidths are GiB/s, so
// x GiB / y GiB/s = x/y s exactly.

#include "cli_runner.h"
#include "numeric_compare.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStringList>
#include <QTest>

#include <cmath>

namespace {

using parasight::testing::data_path;
using parasight::testing::describe;

constexpr double MiB = 1024.0 * 1024.0;
constexpr double GiB = 1024.0 * MiB;
constexpr double us = 1e-6;
// Times worked out by hand come out of the CLI through sums of chunk times; 1e-12 relative absorbs their rounding
// and nothing else.
constexpr double kExact = 1e-12;
// docs/contracts.md "Published numbers": reproduce ASTRA-sim 2.0 Table III within 2 %.
constexpr double kPublished = 0.02;

QString astra(const QString& row) { return data_path(QStringLiteral("astra/") + row + QStringLiteral(".yaml")); }

// 4 nodes × Ring(8) at 100 GiB/s, 1 us per hop; the nodes on a Switch(4) at 25 GiB/s, 5 us per hop; tp 2, dp 16,
// mapping [tp, dp] — see the file's header.
QString two_level() { return data_path(QStringLiteral("cli/two_level.yaml")); }
// training.micro_bach at 7:3 and a bandwidth of "100 GiB" (no /s) at 11:40.
QString bad_file() { return data_path(QStringLiteral("cli/bad.yaml")); }

// The keys docs/contracts.md promises in `collective --json`; empty when all are there with the right JSON types.
QStringList missing_collective_keys(const QJsonObject& json) {
    QStringList missing;
    for (const char* key : {"time_s", "algbw_Bps", "busbw_Bps"}) {
        if (!json.value(QLatin1String(key)).isDouble()) missing << QLatin1String(key);
    }
    if (!json.value(QLatin1String("per_dim")).isArray()) {
        missing << QStringLiteral("per_dim");
        return missing;
    }
    const QJsonArray per_dim = json.value(QLatin1String("per_dim")).toArray();
    for (qsizetype i = 0; i < per_dim.size(); ++i) {
        const QJsonObject dimension = per_dim.at(i).toObject();
        for (const char* key : {"dim", "size", "bytes_sent", "time_s"}) {
            if (!dimension.value(QLatin1String(key)).isDouble()) {
                missing << QStringLiteral("per_dim[%1].%2").arg(i).arg(QLatin1String(key));
            }
        }
        if (!dimension.value(QLatin1String("kind")).isString()) missing << QStringLiteral("per_dim[%1].kind").arg(i);
    }
    return missing;
}

}  // namespace

class TestCli : public QObject {
    Q_OBJECT

private slots:
    // --- usage ---------------------------------------------------------------------------------------------------

    void version() {
        RUN_CLI(run, {QStringLiteral("--version")});
        EXPECT_EXIT(run, 0);
        QCOMPARE(run.out, QStringLiteral("parasight-cli " PARASIGHT_VERSION "\n"));
        QVERIFY(run.err.isEmpty());
    }

    void help_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("usage");
        const QString overview = QStringLiteral("usage: parasight-cli COMMAND");
        QTest::newRow("--help") << QStringList{QStringLiteral("--help")} << overview;
        QTest::newRow("-h") << QStringList{QStringLiteral("-h")} << overview;
        QTest::newRow("help") << QStringList{QStringLiteral("help")} << overview;
        for (const QString& command : {QStringLiteral("validate"), QStringLiteral("presets"), QStringLiteral("collective"),
                                      QStringLiteral("simulate")}) {
            const QString usage = QStringLiteral("usage: parasight-cli ") + command;
            QTest::addRow("%s --help", qPrintable(command)) << QStringList{command, QStringLiteral("--help")} << usage;
            QTest::addRow("%s -h", qPrintable(command)) << QStringList{command, QStringLiteral("-h")} << usage;
        }
        // --help wins wherever it stands, even after an otherwise bad command line.
        QTest::newRow("collective with bad options, then --help")
            << QStringList{QStringLiteral("collective"), QStringLiteral("--op"), QStringLiteral("nonsense"),
                           QStringLiteral("--help")}
            << QStringLiteral("usage: parasight-cli collective");
    }

    void help() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, usage);
        RUN_CLI(run, arguments);
        EXPECT_EXIT(run, 0);
        QVERIFY2(run.out.startsWith(usage), qPrintable(describe(run)));
        QVERIFY(run.err.isEmpty());
        if (arguments.first().startsWith(u'-') || arguments.first() == QStringLiteral("help")) {
            for (const char* command : {"validate", "presets", "collective"}) {
                QVERIFY2(run.out.contains(QLatin1String(command)), command);
            }
        }
    }

    void no_arguments() {
        RUN_CLI(run, QStringList{});
        EXPECT_EXIT(run, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains(QStringLiteral("usage: parasight-cli COMMAND")), qPrintable(describe(run)));
    }

    void unknown_command() {
        RUN_CLI(run, {QStringLiteral("frobnicate"), QStringLiteral("x.yaml")});
        EXPECT_EXIT(run, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.startsWith(QStringLiteral("parasight-cli: unknown command 'frobnicate'\n")),
                 qPrintable(describe(run)));
        QVERIFY(run.err.contains(QStringLiteral("usage: parasight-cli COMMAND")));
    }

    void unknown_command_suggests() {
        // "valdate" is one deletion from "validate".
        RUN_CLI(run, {QStringLiteral("valdate"), QStringLiteral("x.yaml")});
        EXPECT_EXIT(run, 2);
        QVERIFY2(run.err.startsWith(QStringLiteral("parasight-cli: unknown command 'valdate' (did you mean "
                                                   "'validate'?)\n")),
                 qPrintable(describe(run)));
    }

    void unknown_option_suggests() {
        RUN_CLI(run, {QStringLiteral("collective"), two_level(), QStringLiteral("--op"), QStringLiteral("all-reduce"),
                      QStringLiteral("--size"), QStringLiteral("1GiB"), QStringLiteral("--jsn")});
        EXPECT_EXIT(run, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.startsWith(QStringLiteral("parasight-cli collective: unknown option '--jsn'")),
                 qPrintable(describe(run)));
        QVERIFY2(run.err.contains(QStringLiteral("did you mean")) && run.err.contains(QStringLiteral("json")),
                 qPrintable(describe(run)));
        QVERIFY(run.err.contains(QStringLiteral("see 'parasight-cli collective --help'")));
        // The suggestion is spelt as it is typed.
        QVERIFY2(run.err.contains(QStringLiteral("did you mean '--json'")), qPrintable(run.err));
    }

    void unknown_option_without_suggestion() {
        RUN_CLI(run, {QStringLiteral("validate"), QStringLiteral("--strict"), two_level()});
        EXPECT_EXIT(run, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.startsWith(QStringLiteral("parasight-cli validate: unknown option '--strict'")),
                 qPrintable(describe(run)));
    }

    void long_words_are_shortened_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("first_line");  // of standard error
        // Echoed words are cut after 80 characters, with the count of those left out.
        const QString word = QString(80, u'w');
        const QString more = QString(1000, u'm');
        const QString cut = word + QStringLiteral("\u2026' (1000 more characters)");
        QTest::newRow("command") << QStringList{word + more}
                                 << QStringLiteral("parasight-cli: unknown command '") + cut;
        QTest::newRow("option") << QStringList{QStringLiteral("validate"), QStringLiteral("--") + word + more}
                                << QStringLiteral("parasight-cli validate: unknown option '--") +
                                       QString(78, u'w') + QStringLiteral("\u2026' (1002 more characters)");
        QTest::newRow("presets show") << QStringList{QStringLiteral("presets"), QStringLiteral("show"), word + more}
                                      << QStringLiteral("parasight-cli presets: no preset '") + cut +
                                             QStringLiteral("; 'parasight-cli presets list' shows them all");
        QTest::newRow("presets list") << QStringList{QStringLiteral("presets"), QStringLiteral("list"), word + more}
                                      << QStringLiteral("parasight-cli presets: unknown kind '") + cut +
                                             QStringLiteral("; kinds: device, model, cluster, scenario or lesson");
    }

    void long_words_are_shortened() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, first_line);
        RUN_CLI(run, arguments);
        EXPECT_EXIT(run, 2);
        QCOMPARE(run.err.section(u'\n', 0, 0), first_line);
    }

    void missing_option_value_data() {
        QTest::addColumn<QStringList>("tail");
        QTest::addColumn<QString>("message");
        const QString op = QStringLiteral("--op");
        const QString all_reduce = QStringLiteral("all-reduce");
        const QString size = QStringLiteral("--size");
        const QString one_gib = QStringLiteral("1GiB");
        QTest::newRow("--op last") << QStringList{size, one_gib, op} << QStringLiteral("option --op needs a value");
        QTest::newRow("--size last") << QStringList{op, all_reduce, size}
                                     << QStringLiteral("option --size needs a value");
        QTest::newRow("--group last") << QStringList{op, all_reduce, size, one_gib, QStringLiteral("--group")}
                                      << QStringLiteral("option --group needs a value");
        QTest::newRow("--chunks last") << QStringList{op, all_reduce, size, one_gib, QStringLiteral("--chunks")}
                                       << QStringLiteral("option --chunks needs a value");
        QTest::newRow("no --op") << QStringList{size, one_gib} << QStringLiteral("--op is required");
        QTest::newRow("no --size") << QStringList{op, all_reduce} << QStringLiteral("--size is required");
    }

    void missing_option_value() {
        QFETCH(QStringList, tail);
        QFETCH(QString, message);
        RUN_CLI(run, QStringList{QStringLiteral("collective"), two_level()} + tail);
        EXPECT_EXIT(run, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.startsWith(QStringLiteral("parasight-cli collective: ") + message), qPrintable(describe(run)));
    }

    void option_followed_by_option() {
        // `--op --size 1GiB`: the value of --op is missing; "--size" is an option, not a value.
        RUN_CLI(run, {QStringLiteral("collective"), two_level(), QStringLiteral("--op"), QStringLiteral("--size"),
                      QStringLiteral("1GiB")});
        EXPECT_EXIT(run, 2);
        QVERIFY2(run.err.contains(QStringLiteral("option --op needs a value")), qPrintable(run.err));
    }

    // --- memory-transfer: ASTRA-sim 2.0's worked example (tests/core/test_memory_system.cpp works it out) ---------

    void memory_transfer_pool_text() {
        RUN_CLI(run, {QStringLiteral("memory-transfer"), data_path(QStringLiteral("memory_system/seed-pool.yaml")),
                      QStringLiteral("--tier"), QStringLiteral("pool"), QStringLiteral("--size"),
                      QStringLiteral("64MB")});
        EXPECT_EXIT(run, 0);
        // 512 chunks of 1, 2 and 1 ms through the three stages: 1026 ms.
        QCOMPARE(run.out, QStringLiteral("64 MB per GPU from the memory pool, 256 GPUs at once (16 a node): 1.026 s\n"
                                         "  512 pipelined chunks; each GPU receives 64 MB\n"
                                         "  stage                            bytes on a link  link bandwidth  time per chunk\n"
                                         "  remote group → out-node switch   512 MB           1 GB/s          1 ms\n"
                                         "  out-node switch → node           256 MB           250 MB/s        2 ms\n"
                                         "  in-node switch → GPU             64 MB            125 MB/s        1 ms\n"));
        QVERIFY(run.err.isEmpty());
    }

    void memory_transfer_pool_json() {
        RUN_CLI(run, {QStringLiteral("memory-transfer"), data_path(QStringLiteral("memory_system/seed-pool.yaml")),
                      QStringLiteral("--tier"), QStringLiteral("pool"), QStringLiteral("--size"), QStringLiteral("64MB"),
                      QStringLiteral("--json")});
        EXPECT_EXIT(run, 0);
        const QJsonObject json = QJsonDocument::fromJson(run.out_bytes).object();
        QCOMPARE(json.value(QStringLiteral("tier")).toString(), QStringLiteral("pool"));
        QCOMPARE(json.value(QStringLiteral("size_bytes")).toDouble(), 64e6);
        QCOMPARE(json.value(QStringLiteral("gpus")).toInteger(), 256);
        QCOMPARE(json.value(QStringLiteral("gpus_per_node")).toInteger(), 16);
        QVERIFY(qAbs(json.value(QStringLiteral("time_s")).toDouble() - 1.026) < 1e-12);
        QCOMPARE(json.value(QStringLiteral("received_bytes_per_gpu")).toDouble(), 64e6);
        QCOMPARE(json.value(QStringLiteral("chunks")).toDouble(), 512.0);
        const QJsonArray links = json.value(QStringLiteral("links")).toArray();
        QCOMPARE(links.size(), 3);
        // 8W, 4W and W (the seed's "8W" per group–switch link and "4W" per switch–node link).
        const double bytes[] = {512e6, 256e6, 64e6};
        const double chunk_s[] = {1e-3, 2e-3, 1e-3};
        for (qsizetype i = 0; i < links.size(); ++i) {
            const QJsonObject link = links.at(i).toObject();
            QVERIFY(link.value(QStringLiteral("stage")).isString());
            QCOMPARE(link.value(QStringLiteral("bytes")).toDouble(), bytes[i]);
            QVERIFY(link.value(QStringLiteral("bandwidth_Bps")).isDouble());
            QVERIFY(qAbs(link.value(QStringLiteral("chunk_time_s")).toDouble() - chunk_s[i]) < 1e-15);
        }
    }

    void memory_transfer_host_and_nvme() {
        // 1 GiB over a 32 GB/s host link: 33.554 ms + 10 µs; the node's 25 GB/s of NVMe shared by 16 GPUs
        // (1.5625 GB/s each): 687.2 ms + 100 µs.
        for (const auto& [tier, seconds] : {std::pair{QStringLiteral("host"), 1073741824.0 / 32e9 + 10e-6},
                                            std::pair{QStringLiteral("nvme"), 1073741824.0 / 1.5625e9 + 100e-6}}) {
            RUN_CLI(run, {QStringLiteral("memory-transfer"), data_path(QStringLiteral("memory_system/seed-pool.yaml")),
                          QStringLiteral("--tier"), tier, QStringLiteral("--size"), QStringLiteral("1GiB"),
                          QStringLiteral("--json")});
            EXPECT_EXIT(run, 0);
            const QJsonObject json = QJsonDocument::fromJson(run.out_bytes).object();
            QVERIFY2(qAbs(json.value(QStringLiteral("time_s")).toDouble() - seconds) < 1e-12 * seconds, qPrintable(tier));
            QVERIFY(!json.contains(QStringLiteral("links")));
        }
    }

    void memory_transfer_refusals_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        const QString pool_file = data_path(QStringLiteral("memory_system/seed-pool.yaml"));
        const QString tier = QStringLiteral("--tier");
        const QString size = QStringLiteral("--size");
        QTest::newRow("tier the cluster lacks")
            << QStringList{two_level(), tier, QStringLiteral("pool"), size, QStringLiteral("1GiB")}
            << QStringLiteral("parasight-cli memory-transfer: ") + two_level() +
                   QStringLiteral(": the cluster has no memory_system.pool");
        QTest::newRow("unknown tier")
            << QStringList{pool_file, tier, QStringLiteral("hots"), size, QStringLiteral("1GiB")}
            << QStringLiteral("parasight-cli memory-transfer: --tier: unknown tier 'hots' (did you mean 'host'?); "
                              "expected host, nvme or pool");
        QTest::newRow("no tier") << QStringList{pool_file, size, QStringLiteral("1GiB")}
                                 << QStringLiteral("parasight-cli memory-transfer: --tier is required");
        QTest::newRow("no size") << QStringList{pool_file, tier, QStringLiteral("host")}
                                 << QStringLiteral("parasight-cli memory-transfer: --size is required");
        QTest::newRow("size without unit")
            << QStringList{pool_file, tier, QStringLiteral("host"), size, QStringLiteral("64")}
            << QStringLiteral("parasight-cli memory-transfer: --size: ");
        QTest::newRow("size zero") << QStringList{pool_file, tier, QStringLiteral("host"), size, QStringLiteral("0B")}
                                   << QStringLiteral("parasight-cli memory-transfer: --size must not be zero or negative, got '0B'");
        QTest::newRow("two files") << QStringList{pool_file, pool_file, tier, QStringLiteral("host"), size,
                                                  QStringLiteral("1GiB")}
                                   << QStringLiteral("parasight-cli memory-transfer: name exactly one scenario FILE");
        QTest::newRow("a file with errors")
            << QStringList{bad_file(), tier, QStringLiteral("host"), size, QStringLiteral("1GiB")}
            << bad_file() + QStringLiteral(":7:3: ");
    }

    void memory_transfer_refusals() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        RUN_CLI(run, QStringList{QStringLiteral("memory-transfer")} + arguments);
        EXPECT_EXIT(run, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.startsWith(message), qPrintable(describe(run)));
    }

    // --- validate --------------------------------------------------------------------------------------------------

    void validate_good() {
        RUN_CLI(run, {QStringLiteral("validate"), two_level()});
        EXPECT_EXIT(run, 0);
        // 8 × 4 = 32 devices.
        QCOMPARE(run.out, two_level() + QStringLiteral(": ok — CLI test cluster, 4 x 8 NPUs, 32 devices\n"));
        QVERIFY(run.err.isEmpty());
    }

    void validate_one_device() {
        // A count of 1 takes the singular.
        const QString one_device = data_path(QStringLiteral("cli/one_device.yaml"));
        RUN_CLI(run, {QStringLiteral("validate"), one_device});
        EXPECT_EXIT(run, 0);
        QCOMPARE(run.out, one_device + QStringLiteral(": ok — CLI one device, 1 device\n"));
        QVERIFY(run.err.isEmpty());
    }

    void validate_bad() {
        RUN_CLI(run, {QStringLiteral("validate"), bad_file()});
        EXPECT_EXIT(run, 2);
        QVERIFY(run.out.isEmpty());
        const QStringList lines = run.err.split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        // Every line is FILE:LINE:COL: message.
        const QRegularExpression located(QStringLiteral("^(.+):(\\d+):(\\d+): \\S.*$"));
        for (const QString& line : lines) {
            const QRegularExpressionMatch match = located.match(line);
            QVERIFY2(match.hasMatch(), qPrintable(line));
            QCOMPARE(match.captured(1), bad_file());
        }
        // bad.yaml line 7 is "  micro_bach: 1": the key starts in column 3.
        QVERIFY2(lines[0].startsWith(bad_file() + QStringLiteral(":7:3: unknown key 'micro_bach'")), qPrintable(lines[0]));
        QVERIFY(lines[0].contains(QStringLiteral("did you mean 'micro_batch'")));
        // Line 11 is "    - {kind: ring, size: 8, bandwidth: 100 GiB, latency: 1 us}": 4 spaces, "- ", then "{" in
        // column 7; "kind: ring, " takes 8–19, "size: 8, " 20–28, "bandwidth: " 29–39, so the value starts at 40.
        QVERIFY2(lines[1].startsWith(bad_file() + QStringLiteral(":11:40: ")), qPrintable(lines[1]));
        QVERIFY(lines[1].contains(QStringLiteral("GB/s")));
    }

    void validate_missing_file() {
        const QString missing = data_path(QStringLiteral("cli/no_such_file.yaml"));
        RUN_CLI(run, {QStringLiteral("validate"), missing});
        EXPECT_EXIT(run, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.startsWith(missing + QStringLiteral(": ")), qPrintable(describe(run)));
    }

    void validate_no_file() {
        RUN_CLI(run, {QStringLiteral("validate")});
        EXPECT_EXIT(run, 2);
        QVERIFY2(run.err.contains(QStringLiteral("FILE")), qPrintable(describe(run)));
    }

    void validate_several() {
        const QString missing = data_path(QStringLiteral("cli/no_such_file.yaml"));
        RUN_CLI(run, {QStringLiteral("validate"), bad_file(), two_level(), missing, astra(QStringLiteral("2_8_8_4"))});
        EXPECT_EXIT(run, 2);
        // The good files are reported on stdout in order (2 × 8 × 8 × 4 = 512 devices), the bad ones on stderr.
        const QStringList ok_lines = run.out.split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(ok_lines.size(), 2);
        QVERIFY2(ok_lines[0].startsWith(two_level() + QStringLiteral(": ok")), qPrintable(ok_lines[0]));
        QVERIFY2(ok_lines[1].startsWith(astra(QStringLiteral("2_8_8_4")) + QStringLiteral(": ok")) &&
                     ok_lines[1].endsWith(QStringLiteral(", 512 devices")),
                 qPrintable(ok_lines[1]));
        QVERIFY2(run.err.contains(bad_file() + QStringLiteral(":7:3: ")), qPrintable(run.err));
        QVERIFY2(run.err.contains(bad_file() + QStringLiteral(":11:40: ")), qPrintable(run.err));
        QVERIFY2(run.err.contains(missing + QStringLiteral(": ")), qPrintable(run.err));
        QVERIFY(!run.err.contains(two_level()));
    }

    void validate_astra_scenarios() {
        QStringList arguments{QStringLiteral("validate")};
        for (const char* row : {"2_8_8_4", "2_8_8_8", "2_8_8_16", "2_8_8_32", "4_8_8_4", "8_8_8_4", "16_8_8_4"}) {
            arguments << astra(QLatin1String(row));
        }
        RUN_CLI(run, arguments);
        EXPECT_EXIT(run, 0);
        QCOMPARE(run.out.count(QStringLiteral(": ok")), 7);
    }

    // --- presets ---------------------------------------------------------------------------------------------------

    void presets_list() {
        RUN_CLI(run, {QStringLiteral("presets"), QStringLiteral("list")});
        EXPECT_EXIT(run, 0);
        const QStringList lines = run.out.split(u'\n', Qt::SkipEmptyParts);
        for (const char* kind : {"device", "model", "cluster", "scenario"}) {
            bool present = false;
            for (const QString& line : lines) present = present || line.startsWith(QString::fromLatin1(kind) + u' ');
            QVERIFY2(present, kind);
        }
        // Every id of docs/contracts.md "Preset ids" is listed, as the whole id column of a line ("a10" must not match "a100-40gb").
        for (const char* id : {"a100-40gb", "a100-80gb", "h100-sxm", "h200", "v100", "a40", "a10", "tpu-v4",
                               "gpt2-small", "gpt2-medium", "gpt2-xl", "gpt3-175b", "llama3-8b", "llama3-70b",
                               "llama3-405b", "bert-large", "t5-large", "resnet50", "vgg16"}) {
            const QRegularExpression listed(QStringLiteral("^\\w+\\s+%1\\s").arg(QRegularExpression::escape(QLatin1String(id))),
                                            QRegularExpression::MultilineOption);
            QVERIFY2(listed.match(run.out).hasMatch(), id);
        }
    }

    void presets_list_kind() {
        RUN_CLI(run, {QStringLiteral("presets"), QStringLiteral("list"), QStringLiteral("model")});
        EXPECT_EXIT(run, 0);
        const QStringList lines = run.out.split(u'\n', Qt::SkipEmptyParts);
        QVERIFY(lines.size() >= 11);  // the eleven model ids of docs/contracts.md
        for (const QString& line : lines) QVERIFY2(line.startsWith(QStringLiteral("model ")), qPrintable(line));
        QVERIFY(run.out.contains(QStringLiteral("gpt3-175b")));
        QVERIFY(!run.out.contains(QStringLiteral("a100-80gb")));
    }

    void presets_list_unknown_kind() {
        RUN_CLI(run, {QStringLiteral("presets"), QStringLiteral("list"), QStringLiteral("gpus")});
        EXPECT_EXIT(run, 2);
        QVERIFY2(run.err.contains(QStringLiteral("unknown kind 'gpus'")) &&
                     run.err.contains(QStringLiteral("device, model, cluster, scenario or lesson")),
                 qPrintable(describe(run)));
    }

    void presets_show_data() {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("name_line");
        QTest::newRow("id") << QStringLiteral("a100-80gb") << QStringLiteral("name: A100-80GB SXM4");
        QTest::newRow("kind/id") << QStringLiteral("model/gpt2-small") << QStringLiteral("name: GPT-2 small");
        QTest::newRow("cluster") << QStringLiteral("cluster/astra-conv4d") << QStringLiteral("name: ASTRA-sim 2.0 Conv-4D");
    }

    void presets_show() {
        QFETCH(QString, id);
        QFETCH(QString, name_line);
        RUN_CLI(run, {QStringLiteral("presets"), QStringLiteral("show"), id});
        EXPECT_EXIT(run, 0);
        QVERIFY(run.err.isEmpty());
        // The YAML, after a first comment line naming its file.
        QVERIFY2(run.out.startsWith(QStringLiteral("# presets/")), qPrintable(run.out.left(200)));
        const QRegularExpression name(QStringLiteral("^") + QRegularExpression::escape(name_line),
                                      QRegularExpression::MultilineOption);
        QVERIFY2(name.match(run.out).hasMatch(), qPrintable(run.out.left(2000)));
    }

    void presets_show_unknown_data() {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("suggestion");  // the message's "did you mean" part; empty for none
        QTest::newRow("one edit") << QStringLiteral("gpt3-175c") << QStringLiteral(" (did you mean 'gpt3-175b'?)");
        // Ids the word begins, ignoring case, come before any a few edits away ('v100' for 'A100'), all of them in
        // the listing's order.
        QTest::newRow("begins one") << QStringLiteral("gpt3") << QStringLiteral(" (did you mean 'gpt3-175b'?)");
        QTest::newRow("begins two, another case")
            << QStringLiteral("A100") << QStringLiteral(" (did you mean 'a100-40gb' or 'a100-80gb'?)");
        QTest::newRow("begins four")
            << QStringLiteral("gpt")
            << QStringLiteral(" (did you mean 'gpt2-medium', 'gpt2-small', 'gpt2-xl' or 'gpt3-175b'?)");
        QTest::newRow("contained") << QStringLiteral("175b") << QStringLiteral(" (did you mean 'gpt3-175b'?)");
        // With a kind, only that kind's ids are suggested.
        QTest::newRow("model/gpt3") << QStringLiteral("model/gpt3") << QStringLiteral(" (did you mean 'gpt3-175b'?)");
        QTest::newRow("device/gpt3") << QStringLiteral("device/gpt3") << QString();
    }

    void presets_show_unknown() {
        QFETCH(QString, id);
        QFETCH(QString, suggestion);
        RUN_CLI(run, {QStringLiteral("presets"), QStringLiteral("show"), id});
        EXPECT_EXIT(run, 2);
        QVERIFY(run.out.isEmpty());
        QCOMPARE(run.err, QStringLiteral("parasight-cli presets: no preset '") + id + QStringLiteral("'") + suggestion +
                              QStringLiteral("; 'parasight-cli presets list' shows them all\n"
                                             "see 'parasight-cli presets --help'\n"));
    }

    void presets_show_wrong_kind() {
        // gpt3-175b is a model, not a device.
        RUN_CLI(run, {QStringLiteral("presets"), QStringLiteral("show"), QStringLiteral("device/gpt3-175b")});
        EXPECT_EXIT(run, 2);
        QVERIFY(run.out.isEmpty());
    }

    void presets_bad_action() {
        RUN_CLI(run, {QStringLiteral("presets"), QStringLiteral("frob")});
        EXPECT_EXIT(run, 2);
        QVERIFY2(run.err.contains(QStringLiteral("unknown action 'frob'")), qPrintable(describe(run)));
    }

    // --- collective: ASTRA-sim 2.0 Table III ----------------------------------------------------------------------

    void collective_table_iii_data() {
        QTest::addColumn<int>("k");        // Ring(k), dimension 0 at 1000 GiB/s
        QTest::addColumn<int>("n");        // Switch(n), dimension 3 at 50 GiB/s
        QTest::addColumn<double>("time_us");
        QTest::addColumn<QList<double>>("dim_MiB");
        // Won et al., ISPASS 2023, Table III (seed 001, lines 335-349): 1 GB all-reduce, MB per dimension, time in us.
        // The traffic is the all-reduce's: dimension i sees data_in_i = 1024 MiB / (sizes below i) and sends
        // 2(m−1)/m · data_in_i, e.g. 2_8_8_4: 2·1/2·1024 = 1024, 2·7/8·512 = 896, 2·7/8·64 = 112, 2·3/4·8 = 12.
        QTest::newRow("2_8_8_4") << 2 << 4 << 4392.85 << QList<double>{1024, 896, 112, 12};
        QTest::newRow("2_8_8_8") << 2 << 8 << 4392.85 << QList<double>{1024, 896, 112, 14};       // 2·7/8·8
        QTest::newRow("2_8_8_16") << 2 << 16 << 4392.85 << QList<double>{1024, 896, 112, 15};     // 2·15/16·8
        QTest::newRow("2_8_8_32") << 2 << 32 << 4392.85 << QList<double>{1024, 896, 112, 15.5};   // 2·31/32·8
        QTest::newRow("4_8_8_4") << 4 << 4 << 2212.60 << QList<double>{1536, 448, 56, 6};         // 2·3/4·1024, …
        QTest::newRow("8_8_8_4") << 8 << 4 << 1753.48 << QList<double>{1792, 224, 28, 3};         // 2·7/8·1024, …
        QTest::newRow("16_8_8_4") << 16 << 4 << 1879.17 << QList<double>{1920, 112, 14, 1.5};     // 2·15/16·1024, …
    }

    void collective_table_iii() {
        QFETCH(int, k);
        QFETCH(int, n);
        QFETCH(double, time_us);
        QFETCH(QList<double>, dim_MiB);
        RUN_CLI(run, {QStringLiteral("collective"), astra(QString::fromLatin1(QTest::currentDataTag())),
                      QStringLiteral("--op"), QStringLiteral("all-reduce"), QStringLiteral("--size"),
                      QStringLiteral("1GiB"), QStringLiteral("--json")});
        EXPECT_EXIT(run, 0);
        QVERIFY(run.err.isEmpty());
        PARSE_JSON_OBJECT(json, run, missing_collective_keys);

        const double ranks = static_cast<double>(k) * 8 * 8 * n;
        QCOMPARE_EQ(json.value(QLatin1String("ranks")).toDouble(), ranks);
        const double time_s = json.value(QLatin1String("time_s")).toDouble();
        PS_COMPARE_RELATIVE(time_s, time_us * us, kPublished);

        // NCCL tests' definitions: algbw = size / time; busbw = algbw · 2(n−1)/n for an all-reduce (n = 512 for
        // 2_8_8_4, i.e. 1022/512).
        const double algbw_Bps = json.value(QLatin1String("algbw_Bps")).toDouble();
        PS_COMPARE_RELATIVE(algbw_Bps, GiB / time_s, kExact);
        PS_COMPARE_RELATIVE(json.value(QLatin1String("busbw_Bps")).toDouble(), algbw_Bps * 2.0 * (ranks - 1.0) / ranks,
                         kExact);

        const QJsonArray per_dim = json.value(QLatin1String("per_dim")).toArray();
        QCOMPARE(per_dim.size(), 4);
        const QStringList kinds{QStringLiteral("ring"), QStringLiteral("fully_connected"), QStringLiteral("ring"),
                                QStringLiteral("switch")};
        const QList<int> sizes{k, 8, 8, n};
        const QList<double> bandwidths_Bps{1000 * GiB, 200 * GiB, 100 * GiB, 50 * GiB};
        for (int d = 0; d < 4; ++d) {
            const QJsonObject dimension = per_dim.at(d).toObject();
            QCOMPARE(dimension.value(QLatin1String("dim")).toInt(), d);
            QCOMPARE(dimension.value(QLatin1String("kind")).toString(), kinds[d]);
            QCOMPARE(dimension.value(QLatin1String("size")).toInt(), sizes[d]);
            // Whole MiB (or halves): exact in binary, so exact equality.
            QCOMPARE_EQ(dimension.value(QLatin1String("bytes_sent")).toDouble(), dim_MiB[d] * MiB);
            // However the chunks overlap, no dimension pushes its bytes faster than its bandwidth.
            QVERIFY2(time_s >= dim_MiB[d] * MiB / bandwidths_Bps[d], qPrintable(QString::number(d)));
        }
    }

    void collective_on_one_device() {
        RUN_CLI(run, {QStringLiteral("collective"), data_path(QStringLiteral("cli/one_device.yaml")),
                      QStringLiteral("--op"), QStringLiteral("all-reduce"), QStringLiteral("--size"),
                      QStringLiteral("1GiB")});
        EXPECT_EXIT(run, 0);
        // No bandwidth table for a transfer that never happens: one line that says why the time is zero.
        QCOMPARE(run.out, QStringLiteral("all-reduce of 1 GiB over 1 NPU: nothing to exchange, a group of one NPU sends "
                                         "no bytes and takes no time\n"));
    }

    void collective_on_one_device_json() {
        RUN_CLI(run, {QStringLiteral("collective"), data_path(QStringLiteral("cli/one_device.yaml")),
                      QStringLiteral("--op"), QStringLiteral("all-gather"), QStringLiteral("--size"),
                      QStringLiteral("1GiB"), QStringLiteral("--json")});
        EXPECT_EXIT(run, 0);
        PARSE_JSON_OBJECT(json, run, missing_collective_keys);
        // One rank: zero time, zero bandwidths (never NaN), and no dimension carries traffic.
        QCOMPARE(json.value(QStringLiteral("ranks")).toInteger(), 1);
        QCOMPARE(json.value(QStringLiteral("time_s")).toDouble(), 0.0);
        QCOMPARE(json.value(QStringLiteral("algbw_Bps")).toDouble(), 0.0);
        QCOMPARE(json.value(QStringLiteral("busbw_Bps")).toDouble(), 0.0);
        QVERIFY(json.value(QStringLiteral("per_dim")).toArray().isEmpty());
    }

    // --- collective: groups ----------------------------------------------------------------------------------------

    void collective_single_fc_dimension() {
        // 2_8_8_4 dimension 1 alone: FC(8) at 200 GiB/s, 0.5 us per hop, direct algorithm. An all-reduce of 1 GiB
        // sends (reduce-scatter + all-gather) 2 · 7/8 · 1 GiB = 1.75 GiB = 1879048192 B in 2 steps of 1 hop:
        // 1.75 GiB / 200 GiB/s + 2 · 1 · 0.5 us = 8750 us + 1 us = 8751 us. One dimension, so the 64 chunks run
        // back to back and only the last chunk's latency shows: the same 8751 us.
        RUN_CLI(run, {QStringLiteral("collective"), astra(QStringLiteral("2_8_8_4")), QStringLiteral("--op"),
                      QStringLiteral("all-reduce"), QStringLiteral("--size"), QStringLiteral("1GiB"),
                      QStringLiteral("--group"), QStringLiteral("1"), QStringLiteral("--json")});
        EXPECT_EXIT(run, 0);
        PARSE_JSON_OBJECT(json, run, missing_collective_keys);
        QCOMPARE_EQ(json.value(QLatin1String("ranks")).toDouble(), 8.0);
        const double time_s = json.value(QLatin1String("time_s")).toDouble();
        PS_COMPARE_RELATIVE(time_s, 8751 * us, kExact);
        PS_COMPARE_RELATIVE(json.value(QLatin1String("algbw_Bps")).toDouble(), GiB / (8751 * us), kExact);
        // busbw = algbw · 2 · 7/8.
        PS_COMPARE_RELATIVE(json.value(QLatin1String("busbw_Bps")).toDouble(), GiB / (8751 * us) * 1.75, kExact);
        const QJsonArray per_dim = json.value(QLatin1String("per_dim")).toArray();
        QCOMPARE(per_dim.size(), 1);
        const QJsonObject dimension = per_dim.at(0).toObject();
        QCOMPARE(dimension.value(QLatin1String("dim")).toInt(), 1);
        QCOMPARE(dimension.value(QLatin1String("kind")).toString(), QStringLiteral("fully_connected"));
        QCOMPARE(dimension.value(QLatin1String("algorithm")).toString(), QStringLiteral("direct"));
        QCOMPARE(dimension.value(QLatin1String("size")).toInt(), 8);
        QCOMPARE_EQ(dimension.value(QLatin1String("bytes_sent")).toDouble(), 1879048192.0);
        PS_COMPARE_RELATIVE(dimension.value(QLatin1String("time_s")).toDouble(), 8751 * us, kExact);
    }

    void collective_group_dp() {
        // two_level.yaml, tp 2 then dp 16: NPU 0's dp group is NPUs 0, 2, 4, 6 of each node's Ring(8) (4 members,
        // stride 2) times the 4 nodes of the Switch(4). --chunks 1 runs the phases one after another:
        //   reduce-scatter on the ring, 4 members: 3/4 GiB at 100 GiB/s = 7500 us; 3 steps, each 2 hops (neighbours
        //     2 apart; the way back from 6 to 0 is also 2) of 1 us = 6 us                                → 7506 us
        //   all-reduce on the switch of the 1/4 GiB left, NCCL's choice (the switch's default), 4 members: the ring
        //     sends 2 · 3/4 · 1/4 GiB = 0.375 GiB at 25 GiB/s = 15000 us in 2 · 3 = 6 steps of 2 hops (NPU → switch →
        //     NPU) of 5 us = 60 us; the tree's 2 · 1/4 GiB at 0.9 of 25 GiB/s takes 22222 us          → 15060 us
        //   all-gather back on the ring                                                                 → 7506 us
        // total 30072 us; ring bytes 2 · 3/4 GiB = 1.5 GiB = 1610612736 B, switch 0.375 GiB = 402653184 B.
        RUN_CLI(run, {QStringLiteral("collective"), two_level(), QStringLiteral("--op"), QStringLiteral("all-reduce"),
                      QStringLiteral("--size"), QStringLiteral("1GiB"), QStringLiteral("--group"), QStringLiteral("dp"),
                      QStringLiteral("--chunks"), QStringLiteral("1"), QStringLiteral("--json")});
        EXPECT_EXIT(run, 0);
        PARSE_JSON_OBJECT(json, run, missing_collective_keys);
        QCOMPARE_EQ(json.value(QLatin1String("ranks")).toDouble(), 16.0);
        PS_COMPARE_RELATIVE(json.value(QLatin1String("time_s")).toDouble(), 30072 * us, kExact);
        // busbw = algbw · 2 · 15/16.
        PS_COMPARE_RELATIVE(json.value(QLatin1String("busbw_Bps")).toDouble(), GiB / (30072 * us) * 30.0 / 16.0, kExact);
        const QJsonArray per_dim = json.value(QLatin1String("per_dim")).toArray();
        QCOMPARE(per_dim.size(), 2);
        const QJsonObject ring = per_dim.at(0).toObject();
        QCOMPARE(ring.value(QLatin1String("dim")).toInt(), 0);
        QCOMPARE(ring.value(QLatin1String("kind")).toString(), QStringLiteral("ring"));
        QCOMPARE(ring.value(QLatin1String("size")).toInt(), 4);
        QCOMPARE_EQ(ring.value(QLatin1String("bytes_sent")).toDouble(), 1610612736.0);
        PS_COMPARE_RELATIVE(ring.value(QLatin1String("time_s")).toDouble(), 2 * 7506 * us, kExact);
        const QJsonObject fabric = per_dim.at(1).toObject();
        QCOMPARE(fabric.value(QLatin1String("dim")).toInt(), 1);
        QCOMPARE(fabric.value(QLatin1String("kind")).toString(), QStringLiteral("switch"));
        QCOMPARE(fabric.value(QLatin1String("size")).toInt(), 4);
        QCOMPARE_EQ(fabric.value(QLatin1String("bytes_sent")).toDouble(), 402653184.0);
        QCOMPARE(fabric.value(QLatin1String("algorithm")).toString(), QStringLiteral("ring"));
        QCOMPARE(fabric.value(QLatin1String("protocol")).toString(), QStringLiteral("Simple"));
        PS_COMPARE_RELATIVE(fabric.value(QLatin1String("time_s")).toDouble(), 15060 * us, kExact);
    }

    void collective_group_tp() {
        // tp 2 innermost: NPUs 0 and 1, neighbours on the Ring(8) (1 hop either way round). Ring all-reduce of
        // 1 GiB over 2: 2 · 1/2 GiB = 1 GiB at 100 GiB/s = 10 ms, 2 steps × 1 hop × 1 us → 10002 us.
        RUN_CLI(run, {QStringLiteral("collective"), two_level(), QStringLiteral("--op"), QStringLiteral("all-reduce"),
                      QStringLiteral("--size"), QStringLiteral("1GiB"), QStringLiteral("--group"), QStringLiteral("tp"),
                      QStringLiteral("--json")});
        EXPECT_EXIT(run, 0);
        PARSE_JSON_OBJECT(json, run, missing_collective_keys);
        QCOMPARE_EQ(json.value(QLatin1String("ranks")).toDouble(), 2.0);
        PS_COMPARE_RELATIVE(json.value(QLatin1String("time_s")).toDouble(), 10002 * us, kExact);
        const QJsonArray per_dim = json.value(QLatin1String("per_dim")).toArray();
        QCOMPARE(per_dim.size(), 1);
        QCOMPARE(per_dim.at(0).toObject().value(QLatin1String("size")).toInt(), 2);
        QCOMPARE_EQ(per_dim.at(0).toObject().value(QLatin1String("bytes_sent")).toDouble(), GiB);
    }

    void collective_group_all_is_default() {
        // "all", "0,1" (every dimension, listed) and no --group name the same group: identical output.
        const QStringList base{QStringLiteral("collective"), two_level(), QStringLiteral("--op"),
                               QStringLiteral("all-reduce"), QStringLiteral("--size"), QStringLiteral("256 MiB"),
                               QStringLiteral("--json")};
        RUN_CLI(plain, base);
        RUN_CLI(all, base + QStringList{QStringLiteral("--group"), QStringLiteral("all")});
        RUN_CLI(listed, base + QStringList{QStringLiteral("--group=0,1")});
        EXPECT_EXIT(plain, 0);
        PARSE_JSON_OBJECT(json, plain, missing_collective_keys);
        QCOMPARE_EQ(json.value(QLatin1String("ranks")).toDouble(), 32.0);
        QCOMPARE(all.out_bytes, plain.out_bytes);
        QCOMPARE(listed.out_bytes, plain.out_bytes);
    }

    void collective_one_ring_dimension_data() {
        QTest::addColumn<QString>("op");
        QTest::newRow("all-gather") << QStringLiteral("all-gather");
        QTest::newRow("reduce-scatter") << QStringLiteral("reduce-scatter");
    }

    void collective_one_ring_dimension() {
        // two_level.yaml dimension 0: Ring(8), 100 GiB/s, 1 us per hop. Ring all-gather (of a 1 GiB output) or
        // reduce-scatter (of a 1 GiB input): each NPU sends (n−1)/n · 1 GiB = 7/8 GiB = 939524096 B over 7 steps of
        // 1 hop: 8750 us + 7 us = 8757 us. busbw = algbw · 7/8.
        QFETCH(QString, op);
        RUN_CLI(run, {QStringLiteral("collective"), two_level(), QStringLiteral("--op"), op, QStringLiteral("--size"),
                      QStringLiteral("1GiB"), QStringLiteral("--group"), QStringLiteral("0"), QStringLiteral("--json")});
        EXPECT_EXIT(run, 0);
        PARSE_JSON_OBJECT(json, run, missing_collective_keys);
        QCOMPARE(json.value(QLatin1String("op")).toString(), op);
        QCOMPARE_EQ(json.value(QLatin1String("ranks")).toDouble(), 8.0);
        PS_COMPARE_RELATIVE(json.value(QLatin1String("time_s")).toDouble(), 8757 * us, kExact);
        PS_COMPARE_RELATIVE(json.value(QLatin1String("algbw_Bps")).toDouble(), GiB / (8757 * us), kExact);
        PS_COMPARE_RELATIVE(json.value(QLatin1String("busbw_Bps")).toDouble(), GiB / (8757 * us) * 7.0 / 8.0, kExact);
        const QJsonArray per_dim = json.value(QLatin1String("per_dim")).toArray();
        QCOMPARE(per_dim.size(), 1);
        const QJsonObject ring = per_dim.at(0).toObject();
        QCOMPARE(ring.value(QLatin1String("kind")).toString(), QStringLiteral("ring"));
        QCOMPARE(ring.value(QLatin1String("algorithm")).toString(), QStringLiteral("ring"));
        QCOMPARE(ring.value(QLatin1String("size")).toInt(), 8);
        QCOMPARE_EQ(ring.value(QLatin1String("bytes_sent")).toDouble(), 939524096.0);
    }

    void collective_table_output() {
        // Without --json: a readable table whose first line names the op, the size and the ranks.
        RUN_CLI(run, {QStringLiteral("collective"), two_level(), QStringLiteral("--op"), QStringLiteral("all-reduce"),
                      QStringLiteral("--size"), QStringLiteral("1GiB")});
        EXPECT_EXIT(run, 0);
        QVERIFY2(run.out.startsWith(QStringLiteral("all-reduce of 1 GiB over 32 NPUs: ")), qPrintable(run.out));
        QVERIFY(run.out.contains(QStringLiteral("busbw")));
    }

    // --- collective: errors ----------------------------------------------------------------------------------------

    void collective_errors_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QStringList>("expected");  // each must appear in stderr
        const QString collective = QStringLiteral("collective");
        const QString op = QStringLiteral("--op");
        const QString size = QStringLiteral("--size");
        const QString all_reduce = QStringLiteral("all-reduce");
        const QString one_gib = QStringLiteral("1GiB");
        QTest::newRow("unknown op")
            << QStringList{collective, two_level(), op, QStringLiteral("all-reduse"), size, one_gib}
            << QStringList{QStringLiteral("unknown operation 'all-reduse'"), QStringLiteral("did you mean 'all-reduce'"),
                           QStringLiteral("reduce-scatter")};
        QTest::newRow("size without unit")
            << QStringList{collective, two_level(), op, all_reduce, size, QStringLiteral("1")}
            << QStringList{QStringLiteral("--size"), QStringLiteral("no unit"), QStringLiteral("GiB"),
                           QStringLiteral("MB")};
        QTest::newRow("size zero") << QStringList{collective, two_level(), op, all_reduce, size, QStringLiteral("0 GiB")}
                                   << QStringList{QStringLiteral("--size must not be zero or negative, got '0 GiB'")};
        // One device's buffer is bounded by the scenario limit on device memory, 2^50 B, which sizes write as 1024 TiB
        // (TiB is the largest binary unit); 10^30 B is far past.
        QTest::newRow("size absurd") << QStringList{collective, two_level(), op, all_reduce, size, QStringLiteral("1e30B")}
                                     << QStringList{QStringLiteral("--size of '1e30B' is absurdly large (the limit is "
                                                                   "1024 TiB)")};
        QTest::newRow("chunks not a number")
            << QStringList{collective, two_level(), op, all_reduce, size, one_gib, QStringLiteral("--chunks"),
                           QStringLiteral("many")}
            << QStringList{QStringLiteral("--chunks must be a whole number, not 'many'")};
        QTest::newRow("chunks above the limit")
            << QStringList{collective, two_level(), op, all_reduce, size, one_gib, QStringLiteral("--chunks"),
                           QStringLiteral("4097")}
            << QStringList{QStringLiteral("--chunks must be between 1 and 4096, not 4097")};
        QTest::newRow("group out of range")
            << QStringList{collective, two_level(), op, all_reduce, size, one_gib, QStringLiteral("--group"),
                           QStringLiteral("2")}
            << QStringList{QStringLiteral("'2' is not a dimension"), QStringLiteral("0 to 1")};
        QTest::newRow("group not innermost first")
            << QStringList{collective, two_level(), op, all_reduce, size, one_gib, QStringLiteral("--group"),
                           QStringLiteral("1,0")}
            << QStringList{QStringLiteral("innermost first")};
        QTest::newRow("chunks zero")
            << QStringList{collective, two_level(), op, all_reduce, size, one_gib, QStringLiteral("--chunks"),
                           QStringLiteral("0")}
            << QStringList{QStringLiteral("--chunks must be between 1 and 4096, not 0")};
        QTest::newRow("two files") << QStringList{collective, two_level(), two_level(), op, all_reduce, size, one_gib}
                                   << QStringList{QStringLiteral("exactly one scenario FILE")};
        QTest::newRow("op twice")
            << QStringList{collective, two_level(), op, all_reduce, op, QStringLiteral("all-gather"), size, one_gib}
            << QStringList{QStringLiteral("--op is given twice")};
        // bad.yaml's diagnostics, unchanged, as validate prints them.
        QTest::newRow("bad scenario") << QStringList{collective, bad_file(), op, all_reduce, size, one_gib}
                                      << QStringList{bad_file() + QStringLiteral(":7:3: unknown key 'micro_bach'"),
                                                     bad_file() + QStringLiteral(":11:40: ")};
        const QString missing = data_path(QStringLiteral("cli/no_such_file.yaml"));
        QTest::newRow("missing scenario") << QStringList{collective, missing, op, all_reduce, size, one_gib}
                                          << QStringList{missing + QStringLiteral(": ")};
    }

    void collective_errors() {
        QFETCH(QStringList, arguments);
        QFETCH(QStringList, expected);
        RUN_CLI(run, arguments);
        EXPECT_EXIT(run, 2);
        QVERIFY(run.out.isEmpty());
        for (const QString& part : expected) QVERIFY2(run.err.contains(part), qPrintable(part + u'\n' + describe(run)));
    }

    // --- determinism -----------------------------------------------------------------------------------------------

    void collective_deterministic() {
        // docs/contracts.md "Reliability rules": the same scenario gives byte-identical JSON.
        const QStringList arguments{QStringLiteral("collective"), astra(QStringLiteral("2_8_8_32")),
                                    QStringLiteral("--op"), QStringLiteral("all-reduce"), QStringLiteral("--size"),
                                    QStringLiteral("1GiB"), QStringLiteral("--json")};
        RUN_CLI(first, arguments);
        RUN_CLI(second, arguments);
        EXPECT_EXIT(first, 0);
        QVERIFY(!first.out_bytes.isEmpty());
        QCOMPARE(second.out_bytes, first.out_bytes);
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
