// The scenario loader (docs/contracts.md "Scenario files", "Reliability rules"): every bad file in tests/data/bad/
// gets exactly the diagnostics its `# expect: LINE:COL: text` lines name, good files load to hand-worked values, and
// every bundled preset loads, writes and loads back to an equal Scenario.

#include "presets/preset_library.h"
#include "scenario_file/preset_specs.h"
#include "scenario_file/scenario_loader.h"
#include "scenario_file/scenario_writer.h"

#include "largest_strategy_tree.h"
#include "numeric_compare.h"

#include <QTest>

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

using parasight::CollectiveAlgorithm;
using parasight::DimensionKind;
using parasight::Dtype;
using parasight::LoadResult;
using parasight::ModelKind;
using parasight::ParallelAxis;
using parasight::Preset;
using parasight::PresetKind;
using parasight::Scenario;
using parasight::testing::qs;

namespace {

namespace fs = std::filesystem;

constexpr double GiB = 1024.0 * 1024.0 * 1024.0;

fs::path bad_corpus_dir() { return fs::path(PARASIGHT_TEST_DATA_DIR) / "bad"; }

// Every regular file in tests/data/bad/, sorted so rows come in a stable order.
std::vector<fs::path> bad_corpus_files() {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(bad_corpus_dir())) {
        if (entry.is_regular_file()) files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::string read_bytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

struct Expectation {
    int line = 0;
    int column = 0;
    std::string text;  // a substring of the message
};

// The `# expect: LINE:COL: text` lines of the leading comment block. A malformed expect line is reported in `error`.
std::vector<Expectation> read_expectations(const std::string& bytes, std::string& error) {
    static const std::regex expect_line(R"(# expect: ([0-9]+):([0-9]+): (.+))");
    std::vector<Expectation> expectations;
    std::istringstream lines(bytes);
    std::string line;
    while (std::getline(lines, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty() || line.front() != '#') break;  // the header ends at the first line that is not a comment
        if (line.rfind("# expect:", 0) != 0) continue;
        std::smatch match;
        if (!std::regex_match(line, match, expect_line)) {
            error = "malformed expect line (want '# expect: LINE:COL: text'): " + line;
            return {};
        }
        expectations.push_back(Expectation{std::stoi(match[1]), std::stoi(match[2]), match[3]});
    }
    return expectations;
}

QString describe(const parasight::Diagnostics& diagnostics) {
    QString text = QStringLiteral("%1 diagnostic(s):").arg(diagnostics.size());
    for (const auto& diagnostic : diagnostics) text += QStringLiteral("\n    ") + qs(diagnostic.to_string());
    return text;
}

QString describe(const std::vector<Expectation>& expectations) {
    QString text = QStringLiteral("%1 expected:").arg(expectations.size());
    for (const auto& e : expectations) {
        text += QStringLiteral("\n    %1:%2: ...%3...").arg(e.line).arg(e.column).arg(qs(e.text));
    }
    return text;
}

// A small valid scenario around a model / device / cluster preset, so that each preset is loaded the way users use it.
// fp32 is the dtype every bundled device has a peak for; one device keeps every parallel degree at 1.
std::string wrap_model_preset(std::string_view id) {
    return "schema: 1\nname: model preset " + std::string(id) + "\nmodel: {preset: " + std::string(id) +
           "}\ntraining: {global_batch: 8, dtype: fp32}\ncluster:\n  device: a100-80gb\n"
           "  topology: [{kind: switch, size: 1, bandwidth: 100 GB/s, latency: 1 us}]\n";
}

std::string wrap_device_preset(std::string_view id) {
    return "schema: 1\nname: device preset " + std::string(id) +
           "\nmodel: gpt2-small\ntraining: {global_batch: 8, dtype: fp32}\ncluster:\n  device: " + std::string(id) +
           "\n  topology: [{kind: switch, size: 1, bandwidth: 100 GB/s, latency: 1 us}]\n";
}

// Every device of the cluster is a data-parallel replica (dp: auto) with one sequence each, so the global batch is the
// device count, read from the preset's topology.
std::string wrap_cluster_preset(const Preset& preset) {
    std::int64_t devices = 1;
    for (const auto& dimension : YAML::Load(std::string(preset.text))["topology"]) {
        devices *= dimension["size"].as<std::int64_t>();
    }
    return "schema: 1\nname: cluster preset " + std::string(preset.id) +
           "\nmodel: gpt2-small\ntraining: {global_batch: " + std::to_string(devices) +
           ", dtype: fp32}\ncluster: {preset: " + std::string(preset.id) + "}\nparallelism: {dp: auto}\n";
}

LoadResult load(std::string_view text) { return parasight::load_scenario_text(text, "test.yaml"); }

// A minimal inline scenario: no presets, every dimensional value in a different unit.
constexpr std::string_view minimal_inline = R"(schema: 1
name: minimal inline
model:
  kind: transformer
  layers: 4
  hidden: 256
  heads: 8
  seq_len: 128
  vocab: 1000
training:
  global_batch: 8
cluster:
  device:
    name: Toy GPU
    peak: {bf16: 100 TFLOP/s, fp32: 12.5 TFLOP/s}
    memory: 16 GiB
    memory_bandwidth: 1.5 TB/s
  topology:
    - {kind: ring, size: 2, bandwidth: 25 Gb/s, latency: 1.5 us}
    - {kind: switch, size: 4, bandwidth: 300 GB/s, latency: 500 ns, algorithm: in_switch,
       efficiency: 0.8, in_switch_efficiency: 0.6, step_latency: 3 us}
  multi_dimension_collectives: flat_ring
parallelism:
  tp: 2
  dp: 4
)";

// GPT-3 175B on 128 DGX A100 as Narayanan et al. 2021 Table 1 ran it, written with preset ids only.
constexpr std::string_view gpt3_by_id = R"(schema: 1
model: gpt3-175b
training: {global_batch: 1536}
cluster: dgx-a100-1024
parallelism: {tp: 8, pp: 16, dp: 8, mapping: [tp, dp, pp]}
)";

}  // namespace

class TestScenarioLoader : public QObject {
    Q_OBJECT

private slots:
    void readingKeepsValuesOutOfRange();
    void badCorpus_data();
    void badCorpus();
    void badCorpusIsLargeEnough();
    void generatedBadInput_data();
    void generatedBadInput();

    void minimalInlineScenario();
    void defaultsAreFilledIn();
    void presetsById();
    void presetPlusFieldOverrides();
    void autoDegreeIsDerived();
    void strategyTreeStageLayers();
    void largestStrategyTree();

    void roundTrip_data();
    void roundTrip();
    void fuzzRegressions_data();
    void fuzzRegressions();
    void everyPresetParsesAndHasAName_data();
    void everyPresetParsesAndHasAName();
    void contractPresetIdsExist();
    void presetSpecsAreWhatTheFileGives_data();
    void presetSpecsAreWhatTheFileGives();
};

void TestScenarioLoader::badCorpus_data() {
    QTest::addColumn<QString>("path");
    for (const fs::path& path : bad_corpus_files()) {
        QTest::newRow(path.filename().string().c_str()) << qs(path.string());
    }
}

void TestScenarioLoader::badCorpus() {
    QFETCH(QString, path);
    const std::string file = path.toStdString();
    std::string malformed;
    const std::vector<Expectation> expected = read_expectations(read_bytes(file), malformed);
    QVERIFY2(malformed.empty(), malformed.c_str());
    QVERIFY2(!expected.empty(), "the file has no '# expect: LINE:COL: text' lines");

    const LoadResult result = parasight::load_scenario_file(fs::path(file));
    const QString report = describe(expected) + QStringLiteral("\nactual ") + describe(result.diagnostics);
    QVERIFY2(!result.ok(), qPrintable(QStringLiteral("the loader accepted a bad file\n") + report));
    QVERIFY2(result.diagnostics.size() == expected.size(),
             qPrintable(QStringLiteral("wrong number of diagnostics\n") + report));

    std::vector<bool> matched(result.diagnostics.size(), false);
    for (const Expectation& expectation : expected) {
        bool found = false;
        for (std::size_t i = 0; i < result.diagnostics.size() && !found; ++i) {
            const auto& diagnostic = result.diagnostics[i];
            if (!matched[i] && diagnostic.location.line == expectation.line &&
                diagnostic.location.column == expectation.column &&
                diagnostic.message.find(expectation.text) != std::string::npos) {
                matched[i] = found = true;
            }
        }
        QVERIFY2(found, qPrintable(QStringLiteral("no diagnostic at %1:%2 saying '%3'\n")
                                       .arg(expectation.line)
                                       .arg(expectation.column)
                                       .arg(qs(expectation.text)) +
                                   report));
    }
    for (const auto& diagnostic : result.diagnostics) {
        QVERIFY2(diagnostic.location.file == file,
                 qPrintable(QStringLiteral("diagnostic names file '%1', not '%2'\n")
                                .arg(qs(diagnostic.location.file), path) +
                            report));
    }
}

void TestScenarioLoader::badCorpusIsLargeEnough() {
    // The corpus may grow; it must not silently shrink (at the time of writing it has 85 files).
    const auto files = bad_corpus_files();
    QVERIFY2(files.size() >= 45, qPrintable(QStringLiteral("only %1 files in %2")
                                                .arg(files.size())
                                                .arg(qs(bad_corpus_dir().string()))));
}

// Bad input too large to keep in the corpus, made here: its first diagnostic, at LINE:COL.
void TestScenarioLoader::generatedBadInput_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");  // "LINE:COL: message"
    const QString too_deep = QStringLiteral(": lists and mappings are nested too deeply here: the limit is 256 levels");
    // The scenario's mapping is level 1; "model: " takes columns 1-7, so the bracket of level 257 is the 256th, in
    // column 7 + 256 = 263. Refused before yaml-cpp parses (and recurses) at all.
    QTest::newRow("100 000 brackets") << QStringLiteral("schema: 1\nmodel: ") + QString(100000, u'[') +
                                             QString(100000, u']') + u'\n'
                                      << QStringLiteral("2:263") + too_deep;
    QTest::newRow("100 000 brackets, never closed") << QStringLiteral("schema: 1\nmodel: ") + QString(100000, u'[')
                                                    << QStringLiteral("2:263") + too_deep;
    // "{a: " is 4 columns: the 256th brace is in column 8 + 4 · 255 = 1028.
    QTest::newRow("100 000 flow mappings") << QStringLiteral("schema: 1\nmodel: ") +
                                                  QStringLiteral("{a: ").repeated(100000) + u'1' +
                                                  QString(100000, u'}')
                                           << QStringLiteral("2:1028") + too_deep;
    // Each "- " opens a sequence one level deeper: model (level 2) and 255 dashes reach 257 at the 256th dash's
    // item, column 2 · 256 + 1 = 513.
    QTest::newRow("100 000 dashes") << QStringLiteral("schema: 1\nmodel:\n") + QStringLiteral("- ").repeated(100000) +
                                           u'x'
                                    << QStringLiteral("3:513") + too_deep;
    // 255 brackets after model's level 2: 256 levels, allowed; the reader then says what is wrong with the value.
    QTest::newRow("256 levels") << QStringLiteral("schema: 1\nmodel: ") + QString(255, u'[') + QString(255, u']')
                                << QStringLiteral("2:8: model must be a mapping of keys to values, found a sequence");
    // Brackets in quotes, comments, block scalars and plain text are not nesting; the file's one error is its
    // unclosed flow sequence, which yaml-cpp reports where it gives up: past the last line.
    const QString brackets(1000, u'[');
    QTest::newRow("brackets that are text")
        << QStringLiteral("schema: 1\nname: \"") + brackets + QStringLiteral("\"\n# ") + brackets +
               QStringLiteral("\nmodel: a") + brackets + QStringLiteral("\ncluster: |\n  ") + brackets +
               QStringLiteral("\ntraining: [\n")
        << QStringLiteral("8:1: YAML syntax error: end of sequence flow not found");
}

void TestScenarioLoader::generatedBadInput() {
    QFETCH(QString, text);
    QFETCH(QString, expected);
    const LoadResult result = load(text.toStdString());
    QVERIFY(!result.ok());
    QVERIFY2(!result.diagnostics.empty(), "no diagnostic");
    const auto& first = result.diagnostics.front();
    QCOMPARE(QStringLiteral("%1:%2: ").arg(first.location.line).arg(first.location.column) + qs(first.message),
             expected);
}

void TestScenarioLoader::minimalInlineScenario() {
    const LoadResult result = load(minimal_inline);
    QVERIFY2(result.ok(), qPrintable(describe(result.diagnostics)));
    const Scenario& s = result.scenario->value();
    QCOMPARE(s.schema, 1);
    QCOMPARE(qs(s.name), QStringLiteral("minimal inline"));

    QVERIFY(s.model.preset.empty());
    QCOMPARE(s.model.kind, ModelKind::transformer);
    QCOMPARE(s.model.layers, 4);
    QCOMPARE(s.model.decoder_layers, 0);
    QCOMPARE(s.model.hidden, 256);
    QCOMPARE(s.model.heads, 8);
    QCOMPARE(s.model.seq_len, 128);
    QCOMPARE(s.model.vocab, 1000);
    QCOMPARE(s.model.mlp, parasight::MlpKind::gelu);
    QCOMPARE(s.model.tie_embeddings, true);
    QCOMPARE(s.model.experts, 1);
    QCOMPARE(s.model.experts_per_token, 1);

    QCOMPARE(s.training.global_batch, std::int64_t{8});
    QCOMPARE(s.training.micro_batch, 1);
    QCOMPARE(s.training.dtype, Dtype::bf16);
    QCOMPARE(s.training.optimizer, parasight::Optimizer::adam);

    const auto& device = s.cluster.device;
    QVERIFY(s.cluster.preset.empty());
    QVERIFY(device.preset.empty());
    QCOMPARE(qs(device.name), QStringLiteral("Toy GPU"));
    QCOMPARE(device.peak_flops.size(), std::size_t{2});
    QCOMPARE_EQ(device.peak_flops.at(Dtype::bf16), 100e12);  // 100 TFLOP/s
    QCOMPARE_EQ(device.peak_flops.at(Dtype::fp32), 12.5e12);  // 12.5 TFLOP/s
    QCOMPARE_EQ(device.memory_bytes, 17179869184.0);          // 16 GiB = 16 · 2^30 B
    QCOMPARE_EQ(device.memory_bandwidth_Bps, 1.5e12);         // 1.5 TB/s = 1.5 · 10^12 B/s

    QCOMPARE(s.cluster.topology.size(), std::size_t{2});
    const auto& ring = s.cluster.topology[0];
    QCOMPARE(ring.kind, DimensionKind::ring);
    QCOMPARE(ring.size, 2);
    QCOMPARE_EQ(ring.bandwidth_Bps, 3.125e9);  // 25 Gb/s = 25 · 10^9 bit/s / 8 bit/B = 3.125 · 10^9 B/s
    QCOMPARE_EQ(ring.latency_s, 1.5e-6);       // 1.5 us
    QVERIFY(!ring.algorithm.has_value());      // unset: the kind's own algorithm
    QCOMPARE_EQ(ring.efficiency, 1.0);         // unset: the line rate
    QCOMPARE_EQ(ring.step_latency_s, 0.0);
    QVERIFY(!ring.in_switch_efficiency.has_value());
    const auto& fabric = s.cluster.topology[1];
    QCOMPARE(fabric.kind, DimensionKind::switch_fabric);
    QCOMPARE(fabric.size, 4);
    QCOMPARE_EQ(fabric.bandwidth_Bps, 300e9);  // 300 GB/s
    QCOMPARE_EQ(fabric.latency_s, 500e-9);     // 500 ns
    QCOMPARE(fabric.algorithm, std::optional<CollectiveAlgorithm>(CollectiveAlgorithm::in_switch));
    QCOMPARE_EQ(fabric.efficiency, 0.8);
    QCOMPARE(fabric.in_switch_efficiency, std::optional<double>(0.6));
    QCOMPARE_EQ(fabric.step_latency_s, 3e-6);
    QCOMPARE(s.cluster.multi_dimension_collectives, parasight::MultiDimensionCollectives::flat_ring);
    QCOMPARE(s.device_count(), std::int64_t{8});  // 2 · 4

    QCOMPARE(s.parallelism.tp, 2);
    QCOMPARE(s.parallelism.dp, 4);
    QCOMPARE(s.parallelism.pp, 1);
    QCOMPARE(s.parallelism.cp, 1);
    QCOMPARE(s.parallelism.ep, 1);
    QVERIFY(!s.parallelism.derived_axis.has_value());
    QVERIFY(s.strategy_tree.empty());
}

void TestScenarioLoader::defaultsAreFilledIn() {
    const LoadResult result = load(minimal_inline);
    QVERIFY2(result.ok(), qPrintable(describe(result.diagnostics)));
    const Scenario& s = result.scenario->value();
    QCOMPARE(s.model.kv_heads, 8);        // = heads when unset
    QCOMPARE(s.model.ffn_hidden, 1024);   // = 4 · hidden = 4 · 256 when unset
    const std::vector<ParallelAxis> mapping{ParallelAxis::tp, ParallelAxis::cp, ParallelAxis::ep, ParallelAxis::dp,
                                            ParallelAxis::pp};
    QCOMPARE(s.parallelism.mapping, mapping);  // tp, cp, ep, dp, pp innermost first
    QCOMPARE(s.parallelism.zero, 0);
    QCOMPARE(s.parallelism.sequence_parallel, false);
    QCOMPARE(s.parallelism.recompute, parasight::Recompute::none);
    QCOMPARE(s.parallelism.schedule, parasight::Schedule::one_f_one_b);
    QCOMPARE(s.parallelism.virtual_stages, 1);
    QCOMPARE_EQ(s.simulation.overlap_slowdown, 0.1);
    QCOMPARE(s.simulation.bandwidth_sharing, true);
    QCOMPARE(s.simulation.collective_chunks, 64);

    // An explicit kv_heads or ffn_hidden is kept, not replaced by the default.
    std::string text(minimal_inline);
    text.replace(text.find("  heads: 8\n"), 11, "  heads: 8\n  kv_heads: 2\n  ffn_hidden: 688\n");
    const LoadResult explicit_values = load(text);
    QVERIFY2(explicit_values.ok(), qPrintable(describe(explicit_values.diagnostics)));
    QCOMPARE(explicit_values.scenario->value().model.kv_heads, 2);
    QCOMPARE(explicit_values.scenario->value().model.ffn_hidden, 688);
}

void TestScenarioLoader::presetsById() {
    const LoadResult result = load(gpt3_by_id);
    QVERIFY2(result.ok(), qPrintable(describe(result.diagnostics)));
    const Scenario& s = result.scenario->value();
    // presets/models/gpt3-175b.yaml (Brown et al. 2020, Table 2.1)
    QCOMPARE(qs(s.model.preset), QStringLiteral("gpt3-175b"));
    QCOMPARE(qs(s.model.name), QStringLiteral("GPT-3 175B"));
    QCOMPARE(s.model.layers, 96);
    QCOMPARE(s.model.hidden, 12288);
    QCOMPARE(s.model.heads, 96);
    QCOMPARE(s.model.kv_heads, 96);
    QCOMPARE(s.model.ffn_hidden, 49152);  // 4 · 12288
    QCOMPARE(s.model.seq_len, 2048);
    QCOMPARE(s.model.vocab, 51200);
    // presets/clusters/dgx-a100-1024.yaml on presets/devices/a100-80gb.yaml
    QCOMPARE(qs(s.cluster.preset), QStringLiteral("dgx-a100-1024"));
    QCOMPARE(qs(s.cluster.device.preset), QStringLiteral("a100-80gb"));
    QCOMPARE(qs(s.cluster.device.name), QStringLiteral("A100-80GB SXM4"));
    QCOMPARE_EQ(s.cluster.device.peak_flops.at(Dtype::bf16), 312e12);
    QCOMPARE_EQ(s.cluster.device.peak_flops.at(Dtype::fp32), 19.5e12);
    QCOMPARE_EQ(s.cluster.device.memory_bytes, 80 * GiB);  // 80 GiB = 85 899 345 920 B
    QCOMPARE_EQ(s.cluster.device.memory_bandwidth_Bps, 2039e9);
    QCOMPARE_EQ(s.cluster.device.context_memory_bytes, 1573.0 * 1024 * 1024);  // 1573 MiB (BigScience, nvidia-smi)
    QCOMPARE(s.cluster.topology.size(), std::size_t{2});
    QCOMPARE(s.cluster.topology[0].size, 8);
    QCOMPARE_EQ(s.cluster.topology[0].bandwidth_Bps, 300e9);
    QCOMPARE_EQ(s.cluster.topology[0].latency_s, 1e-6);
    QCOMPARE(s.cluster.topology[1].size, 128);
    QCOMPARE_EQ(s.cluster.topology[1].bandwidth_Bps, 25e9);
    QCOMPARE_EQ(s.cluster.topology[1].latency_s, 5e-6);
    QCOMPARE(s.device_count(), std::int64_t{1024});  // 8 · 128
}

void TestScenarioLoader::presetPlusFieldOverrides() {
    const LoadResult result = load(R"(schema: 1
model: {preset: gpt3-175b, seq_len: 4096}
training: {global_batch: 1536}
cluster:
  device: {preset: a100-80gb, peak: {bf16: 234 TFLOP/s}, memory: 40 GiB}
  topology: [{kind: switch, size: 8, bandwidth: 300 GB/s, latency: 1 us}]
parallelism: {tp: 8}
)");
    QVERIFY2(result.ok(), qPrintable(describe(result.diagnostics)));
    const Scenario& s = result.scenario->value();
    QCOMPARE(qs(s.model.preset), QStringLiteral("gpt3-175b"));
    QCOMPARE(s.model.seq_len, 4096);   // overridden
    QCOMPARE(s.model.layers, 96);      // kept from the preset
    QCOMPARE(s.model.hidden, 12288);   // kept
    QCOMPARE(s.model.vocab, 51200);    // kept
    const auto& device = s.cluster.device;
    QCOMPARE(qs(device.preset), QStringLiteral("a100-80gb"));
    QCOMPARE(qs(device.name), QStringLiteral("A100-80GB SXM4"));
    QCOMPARE_EQ(device.peak_flops.at(Dtype::bf16), 234e12);  // overridden
    QCOMPARE_EQ(device.peak_flops.at(Dtype::fp16), 312e12);  // the other peaks kept
    QCOMPARE_EQ(device.peak_flops.at(Dtype::tf32), 156e12);
    QCOMPARE_EQ(device.peak_flops.at(Dtype::fp32), 19.5e12);
    QCOMPARE(device.peak_flops.size(), std::size_t{4});
    QCOMPARE_EQ(device.memory_bytes, 40 * GiB);             // overridden
    QCOMPARE_EQ(device.memory_bandwidth_Bps, 2039e9);       // kept

    // A cluster preset with its topology replaced keeps its device.
    const LoadResult replaced = load(R"(schema: 1
model: gpt2-small
training: {global_batch: 8}
cluster: {preset: dgx-a100-1024, topology: [{kind: ring, size: 4, bandwidth: 100 GB/s, latency: 2 us}]}
parallelism: {dp: 4}
)");
    QVERIFY2(replaced.ok(), qPrintable(describe(replaced.diagnostics)));
    QCOMPARE(qs(replaced.scenario->value().cluster.preset), QStringLiteral("dgx-a100-1024"));
    QCOMPARE(qs(replaced.scenario->value().cluster.device.preset), QStringLiteral("a100-80gb"));
    QCOMPARE(replaced.scenario->value().cluster.topology.size(), std::size_t{1});
    QCOMPARE(replaced.scenario->value().cluster.topology[0].kind, DimensionKind::ring);
    QCOMPARE(replaced.scenario->value().device_count(), std::int64_t{4});

    // Fields given for the device of a cluster preset override that device, one by one: ASTRA-sim 2.0 §IV assumes
    // the 234 TFLOP/s an A100 measures rather than its 312 TFLOP/s peak.
    const LoadResult measured = load(R"(schema: 1
model: gpt2-small
training: {global_batch: 512}
cluster: {preset: astra-conv4d, device: {peak: {bf16: 234 TFLOP/s}}}
parallelism: {dp: auto}
)");
    QVERIFY2(measured.ok(), qPrintable(describe(measured.diagnostics)));
    QCOMPARE(qs(measured.scenario->value().cluster.device.preset), QStringLiteral("a100-80gb"));
    QCOMPARE_EQ(measured.scenario->value().cluster.device.peak_flops.at(Dtype::bf16), 234e12);  // overridden
    QCOMPARE_EQ(measured.scenario->value().cluster.device.peak_flops.at(Dtype::fp16), 312e12);  // kept
    QCOMPARE_EQ(measured.scenario->value().cluster.device.memory_bytes, 80 * GiB);             // kept
}

void TestScenarioLoader::autoDegreeIsDerived() {
    const LoadResult result = load(R"(schema: 1
model: gpt3-175b
training: {global_batch: 1536}
cluster: dgx-a100-1024
parallelism: {tp: 8, pp: 16, dp: auto, mapping: [tp, dp, pp]}
)");
    QVERIFY2(result.ok(), qPrintable(describe(result.diagnostics)));
    const auto& parallelism = result.scenario->value().parallelism;
    QCOMPARE(parallelism.dp, 8);  // 1024 devices / (tp 8 · pp 16) = 8
    QCOMPARE(parallelism.derived_axis, std::optional<ParallelAxis>(ParallelAxis::dp));
    QCOMPARE(parallelism.tp, 8);
    QCOMPARE(parallelism.pp, 16);

    // tp may be the derived one too: 1024 / (pp 16 · dp 8) = 8.
    const LoadResult tp_auto = load(R"(schema: 1
model: gpt3-175b
training: {global_batch: 1536}
cluster: dgx-a100-1024
parallelism: {tp: auto, pp: 16, dp: 8, mapping: [tp, dp, pp]}
)");
    QVERIFY2(tp_auto.ok(), qPrintable(describe(tp_auto.diagnostics)));
    QCOMPARE(tp_auto.scenario->value().parallelism.tp, 8);
    QCOMPARE(tp_auto.scenario->value().parallelism.derived_axis, std::optional<ParallelAxis>(ParallelAxis::tp));
}

void TestScenarioLoader::largestStrategyTree() {
    // 100 000 entries, the limit, load (make bench times it: docs/performance.md, "Loading"); validation is linear in
    // them, as the duplicate check hashes the node names.
    const LoadResult loaded =
        parasight::load_scenario_text(parasight::testing::scenario_with_largest_strategy_tree(), "largest.yaml");
    QVERIFY2(loaded.ok(), qPrintable(describe(loaded.diagnostics)));
    QCOMPARE(loaded.scenario->value().strategy_tree.size(), std::size_t{100'000});
    QCOMPARE(qs(loaded.scenario->value().strategy_tree.back().node), QStringLiteral("layer[9999].mlp.mlp_down"));
    // The last entry naming layer[0] again is found, at its line: the first entry's line plus 99 999; column 12 is
    // the quote that opens the node's value after `  - {node: `.
    const LoadResult duplicate = parasight::load_scenario_text(
        parasight::testing::scenario_with_largest_strategy_tree(true), "largest.yaml");
    QVERIFY(!duplicate.ok());
    QCOMPARE(duplicate.diagnostics.size(), std::size_t{1});
    QCOMPARE(qs(duplicate.diagnostics.front().to_string()),
             QStringLiteral("largest.yaml:%1:12: node 'layer[0]' is given twice in strategy_tree")
                 .arg(parasight::testing::largest_tree_first_entry_line + 99'999));
}

void TestScenarioLoader::strategyTreeStageLayers() {
    // presets/scenarios/llama3-405b-16k.yaml: 126 layers on pp 16 with stage[0] and stage[15] given 7 each; the other
    // 14 stages share 126 − 2 · 7 = 112 = 14 · 8, so 8 each. Accepted.
    const Preset* preset = parasight::find_preset(PresetKind::scenario, "llama3-405b-16k");
    QVERIFY(preset != nullptr);
    const std::string text(preset->text);
    const LoadResult result = parasight::load_scenario_text(text, std::string(preset->file));
    QVERIFY2(result.ok(), qPrintable(describe(result.diagnostics)));
    const Scenario& s = result.scenario->value();
    QCOMPARE(s.model.layers, 126);
    QCOMPARE(s.parallelism.pp, 16);
    QCOMPARE(s.strategy_tree.size(), std::size_t{2});
    QCOMPARE(qs(s.strategy_tree[0].node), QStringLiteral("stage[0]"));
    QCOMPARE(s.strategy_tree[0].layers, std::optional<int>(7));
    QCOMPARE(qs(s.strategy_tree[1].node), QStringLiteral("stage[15]"));
    QCOMPARE(s.strategy_tree[1].layers, std::optional<int>(7));
    QVERIFY(!s.strategy_tree[0].recompute.has_value());

    // 7 and 6: the other 14 stages would share 126 − 13 = 113 layers, which 14 does not divide. Rejected.
    std::string uneven = text;
    const std::string last = R"({node: "stage[15]", layers: 7})";
    QVERIFY(uneven.find(last) != std::string::npos);
    uneven.replace(uneven.find(last), last.size(), R"({node: "stage[15]", layers: 6})");
    const LoadResult rejected = parasight::load_scenario_text(uneven, "uneven.yaml");
    QVERIFY(!rejected.ok());
    QCOMPARE(rejected.diagnostics.size(), std::size_t{1});
    QVERIFY2(rejected.diagnostics[0].message.find("remaining 113 layers") != std::string::npos,
             qPrintable(describe(rejected.diagnostics)));

    // Every stage given: 7 + 14 · 8 + 7 = 126. Accepted.
    std::string all_given = text;
    std::string middle;
    for (int stage = 1; stage < 15; ++stage) {
        middle += "  - {node: \"stage[" + std::to_string(stage) + "]\", layers: 8}\n";
    }
    all_given.replace(all_given.find("  - {node: \"stage[15]\""), 0, middle);
    const LoadResult all = parasight::load_scenario_text(all_given, "all.yaml");
    QVERIFY2(all.ok(), qPrintable(describe(all.diagnostics)));
    QCOMPARE(all.scenario->value().strategy_tree.size(), std::size_t{16});
}

void TestScenarioLoader::roundTrip_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("text");
    QTest::newRow("minimal inline") << QStringLiteral("minimal.yaml") << qs(minimal_inline);
    QTest::newRow("presets by id") << QStringLiteral("gpt3.yaml") << qs(gpt3_by_id);
    QTest::newRow("dp auto") << QStringLiteral("auto.yaml")
                             << QStringLiteral("schema: 1\nmodel: gpt3-175b\ntraining: {global_batch: 1536}\n"
                                               "cluster: dgx-a100-1024\nparallelism: {tp: 8, pp: 16, dp: auto, "
                                               "mapping: [tp, dp, pp]}\n");
    // A mixture of experts with a capacity factor, and operation-level recompute in the strategy tree.
    QTest::newRow("moe and operation nodes")
        << QStringLiteral("moe.yaml")
        << QStringLiteral("schema: 1\nmodel: {preset: llama3-8b, experts: 8, experts_per_token: 2, "
                          "capacity_factor: 1.25}\ntraining: {global_batch: 256}\ncluster: dgx-h100-1024\n"
                          "parallelism: {tp: 8, ep: 8, dp: auto, mapping: [tp, ep, dp]}\n"
                          "strategy_tree: [{node: \"layer[3].mlp.activation\", recompute: full}]\n");
    // ZeRO-3 gathering each module, two layers ahead.
    QTest::newRow("zero-3 gathers")
        << QStringLiteral("zero3.yaml")
        << QStringLiteral("schema: 1\nmodel: gpt2-small\ntraining: {global_batch: 8}\n"
                          "cluster:\n  device: a100-80gb\n  topology:\n"
                          "    - {kind: switch, size: 8, bandwidth: 300 GB/s, latency: 1 us}\n"
                          "parallelism: {dp: 8, zero: 3, zero3_gather: module, zero3_prefetch_layers: 2}\n");
    // 10 micro-batches on pp 4 interleaved in groups of 5.
    QTest::newRow("micro-batch groups")
        << QStringLiteral("groups.yaml")
        << QStringLiteral("schema: 1\nmodel: {preset: gpt2-small, layers: 8}\ntraining: {global_batch: 10}\n"
                          "cluster:\n  device: a100-80gb\n  topology:\n"
                          "    - {kind: switch, size: 4, bandwidth: 300 GB/s, latency: 1 us}\n"
                          "parallelism: {pp: 4, schedule: interleaved, virtual_stages: 2, micro_batch_group: 5}\n");
    // The model flags written only when set apart from their defaults.
    QTest::newRow("model flags")
        << QStringLiteral("flags.yaml")
        << QStringLiteral("schema: 1\nmodel: {preset: gpt2-small, dropout: false, parallel_blocks: true}\n"
                          "training: {global_batch: 8}\ncluster:\n  device: a100-80gb\n  topology:\n"
                          "    - {kind: switch, size: 8, bandwidth: 300 GB/s, latency: 1 us}\n"
                          "parallelism: {tp: 2, dp: 4}\n");
    // A device preset with one of its own efficiencies overridden (FlashAttention-3 on an H100).
    QTest::newRow("device preset overridden")
        << QStringLiteral("override.yaml")
        << QStringLiteral("schema: 1\nmodel: gpt2-small\ntraining: {global_batch: 8}\n"
                          "cluster:\n  device: {preset: h100-sxm, attention_efficiency: 0.6}\n  topology:\n"
                          "    - {kind: switch, size: 8, bandwidth: 450 GB/s, latency: 1 us}\n"
                          "parallelism: {dp: 8}\n");
    // An A100 preset without its 1573 MiB CUDA context, the measured H200 without its launch floor: written back as
    // 0, not left out (which would read back as the preset's).
    QTest::newRow("measured device preset without its launch floor")
        << QStringLiteral("launch.yaml")
        << QStringLiteral("schema: 1\nmodel: gpt2-small\ntraining: {global_batch: 8}\n"
                          "cluster:\n  device: {preset: h200-measured, kernel_launch: 0 s, graph_kernel_launch: 0 s}\n"
                          "  topology:\n    - {kind: switch, size: 8, bandwidth: 450 GB/s, latency: 1 us}\n"
                          "parallelism: {dp: 8}\n");
    QTest::newRow("device preset without its context")
        << QStringLiteral("context.yaml")
        << QStringLiteral("schema: 1\nmodel: gpt2-small\ntraining: {global_batch: 8}\n"
                          "cluster:\n  device: {preset: a100-80gb, context_memory: 0 B}\n  topology:\n"
                          "    - {kind: switch, size: 8, bandwidth: 300 GB/s, latency: 1 us}\n"
                          "parallelism: {dp: 8}\n");
    for (const Preset& preset : parasight::all_presets()) {
        const std::string tag =
            std::string(name_of(preset.kind, parasight::preset_kind_names)) + " " + std::string(preset.id);
        switch (preset.kind) {
        case PresetKind::scenario:
            QTest::newRow(tag.c_str()) << qs(preset.file) << qs(preset.text);
            break;
        case PresetKind::model:
            QTest::newRow(tag.c_str()) << QStringLiteral("wrapped.yaml") << qs(wrap_model_preset(preset.id));
            break;
        case PresetKind::device:
            QTest::newRow(tag.c_str()) << QStringLiteral("wrapped.yaml") << qs(wrap_device_preset(preset.id));
            break;
        case PresetKind::cluster:
            QTest::newRow(tag.c_str()) << QStringLiteral("wrapped.yaml") << qs(wrap_cluster_preset(preset));
            break;
        case PresetKind::lesson:
            break;  // not a scenario: test_lessons reads them
        }
    }
}

void TestScenarioLoader::roundTrip() {
    QFETCH(QString, file);
    QFETCH(QString, text);
    const LoadResult loaded = parasight::load_scenario_text(text.toStdString(), file.toStdString());
    QVERIFY2(loaded.ok() && loaded.diagnostics.empty(), qPrintable(describe(loaded.diagnostics) + "\n" + text));

    const std::string written = parasight::write_scenario_yaml(loaded.scenario->value());
    QCOMPARE(qs(parasight::write_scenario_yaml(loaded.scenario->value())), qs(written));  // writing is deterministic

    const LoadResult reloaded = parasight::load_scenario_text(written, "written.yaml");
    QVERIFY2(reloaded.ok(), qPrintable(describe(reloaded.diagnostics) + "\n" + qs(written)));
    // On a difference, compare the texts first: they say which field changed.
    QCOMPARE(qs(parasight::write_scenario_yaml(reloaded.scenario->value())), qs(written));
    QVERIFY2(*reloaded.scenario == *loaded.scenario, qPrintable(qs(written)));
}

// Inputs the loader fuzzer once failed on (tests/data/fuzz-regressions/, one file each, named for what went wrong):
// the fuzzer's property must hold for them — either diagnostics, or a Scenario that writes and reloads unchanged.
void TestScenarioLoader::fuzzRegressions_data() {
    QTest::addColumn<QString>("path");
    int rows = 0;
    for (const auto& entry : fs::directory_iterator(fs::path(PARASIGHT_TEST_DATA_DIR) / "fuzz-regressions")) {
        QTest::newRow(entry.path().filename().string().c_str()) << qs(entry.path().string());
        ++rows;
    }
    QVERIFY(rows > 0);
}

void TestScenarioLoader::fuzzRegressions() {
    QFETCH(QString, path);
    const LoadResult loaded = parasight::load_scenario_text(read_bytes(path.toStdString()), "fuzz.yaml");
    QCOMPARE(loaded.ok(), loaded.diagnostics.empty());
    if (!loaded.ok()) return;
    const std::string written = parasight::write_scenario_yaml(loaded.scenario->value());
    const LoadResult reloaded = parasight::load_scenario_text(written, "written.yaml");
    QVERIFY2(reloaded.ok(), qPrintable(describe(reloaded.diagnostics) + "\n" + qs(written)));
    QVERIFY2(*reloaded.scenario == *loaded.scenario, qPrintable(qs(written)));
}

void TestScenarioLoader::everyPresetParsesAndHasAName_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("text");
    for (const Preset& preset : parasight::all_presets()) {
        QTest::newRow(std::string(preset.file).c_str()) << qs(preset.file) << qs(preset.text);
    }
}

void TestScenarioLoader::everyPresetParsesAndHasAName() {
    QFETCH(QString, file);
    QFETCH(QString, text);
    YAML::Node root;
    try {
        root = YAML::Load(text.toStdString());
    } catch (const YAML::Exception& error) {
        QFAIL(qPrintable(file + ": " + qs(error.what())));
    }
    QVERIFY2(root.IsMap(), qPrintable(file + " is not a mapping"));
    // Parsed without its comment lines (preset_parse_text, which the loader reads presets from), it is the same YAML.
    const Preset* preset = nullptr;
    for (const Preset& candidate : parasight::all_presets()) {
        if (qs(candidate.file) == file) preset = &candidate;
    }
    QVERIFY(preset != nullptr);
    const YAML::Node stripped = YAML::Load(parasight::preset_parse_text(*preset));
    YAML::Emitter with_comments;
    with_comments << root;
    YAML::Emitter without;
    without << stripped;
    QCOMPARE(QString::fromUtf8(without.c_str()), QString::fromUtf8(with_comments.c_str()));
    // A lesson is named by its title (docs/lessons.md).
    const char* key = file.startsWith(QStringLiteral("presets/lessons/")) ? "title" : "name";
    QVERIFY2(root[key] && root[key].IsScalar() && !root[key].Scalar().empty(), qPrintable(file + " has no " + key));
}

void TestScenarioLoader::contractPresetIdsExist() {
    // docs/contracts.md "Preset ids": the ids users may rely on.
    const std::vector<std::string_view> devices{"a100-40gb", "a100-80gb", "h100-sxm", "h200",
                                                "v100",      "a40",       "a10",      "tpu-v4"};
    const std::vector<std::string_view> models{"gpt2-small", "gpt2-medium", "gpt2-xl",  "gpt3-175b",
                                               "llama3-8b",  "llama3-70b",  "llama3-405b", "bert-large",
                                               "t5-large",   "resnet50",    "vgg16"};
    for (const auto id : devices) {
        QVERIFY2(parasight::find_preset(PresetKind::device, id) != nullptr, qPrintable(qs(id)));
    }
    for (const auto id : models) {
        QVERIFY2(parasight::find_preset(PresetKind::model, id) != nullptr, qPrintable(qs(id)));
    }
    QVERIFY(parasight::find_preset(PresetKind::cluster, "dgx-a100-1024") != nullptr);
    QVERIFY(parasight::find_preset(PresetKind::scenario, "default") != nullptr);
}

void TestScenarioLoader::presetSpecsAreWhatTheFileGives_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("id");
    for (const auto kind : {PresetKind::model, PresetKind::device, PresetKind::cluster}) {
        for (const auto id : parasight::preset_ids(kind)) {
            const QString kind_name = qs(std::string(parasight::name_of(kind, parasight::preset_kind_names)));
            QTest::addRow("%s %s", qPrintable(kind_name), std::string(id).c_str()) << kind_name << qs(std::string(id));
        }
    }
}

void TestScenarioLoader::presetSpecsAreWhatTheFileGives() {
    // What an editor gets by choosing a preset equals what a scenario naming it loads to.
    QFETCH(QString, kind);
    QFETCH(QString, id);
    const std::string preset = id.toStdString();
    // A valid scenario around the preset: dp derived from any preset cluster's size (all powers of two here); fp32,
    // which every device preset lists (the V100 has no bf16, the TPU v4 no fp16).
    const std::string model = kind == QStringLiteral("model") ? preset : "gpt2-small";
    std::string cluster = kind == QStringLiteral("cluster") ? preset : "dgx-a100-1024";
    if (kind == QStringLiteral("device")) cluster = "{preset: dgx-a100-1024, device: " + preset + "}";
    const std::string text = "schema: 1\nname: t\nmodel: " + model + "\ntraining: {global_batch: 1048576, dtype: fp32}\ncluster: " +
                             cluster + "\nparallelism: {dp: auto}\n";
    const LoadResult loaded = parasight::load_scenario_text(text, "t.yaml");
    QVERIFY2(loaded.ok(), qPrintable(loaded.diagnostics.empty() ? QString() : qs(loaded.diagnostics.front().to_string())));
    const Scenario& scenario = loaded.scenario->value();
    if (kind == QStringLiteral("model")) {
        const auto spec = parasight::model_preset_spec(preset);
        QVERIFY(spec.has_value());
        QVERIFY(*spec == scenario.model);
    } else if (kind == QStringLiteral("device")) {
        const auto spec = parasight::device_preset_spec(preset);
        QVERIFY(spec.has_value());
        QVERIFY(*spec == scenario.cluster.device);
    } else {
        const auto spec = parasight::cluster_preset_spec(preset);
        QVERIFY(spec.has_value());
        QVERIFY(*spec == scenario.cluster);
    }
    QVERIFY(!parasight::model_preset_spec("no-such-preset").has_value());
    QVERIFY(!parasight::device_preset_spec("gpt3-175b").has_value());  // a model, not a device
}

void TestScenarioLoader::readingKeepsValuesOutOfRange() {
    // An editor's autosave of a half-edited scenario: micro_batch 0 and a 10^8-NPU dimension are refused by the
    // loader, but read_scenario_text gives them back as written, with the same diagnostics.
    const std::string text = "schema: 1\nmodel: gpt2-small\ntraining: {global_batch: 8, micro_batch: 0}\n"
                             "cluster: {device: a100-80gb, topology: [{kind: ring, size: 100000000, "
                             "bandwidth: 100 GB/s, latency: 1 us}]}\nparallelism: {dp: auto}\n";
    const parasight::LoadResult loaded = parasight::load_scenario_text(text, "half-edited.yaml");
    QVERIFY(!loaded.ok());
    const parasight::ReadResult read = parasight::read_scenario_text(text, "half-edited.yaml");
    QVERIFY(read.scenario.has_value());
    QCOMPARE(read.scenario->training.micro_batch, 0);
    QCOMPARE(read.scenario->cluster.topology.at(0).size, 100000000);
    QCOMPARE(read.scenario->training.global_batch, std::int64_t{8});
    QCOMPARE(read.diagnostics.size(), loaded.diagnostics.size());
    QCOMPARE(read.diagnostics.size(), std::size_t{2});  // one per value out of range, nothing cascading
    // Text that is not YAML gives nothing to recover.
    const parasight::ReadResult broken = parasight::read_scenario_text("training: [unclosed\n", "broken.yaml");
    QVERIFY(!broken.scenario.has_value());
    QCOMPARE(broken.diagnostics.size(), std::size_t{1});
}

QTEST_GUILESS_MAIN(TestScenarioLoader)
#include "test_scenario_loader.moc"
