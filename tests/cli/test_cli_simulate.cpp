// parasight-cli simulate end to end (docs/cli.md "simulate"): the built binary is run with QProcess on small
// scenarios and its exit status, its messages, its JSON report and the trace and CSV files it writes are checked.
// Every scenario here simulates in milliseconds; the one too large to simulate is refused before anything is built.
//
// tests/data/cli/small_pipeline.yaml, the scenario of most tests: a 4-layer transformer (hidden 256, 8 heads,
// seq_len 256, vocab 1024), global_batch 16 in micro-batches of 2, tp 2 × dp 2 × pp 2 on 8 A100-80GB (2 switches of
// 4, joined by a switch of 2), mapping [tp, dp, pp]: NPUs 0–3 are pipeline stage 0 and NPUs 4–7 stage 1.

#include "cli_runner.h"
#include "numeric_compare.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QMap>
#include <QRegularExpression>
#include <QSet>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

namespace {

using parasight::testing::CliRun;
using parasight::testing::data_path;
using parasight::testing::describe;
using parasight::testing::write_file;

constexpr double GiB = 1024.0 * 1024.0 * 1024.0;
// Quantities the CLI prints with std::to_chars (shortest round trip) and that the test recomputes with a division or
// two: 1e-12 relative absorbs that rounding and nothing else.
constexpr double kExact = 1e-12;
// Sums of a handful of breakdown parts, each itself a mean over devices.
constexpr double kSum = 1e-9;

// small_pipeline.yaml's numbers (see the file's header).
constexpr double kGlobalBatch = 16;
constexpr double kSeqLen = 256;
constexpr double kDevices = 8;

QString small_pipeline() { return data_path(QStringLiteral("cli/small_pipeline.yaml")); }
// training.micro_bach at 7:3 and a bandwidth of "100 GiB" (no /s) at 11:40.
QString bad_file() { return data_path(QStringLiteral("cli/bad.yaml")); }
// small_pipeline.yaml with global_batch 8000000 and micro_batch 1: 4 000 000 micro-batches per pipeline.
QString too_many_micro_batches_file() { return data_path(QStringLiteral("cli/too_many_micro_batches.yaml")); }

QStringList simulate(const QStringList& tail) {
    return QStringList{QStringLiteral("simulate"), small_pipeline()} + tail;
}

// The documented shape of `simulate --json` (docs/cli.md): every key, dotted from the top, with its JSON type.
// An object's listed children are all of its keys: nothing undocumented may appear (memory.oom_at only with oom).
const QList<QPair<QString, QJsonValue::Type>>& documented_keys() {
    using T = QJsonValue::Type;
    static const QList<QPair<QString, QJsonValue::Type>> keys{
        {QStringLiteral("iteration_time_s"), T::Double},
        {QStringLiteral("samples_per_s"), T::Double},
        {QStringLiteral("tokens_per_s"), T::Double},
        {QStringLiteral("devices"), T::Double},
        {QStringLiteral("model_flops_per_iteration"), T::Double},
        {QStringLiteral("model_tflops_per_device"), T::Double},
        {QStringLiteral("mfu"), T::Double},
        {QStringLiteral("hfu"), T::Double},
        {QStringLiteral("breakdown_s"), T::Object},
        {QStringLiteral("breakdown_s.compute"), T::Double},
        {QStringLiteral("breakdown_s.exposed_local_memory"), T::Double},
        {QStringLiteral("breakdown_s.exposed_comm"), T::Object},
        {QStringLiteral("breakdown_s.exposed_comm.tp"), T::Double},
        {QStringLiteral("breakdown_s.exposed_comm.cp"), T::Double},
        {QStringLiteral("breakdown_s.exposed_comm.ep"), T::Double},
        {QStringLiteral("breakdown_s.exposed_comm.pp"), T::Double},
        {QStringLiteral("breakdown_s.exposed_comm.dp"), T::Double},
        {QStringLiteral("breakdown_s.exposed_remote_memory"), T::Double},
        {QStringLiteral("breakdown_s.bubble"), T::Double},
        {QStringLiteral("breakdown_s.idle"), T::Double},
        {QStringLiteral("memory"), T::Object},
        {QStringLiteral("memory.peak_bytes"), T::Double},
        {QStringLiteral("memory.capacity_bytes"), T::Double},
        {QStringLiteral("memory.oom"), T::Bool},
        {QStringLiteral("memory.by_category_bytes"), T::Object},
        {QStringLiteral("memory.by_category_bytes.weights"), T::Double},
        {QStringLiteral("memory.by_category_bytes.gradients"), T::Double},
        {QStringLiteral("memory.by_category_bytes.optimizer"), T::Double},
        {QStringLiteral("memory.by_category_bytes.activations"), T::Double},
        {QStringLiteral("memory.by_category_bytes.buffers"), T::Double},
        {QStringLiteral("memory.by_category_bytes.runtime"), T::Double},
        {QStringLiteral("simulation"), T::Object},
        {QStringLiteral("simulation.events"), T::Double},
        {QStringLiteral("simulation.wall_s"), T::Double},
        {QStringLiteral("simulation.mode"), T::String},
        {QStringLiteral("simulation.steady_state"), T::Object},
        {QStringLiteral("simulation.steady_state.used"), T::Bool},
        {QStringLiteral("warnings"), T::Array},
    };
    return keys;
}

QJsonValue value_at(const QJsonObject& json, const QString& dotted) {
    const QStringList parts = dotted.split(u'.');
    QJsonValue value = json;
    for (const QString& part : parts) value = value.toObject().value(part);
    return value;
}

// Empty when `json` has exactly the documented keys with the documented types; otherwise what is wrong.
QStringList report_shape_problems(const QJsonObject& json) {
    QStringList problems;
    QMap<QString, QSet<QString>> children;  // object path ("" for the top) → documented keys
    for (const auto& [dotted, type] : documented_keys()) {
        const qsizetype dot = dotted.lastIndexOf(u'.');
        children[dot < 0 ? QString() : dotted.left(dot)].insert(dot < 0 ? dotted : dotted.mid(dot + 1));
        const QJsonValue value = value_at(json, dotted);
        if (value.type() != type) {
            problems << QStringLiteral("%1: JSON type %2, expected %3")
                            .arg(dotted)
                            .arg(static_cast<int>(value.type()))
                            .arg(static_cast<int>(type));
        }
    }
    const bool oom = json.value(QLatin1String("memory")).toObject().value(QLatin1String("oom")).toBool();
    if (oom) children[QStringLiteral("memory")].insert(QStringLiteral("oom_at"));
    // The steady state's period when it was used, the reason the whole schedule ran when not.
    const QString steady = QStringLiteral("simulation.steady_state");
    const bool used = value_at(json, steady + QStringLiteral(".used")).toBool();
    const std::vector<std::pair<QString, QJsonValue::Type>> steady_keys =
        used ? std::vector<std::pair<QString, QJsonValue::Type>>{{QStringLiteral("period_s"), QJsonValue::Double},
                                                                  {QStringLiteral("period_micro_batches"), QJsonValue::Double},
                                                                  {QStringLiteral("simulated_micro_batches"), QJsonValue::Double},
                                                                  {QStringLiteral("repeated_micro_batches"), QJsonValue::Double}}
             : std::vector<std::pair<QString, QJsonValue::Type>>{{QStringLiteral("reason"), QJsonValue::String}};
    for (const auto& [key, type] : steady_keys) {
        children[steady].insert(key);
        if (value_at(json, steady + u'.' + key).type() != type) problems << QStringLiteral("%1.%2: JSON type").arg(steady, key);
    }
    for (auto it = children.cbegin(); it != children.cend(); ++it) {
        const QJsonObject object = it.key().isEmpty() ? json : value_at(json, it.key()).toObject();
        for (const QString& key : object.keys()) {
            if (!it.value().contains(key)) problems << QStringLiteral("undocumented key %1 in '%2'").arg(key, it.key());
        }
    }
    for (const QJsonValue warning : json.value(QLatin1String("warnings")).toArray()) {
        if (!warning.isString()) problems << QStringLiteral("warnings holds a non-string");
    }
    return problems;
}

double number_at(const QJsonObject& json, const char* dotted) {
    return value_at(json, QString::fromLatin1(dotted)).toDouble();
}

// `run`'s raw JSON with the `"wall_s": …,` line of `simulation` cut out, and how many such lines there were.
QByteArray without_wall_time(const CliRun& run, int* removed) {
    static const QRegularExpression wall(QStringLiteral("\\n *\"wall_s\": [^,\\n]*,"));
    QString text = QString::fromUtf8(run.out_bytes);
    *removed = static_cast<int>(text.count(wall));
    text.remove(wall);
    return text.toUtf8();
}

}  // namespace

// Reads a whole file the CLI wrote into `bytes`.
#define READ_OUTPUT(bytes, path)                                                                                  \
    QByteArray bytes;                                                                                             \
    {                                                                                                             \
        QFile file(path);                                                                                         \
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable((path) + QStringLiteral(": ") + file.errorString())); \
        bytes = file.readAll();                                                                                   \
    }

class TestCliSimulate : public QObject {
    Q_OBJECT

private slots:
    void help() {
        RUN_CLI(run, {QStringLiteral("simulate"), QStringLiteral("--help")});
        EXPECT_EXIT(run, 0);
        QVERIFY(run.err.isEmpty());
        QVERIFY2(run.out.startsWith(QStringLiteral("usage: parasight-cli simulate FILE")), qPrintable(describe(run)));
        for (const char* option : {"--json", "--trace", "--csv", "--all-devices"}) {
            QVERIFY2(run.out.contains(QLatin1String(option)), option);
        }
    }

    // --- --json ----------------------------------------------------------------------------------------------------

    void json_report() {
        RUN_CLI(run, simulate({QStringLiteral("--json")}));
        EXPECT_EXIT(run, 0);
        QVERIFY2(run.err.isEmpty(), qPrintable(describe(run)));
        PARSE_JSON_OBJECT(json, run, report_shape_problems);

        // The topology's 4 × 2 = 8 devices (= tp 2 × dp 2 × pp 2); one simulated per pipeline stage by default.
        QCOMPARE_EQ(number_at(json, "devices"), kDevices);
        QCOMPARE(value_at(json, QStringLiteral("simulation.mode")).toString(), QStringLiteral("representative"));
        QVERIFY(number_at(json, "simulation.events") > 0);
        QVERIFY(number_at(json, "simulation.wall_s") >= 0);

        const double iteration_s = number_at(json, "iteration_time_s");
        QVERIFY2(iteration_s > 0 && std::isfinite(iteration_s), qPrintable(describe(run)));

        // Measurements are written as doubles with a point or an exponent, so that every JSON reader parses them as
        // floating point; only the counts (devices, events) are integers.
        static const QRegularExpression number(QStringLiteral("\"([a-z_]+)\": (-?[0-9][0-9.e+-]*)"));
        int numbers = 0;
        for (auto match = number.globalMatch(run.out); match.hasNext(); ++numbers) {
            const QRegularExpressionMatch found = match.next();
            const bool count = found.captured(1) == QLatin1String("devices") || found.captured(1) == QLatin1String("events");
            const bool float_looking = found.captured(2).contains(u'.') || found.captured(2).contains(u'e');
            QVERIFY2(count != float_looking, qPrintable(found.captured(0)));
        }
        // Every number of the report (its warnings, if any, are strings): 8 at the top, 5 + 5 in the breakdown,
        // 2 + 6 in memory, 2 in simulation.
        QCOMPARE(numbers, 28);

        // docs/model.md §5: the breakdown (a mean over devices) sums to the iteration time.
        double parts = number_at(json, "breakdown_s.compute") + number_at(json, "breakdown_s.exposed_local_memory") +
                       number_at(json, "breakdown_s.exposed_remote_memory") + number_at(json, "breakdown_s.bubble") +
                       number_at(json, "breakdown_s.idle");
        for (const char* group : {"tp", "cp", "ep", "pp", "dp"}) {
            const double exposed =
                value_at(json, QStringLiteral("breakdown_s.exposed_comm.") + QLatin1String(group)).toDouble();
            QVERIFY2(exposed >= 0, group);
            parts += exposed;
        }
        PS_COMPARE_RELATIVE(parts, iteration_s, kSum);
        // Compute runs, and with pp 2 the pipeline has a bubble; no cp or ep in this scenario.
        QVERIFY(number_at(json, "breakdown_s.compute") > 0);
        QVERIFY(number_at(json, "breakdown_s.bubble") > 0);
        QCOMPARE_EQ(number_at(json, "breakdown_s.exposed_comm.cp"), 0.0);
        QCOMPARE_EQ(number_at(json, "breakdown_s.exposed_comm.ep"), 0.0);

        // Throughput: global batch 16 sequences of 256 tokens per iteration.
        PS_COMPARE_RELATIVE(number_at(json, "samples_per_s"), kGlobalBatch / iteration_s, kExact);
        PS_COMPARE_RELATIVE(number_at(json, "tokens_per_s"), kGlobalBatch * kSeqLen / iteration_s, kExact);

        // docs/model.md §1, Narayanan's 72·B·s·l·h²·(1 + s/6h + V/12hl) with B 16, s 256, l 4, h 256, V 1024:
        // 72 · 16 · 256 · 4 · 65536 = 77309411328, times (1 + 256/1536 + 1024/12288) = 1 + 1/6 + 1/12 = 1.25
        // → 96636764160 FLOPs.
        const double model_flops = number_at(json, "model_flops_per_iteration");
        PS_COMPARE_RELATIVE(model_flops, 96636764160.0, kExact);
        // Per device per second, in TFLOP/s.
        PS_COMPARE_RELATIVE(number_at(json, "model_tflops_per_device"), model_flops / (iteration_s * kDevices) / 1e12,
                         kExact);
        // MFU = model FLOPs / (iteration time × devices × peak); training.dtype defaults to bf16 and the a100-80gb
        // preset's bf16 peak is 312 TFLOP/s.
        const double mfu = number_at(json, "mfu");
        const double hfu = number_at(json, "hfu");
        PS_COMPARE_RELATIVE(mfu, model_flops / (iteration_s * kDevices * 312e12), kExact);
        QVERIFY2(mfu > 0 && mfu <= hfu && hfu <= 1, qPrintable(QStringLiteral("mfu %1, hfu %2").arg(mfu).arg(hfu)));
        // HFU adds only what recompute does again, and parallelism.recompute defaults to none.
        PS_COMPARE_RELATIVE(hfu, mfu, kSum);

        // presets/devices/a100-80gb.yaml: "memory: 80 GiB" = 80 · 2^30 B = 85899345920 B.
        QCOMPARE_EQ(number_at(json, "memory.capacity_bytes"), 85899345920.0);
        // A few tens of MiB: far from out of memory, so no oom_at and no warning.
        const double peak = number_at(json, "memory.peak_bytes");
        QVERIFY(peak > 0 && peak < number_at(json, "memory.capacity_bytes"));
        QCOMPARE(value_at(json, QStringLiteral("memory.oom")).toBool(), false);
        QVERIFY(json.value(QLatin1String("warnings")).toArray().isEmpty());
        // by_category_bytes is the peak device's memory at its peak: the categories add up to peak_bytes (whole
        // bytes below 2^53, so exactly). docs/model.md §4 (mixed-precision Adam, no ZeRO): weights 2Ψ,
        // gradients 2Ψ, optimizer 12Ψ.
        const double weights = number_at(json, "memory.by_category_bytes.weights");
        const double gradients = number_at(json, "memory.by_category_bytes.gradients");
        const double optimizer = number_at(json, "memory.by_category_bytes.optimizer");
        const double activations = number_at(json, "memory.by_category_bytes.activations");
        const double buffers = number_at(json, "memory.by_category_bytes.buffers");
        const double runtime = number_at(json, "memory.by_category_bytes.runtime");
        QCOMPARE_EQ(weights + gradients + optimizer + activations + buffers + runtime, peak);
        QCOMPARE_EQ(runtime, 1573.0 * 1024 * 1024);  // the a100-80gb preset's CUDA context, 1573 MiB
        QVERIFY(weights > 0 && activations > 0);
        QCOMPARE_EQ(gradients, weights);
        QCOMPARE_EQ(optimizer, 6 * weights);
    }

    void all_devices_same_report() {
        // docs/cli.md: on a homogeneous cluster --all-devices gives the same JSON as the default mode, but for
        // `simulation`.
        RUN_CLI(representative, simulate({QStringLiteral("--json")}));
        RUN_CLI(all, simulate({QStringLiteral("--all-devices"), QStringLiteral("--json")}));
        EXPECT_EXIT(representative, 0);
        EXPECT_EXIT(all, 0);
        QVERIFY2(all.err.isEmpty(), qPrintable(describe(all)));
        PARSE_JSON_OBJECT(one_per_stage, representative, report_shape_problems);
        PARSE_JSON_OBJECT(every_device, all, report_shape_problems);
        QCOMPARE(value_at(every_device, QStringLiteral("simulation.mode")).toString(), QStringLiteral("all-devices"));
        // All 8 devices simulated instead of one of each stage's 4: more events.
        QVERIFY(number_at(every_device, "simulation.events") > number_at(one_per_stage, "simulation.events"));
        one_per_stage.remove(QLatin1String("simulation"));
        every_device.remove(QLatin1String("simulation"));
        QVERIFY2(
            one_per_stage == every_device,
            qPrintable(QStringLiteral("default:\n") + QString::fromUtf8(QJsonDocument(one_per_stage).toJson()) +
                       QStringLiteral("--all-devices:\n") + QString::fromUtf8(QJsonDocument(every_device).toJson())));
    }

    void deterministic_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("default") << simulate({QStringLiteral("--json")});
        QTest::newRow("--all-devices") << simulate({QStringLiteral("--json"), QStringLiteral("--all-devices")});
    }

    void deterministic() {
        // docs/cli.md: the same scenario always gives the same JSON but for `simulation`, of which only the wall
        // time may change: the bytes are compared with the "wall_s" line cut out.
        QFETCH(QStringList, arguments);
        RUN_CLI(first, arguments);
        RUN_CLI(second, arguments);
        EXPECT_EXIT(first, 0);
        EXPECT_EXIT(second, 0);
        int removed_first = 0;
        int removed_second = 0;
        const QByteArray first_bytes = without_wall_time(first, &removed_first);
        const QByteArray second_bytes = without_wall_time(second, &removed_second);
        QCOMPARE(removed_first, 1);
        QCOMPARE(removed_second, 1);
        QVERIFY(first_bytes.contains("\"iteration_time_s\""));
        QCOMPARE(second_bytes, first_bytes);
    }

    // --- --trace ---------------------------------------------------------------------------------------------------

    void trace() {
        QTemporaryDir directory;
        QVERIFY2(directory.isValid(), qPrintable(directory.errorString()));
        const QString path = directory.filePath(QStringLiteral("trace.json"));
        // With --json too, so that the trace can be checked against the report of the same run.
        RUN_CLI(run, simulate({QStringLiteral("--trace"), path, QStringLiteral("--json")}));
        EXPECT_EXIT(run, 0);
        QVERIFY2(run.err.isEmpty(), qPrintable(describe(run)));
        PARSE_JSON_OBJECT(report, run, report_shape_problems);
        READ_OUTPUT(bytes, path);

        QJsonParseError parse_error;
        const QJsonDocument document = QJsonDocument::fromJson(bytes, &parse_error);
        QVERIFY2(parse_error.error == QJsonParseError::NoError && document.isObject(),
                 qPrintable(parse_error.errorString()));
        QVERIFY(document.object().value(QLatin1String("traceEvents")).isArray());
        const QJsonArray events = document.object().value(QLatin1String("traceEvents")).toArray();

        QMap<int, QString> processes;      // pid → process_name
        QMap<int, QSet<QString>> threads;  // pid → thread_name values
        int complete = 0;
        double last_end_us = 0;
        QMap<int, double> counter_peak_GiB;  // pid → largest `memory` counter value
        for (const QJsonValue value : events) {
            const QJsonObject event = value.toObject();
            const QString ph = event.value(QLatin1String("ph")).toString();
            const int pid = event.value(QLatin1String("pid")).toInt(-1);
            QVERIFY2(pid >= 0, qPrintable(QString::fromUtf8(QJsonDocument(event).toJson())));
            const QJsonObject args = event.value(QLatin1String("args")).toObject();
            if (ph == QStringLiteral("M")) {
                const QString kind = event.value(QLatin1String("name")).toString();
                const QString name = args.value(QLatin1String("name")).toString();
                if (kind == QStringLiteral("process_name")) processes[pid] = name;
                if (kind == QStringLiteral("thread_name")) threads[pid].insert(name);
            } else if (ph == QStringLiteral("X")) {
                // Complete events: a name, a start and a duration in microseconds on a thread of a process.
                QVERIFY(event.value(QLatin1String("name")).isString());
                QVERIFY(event.value(QLatin1String("ts")).isDouble() && event.value(QLatin1String("dur")).isDouble());
                QVERIFY(event.value(QLatin1String("tid")).isDouble());
                const double end_us =
                    event.value(QLatin1String("ts")).toDouble() + event.value(QLatin1String("dur")).toDouble();
                QVERIFY(event.value(QLatin1String("dur")).toDouble() >= 0);
                last_end_us = std::max(last_end_us, end_us);
                ++complete;
            } else if (ph == QStringLiteral("C")) {
                QCOMPARE(event.value(QLatin1String("name")).toString(), QStringLiteral("memory"));
                QVERIFY(args.value(QLatin1String("GiB")).isDouble());
                counter_peak_GiB[pid] =
                    std::max(counter_peak_GiB.value(pid), args.value(QLatin1String("GiB")).toDouble());
            } else {
                QFAIL(qPrintable(QStringLiteral("unexpected event phase '%1'").arg(ph)));
            }
        }
        QVERIFY(complete > 0);
        // One process per simulated device: one per stage, NPU 0 for stage 0 and NPU 4 (the first after tp 2 × dp 2)
        // for stage 1, each standing for its stage's 4 devices.
        QCOMPARE(processes.keys(), (QList<int>{0, 4}));
        QVERIFY2(processes[0].startsWith(QStringLiteral("NPU 0 (stage 0)")), qPrintable(processes[0]));
        QVERIFY2(processes[4].startsWith(QStringLiteral("NPU 4 (stage 1)")), qPrintable(processes[4]));
        // docs/cli.md: one thread per stream.
        const QSet<QString> streams{QStringLiteral("compute"), QStringLiteral("feature communication"),
                                    QStringLiteral("gradient communication")};
        QCOMPARE(threads.keys(), processes.keys());
        for (const QSet<QString>& named : threads) QCOMPARE(named, streams);
        // A `memory` counter per device.
        QCOMPARE(counter_peak_GiB.keys(), processes.keys());

        // The last task ends when the iteration does (seconds · 1e6 = microseconds), and the highest memory counter
        // (bytes / 2^30, exact) is the report's peak.
        PS_COMPARE_RELATIVE(last_end_us, number_at(report, "iteration_time_s") * 1e6, kSum);
        const double counter_peak = *std::max_element(counter_peak_GiB.cbegin(), counter_peak_GiB.cend());
        PS_COMPARE_RELATIVE(counter_peak * GiB, number_at(report, "memory.peak_bytes"), kExact);
    }

    // --- --csv -----------------------------------------------------------------------------------------------------

    void csv_data() {
        QTest::addColumn<QStringList>("mode");
        QTest::addColumn<QList<int>>("npus");
        QTest::addColumn<QList<int>>("stages");
        QTest::addColumn<double>("stands_for");
        // One simulated device per pipeline stage: NPU 0 (stage 0) and NPU 4 (stage 1), each for 8 / 2 = 4 devices.
        QTest::newRow("default") << QStringList{} << QList<int>{0, 4} << QList<int>{0, 1} << 4.0;
        // Every device: NPUs 0–3 are stage 0 and 4–7 stage 1 (mapping [tp, dp, pp], tp · dp = 4), each for itself.
        QTest::newRow("--all-devices") << QStringList{QStringLiteral("--all-devices")}
                                       << QList<int>{0, 1, 2, 3, 4, 5, 6, 7} << QList<int>{0, 0, 0, 0, 1, 1, 1, 1}
                                       << 1.0;
    }

    void csv() {
        QFETCH(QStringList, mode);
        QFETCH(QList<int>, npus);
        QFETCH(QList<int>, stages);
        QFETCH(double, stands_for);
        QTemporaryDir directory;
        QVERIFY2(directory.isValid(), qPrintable(directory.errorString()));
        const QString path = directory.filePath(QStringLiteral("breakdown.csv"));
        RUN_CLI(run, simulate(QStringList{QStringLiteral("--csv"), path, QStringLiteral("--json")} + mode));
        EXPECT_EXIT(run, 0);
        QVERIFY2(run.err.isEmpty(), qPrintable(describe(run)));
        PARSE_JSON_OBJECT(report, run, report_shape_problems);
        READ_OUTPUT(bytes, path);

        const QString text = QString::fromUtf8(bytes);
        QVERIFY2(text.endsWith(u'\n'), qPrintable(text));
        const QStringList lines = text.chopped(1).split(u'\n');
        // A header and one row per simulated device.
        QCOMPARE(lines.size(), 1 + npus.size());
        // core/export/breakdown_csv.cpp: the device, its stage and how many devices it stands for, its breakdown
        // (local memory, exposed communication per group tp, cp, ep, pp, dp, remote memory), its iteration time and its
        // peak memory: 15 columns.
        QCOMPARE(lines[0], QStringLiteral("npu,stage,stands_for,compute_s,exposed_local_memory_s,exposed_tp_s,"
                                          "exposed_cp_s,exposed_ep_s,exposed_pp_s,exposed_dp_s,exposed_remote_memory_s,"
                                          "bubble_s,idle_s,iteration_s,peak_memory_bytes"));
        const int columns = static_cast<int>(lines[0].split(u',').size());
        QCOMPARE(columns, 15);
        const double iteration_s = number_at(report, "iteration_time_s");
        double peak = 0;
        double devices = 0;
        for (qsizetype r = 0; r < npus.size(); ++r) {
            const QString& line = lines[r + 1];
            const QStringList cells = line.split(u',');
            QCOMPARE(cells.size(), columns);
            QList<double> values;
            for (const QString& cell : cells) {
                bool ok = false;
                values << cell.toDouble(&ok);
                QVERIFY2(ok, qPrintable(line));
            }
            QCOMPARE_EQ(values[0], static_cast<double>(npus[r]));
            QCOMPARE_EQ(values[1], static_cast<double>(stages[r]));
            QCOMPARE_EQ(values[2], stands_for);
            devices += values[2];
            // Every device's iteration is the iteration (the same double, printed the same way), and its parts
            // (columns 3 to 12) add up to it.
            QCOMPARE_EQ(values[13], iteration_s);
            double parts = 0;
            for (int c = 3; c <= 12; ++c) parts += values[c];
            PS_COMPARE_RELATIVE(parts, iteration_s, kSum);
            peak = std::max(peak, values[14]);
        }
        // Together the rows stand for the 8 devices, and the report's peak is the largest device's.
        QCOMPARE_EQ(devices, kDevices);
        QCOMPARE_EQ(peak, number_at(report, "memory.peak_bytes"));
    }

    // --- summary ---------------------------------------------------------------------------------------------------

    void summary() {
        RUN_CLI(run, simulate({}));
        RUN_CLI(json_run, simulate({QStringLiteral("--json")}));
        EXPECT_EXIT(run, 0);
        EXPECT_EXIT(json_run, 0);
        QVERIFY2(run.err.isEmpty(), qPrintable(describe(run)));
        PARSE_JSON_OBJECT(report, json_run, report_shape_problems);
        const QStringList lines = run.out.split(u'\n', Qt::SkipEmptyParts);
        QVERIFY2(lines.size() > 3, qPrintable(describe(run)));
        // command_simulate.cpp print_summary(): the first line is "iteration time", spaces, then the time to 4
        // significant digits in ns, us, ms or s (e.g. "iteration time    629.2 us").
        static const QRegularExpression first(QStringLiteral("^iteration time +([0-9.]+) (ns|us|ms|s)$"));
        const QRegularExpressionMatch match = first.match(lines[0]);
        QVERIFY2(match.hasMatch(), qPrintable(describe(run)));
        const QMap<QString, double> unit{{QStringLiteral("ns"), 1e-9},
                                         {QStringLiteral("us"), 1e-6},
                                         {QStringLiteral("ms"), 1e-3},
                                         {QStringLiteral("s"), 1.0}};
        const double printed_s = match.captured(1).toDouble() * unit.value(match.captured(2));
        // 4 significant digits: within half a unit of the 4th digit, at most 5e-4 relative.
        PS_COMPARE_RELATIVE(printed_s, number_at(report, "iteration_time_s"), 5e-4);
        QVERIFY2(lines[1].startsWith(QStringLiteral("throughput ")) &&
                     lines[1].contains(QStringLiteral(" samples/s")) && lines[1].contains(QStringLiteral(" tokens/s")),
                 qPrintable(lines[1]));
        QVERIFY2(run.out.contains(QStringLiteral("MFU ")) && run.out.contains(QStringLiteral("HFU ")),
                 qPrintable(run.out));
        QVERIFY2(run.out.contains(QStringLiteral("per device (mean over 8 devices):\n")), qPrintable(run.out));
        QVERIFY2(run.out.contains(QStringLiteral("\n  pipeline bubble ")), qPrintable(run.out));
        QVERIFY2(run.out.contains(QStringLiteral(" of 80 GiB\n")), qPrintable(run.out));
        const QString& simulated = lines[lines.size() - 2];
        QVERIFY2(simulated.startsWith(QStringLiteral("simulated ")) &&
                     simulated.endsWith(QStringLiteral(" (representative)")),
                 qPrintable(simulated));
        // small_pipeline.yaml: 16 / (dp 2 × 2) = 4 micro-batches on 2 stages, fewer than a 1F1B short run of
        // (2 + 1) + 2 = 5 (warm-up, two periods: 1F1B needs no settling steps on its first try) and one period more
        // to repeat.
        QCOMPARE(lines.last(), QStringLiteral("steady state      not used: too few micro-batches (4) to repeat a steady "
                                              "period: this schedule needs 6"));
    }

    void summary_of_one_device() {
        // Counts of 1 take the singular: "mean over 1 device", not "1 devices".
        RUN_CLI(run, {QStringLiteral("simulate"), data_path(QStringLiteral("cli/one_device.yaml"))});
        EXPECT_EXIT(run, 0);
        QVERIFY2(run.out.contains(QStringLiteral("\nper device (mean over 1 device):\n")), qPrintable(describe(run)));
    }

    // --- errors ----------------------------------------------------------------------------------------------------

    void errors_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QStringList>("expected");  // each must appear in stderr
        const QString command = QStringLiteral("simulate");
        const QString json = QStringLiteral("--json");
        const QString see_help = QStringLiteral("\nsee 'parasight-cli simulate --help'\n");
        // bad.yaml's diagnostics, as validate prints them: line 7 is "  micro_bach: 1" (the key in column 3); line 11
        // is "    - {kind: ring, size: 8, bandwidth: 100 GiB, latency: 1 us}", whose bandwidth value starts in
        // column 40.
        QTest::newRow("bad scenario") << QStringList{command, bad_file(), json}
                                      << QStringList{bad_file() + QStringLiteral(":7:3: unknown key 'micro_bach'"),
                                                     QStringLiteral("did you mean 'micro_batch'"),
                                                     bad_file() + QStringLiteral(":11:40: ")};
        const QString missing = data_path(QStringLiteral("cli/no_such_file.yaml"));
        QTest::newRow("missing scenario")
            << QStringList{command, missing, json}
            << QStringList{missing + QStringLiteral(": cannot load the scenario: it does not exist")};
        QTest::newRow("no FILE")
            << QStringList{command, json}
            << QStringList{QStringLiteral("parasight-cli simulate: name exactly one scenario FILE") + see_help};
        QTest::newRow("two FILEs") << QStringList{command, small_pipeline(), small_pipeline(), json}
                                   << QStringList{
                                          QStringLiteral("parasight-cli simulate: name exactly one scenario FILE")};
        QTest::newRow("unknown option")
            << QStringList{command, small_pipeline(), QStringLiteral("--jsn")}
            << QStringList{QStringLiteral("parasight-cli simulate: unknown option '--jsn' (did you mean '--json'?)") +
                           see_help};
        QTest::newRow("unknown option, near --all-devices")
            << QStringList{command, small_pipeline(), QStringLiteral("--all-device"), json}
            << QStringList{QStringLiteral("unknown option '--all-device' (did you mean '--all-devices'?)")};
        QTest::newRow("--trace without a value, last")
            << QStringList{command, small_pipeline(), json, QStringLiteral("--trace")}
            << QStringList{QStringLiteral("parasight-cli simulate: option --trace needs a value") + see_help};
        // "--json" is an option, not the trace's file name.
        QTest::newRow("--trace without a value, before --json")
            << QStringList{command, small_pipeline(), QStringLiteral("--trace"), json}
            << QStringList{QStringLiteral("option --trace needs a value")};
        QTest::newRow("--trace= with nothing after it")
            << QStringList{command, small_pipeline(), QStringLiteral("--trace=")}
            << QStringList{QStringLiteral("parasight-cli simulate: option --trace needs a value") + see_help};
        // Only long options exist: a single-dash word is not taken for a second FILE.
        QTest::newRow("single-dash option")
            << QStringList{command, small_pipeline(), QStringLiteral("-j")}
            << QStringList{QStringLiteral("parasight-cli simulate: unknown option '-j'; options are written --name")};
        QTest::newRow("--csv without a value") << QStringList{command, small_pipeline(), QStringLiteral("--csv")}
                                               << QStringList{QStringLiteral("option --csv needs a value")};
        QTest::newRow("--json with a value") << QStringList{command, small_pipeline(), QStringLiteral("--json=yes")}
                                             << QStringList{QStringLiteral("option --json takes no value")};
        for (const QString& bad : {QStringLiteral("0"), QStringLiteral("-5"), QStringLiteral("many"),
                                   QStringLiteral("2147483648")}) {
            QTest::addRow("--max-tasks %s", qPrintable(bad))
                << QStringList{command, small_pipeline(), QStringLiteral("--max-tasks=") + bad}
                << QStringList{QStringLiteral("parasight-cli simulate: --max-tasks must be a whole number from 1 to "
                                              "2147483647, not '") +
                               bad + u'\''};
        }
        // small_pipeline.yaml needs at least 8 tasks per layer and micro-batch: 8 · 4 layers · 4 micro-batches = 128
        // (16 / (dp 2 × micro-batch 2) = 4), so a limit of 100 refuses it before building.
        QTest::newRow("--max-tasks below the graph")
            << QStringList{command, small_pipeline(), QStringLiteral("--max-tasks"), QStringLiteral("100")}
            << QStringList{small_pipeline() + QStringLiteral(": the execution graph would hold at least 128 tasks (4 "
                                                             "micro-batches per pipeline); the limit is 100.")};
    }

    void errors() {
        QFETCH(QStringList, arguments);
        QFETCH(QStringList, expected);
        RUN_CLI(run, arguments);
        EXPECT_EXIT(run, 2);
        QVERIFY2(run.out.isEmpty(), qPrintable(describe(run)));
        for (const QString& part : expected) QVERIFY2(run.err.contains(part), qPrintable(part + u'\n' + describe(run)));
    }

    void unwritable_output_data() {
        QTest::addColumn<QString>("option");
        QTest::newRow("--trace") << QStringLiteral("--trace");
        QTest::newRow("--csv") << QStringLiteral("--csv");
    }

    void unwritable_output() {
        // An output file in a directory that does not exist: refused with status 2, and nothing is created.
        QFETCH(QString, option);
        QTemporaryDir directory;
        QVERIFY2(directory.isValid(), qPrintable(directory.errorString()));
        const QString missing_directory = directory.filePath(QStringLiteral("no_such_directory"));
        const QString path = missing_directory + QStringLiteral("/out");
        RUN_CLI(run, simulate({option, path, QStringLiteral("--json")}));
        EXPECT_EXIT(run, 2);
        QVERIFY2(run.out.isEmpty(), qPrintable(describe(run)));
        // The reason is the system's (strerror in the C locale).
        const QString message = QStringLiteral("parasight-cli simulate: ") + option +
                                QStringLiteral(": cannot write '") + path + QStringLiteral("': its folder '") +
                                missing_directory + QStringLiteral("' cannot be used: No such file or directory");
        QVERIFY2(run.err.startsWith(message), qPrintable(message + u'\n' + describe(run)));
        QVERIFY(!QFileInfo::exists(missing_directory));
        // A directory is not a file to write either.
        RUN_CLI(into_directory, simulate({option, directory.path(), QStringLiteral("--json")}));
        EXPECT_EXIT(into_directory, 2);
        QVERIFY2(into_directory.err.contains(QStringLiteral(": cannot write '") + directory.path() +
                                             QStringLiteral("': it is a directory, not a regular file")),
                 qPrintable(describe(into_directory)));
    }

    void outputs_removed_when_the_command_fails() {
        // Output files are opened before the work starts and removed again when the command fails afterwards: the
        // trace opened first does not outlive a --csv that cannot be written, nor a scenario that cannot be simulated.
        QTemporaryDir directory;
        QVERIFY2(directory.isValid(), qPrintable(directory.errorString()));
        const QString trace_path = directory.filePath(QStringLiteral("trace.json"));
        RUN_CLI(bad_csv, simulate({QStringLiteral("--trace"), trace_path, QStringLiteral("--csv"),
                                   directory.filePath(QStringLiteral("missing/out.csv"))}));
        EXPECT_EXIT(bad_csv, 2);
        QVERIFY(bad_csv.err.contains(QStringLiteral("--csv: cannot write")));
        QVERIFY(!QFileInfo::exists(trace_path));
        RUN_CLI(too_large, QStringList{QStringLiteral("simulate"), too_many_micro_batches_file(),
                                       QStringLiteral("--trace"), trace_path});
        EXPECT_EXIT(too_large, 2);
        QVERIFY(too_large.err.contains(QStringLiteral("the execution graph would hold at least")));
        QVERIFY(!QFileInfo::exists(trace_path));
    }

    // --- results that fit badly or mean nothing ----------------------------------------------------------------------

    void out_of_memory_exits_3() {
        // GPT-2 small on one device of 2 GiB: weights, gradients and Adam's state alone are 16 bytes per parameter,
        // 16 · 124.4e6 ≈ 1.99e9 B, and activations come on top — past 2 GiB = 2.147e9 B.
        QTemporaryDir directory;
        QVERIFY(directory.isValid());
        const QString scenario = directory.filePath(QStringLiteral("small-gpu.yaml"));
        const QString csv = directory.filePath(QStringLiteral("breakdown.csv"));
        QVERIFY(write_file(scenario, "schema: 1\nmodel: gpt2-small\ntraining: {global_batch: 2, micro_batch: 1}\n"
                                     "cluster:\n  device: {name: small GPU, peak: {bf16: 312 TFLOP/s}, memory: 2 GiB, "
                                     "memory_bandwidth: 2039 GB/s}\n"
                                     "  topology: [{kind: switch, size: 1, bandwidth: 300 GB/s, latency: 1 us}]\n"));
        RUN_CLI(json_run, {QStringLiteral("simulate"), scenario, QStringLiteral("--json"), QStringLiteral("--csv"), csv});
        // Simulated and reported in full; the status tells a script it does not fit.
        EXPECT_EXIT(json_run, 3);
        QVERIFY2(json_run.err.isEmpty(), qPrintable(describe(json_run)));
        PARSE_JSON_OBJECT(json, json_run, report_shape_problems);
        QCOMPARE(value_at(json, QStringLiteral("memory.oom")).toBool(), true);
        QVERIFY(number_at(json, "memory.peak_bytes") > 2.0 * GiB);
        QVERIFY2(json.value(QLatin1String("warnings")).toArray().first().toString().startsWith(
                     QStringLiteral("out of memory: NPU 0 needs ")),
                 qPrintable(describe(json_run)));
        READ_OUTPUT(csv_bytes, csv);
        QCOMPARE(csv_bytes.count('\n'), 2);  // the header and NPU 0
        RUN_CLI(summary_run, {QStringLiteral("simulate"), scenario});
        EXPECT_EXIT(summary_run, 3);
        QVERIFY2(summary_run.out.contains(QStringLiteral("warning: out of memory: NPU 0 needs ")),
                 qPrintable(describe(summary_run)));
    }

    void zero_time_iteration_refused() {
        // Every operation GPT-2 small runs on one device measured at 0 s, and one device has nothing to communicate:
        // the iteration takes no time and throughput would be infinite.
        QTemporaryDir directory;
        QVERIFY(directory.isValid());
        QByteArray table = "operation,pass,time\n";
        for (const char* operation : {"embedding", "layernorm", "qkv", "attention_scores", "softmax_dropout",
                                      "attention_values", "attention_out", "dropout_residual", "mlp_up", "activation",
                                      "mlp_down", "logits"}) {
            table += QByteArray(operation) + ",forward,0 s\n" + QByteArray(operation) + ",backward,0 s\n";
        }
        table += "optimizer,forward,0 s\n";
        QVERIFY(write_file(directory.filePath(QStringLiteral("zero.csv")), table));
        const QString scenario = directory.filePath(QStringLiteral("zero.yaml"));
        QVERIFY(write_file(scenario, "schema: 1\nmodel: {preset: gpt2-small, layers: 1}\ntraining: {global_batch: 1}\n"
                                     "cluster:\n  device: a100-80gb\n"
                                     "  topology: [{kind: switch, size: 1, bandwidth: 300 GB/s, latency: 1 us}]\n"
                                     "simulation: {measured_operations: zero.csv}\n"));
        for (const QStringList& mode : {QStringList{}, QStringList{QStringLiteral("--json")}}) {
            RUN_CLI(run, QStringList{QStringLiteral("simulate"), scenario} + mode);
            EXPECT_EXIT(run, 2);
            QVERIFY2(run.out.isEmpty(), qPrintable(describe(run)));
            QCOMPARE(run.err, scenario + QStringLiteral(": the iteration takes no time: every operation it runs was "
                                                         "measured at 0 s and nothing is communicated, so throughput "
                                                         "and utilization have no value; measure at least one "
                                                         "operation above 0 s\n"));
        }
    }

    void implausible_iteration_time_warned() {
        // GPT-3 175B (TP8 PP16 DP8) with every link at 1 KB/s, the slowest rate a link may have: each of a stage's 6
        // layers all-reduces its 2048 × 12288 × 2 B = 50 MB activations across 8 GPUs 4 times per micro-batch
        // (forward and backward), 192 micro-batches — about 4.6e11 B at 1 KB/s, over ten years, past the one-year
        // limit of a plausible iteration.
        QTemporaryDir directory;
        QVERIFY(directory.isValid());
        const QString scenario = directory.filePath(QStringLiteral("slow.yaml"));
        QVERIFY(write_file(scenario, "schema: 1\n"
                                     "name: GPT-3 175B on links of 1 KB/s\n"
                                     "model: gpt3-175b\n"
                                     "training: {global_batch: 1536, micro_batch: 1}\n"
                                     "cluster:\n"
                                     "  device: a100-80gb\n"
                                     "  topology:\n"
                                     "    - {kind: switch, size: 8, bandwidth: 1 KB/s, latency: 1 us}\n"
                                     "    - {kind: switch, size: 128, bandwidth: 1 KB/s, latency: 5 us}\n"
                                     "parallelism: {tp: 8, pp: 16, dp: 8, mapping: [tp, dp, pp]}\n"));
        RUN_CLI(run, {QStringLiteral("simulate"), scenario, QStringLiteral("--json")});
        EXPECT_EXIT(run, 0);
        PARSE_JSON_OBJECT(json, run, report_shape_problems);
        const double iteration_s = number_at(json, "iteration_time_s");
        QVERIFY(iteration_s > 365.25 * 24 * 3600);
        const QJsonArray warnings = json.value(QLatin1String("warnings")).toArray();
        QCOMPARE(warnings.size(), 1);
        static const QRegularExpression warning(QStringLiteral(
            "^one iteration takes ([0-9]+\\.[0-9]) years \\([0-9.e+]+ s\\): check the units of the link bandwidths "
            "and measured operation times$"));
        const QRegularExpressionMatch match = warning.match(warnings.first().toString());
        QVERIFY2(match.hasMatch(), qPrintable(warnings.first().toString()));
        // The years, to one decimal: the seconds over a Julian year of 365.25 days.
        QCOMPARE(match.captured(1), QString::number(iteration_s / (365.25 * 24 * 3600), 'f', 1));
    }

    void too_many_micro_batches_data() {
        QTest::addColumn<QStringList>("mode");
        QTest::addColumn<double>("tasks");
        QTest::addColumn<QStringList>("expected");  // each must appear in stderr
        // too_many_micro_batches.yaml: 8000000 / (dp 2 × micro_batch 1) = 4000000 micro-batches per pipeline. One
        // simulated device per stage runs at least 8 tasks per layer and micro-batch (a transformer layer with tp:
        // attention and MLP forward and backward, and a tp collective after each block's forward and before each
        // block's backward), so at least 8 · 4000000 · 4 layers = 1.28e8 tasks, past the limit of 50 million. With
        // --all-devices each stage's 4 devices count: 5.12e8.
        QTest::newRow("default") << QStringList{} << 1.28e8
                                 << QStringList{
                                        QStringLiteral("(4000000 micro-batches per pipeline)"),
                                        QStringLiteral("the limit is 50000000"),
                                        QStringLiteral("a larger training.micro_batch or a smaller global_batch")};
        QTest::newRow("--all-devices")
            << QStringList{QStringLiteral("--all-devices")} << 5.12e8
            << QStringList{QStringLiteral("(4000000 micro-batches per pipeline, every device simulated)"),
                           QStringLiteral("without --all-devices")};
    }

    void too_many_micro_batches() {
        // Refused before the graph is built, so the run takes milliseconds (a hang fails in run_cli; building
        // 1.28e8 tasks would take minutes and gigabytes).
        QFETCH(QStringList, mode);
        QFETCH(double, tasks);
        QFETCH(QStringList, expected);
        RUN_CLI(run, QStringList{QStringLiteral("simulate"), too_many_micro_batches_file(), QStringLiteral("--json")} +
                         mode);
        EXPECT_EXIT(run, 2);
        QVERIFY2(run.out.isEmpty(), qPrintable(describe(run)));
        // FILE: message, on one line.
        QVERIFY2(run.err.startsWith(too_many_micro_batches_file() +
                                    QStringLiteral(": the execution graph would hold at least")),
                 qPrintable(describe(run)));
        QCOMPARE(run.err.count(u'\n'), 1);
        // The count of tasks, a whole number.
        static const QRegularExpression count(QStringLiteral("would hold at least ([0-9]+) tasks \\("));
        const QRegularExpressionMatch match = count.match(run.err);
        QVERIFY2(match.hasMatch(), qPrintable(run.err));
        bool ok = false;
        QCOMPARE_EQ(match.captured(1).toDouble(&ok), tasks);
        QVERIFY(ok);
        for (const QString& part : expected) QVERIFY2(run.err.contains(part), qPrintable(part + u'\n' + describe(run)));
    }
};

QTEST_GUILESS_MAIN(TestCliSimulate)
#include "test_cli_simulate.moc"
