// A step of a later micro-batch copied from the first one emitted on its device (core/compile/emit_repeated_step.cpp)
// against every step emitted anew (CompileOptions::repeat_steps false): the same graph — every task, field for
// field, every task's successors in the same order, every predecessor count — on every bundled scenario and on
// small pipelines with each schedule and each option that changes what a step emits.

#include "compile/compiler.h"
#include "scenario_file/scenario_loader.h"
#include "validation/validate.h"

#include <QTest>

#include <filesystem>
#include <string>
#include <vector>

namespace {

QString qs(const std::string& text) { return QString::fromStdString(text); }

// A transformer pipeline on 4 × 2 devices with 16 micro-batches per replica where dp is 1.
std::string pipeline_yaml(const std::string& parallelism, const std::string& model_extra = {},
                          const std::string& extra = {}) {
    return "schema: 1\nname: repeated steps\n"
           "model: {kind: transformer, layers: 8, hidden: 512, heads: 8, seq_len: 512, vocab: 4096" + model_extra +
           "}\n"
           "training: {global_batch: 16, micro_batch: 1, dtype: bf16}\n"
           "cluster:\n  device: a100-80gb\n"
           "  topology: [{kind: switch, size: 4, bandwidth: 300 GB/s, latency: 1 us}, "
           "{kind: switch, size: 2, bandwidth: 25 GB/s, latency: 5 us}]\n"
           "parallelism: " + parallelism + "\n" + extra;
}

bool same_task(const parasight::Task& a, const parasight::Task& b) {
    return a.kind == b.kind && a.stream == b.stream && a.delayed_kind == b.delayed_kind && a.peers == b.peers &&
           a.allocate_category == b.allocate_category && a.release_category == b.release_category &&
           a.device == b.device && a.layer == b.layer && a.micro_batch == b.micro_batch && a.label == b.label &&
           a.memory_bound_share == b.memory_bound_share && a.dimension_mask == b.dimension_mask &&
           a.collective == b.collective && a.transfer_shape == b.transfer_shape && a.work_s == b.work_s &&
           a.flops == b.flops && a.bytes == b.bytes && a.allocate_bytes == b.allocate_bytes &&
           a.release_bytes == b.release_bytes && a.release_buffer_bytes == b.release_buffer_bytes;
}

}  // namespace

class TestRepeatedSteps : public QObject {
    Q_OBJECT
private slots:
    void sameGraphAsEmittingEveryStep_data();
    void sameGraphAsEmittingEveryStep();
};

void TestRepeatedSteps::sameGraphAsEmittingEveryStep_data() {
    QTest::addColumn<QString>("yaml");  // empty: read from the file at `path`
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("all_devices");
    for (const auto& entry : std::filesystem::directory_iterator(PARASIGHT_SOURCE_DIR "/presets/scenarios")) {
        const std::string path = entry.path().string();
        QTest::newRow(entry.path().filename().string().c_str()) << QString() << qs(path) << false;
    }
    for (const char* file : {"tests/data/cli/small_pipeline.yaml", "tests/data/golden/sweep.yaml",
                             "tests/data/what_if/pipeline-delayed.yaml"}) {
        const std::string path = std::string(PARASIGHT_SOURCE_DIR "/") + file;
        QTest::newRow(file) << QString() << qs(path) << false;
    }
    const struct {
        const char* name;
        std::string yaml;
    } pipelines[] = {
        {"1f1b tp2 pp4", pipeline_yaml("{tp: 2, pp: 4, schedule: 1f1b, mapping: [tp, pp]}")},
        {"gpipe tp2 pp4", pipeline_yaml("{tp: 2, pp: 4, schedule: gpipe, mapping: [tp, pp]}")},
        {"interleaved v2 tp2 pp4",
         pipeline_yaml("{tp: 2, pp: 4, schedule: interleaved, virtual_stages: 2, mapping: [tp, pp]}")},
        {"zb-h1 dp2 pp4", pipeline_yaml("{dp: 2, pp: 4, schedule: zb-h1}")},
        {"zb-h1 tp2 pp4, sequence parallel",
         pipeline_yaml("{tp: 2, pp: 4, schedule: zb-h1, sequence_parallel: true, mapping: [tp, pp]}")},
        {"sequence parallel, TP overlapped with backward",
         pipeline_yaml("{tp: 2, pp: 4, sequence_parallel: true, tp_overlap: backward, mapping: [tp, pp]}")},
        {"full recompute", pipeline_yaml("{tp: 2, pp: 4, recompute: full, mapping: [tp, pp]}")},
        {"selective recompute", pipeline_yaml("{tp: 2, pp: 4, recompute: selective, mapping: [tp, pp]}")},
        {"scattered pipeline sends", pipeline_yaml("{tp: 2, pp: 4, pp_scatter_gather: true, mapping: [tp, pp]}")},
        {"sends met in order", pipeline_yaml("{tp: 2, pp: 4, p2p_rendezvous: true, mapping: [tp, pp]}")},
        {"blocking sends", pipeline_yaml("{tp: 2, pp: 4, overlap_p2p: false, mapping: [tp, pp]}")},
        {"context parallel", pipeline_yaml("{cp: 2, pp: 4, mapping: [cp, pp]}")},
        {"experts", pipeline_yaml("{ep: 2, pp: 4, mapping: [ep, pp]}", ", experts: 4, experts_per_token: 2")},
        {"zero-1 dp2 pp4", pipeline_yaml("{dp: 2, pp: 4, zero: 1}")},
        {"zero-2 dp2 pp4", pipeline_yaml("{dp: 2, pp: 4, zero: 2}")},
        {"zero-3 dp2 pp4", pipeline_yaml("{dp: 2, pp: 4, zero: 3}")},
        {"zero-3 prefetching two layers", pipeline_yaml("{dp: 2, pp: 4, zero: 3, zero3_prefetch_layers: 2}")},
        {"parallel blocks", pipeline_yaml("{tp: 2, pp: 4, mapping: [tp, pp]}", ", parallel_blocks: true")},
        {"a stage recomputed whole",
         pipeline_yaml("{tp: 2, pp: 4, mapping: [tp, pp]}", "",
                       "strategy_tree: [{node: \"stage[1]\", recompute: full}]\n")},
        {"what-if delays and a slow device",
         pipeline_yaml("{tp: 2, pp: 4, mapping: [tp, pp]}", "",
                       "what_if:\n  collective_delays: [{group: tp, operation: all-reduce, delay: 20 us}, "
                       "{group: pp, operation: send, delay: 5 us}]\n"
                       "  slow_devices: [{npus: [2], compute_time_factor: 1.3}]\n")},
    };
    for (const auto& pipeline : pipelines) {
        QTest::newRow(pipeline.name) << qs(pipeline.yaml) << QStringLiteral("s.yaml") << false;
    }
    // Every device simulated emits every step anew (its collectives are matched one by one): the same either way.
    QTest::newRow("1f1b tp2 pp4, every device")
        << qs(pipelines[0].yaml) << QStringLiteral("s.yaml") << true;
}

void TestRepeatedSteps::sameGraphAsEmittingEveryStep() {
    QFETCH(QString, yaml);
    QFETCH(QString, path);
    QFETCH(bool, all_devices);
    const auto loaded = yaml.isEmpty() ? parasight::load_scenario_file(path.toStdString())
                                       : parasight::load_scenario_text(yaml.toStdString(), path.toStdString());
    QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.diagnostics.front().to_string().c_str());
    const auto validation = parasight::validate(loaded.scenario->value());
    QVERIFY(validation.scenario);
    parasight::CompileOptions options;
    options.all_devices = all_devices;
    // Large scenarios with their micro-batches cut to 24 (every stage's warm-up and repeated steps are still there).
    if (validation.scenario->value().micro_batches() > 24) options.micro_batches = 24;
    auto repeated = parasight::compile_scenario(*validation.scenario, options);
    options.repeat_steps = false;
    auto anew = parasight::compile_scenario(*validation.scenario, options);
    QVERIFY(repeated);
    QVERIFY(anew);
    const parasight::ExecutionGraph& a = repeated.value();
    const parasight::ExecutionGraph& b = anew.value();
    QCOMPARE(a.tasks.size(), b.tasks.size());
    QCOMPARE(a.labels, b.labels);
    QCOMPARE(a.collective_count, b.collective_count);
    QCOMPARE(a.transfer_shapes.size(), b.transfer_shapes.size());
    QCOMPARE(a.warnings.size(), b.warnings.size());
    for (std::size_t t = 0; t < b.tasks.size(); ++t) {
        const auto id = static_cast<parasight::TaskId>(t);
        QVERIFY2(same_task(a.tasks[t], b.tasks[t]), qPrintable(QStringLiteral("task %1 differs").arg(t)));
        QCOMPARE(a.predecessor_count(id), b.predecessor_count(id));
        const std::vector<std::int32_t> a_next(a.successors_begin(id), a.successors_end(id));
        const std::vector<std::int32_t> b_next(b.successors_begin(id), b.successors_end(id));
        QVERIFY2(a_next == b_next, qPrintable(QStringLiteral("task %1's successors differ").arg(t)));
    }
}

QTEST_APPLESS_MAIN(TestRepeatedSteps)
#include "test_repeated_steps.moc"
