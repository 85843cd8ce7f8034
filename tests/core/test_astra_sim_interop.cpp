// ASTRA-sim 2.0's files in and out (docs/interop.md): the network and system files that ship with ASTRA-sim
// (tests/data/interop/astra-sim, MIT) imported with every number converted by hand below, every refusal located at its
// FILE:LINE:COL, and import → export → import giving the same cluster.
//
// Conversions worked by hand: ASTRA-sim's GB are 2^30 bytes (astra-network-analytical's bw_GBps_to_Bpns), so
// 400 GB/s = 400 · 2^30 B/s; its latency is ns per link, ParaSight's per hop (a switch is two links in both);
// a fully connected dimension's direct algorithm uses its n − 1 links at once, so 200/7 GB/s per link on
// FullyConnected(8) is 200 GiB/s for an NPU.

#include "interop/astra_sim_export.h"
#include "interop/astra_sim_import.h"
#include "scenario_file/scenario_loader.h"

#include <QFile>
#include <QTest>

#include <optional>
#include <string>

using parasight::CollectiveAlgorithm;
using parasight::DimensionKind;
using parasight::PeerFile;

Q_DECLARE_METATYPE(parasight::DimensionKind)
Q_DECLARE_METATYPE(parasight::CollectiveAlgorithm)

namespace {

constexpr double GiB = 1073741824.0;
constexpr double ns = 1e-9;

PeerFile shipped(const QString& relative) {
    QFile file(QStringLiteral(PARASIGHT_TEST_DATA_DIR "/interop/astra-sim/") + relative);
    if (!file.open(QIODevice::ReadOnly)) return PeerFile{relative.toStdString(), {}};
    return PeerFile{relative.toStdString(), file.readAll().toStdString()};
}

std::optional<PeerFile> shipped_system(const QString& relative) {
    if (relative.isEmpty()) return std::nullopt;
    return shipped(relative);
}

// The imported scenario, loaded; fails the test when the import or the load does.
std::optional<parasight::Scenario> imported(const PeerFile& network, const std::optional<PeerFile>& system,
                                            std::string* yaml = nullptr) {
    const auto text = parasight::import_astra_sim(network, system, {});
    if (!text) {
        for (const auto& problem : text.error()) qWarning("%s", problem.to_string().c_str());
        return std::nullopt;
    }
    if (yaml != nullptr) *yaml = text->yaml;
    const auto loaded = parasight::load_scenario_text(text->yaml, "imported");
    if (!loaded.ok()) return std::nullopt;
    return loaded.scenario->value();
}

struct ExpectedDimension {
    DimensionKind kind;
    int size;
    double bandwidth_Bps;
    double latency_s;
    CollectiveAlgorithm algorithm;
};

}  // namespace

class TestAstraSimInterop : public QObject {
    Q_OBJECT

private slots:
    void importsShippedFiles_data();
    void importsShippedFiles();
    void commentsEachConversion();
    void refusesWithPlace_data();
    void refusesWithPlace();
    void roundTrips_data();
    void roundTrips();
    void exportsWhatAstraSimReads();
    void exportNeedsANetwork();
};

void TestAstraSimInterop::importsShippedFiles_data() {
    QTest::addColumn<QString>("network");
    QTest::addColumn<QString>("system");
    QTest::addColumn<std::vector<ExpectedDimension>>("dimensions");
    QTest::addColumn<double>("step_latency_s");  // endpoint-delay
    QTest::addColumn<int>("chunks");             // preferred-dataset-splits; 64 (ParaSight's) without
    QTest::addColumn<double>("peak_bf16");       // peak-perf with roofline-enabled; 0: the preset's (312 TFLOP/s)
    QTest::addColumn<double>("memory_Bps");      // local-mem-bw likewise; 0: the preset's (2039 GB/s)

    const auto s = DimensionKind::switch_fabric;
    const auto r = DimensionKind::ring;
    const auto fc = DimensionKind::fully_connected;
    // Switch(8) at 400 GB/s per link, 936.25 ns; ring everywhere; endpoint-delay 10; 4 splits.
    QTest::newRow("HGX-H100-validated") << "network/HGX-H100-validated.yml" << "system/HGX-H100-validated.json"
                                        << std::vector<ExpectedDimension>{{s, 8, 400 * GiB, 936.25 * ns, CollectiveAlgorithm::ring}}
                                        << 10 * ns << 4 << 0.0 << 0.0;
    // No system file: ASTRA-sim 2.0's topology-aware algorithm on a switch, halving-doubling; ParaSight's chunks.
    QTest::newRow("HGX-H100-validated, network alone")
        << "network/HGX-H100-validated.yml" << ""
        << std::vector<ExpectedDimension>{{s, 8, 400 * GiB, 936.25 * ns, CollectiveAlgorithm::halving_doubling}}
        << 0.0 << 64 << 0.0 << 0.0;
    // Ring(8) at 50 GB/s; roofline-enabled 0, so peak-perf 900 and local-mem-bw 1600 change nothing.
    QTest::newRow("Ring_8npus") << "network/Ring_8npus.yml" << "system/Ring_4chunks.json"
                                << std::vector<ExpectedDimension>{{r, 8, 50 * GiB, 500 * ns, CollectiveAlgorithm::ring}}
                                << 10 * ns << 4 << 0.0 << 0.0;
    QTest::newRow("tpu_v3_32_2dtorus")
        << "network/tpu_v3_32_2dtorus.yml" << "system/tpu_v3_32_2dtorus.json"
        << std::vector<ExpectedDimension>{{r, 4, 80 * GiB, 1000 * ns, CollectiveAlgorithm::ring},
                                          {r, 8, 80 * GiB, 1000 * ns, CollectiveAlgorithm::ring}}
        << 1 * ns << 1 << 0.0 << 0.0;
    // roofline-enabled 1: peak-perf 700 TFLOPS, local-mem-bw 3350 GB/s (10^9 B: Sys multiplies by 1000000000).
    QTest::newRow("hgx_h100_32gpu")
        << "network/hgx_h100_32gpu.yml" << "system/hgx_h100_32gpu.json"
        << std::vector<ExpectedDimension>{{s, 8, 400 * GiB, 936.25 * ns, CollectiveAlgorithm::ring},
                                          {r, 4, 50 * GiB, 1000 * ns, CollectiveAlgorithm::ring}}
        << 1 * ns << 4 << 700e12 << 3350e9;
    // Table III's 2_8_8_4: 28.571428571428573 GB/s × 7 links = 200 GiB/s exactly in doubles.
    QTest::newRow("Table III 2_8_8_4")
        << "network/table3-2_8_8_4.yml" << "system/table3-2_8_8_4.json"
        << std::vector<ExpectedDimension>{{r, 2, 1000 * GiB, 500 * ns, CollectiveAlgorithm::ring},
                                          {fc, 8, 200 * GiB, 500 * ns, CollectiveAlgorithm::direct},
                                          {r, 8, 100 * GiB, 500 * ns, CollectiveAlgorithm::ring},
                                          {s, 4, 50 * GiB, 500 * ns, CollectiveAlgorithm::halving_doubling}}
        << 0.0 << 64 << 0.0 << 0.0;
}

void TestAstraSimInterop::importsShippedFiles() {
    QFETCH(QString, network);
    QFETCH(QString, system);
    QFETCH(std::vector<ExpectedDimension>, dimensions);
    QFETCH(double, step_latency_s);
    QFETCH(int, chunks);
    QFETCH(double, peak_bf16);
    QFETCH(double, memory_Bps);
    const auto scenario = imported(shipped(network), shipped_system(system));
    QVERIFY(scenario);
    const auto& topology = scenario->cluster.topology;
    QCOMPARE(topology.size(), dimensions.size());
    for (std::size_t d = 0; d < dimensions.size(); ++d) {
        QCOMPARE(topology[d].kind, dimensions[d].kind);
        QCOMPARE(topology[d].size, dimensions[d].size);
        QCOMPARE(topology[d].bandwidth_Bps, dimensions[d].bandwidth_Bps);
        QCOMPARE(topology[d].latency_s, dimensions[d].latency_s);
        QCOMPARE(parasight::effective_algorithm(topology[d]), dimensions[d].algorithm);
        QCOMPARE(topology[d].step_latency_s, step_latency_s);
        QCOMPARE(topology[d].efficiency, 1.0);
    }
    QCOMPARE(scenario->simulation.collective_chunks, chunks);
    const auto& device = scenario->cluster.device;
    QCOMPARE(device.preset, std::string("a100-80gb"));
    QCOMPARE(device.peak_flops.at(parasight::Dtype::bf16), peak_bf16 > 0 ? peak_bf16 : 312e12);
    QCOMPARE(device.memory_bandwidth_Bps, memory_Bps > 0 ? memory_Bps : 2039e9);
    // The placeholders: one sequence per NPU, every NPU a data-parallel replica.
    QCOMPARE(scenario->training.global_batch, scenario->device_count());
}

void TestAstraSimInterop::commentsEachConversion() {
    std::string yaml;
    QVERIFY(imported(shipped("network/hgx_h100_32gpu.yml"), shipped("system/hgx_h100_32gpu.json"), &yaml));
    for (const char* expected : {
             "bandwidth: 400 GiB/s  # bandwidth[0]: 400 GB/s per link, ASTRA-sim's GB being 2^30 bytes; the NPU's one "
             "link to the switch",
             "latency: 936.25 ns  # latency[0]: per link, two links between members as in ASTRA-sim",
             "algorithm: ring  # the system file's *-implementation[1]: ring, every operation",
             "step_latency: 1 ns  # endpoint-delay: 1 ns added to every message",
             "peak: {bf16: 700 TFLOP/s}  # peak-perf: 700 TFLOPS",
             "memory_bandwidth: 3350 GB/s  # local-mem-bw: 3350 GB/s (10^9 bytes",
             "collective_chunks: 4  # preferred-dataset-splits",
             "#   scheduling-policy: LIFO — the order ASTRA-sim's scheduler takes ready chunks",
             "#   active-chunks-per-dimension: 2 — ",
             "#   track-local-mem: 1 — what ASTRA-sim records, not what it times",
             "#   local-mem-trace-filename: mem_trace/local_memory_trace — ",
         }) {
        QVERIFY2(yaml.find(expected) != std::string::npos, expected);
    }
    QVERIFY(imported(shipped("network/table3-2_8_8_4.yml"), shipped("system/table3-2_8_8_4.json"), &yaml));
    QVERIFY(yaml.find("bandwidth: 200 GiB/s  # bandwidth[1]: 28.571428571428573 GB/s per link, ASTRA-sim's GB being "
                      "2^30 bytes; direct sends to all 7 other members at once, a link each") != std::string::npos);
}

void TestAstraSimInterop::refusesWithPlace_data() {
    QTest::addColumn<QByteArray>("network");
    QTest::addColumn<QByteArray>("system");  // empty: none
    QTest::addColumn<QString>("expected");   // the whole first diagnostic

    const QByteArray two = "topology: [Ring, Switch]\nnpus_count: [4, 2]\nbandwidth: [50, 25]\nlatency: [500, 500]\n";
    QTest::newRow("tbd, as ASTRA-sim ships it") << QByteArray(shipped("network/dgx_v100_8gpu.yml").text.c_str()) << QByteArray()
                                                << "n.yml:11:14: bandwidth[0] must be a number, not 'tbd'";
    QTest::newRow("not a mapping") << QByteArray("[Ring]\n") << QByteArray()
                                   << "n.yml:1:1: the network file must be a mapping of keys to values, found a sequence";
    QTest::newRow("missing latency") << QByteArray("topology: [Ring]\nnpus_count: [4]\nbandwidth: [50]\n")
                                     << QByteArray() << "n.yml:1:1: missing key 'latency' in the network file";
    QTest::newRow("misspelt key") << QByteArray("topology: [Ring]\nnpus_count: [4]\nbandwith: [50]\nlatency: [1]\n")
                                  << QByteArray()
                                  << "n.yml:3:1: unknown key 'bandwith' in the network file (did you mean 'bandwidth'?)";
    QTest::newRow("a Torus") << QByteArray("topology: [Rign]\nnpus_count: [4]\nbandwidth: [50]\nlatency: [1]\n")
                             << QByteArray()
                             << "n.yml:1:12: topology[0]: 'Rign' is not a topology ASTRA-sim has (did you mean "
                                "'Ring'?); expected Ring, FullyConnected or Switch";
    QTest::newRow("lists of other lengths")
        << QByteArray("topology: [Ring, Ring]\nnpus_count: [4]\nbandwidth: [50, 50]\nlatency: [1, 1]\n") << QByteArray()
        << "n.yml:2:13: npus_count has 1 entries and topology 2: one per dimension, innermost first";
    QTest::newRow("one NPU") << QByteArray("topology: [Ring]\nnpus_count: [1]\nbandwidth: [50]\nlatency: [1]\n")
                             << QByteArray() << "n.yml:2:14: npus_count[0] must be between 2 and 10000000, not 1";
    QTest::newRow("no bandwidth") << QByteArray("topology: [Ring]\nnpus_count: [4]\nbandwidth: [0]\nlatency: [1]\n")
                                  << QByteArray()
                                  << "n.yml:3:13: bandwidth[0]: 0 GB/s is outside what a link can be (1 kB/s to "
                                     "1000 TB/s)";
    QTest::newRow("negative latency")
        << QByteArray("topology: [Ring]\nnpus_count: [4]\nbandwidth: [5]\nlatency: [-1]\n") << QByteArray()
        << "n.yml:4:11: latency[0] must be between 0 and 1e+09, not -1";
    QTest::newRow("too many NPUs")
        << QByteArray("topology: [Ring, Ring]\nnpus_count: [5000, 5000]\nbandwidth: [5, 5]\nlatency: [1, 1]\n")
        << QByteArray()
        << "n.yml:2:13: npus_count makes more than 10000000 NPUs (the product of the dimensions); that is beyond any "
           "real cluster";
    QTest::newRow("a misspelt implementation") << two << QByteArray("{\"all-reduce-implementation\": [\"ring\", \"rign\"]}")
                                               << "s.json:1:40: all-reduce-implementation[1]: 'rign' is not a "
                                                  "collective implementation ASTRA-sim has (did you mean 'ring'?); "
                                                  "expected ring, direct, halvingDoubling or doubleBinaryTree";
    QTest::newRow("a window on direct") << two << QByteArray("{\"all-reduce-implementation\": [\"ring\", \"direct4\"]}")
                                        << "s.json:1:40: all-reduce-implementation[1]: 'direct4' limits direct's sends "
                                           "in flight to 4; ParaSight's direct sends to every member at once: write "
                                           "\"direct\"";
    QTest::newRow("one ring over every NPU")
        << two << QByteArray("{\"all-reduce-implementation\": [\"oneRing\", \"oneRing\"]}")
        << "s.json:1:32: all-reduce-implementation[0]: 'oneRing' runs one algorithm over every NPU as if the network "
           "had one dimension; ParaSight runs a collective dimension by dimension (or as NCCL's ring across nodes, "
           "cluster.multi_dimension_collectives: flat_ring), so it has no counterpart";
    QTest::newRow("operations that differ")
        << two
        << QByteArray("{\"all-reduce-implementation\": [\"ring\", \"direct\"],\n"
                      " \"all-to-all-implementation\": [\"ring\", \"ring\"]}")
        << "s.json:2:40: all-to-all-implementation[1] is 'ring' but all-reduce-implementation[1] is 'direct': ParaSight "
           "runs one algorithm on a dimension for every operation";
    QTest::newRow("lists for another network") << two << QByteArray("{\"all-reduce-implementation\": [\"ring\"]}")
                                               << "s.json:1:31: the implementation lists have 1 entries and the "
                                                  "network 2 dimensions (n.yml): one per dimension";
    QTest::newRow("halving-doubling on a ring")
        << two << QByteArray("{\"all-reduce-implementation\": [\"halvingDoubling\", \"ring\"]}")
        << "s.json:1:32: the halving_doubling algorithm cannot run on dimension 0, a Ring (n.yml): ParaSight runs only "
           "the ring algorithm on a ring, whose NPUs reach the others through their neighbours";
    QTest::newRow("a Chakra collective, as ASTRA-sim ships it")
        << two << QByteArray(shipped("system/custom_collective.json").text.c_str())
        << "s.json:4:3: all-reduce-implementation-custom: ASTRA-sim's custom collectives (a Chakra execution trace of "
           "each collective) have no counterpart in ParaSight, whose collectives are algorithms per dimension; name "
           "one of ring, direct, halvingDoubling, doubleBinaryTree in all-reduce-implementation";
    QTest::newRow("a roofline without a peak") << two << QByteArray("{\"roofline-enabled\": 1, \"local-mem-bw\": 50}")
                                               << "s.json:1:2: roofline-enabled needs peak-perf (TFLOPS) and "
                                                  "local-mem-bw (GB/s): ASTRA-sim's roofline times compute from both";
    QTest::newRow("a policy ASTRA-sim has not") << two << QByteArray("{\"scheduling-policy\": \"RANDOM\"}")
                                                << "s.json:1:23: 'RANDOM' is not a scheduling-policy ASTRA-sim has; "
                                                   "expected LIFO, FIFO or EXPLICIT";
    QTest::newRow("no splits") << two << QByteArray("{\"preferred-dataset-splits\": 0}")
                               << "s.json:1:30: preferred-dataset-splits must be between 1 and 4096, not 0";
    QTest::newRow("a misspelt setting") << two << QByteArray("{\"endpoint-dealy\": 10}")
                                        << "s.json:1:2: unknown key 'endpoint-dealy' in the system file (did you mean "
                                           "'endpoint-delay'?)";
    QTest::newRow("not JSON") << two << QByteArray("{\"endpoint-delay\": 10\n")
                              << "s.json:2:1: YAML syntax error: ";
}

void TestAstraSimInterop::refusesWithPlace() {
    QFETCH(QByteArray, network);
    QFETCH(QByteArray, system);
    QFETCH(QString, expected);
    std::optional<PeerFile> system_file;
    if (!system.isEmpty()) system_file = PeerFile{"s.json", system.toStdString()};
    const auto result = parasight::import_astra_sim(PeerFile{"n.yml", network.toStdString()}, system_file, {});
    QVERIFY(!result);
    QVERIFY(!result.error().empty());
    const QString first = QString::fromStdString(result.error().front().to_string());
    QVERIFY2(first.startsWith(expected), qPrintable(first));
}

void TestAstraSimInterop::roundTrips_data() {
    QTest::addColumn<QString>("network");
    QTest::addColumn<QString>("system");
    QTest::newRow("HGX-H100-validated") << "network/HGX-H100-validated.yml" << "system/HGX-H100-validated.json";
    QTest::newRow("network alone") << "network/HGX-H100-validated.yml" << "";
    QTest::newRow("Ring_8npus") << "network/Ring_8npus.yml" << "system/Ring_4chunks.json";
    QTest::newRow("tpu_v3_32_2dtorus") << "network/tpu_v3_32_2dtorus.yml" << "system/tpu_v3_32_2dtorus.json";
    QTest::newRow("hgx_h100_32gpu") << "network/hgx_h100_32gpu.yml" << "system/hgx_h100_32gpu.json";
    QTest::newRow("Table III 2_8_8_4") << "network/table3-2_8_8_4.yml" << "system/table3-2_8_8_4.json";
}

void TestAstraSimInterop::roundTrips() {
    QFETCH(QString, network);
    QFETCH(QString, system);
    const auto first = imported(shipped(network), shipped_system(system));
    QVERIFY(first);
    const auto files = parasight::export_astra_sim(*first);
    QVERIFY(files);
    const auto second =
        imported(PeerFile{network.toStdString(), files->network_yaml}, PeerFile{"system.json", files->system_json});
    QVERIFY(second);
    // The same cluster, value for value (its name says which files it came from).
    QCOMPARE(second->cluster.topology, first->cluster.topology);
    QCOMPARE(second->cluster.device, first->cluster.device);
    QCOMPARE(second->cluster.multi_dimension_collectives, first->cluster.multi_dimension_collectives);
    QCOMPARE(second->simulation.collective_chunks, first->simulation.collective_chunks);
    QCOMPARE(second->training, first->training);
    QCOMPARE(second->model, first->model);
}

void TestAstraSimInterop::exportsWhatAstraSimReads() {
    // FC(4) at 300 GB/s reaching 0.5 of it with direct: 150 GB/s = 139.698… GiB/s over 3 links; an NCCL switch runs
    // the ring in ASTRA-sim; a size-1 dimension is left out; collectives across dimensions as a flat ring.
    const auto loaded = parasight::load_scenario_text(R"(schema: 1
name: "export test"
model: {preset: gpt2-small}
training: {global_batch: 32}
cluster:
  device: h100-sxm
  multi_dimension_collectives: flat_ring
  topology:
    - {kind: fully_connected, size: 4, bandwidth: 300 GB/s, latency: 1 us, efficiency: 0.5, step_latency: 2 us}
    - {kind: ring, size: 1, bandwidth: 10 GB/s, latency: 1 us}
    - {kind: switch, size: 8, bandwidth: 50 GB/s, latency: 5 us, step_latency: 2 us}
parallelism: {dp: auto}
simulation: {collective_chunks: 16}
)",
                                                      "export.yaml");
    QVERIFY(loaded.ok());
    const auto files = parasight::export_astra_sim(loaded.scenario->value());
    QVERIFY(files);
    // 150e9 / 2^30 / 3 links and 50e9 / 2^30: both 46.566128730773926 GB/s per link.
    QCOMPARE(QString::fromStdString(files->network_yaml),
             QStringLiteral("# ASTRA-sim 2.0 analytical network, written by parasight-cli export astra-sim\n"
                            "# from export test. Dimensions innermost first.\n"
                            "topology: [ FullyConnected, Switch ]\n"
                            "npus_count: [ 4, 8 ]\n"
                            "bandwidth: [ 46.566128730773926, 46.566128730773926 ]  # GB/s (ASTRA-sim's GB: 2^30 "
                            "bytes), per link and direction\n"
                            "latency: [ 1000, 5000 ]  # ns, per link\n"));
    // H100 SXM: 989.4 TFLOP/s bf16 and 3350 GB/s.
    QCOMPARE(QString::fromStdString(files->system_json),
             QStringLiteral("{\n  \"scheduling-policy\": \"FIFO\",\n  \"endpoint-delay\": 2000.0,\n"
                            "  \"active-chunks-per-dimension\": 1,\n  \"preferred-dataset-splits\": 16,\n"
                            "  \"all-reduce-implementation\": [\n    \"direct\",\n    \"ring\"\n  ],\n"
                            "  \"reduce-scatter-implementation\": [\n    \"direct\",\n    \"ring\"\n  ],\n"
                            "  \"all-gather-implementation\": [\n    \"direct\",\n    \"ring\"\n  ],\n"
                            "  \"all-to-all-implementation\": [\n    \"direct\",\n    \"ring\"\n  ],\n"
                            "  \"collective-optimization\": \"baseline\",\n  \"local-mem-bw\": 3350.0,\n"
                            "  \"roofline-enabled\": 1,\n  \"peak-perf\": 989.4\n}\n"));
    const std::vector<std::string> expected{
        "dimension 0's collectives reach 0.5 of its line rate; ASTRA-sim has no such share, so its bandwidth is what "
        "they reach",
        "dimension 1 has one NPU, and ASTRA-sim needs more than one: it is left out",
        "dimension 2 runs NCCL's choice of algorithm and protocol by operation and size, which ASTRA-sim has not: it "
        "runs the ring there",
        "a collective over several dimensions runs as NCCL's one ring through every member "
        "(multi_dimension_collectives: flat_ring); ASTRA-sim runs it dimension by dimension",
        "the device's roofline is its peak and memory bandwidth alone: ASTRA-sim has none of ParaSight's matmul, "
        "attention and memory efficiencies or its kernel launch floor",
        "the model, training and strategy: ASTRA-sim takes a workload as a Chakra execution trace, which this export "
        "does not write"};
    QCOMPARE(files->not_modelled, expected);
}

void TestAstraSimInterop::exportNeedsANetwork() {
    const auto loaded = parasight::load_scenario_text(
        "schema: 1\nmodel: {preset: gpt2-small}\ntraining: {global_batch: 8}\ncluster:\n  device: a100-80gb\n"
        "  topology:\n    - {kind: switch, size: 1, bandwidth: 1 GB/s, latency: 1 us}\n",
        "one.yaml");
    QVERIFY(loaded.ok());
    const auto files = parasight::export_astra_sim(loaded.scenario->value());
    QVERIFY(!files);
    QCOMPARE(files.error(), std::string("the cluster has no dimension of more than one NPU, and ASTRA-sim needs a "
                                       "network to simulate"));
}

QTEST_GUILESS_MAIN(TestAstraSimInterop)
#include "test_astra_sim_interop.moc"
