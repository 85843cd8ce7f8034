// Calculon's files in (docs/interop.md): the systems, models and executions that ship with Calculon
// (tests/data/interop/calculon, Apache 2.0) imported with every number converted by hand below, the three files told
// apart by their keys, and every refusal located at its FILE:LINE:COL.
//
// Conversions worked by hand: Calculon's network bandwidth is GB/s of 10^9 bytes (network.py: × 1e9), its latency
// seconds once per operation — ParaSight charges each step's hops, so the latency per hop is the operation's latency
// over a whole-dimension all-reduce's steps × 2 hops through the switch (ring: 2(n − 1) steps; in-switch: 2); mem1's
// GiB are 2^30 bytes (memory.py: × 1024**3) and its GBps 10^9 B/s; matrix tflops 10^12 FLOP/s.

#include "interop/calculon_export.h"
#include "interop/calculon_files.h"
#include "interop/calculon_import.h"
#include "scenario_file/scenario_loader.h"

#include <QFile>
#include <QTest>

#include <algorithm>
#include <optional>
#include <string>

using parasight::CalculonFileKind;
using parasight::CollectiveAlgorithm;
using parasight::Diagnostics;
using parasight::PeerFile;

Q_DECLARE_METATYPE(parasight::CollectiveAlgorithm)
Q_DECLARE_METATYPE(parasight::PeerFile)

namespace {

constexpr double GiB = 1073741824.0;

PeerFile shipped(const QString& relative) {
    QFile file(QStringLiteral(PARASIGHT_TEST_DATA_DIR "/interop/calculon/") + relative);
    if (!file.open(QIODevice::ReadOnly)) return PeerFile{relative.toStdString(), {}};
    return PeerFile{relative.toStdString(), file.readAll().toStdString()};
}

std::optional<parasight::Scenario> imported(const PeerFile& system, const PeerFile& model, const PeerFile& execution) {
    const auto made = parasight::import_calculon(system, model, execution);
    if (!made) {
        for (const auto& problem : made.error()) qWarning("%s", problem.to_string().c_str());
        return std::nullopt;
    }
    const auto loaded = parasight::load_scenario_text(made->yaml, "imported");
    if (!loaded.ok()) return std::nullopt;
    return loaded.scenario->value();
}

struct ExpectedDimension {
    int size;
    double bandwidth_Bps;
    double efficiency;
    double latency_s;
    CollectiveAlgorithm algorithm;
};

// The example execution, with one field's text replaced.
PeerFile example_with(const std::string& from, const std::string& to) {
    PeerFile file = shipped(QStringLiteral("examples/3072_t4_p64_d12_mbs4_full.json"));
    file.name = "e.json";
    const auto at = file.text.find(from);
    if (at != std::string::npos) file.text.replace(at, from.size(), to);
    return file;
}

}  // namespace

class TestCalculonInterop : public QObject {
    Q_OBJECT

private slots:
    void importsShippedFiles_data();
    void importsShippedFiles();
    void unevenStagesAsCalculonSplitsThem();
    void listsEveryAssumption();
    void tellsTheFilesApart();
    void refusesWithPlace_data();
    void refusesWithPlace();
    void roundTrips_data();
    void roundTrips();
    void exportsWhatCalculonReads();
    void exportRefusesWhatDoesNotFit();
};

void TestCalculonInterop::importsShippedFiles_data() {
    QTest::addColumn<QString>("system");
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("execution");
    QTest::addColumn<QList<int>>("degrees");  // tp, pp, dp, virtual stages
    QTest::addColumn<QString>("recompute");
    QTest::addColumn<bool>("sequenceParallel");
    QTest::addColumn<int>("zero");
    QTest::addColumn<double>("peak");           // FLOP/s of the training dtype
    QTest::addColumn<double>("memoryBandwidth");
    QTest::addColumn<double>("memory");
    QTest::addColumn<double>("memoryEfficiency");  // mem1.MB_efficiency's first row  // a100_80e's mem1 is 8·10^10 GiB, past ParaSight's 1024 TiB: 1024 TiB
    QTest::addColumn<std::vector<ExpectedDimension>>("dimensions");

    // 3072 = t4 (network 0: NVLink 300 GB/s, 0.65, 10 us; all-reduce [2, -1]: the ring) × p64 · d12 (network 1:
    // InfiniBand 25 GB/s, 0.9, 20 us; all-reduce [1, 0]: in-network). Ring on 4: 10 us / (2·3 steps · 2 hops) =
    // 833.33 ns; in-switch: 20 us / (2 · 2) = 5 us.
    QTest::newRow("the example on a100_80g")
        << "systems/a100_80g.json" << "models/gpt3-175B.json" << "examples/3072_t4_p64_d12_mbs4_full.json"
        << QList<int>{4, 64, 12, 1} << "full" << true << 1 << 312e12 << 2048e9 << 80 * GiB << 0.9
        << std::vector<ExpectedDimension>{{4, 300e9, 0.65, 10e-6 / 12, CollectiveAlgorithm::ring},
                                          {768, 25e9, 0.9, 20e-6 / 4, CollectiveAlgorithm::in_switch}};
    // Calculon's validation of Korthikanti et al. Table 5: 22B on t8 alone (network 0 of a100_80e), attention-only
    // recompute (ParaSight's selective), rs_ag (sequence parallelism).
    QTest::newRow("megatron-22B, Table 5 on a100_80e")
        << "systems/a100_80e.json" << "models/megatron-22B.json" << "validation/seqsel/tab5/megatron-22B_seqsel.json"
        << QList<int>{8, 1, 1, 1} << "selective" << true << 0 << 312e12 << 2048e9 << 1048576 * GiB << 0.95
        << std::vector<ExpectedDimension>{{8, 300e9, 0.65, 10e-6 / 28, CollectiveAlgorithm::ring}};
    // GPT-3 on t8 × p8 with interleaving 3 on the H100 system: NVLink's all-reduce [1, 1] moves (n + 1)/n of the
    // data, in-switch reduction's, 450 GB/s at 0.65, 10 us / 4; InfiniBand 50 GB/s, 0.9, 20 us / 4.
    QTest::newRow("gpt3-175B, Figure 7 on h100_80g_nvl8")
        << "systems/h100_80g_nvl8.json" << "models/gpt3-175B.json" << "validation/seqsel/fig7/gpt3-175B_full.json"
        << QList<int>{8, 8, 1, 3} << "full" << false << 0 << 1000e12 << 3072e9 << 80 * GiB << 0.9
        << std::vector<ExpectedDimension>{{8, 450e9, 0.65, 10e-6 / 4, CollectiveAlgorithm::in_switch},
                                          {8, 50e9, 0.9, 20e-6 / 4, CollectiveAlgorithm::in_switch}};
}

void TestCalculonInterop::importsShippedFiles() {
    QFETCH(QString, system);
    QFETCH(QString, model);
    QFETCH(QString, execution);
    QFETCH(QList<int>, degrees);
    QFETCH(QString, recompute);
    QFETCH(bool, sequenceParallel);
    QFETCH(int, zero);
    QFETCH(double, peak);
    QFETCH(double, memoryBandwidth);
    QFETCH(double, memory);
    QFETCH(double, memoryEfficiency);
    QFETCH(std::vector<ExpectedDimension>, dimensions);
    const auto scenario = imported(shipped(system), shipped(model), shipped(execution));
    QVERIFY(scenario);
    const auto& p = scenario->parallelism;
    QCOMPARE(p.tp, degrees[0]);
    QCOMPARE(p.pp, degrees[1]);
    QCOMPARE(p.dp, degrees[2]);
    QCOMPARE(p.virtual_stages, degrees[3]);
    QCOMPARE(QString::fromStdString(std::string(name_of(p.recompute, parasight::recompute_names))), recompute);
    QCOMPARE(p.sequence_parallel, sequenceParallel);
    QCOMPARE(p.zero, zero);
    const auto& device = scenario->cluster.device;
    QCOMPARE(device.peak_flops.at(scenario->training.dtype), peak);
    QCOMPARE(device.memory_bytes, memory);
    QCOMPARE(device.memory_bandwidth_Bps, memoryBandwidth);
    QCOMPARE(device.memory_efficiency, memoryEfficiency);
    const auto& topology = scenario->cluster.topology;
    QCOMPARE(topology.size(), dimensions.size());
    for (std::size_t d = 0; d < dimensions.size(); ++d) {
        QCOMPARE(topology[d].size, dimensions[d].size);
        QCOMPARE(topology[d].bandwidth_Bps, dimensions[d].bandwidth_Bps);
        QCOMPARE(topology[d].efficiency, dimensions[d].efficiency);
        QVERIFY2(std::abs(topology[d].latency_s / dimensions[d].latency_s - 1.0) < 1e-12,
                 qPrintable(QString::number(topology[d].latency_s)));
        QCOMPARE(parasight::effective_algorithm(topology[d]), dimensions[d].algorithm);
    }
    QCOMPARE(scenario->training.attention, parasight::Attention::unfused);
}

void TestCalculonInterop::unevenStagesAsCalculonSplitsThem() {
    // 96 blocks over 64 stages: Calculon's first 96 % 64 = 32 processors hold 2, the other 32 hold 1.
    const auto scenario = imported(shipped("systems/a100_80g.json"), shipped("models/gpt3-175B.json"),
                                   shipped("examples/3072_t4_p64_d12_mbs4_full.json"));
    QVERIFY(scenario);
    QCOMPARE(scenario->strategy_tree.size(), std::size_t{32});
    QCOMPARE(scenario->strategy_tree.front().node, std::string("stage[0]"));
    QCOMPARE(scenario->strategy_tree.back().node, std::string("stage[31]"));
    QCOMPARE(scenario->strategy_tree.back().layers, std::optional<int>{2});
}

void TestCalculonInterop::listsEveryAssumption() {
    const auto made = parasight::import_calculon(shipped("systems/a100_80g.json"), shipped("models/gpt3-175B.json"),
                                                 shipped("examples/3072_t4_p64_d12_mbs4_full.json"));
    QVERIFY(made);
    const std::vector<std::string> expected{
        "vocab: Calculon counts a 51200-token embedding in its parameters but times no embedding or output layer; "
        "ParaSight times both, on the first and last stages",
        "matrix.float16.gflops_efficiency: Calculon's efficiency by a matmul's FLOPs; ParaSight takes its largest "
        "operations' 0.95 and its own dependence on a matmul's depth (device.matmul_half_dim)",
        "vector.float16.tflops: Calculon times element-wise work by its FLOPs at 78 TFLOPS; ParaSight by the bytes it "
        "moves",
        "processing_mode: no_overlap — Calculon adds an operation's compute and memory time; ParaSight's roofline takes "
        "the larger",
        "mem2: Calculon's offload tier (512 GiB at 32 GB/s) is not imported: the execution offloads nothing",
        "networks[0].latency: Calculon charges 10 us once per operation; ParaSight charges each step's hops, so "
        "operations of fewer steps pay less and a point-to-point send pays 2 hops",
        "networks[0].ops.reduce_scatter [1.5, -1]: Calculon moves 1.5 × (n − 1)/n of the data, ParaSight's ring "
        "(n − 1)/n of the data",
        "networks[0].ops.all_gather [1.5, -1]: Calculon moves 1.5 × (n − 1)/n of the data, ParaSight's ring (n − 1)/n "
        "of the data",
        "networks[0].processor_usage 0.15: Calculon slows compute by that share while the network works; ParaSight "
        "charges overlapped communication no compute",
        "networks[0].size 8: the topology has the 4 processors the execution uses on it",
        "networks[1].latency: Calculon charges 20 us once per operation; ParaSight charges each step's hops, so "
        "operations of fewer steps pay less and a point-to-point send pays 2 hops",
        "networks[1].ops.all_reduce [1, 0]: Calculon's in-network reduction moves the data once, ParaSight's "
        "in-switch reduction (n + 1)/n of it (the reduced share comes back)",
        "networks[1].ops.all_gather [1, 0]: Calculon moves the data once, ParaSight's in-switch reduction (n − 1)/n of "
        "the data",
        "networks[1].processor_usage 0.02: Calculon slows compute by that share while the network works; ParaSight "
        "charges overlapped communication no compute",
        "networks[1].size 65536: the topology has the 768 processors the execution uses on it",
        "seq_par_ag_redo: false — Calculon keeps the all-gathered input of sequence parallelism for backward; "
        "ParaSight keeps the shard and gathers it again, as Megatron-LM does (Korthikanti et al. 2022, §4.2.2)",
        "num_blocks 96 over pipeline_par 64: Calculon reports its first processor, 2 blocks, and shortens its bubble "
        "by the stages with fewer; ParaSight simulates every stage",
    };
    QCOMPARE(made->not_modelled, expected);
    // And the scenario's YAML ends with them.
    QVERIFY(made->yaml.find("# Assumptions, where Calculon's model and ParaSight's differ:\n#   vocab: ") !=
            std::string::npos);
}

void TestCalculonInterop::tellsTheFilesApart() {
    QCOMPARE(parasight::calculon_file_kind(shipped("systems/h100_80g_nvl8.json").text), CalculonFileKind::system);
    QCOMPARE(parasight::calculon_file_kind(shipped("models/megatron-22B.json").text), CalculonFileKind::model);
    QCOMPARE(parasight::calculon_file_kind(shipped("examples/3072_t4_p64_d12_mbs4_full.json").text),
             CalculonFileKind::execution);
    QCOMPARE(parasight::calculon_file_kind("{\"topology\": [Ring]}"), std::nullopt);
    QCOMPARE(parasight::calculon_file_kind("[[[["), std::nullopt);
}

void TestCalculonInterop::refusesWithPlace_data() {
    QTest::addColumn<PeerFile>("execution");
    QTest::addColumn<QString>("expected");  // the first diagnostic's start
    QTest::newRow("inference") << example_with("\"training\": true", "\"training\": false")
                               << "e.json:24:15: training: ParaSight simulates training iterations, not inference";
    QTest::newRow("an offload") << example_with("\"optimizer_offload\": false", "\"optimizer_offload\": true")
                                << "e.json:23:24: optimizer_offload: Calculon's offload to mem2 is not imported";
    QTest::newRow("every GEMM overlapped")
        << example_with("\"tensor_par_overlap\": \"none\"", "\"tensor_par_overlap\": \"ring\"")
        << "e.json:18:25: tensor_par_overlap: 'ring' overlaps every tensor-parallel collective with its GEMM";
    QTest::newRow("no float8 peak") << example_with("\"datatype\": \"float16\"", "\"datatype\": \"float8\"")
                                    << "e.json:11:15: datatype: the system's matrix unit has no float8 peak";
    QTest::newRow("a network the system has not")
        << example_with("\"data_par_net\": 1", "\"data_par_net\": 2")
        << "e.json:8:19: data_par_net: network 2 is not one of the system's 2 (0 to 1, s.json)";
    // 16 × 64 × 3 = 3072 with tp 16 on the NVLink network of 8.
    QTest::newRow("a network too small") << [] {
        PeerFile file = example_with("\"tensor_par\": 4,", "\"tensor_par\": 16,");
        const auto at = file.text.find("\"data_par\": 12");
        file.text.replace(at, 14, "\"data_par\": 3 ");
        return file;
    }() << "e.json:6:21: tensor_par_net: network 0 joins 8 processors, fewer than the 16 its degrees need";
    QTest::newRow("a network not filled") << [] {
        PeerFile file = example_with("\"tensor_par\": 4,", "\"tensor_par\": 3,");
        const auto at = file.text.find("\"data_par\": 12");
        file.text.replace(at, 14, "\"data_par\": 16");
        return file;
    }() << "e.json:6:21: tensor_par_net: network 0 must be filled (must_be_filled), and 3 processors do not divide its 8";
    QTest::newRow("degrees that miss num_procs") << example_with("\"data_par\": 12", "\"data_par\": 11")
                                                 << "e.json:2:16: num_procs is 3072 but tensor_par × pipeline_par × "
                                                    "data_par is 2816 (Calculon asserts they are equal)";
    QTest::newRow("a misspelt key") << example_with("\"microbatch_size\"", "\"micro_batch_size\"")
                                    << "e.json:10:3: unknown key 'micro_batch_size' in the execution file (did you mean "
                                       "'microbatch_size'?)";
    QTest::newRow("a recompute Calculon has not")
        << example_with("\"activation_recompute\": \"full\"", "\"activation_recompute\": \"selective\"")
        << "e.json:14:27: 'selective' is not a activation_recompute Calculon has; expected full, attn_only or none";
    QTest::newRow("what ParaSight cannot run")
        << example_with("\"pipeline_interleaving\": 1", "\"pipeline_interleaving\": 2")
        // Calculon accepts it (2 blocks per processor, rounded up, split in 2); ParaSight's stage 32 has one layer.
        << "e.json: the scenario Calculon's files make: stage[32] has 1 layer for its 2 virtual stages";
}

void TestCalculonInterop::refusesWithPlace() {
    QFETCH(PeerFile, execution);
    QFETCH(QString, expected);
    PeerFile system = shipped("systems/a100_80g.json");
    system.name = "s.json";
    const auto made = parasight::import_calculon(system, shipped("models/gpt3-175B.json"), execution);
    QVERIFY(!made);
    QVERIFY(!made.error().empty());
    const QString first = QString::fromStdString(made.error().front().to_string());
    QVERIFY2(first.startsWith(expected), qPrintable(first));
}

void TestCalculonInterop::roundTrips_data() {
    QTest::addColumn<QString>("system");
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("execution");
    QTest::newRow("the example on a100_80g")
        << "systems/a100_80g.json" << "models/gpt3-175B.json" << "examples/3072_t4_p64_d12_mbs4_full.json";
    QTest::newRow("megatron-22B, Table 5 on a100_80e")
        << "systems/a100_80e.json" << "models/megatron-22B.json" << "validation/seqsel/tab5/megatron-22B_seqsel.json";
    QTest::newRow("gpt3-175B, Figure 7 on h100_80g_nvl8")
        << "systems/h100_80g_nvl8.json" << "models/gpt3-175B.json" << "validation/seqsel/fig7/gpt3-175B_full.json";
}

void TestCalculonInterop::roundTrips() {
    QFETCH(QString, system);
    QFETCH(QString, model);
    QFETCH(QString, execution);
    const auto first = imported(shipped(system), shipped(model), shipped(execution));
    QVERIFY(first);
    const auto files = parasight::export_calculon(*first);
    QVERIFY2(files, files ? "" : files.error().c_str());
    auto second = imported(PeerFile{system.toStdString(), files->system_json},
                           PeerFile{model.toStdString(), files->model_json},
                           PeerFile{execution.toStdString(), files->execution_json});
    QVERIFY(second);
    // The same scenario, value for value (the files named alike, so are the scenario, model and cluster).
    QCOMPARE(second->name, first->name);
    QCOMPARE(second->model, first->model);
    QCOMPARE(second->training, first->training);
    QCOMPARE(second->cluster, first->cluster);
    QCOMPARE(second->parallelism, first->parallelism);
    QCOMPARE(second->strategy_tree, first->strategy_tree);
    QCOMPARE(second->simulation, first->simulation);
}

void TestCalculonInterop::exportsWhatCalculonReads() {
    // tp 8 on a switch of 8 (ring, 300 GB/s at 0.8, 1 us a hop): Calculon's latency is the whole-dimension ring
    // all-reduce's 2·7 steps × 2 hops × 1 us = 28 us; dp 4 on a ring of 4 (25 GB/s, 5 us a hop, 1 hop a step):
    // 2·3 × 1 × 5 us = 30 us, said as a shape Calculon has not.
    const auto loaded = parasight::load_scenario_text(R"(schema: 1
name: export test
model: {preset: gpt2-small, kv_heads: 1}
training: {global_batch: 64, micro_batch: 2, dtype: bf16}
cluster:
  device: h100-sxm
  topology:
    - {kind: switch, size: 8, bandwidth: 300 GB/s, latency: 1 us, efficiency: 0.8, algorithm: ring}
    - {kind: ring, size: 4, bandwidth: 25 GB/s, latency: 5 us}
parallelism: {tp: 4, pp: 2, dp: 4, sequence_parallel: true, recompute: selective, zero: 1, mapping: [tp, pp, dp]}
)",
                                                      "export.yaml");
    QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.diagnostics.front().to_string().c_str());
    const auto files = parasight::export_calculon(loaded.scenario->value());
    QVERIFY2(files, files ? "" : files.error().c_str());
    QCOMPARE(QString::fromStdString(files->model_json),
             QStringLiteral("{\n  \"hidden\": 768,\n  \"feedforward\": 3072,\n  \"seq_size\": 1024,\n"
                            "  \"attn_heads\": 12,\n  \"attn_size\": 64,\n  \"num_blocks\": 12\n}\n"));
    QCOMPARE(QString::fromStdString(files->execution_json),
             QStringLiteral("{\n  \"num_procs\": 32,\n  \"tensor_par\": 4,\n  \"pipeline_par\": 2,\n"
                            "  \"data_par\": 4,\n  \"tensor_par_net\": 0,\n  \"pipeline_par_net\": 0,\n"
                            "  \"data_par_net\": 1,\n  \"batch_size\": 64,\n  \"microbatch_size\": 2,\n"
                            "  \"datatype\": \"bfloat16\",\n  \"fused_activation\": true,\n"
                            "  \"attention_type\": \"multiquery\",\n  \"activation_recompute\": \"attn_only\",\n"
                            "  \"pipeline_interleaving\": 1,\n  \"optimizer_sharding\": true,\n"
                            "  \"tensor_par_comm_type\": \"rs_ag\",\n  \"tensor_par_overlap\": \"none\",\n"
                            "  \"seq_par_ag_redo\": true,\n  \"data_par_overlap\": true,\n"
                            "  \"weight_offload\": false,\n  \"activations_offload\": false,\n"
                            "  \"optimizer_offload\": false,\n  \"training\": true\n}\n"));
    Diagnostics problems;
    const auto system = parasight::read_calculon_system(files->system_json, "system.json", problems);
    QVERIFY(system);
    QCOMPARE(system->networks.size(), std::size_t{2});
    QCOMPARE(system->networks[0].size, std::int64_t{8});
    QCOMPARE(system->networks[0].bandwidth_GBps, 300.0);
    QCOMPARE(system->networks[0].efficiency, 0.8);
    QCOMPARE(system->networks[0].latency_s, 28e-6);
    QCOMPARE(system->networks[0].all_reduce.scalar, 2.0);
    QCOMPARE(system->networks[0].all_reduce.offset, -1.0);
    QCOMPARE(system->networks[1].size, std::int64_t{4});
    QCOMPARE(system->networks[1].latency_s, 30e-6);
    QCOMPARE(system->matrix_TFLOPS.at("bfloat16"), 989.4);
    QCOMPARE(system->processing_mode, std::string("roofline"));
    QVERIFY2(std::find(files->not_modelled.begin(), files->not_modelled.end(),
                      "dimension 1 is a ring: Calculon's networks have no shape; its latency is a whole-dimension "
                      "all-reduce's, 30 us") != files->not_modelled.end(),
             qPrintable(QString::fromStdString(files->not_modelled.back())));
}

void TestCalculonInterop::exportRefusesWhatDoesNotFit() {
    // Every reason at once: three MLP matrices, grouped-query attention, ZeRO 3, GPipe, and dp laid over both
    // dimensions (tp 2 leaves 4 of the node's 8 for dp, the rest across nodes).
    const auto loaded = parasight::load_scenario_text(R"(schema: 1
model: {preset: llama3-8b}
training: {global_batch: 64}
cluster:
  device: h100-sxm
  topology:
    - {kind: switch, size: 8, bandwidth: 450 GB/s, latency: 1 us}
    - {kind: switch, size: 4, bandwidth: 50 GB/s, latency: 5 us}
parallelism: {tp: 2, dp: 16, zero: 3, schedule: gpipe}
)",
                                                      "unfit.yaml");
    QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.diagnostics.front().to_string().c_str());
    const auto files = parasight::export_calculon(loaded.scenario->value());
    QVERIFY(!files);
    QCOMPARE(files.error(),
             std::string("it does not fit Calculon's model:\n"
                         "  - a SwiGLU MLP of three matrices: Calculon's has two (feedforward)\n"
                         "  - 8 key/value heads: Calculon has multi-head or multi-query (1)\n"
                         "  - ZeRO stage 3: Calculon shards the optimizer (ZeRO 1) at most\n"
                         "  - the GPipe schedule: Calculon's pipeline is 1F1B, interleaved or not\n"
                         "  - dp spans topology dimensions 0 to 1: Calculon puts each parallelism on one network"));
}

QTEST_GUILESS_MAIN(TestCalculonInterop)
#include "test_calculon_interop.moc"
