// validate() on scenarios edited in memory, as the GUI's editors and sweeps make them: each edit below is rejected
// with the loader's message at the scenario path of the value, or accepted and completed; nothing that fails
// validation reaches the compiler (it takes only a ValidatedScenario).

#include "scenario_file/scenario_loader.h"
#include "simulation/simulate.h"
#include "validation/validate.h"

#include <QtTest>

#include <cmath>
#include <functional>
#include <limits>
#include <type_traits>

using namespace parasight;

using Edit = std::function<void(Scenario&)>;
Q_DECLARE_METATYPE(Edit)

namespace {

// Only validate() makes one: an edited Scenario cannot become a ValidatedScenario by any other way.
static_assert(!std::is_constructible_v<ValidatedScenario, Scenario>);
static_assert(!std::is_convertible_v<Scenario, ValidatedScenario>);

QString qs(const std::string& text) { return QString::fromStdString(text); }

const Scenario& default_scenario() {
    static const LoadResult loaded = load_scenario_file(PARASIGHT_SOURCE_DIR "/presets/scenarios/default.yaml");
    return loaded.scenario->value();
}

StrategyOverride tree_entry(std::string node, std::optional<int> layers = {}, std::optional<Recompute> recompute = {}) {
    StrategyOverride entry;
    entry.node = std::move(node);
    entry.layers = layers;
    entry.recompute = recompute;
    return entry;
}

QString joined(const Diagnostics& diagnostics) {
    QStringList lines;
    for (const Diagnostic& diagnostic : diagnostics) lines << qs(diagnostic.to_string());
    return lines.join(QLatin1Char('\n'));
}

}  // namespace

class TestValidate : public QObject {
    Q_OBJECT
private slots:
    void theLoadedScenarioPasses();
    void rejectedEdits_data();
    void rejectedEdits();
    void acceptedEdits_data();
    void acceptedEdits();
    void loaderLocatesTheSamePath();
    void simulateValidatesAScenario();
};

void TestValidate::theLoadedScenarioPasses() {
    const Validation validation = validate(default_scenario());
    QVERIFY2(validation.ok(), qPrintable(joined(validation.diagnostics)));
    QVERIFY(validation.scenario->value() == default_scenario());
}

void TestValidate::rejectedEdits_data() {
    QTest::addColumn<Edit>("edit");
    QTest::addColumn<QString>("expected");  // the first diagnostic, as Diagnostic::to_string() writes it

    // The edit that crashed the simulator before validate() existed: 96 layers do not split over 64 stages.
    QTest::newRow("pp 64, dp 2") << Edit([](Scenario& s) {
        s.parallelism.pp = 64;
        s.parallelism.dp = 2;
    }) << QStringLiteral("parallelism.pp: pp 64 does not divide the model's 96 layers; choose a divisor or give layers "
                         "per stage in strategy_tree, e.g. {node: \"stage[0]\", layers: 1}");
    // tp 8 × pp 16 × dp 16 = 2048 on 1024 devices.
    QTest::newRow("degrees past the devices")
        << Edit([](Scenario& s) { s.parallelism.dp = 16; })
        << QStringLiteral("parallelism: the parallel degrees multiply to 2048 (tp=8 x dp=16 x pp=16) but the cluster "
                          "has 1024 devices (8 x 128); change a degree or write one of them as 'auto'");
    QTest::newRow("degree 0") << Edit([](Scenario& s) { s.parallelism.tp = 0; })
                              << QStringLiteral("parallelism.tp must be between 1 and 10000000, not 0");
    QTest::newRow("layers 0") << Edit([](Scenario& s) { s.model.layers = 0; })
                              << QStringLiteral("model.layers must be between 1 and 10000, not 0");
    QTest::newRow("negative batch") << Edit([](Scenario& s) { s.training.global_batch = -5; })
                                    << QStringLiteral("training.global_batch must be between 1 "
                                                      "and 1000000000, not -5");
    // 1536 / (dp 8 × micro_batch 5) is not whole.
    QTest::newRow("batch not divisible")
        << Edit([](Scenario& s) { s.training.micro_batch = 5; })
        << QStringLiteral("training.global_batch: global_batch 1536 is not divisible by dp x micro_batch = 8 x 5 = 40");
    QTest::newRow("zero bandwidth") << Edit([](Scenario& s) { s.cluster.topology[1].bandwidth_Bps = 0.0; })
                                    << QStringLiteral("cluster.topology[1].bandwidth "
                                                      "must be at least 1 KB/s, got '0 B/s'");
    // Rates below a physical floor made times infinite, and the chunk pipelining then read past its stages (a
    // crash in simulate, collective, sweep and the window); each rate is refused below its floor.
    QTest::newRow("subnormal bandwidth") << Edit([](Scenario& s) { s.cluster.topology[0].bandwidth_Bps = 1e-311; })
                                         << QStringLiteral("cluster.topology[0].bandwidth must be at least 1 KB/s, "
                                                           "got '1e-311 B/s'");
    QTest::newRow("bandwidth just below its floor")
        << Edit([](Scenario& s) { s.cluster.topology[0].bandwidth_Bps = 999.0; })
        << QStringLiteral("cluster.topology[0].bandwidth must be at least 1 KB/s, got '999 B/s'");
    QTest::newRow("memory bandwidth below 1 MB/s")
        << Edit([](Scenario& s) { s.cluster.device.memory_bandwidth_Bps = 1e-300; })
        << QStringLiteral("cluster.device.memory_bandwidth must be at least 1 MB/s, got '1e-300 B/s'");
    QTest::newRow("peak below 1 MFLOP/s")
        << Edit([](Scenario& s) { s.cluster.device.peak_flops[Dtype::bf16] = 1e-200; })
        << QStringLiteral("cluster.device.peak.bf16 must be at least 1 MFLOP/s, got '1e-200 FLOP/s'");
    QTest::newRow("NaN latency") << Edit([](Scenario& s) {
        s.cluster.topology[0].latency_s = std::numeric_limits<double>::quiet_NaN();
    }) << QStringLiteral("cluster.topology[0].latency is not a number");
    QTest::newRow("NaN overlap") << Edit([](Scenario& s) {
        s.simulation.overlap_slowdown = std::numeric_limits<double>::quiet_NaN();
    }) << QStringLiteral("simulation.overlap_slowdown must be between 0 and 10, not NaN");
    QTest::newRow("infinite memory") << Edit([](Scenario& s) {
        s.cluster.device.memory_bytes = std::numeric_limits<double>::infinity();
    }) << QStringLiteral("cluster.device.memory of 'infinite' is absurdly large (the limit is "
                         "1024 TiB)");
    QTest::newRow("no topology") << Edit([](Scenario& s) { s.cluster.topology.clear(); })
                                 << QStringLiteral("cluster.topology must hold 1 to 16 dimensions, "
                                                   "not 0");
    QTest::newRow("dimension of size 0")
        << Edit([](Scenario& s) { s.cluster.topology[0].size = 0; })
        << QStringLiteral("cluster.topology[0].size must be between 1 and 10000000, not 0");
    QTest::newRow("name on two lines") << Edit([](Scenario& s) { s.name = "GPT-3\nsecond line"; })
                                       << QStringLiteral("name holds the control character U+000A; write it on "
                                                         "one line of printable text");
    QTest::newRow("unknown preset") << Edit([](Scenario& s) { s.model.preset = "gpt-5"; })
                                    << QStringLiteral("model.preset: 'gpt-5' is not a bundled model preset");
    QTest::newRow("mapping twice") << Edit([](Scenario& s) { s.parallelism.mapping.push_back(ParallelAxis::tp); })
                                   << QStringLiteral("parallelism.mapping: axis 'tp' appears twice in "
                                                     "parallelism.mapping");
    QTest::newRow("interleaved with one virtual stage")
        << Edit([](Scenario& s) { s.parallelism.schedule = Schedule::interleaved; })
        << QStringLiteral("parallelism.virtual_stages: the interleaved schedule needs virtual_stages of at least 2");
    QTest::newRow("unknown tree node") << Edit([](Scenario& s) { s.strategy_tree.push_back(tree_entry("stage[x]")); })
                                       << QStringLiteral("strategy_tree[0].node: unknown strategy-tree node "
                                                         "'stage[x]'; nodes are stage[i], layer[j], "
                                                         "layer[j].attention, layer[j].mlp and their operations such "
                                                         "as layer[j].attention.qkv");
    // Echoed text is cut after 80 characters: 'stage[' and 74 digits, then the count of the 920 left out.
    QTest::newRow("unknown preset, 1000 characters")
        << Edit([](Scenario& s) { s.model.preset = "stage[" + std::string(994, '9'); })
        << QStringLiteral("model.preset: 'stage[") + QString(74, u'9') +
               QStringLiteral("\u2026' (920 more characters) is not a bundled model preset");
    QTest::newRow("tree node twice") << Edit([](Scenario& s) {
        s.strategy_tree.push_back(tree_entry("layer[3]", std::nullopt, Recompute::full));
        s.strategy_tree.push_back(tree_entry("layer[3]", std::nullopt, Recompute::none));
    }) << QStringLiteral("strategy_tree[1].node: node 'layer[3]' is given twice in strategy_tree");
    QTest::newRow("stage past pp") << Edit([](Scenario& s) { s.strategy_tree.push_back(tree_entry("stage[16]", 6)); })
                                   << QStringLiteral("strategy_tree[0]: node 'stage[16]' does not exist: pp is 16, so "
                                                     "stages are stage[0] to stage[15]");
    QTest::newRow("layers on a layer node") << Edit([](Scenario& s) { s.strategy_tree.push_back(tree_entry("layer[2]", 3)); })
                                            << QStringLiteral("strategy_tree[0]: layers, micro_batches and "
                                                              "max_ongoing_micro_batches apply to pipeline stages; "
                                                              "node 'layer[2]' takes only recompute");
    // 6 layers on each of 15 stages leave 6 for the last; giving stage 0 seven leaves 89 for 15 stages.
    QTest::newRow("stage layers that do not add up")
        << Edit([](Scenario& s) { s.strategy_tree.push_back(tree_entry("stage[0]", 7)); })
        << QStringLiteral("strategy_tree: after the 7 layers given to 1 stage, the other 15 stages cannot share "
                          "the remaining 89 layers evenly; give their layers too");
    QTest::newRow("hidden not divisible by heads") << Edit([](Scenario& s) { s.model.heads = 100; })
                                                  << QStringLiteral("model.heads: hidden 12288 is not divisible by "
                                                                    "heads 100: each head needs a whole number of "
                                                                    "dimensions (or give model.head_dim)");
    QTest::newRow("unknown enum value") << Edit([](Scenario& s) { s.training.dtype = static_cast<Dtype>(99); })
                                        << QStringLiteral("training.dtype holds an unknown value; "
                                                          "expected fp32, fp16, bf16 or fp8");
    QTest::newRow("tf32 is no training dtype") << Edit([](Scenario& s) { s.training.dtype = Dtype::tf32; })
                                               << QStringLiteral("training.dtype holds an unknown "
                                                                 "value; expected fp32, fp16, bf16 or fp8");
    QTest::newRow("negative measured time") << Edit([](Scenario& s) { s.simulation.measured_times_s["gemm"] = -1.0; })
                                            << QStringLiteral("simulation.measured_operations: the measured time of "
                                                              "'gemm' must be a finite time of 0 s or more");
}

void TestValidate::rejectedEdits() {
    QFETCH(Edit, edit);
    QFETCH(QString, expected);
    Scenario scenario = default_scenario();
    edit(scenario);
    const Validation validation = validate(scenario);
    QVERIFY(!validation.ok());
    QVERIFY(!validation.diagnostics.empty());
    QCOMPARE(qs(validation.diagnostics.front().to_string()), expected);
    // In memory there is no file: the diagnostic names the value by its path, once (a message that starts with it
    // is not prefixed with it again).
    QVERIFY(validation.diagnostics.front().location.file.empty());
    const QString path = qs(validation.diagnostics.front().path);
    QVERIFY(!path.isEmpty());
    QVERIFY2(expected.startsWith(path + QLatin1Char(' ')) || expected.startsWith(path + QLatin1Char(':')),
             qPrintable(path));
}

void TestValidate::acceptedEdits_data() {
    QTest::addColumn<Edit>("edit");
    QTest::addColumn<int>("dp");        // after validation
    QTest::addColumn<int>("kv_heads");  // after validation
    QTest::newRow("unchanged") << Edit([](Scenario&) {}) << 8 << 96;
    // dp written as auto is derived again from the device count: 1024 / (tp 8 × pp 32) = 4.
    QTest::newRow("auto dp follows pp") << Edit([](Scenario& s) {
        s.parallelism.derived_axis = ParallelAxis::dp;
        s.parallelism.pp = 32;
        s.parallelism.dp = 999;  // stale: derived again
    }) << 4 << 96;
    // kv_heads 0 means "as many as heads".
    QTest::newRow("kv_heads default") << Edit([](Scenario& s) { s.model.kv_heads = 0; }) << 8 << 96;
    QTest::newRow("grouped-query attention") << Edit([](Scenario& s) { s.model.kv_heads = 8; }) << 8 << 8;
    // Stage 0 given 36 layers: the other 15 stages share 96 − 36 = 60, 4 each.
    QTest::newRow("uneven stages") << Edit([](Scenario& s) { s.strategy_tree.push_back(tree_entry("stage[0]", 36)); }) << 8 << 96;
}

void TestValidate::acceptedEdits() {
    QFETCH(Edit, edit);
    QFETCH(int, dp);
    QFETCH(int, kv_heads);
    Scenario scenario = default_scenario();
    edit(scenario);
    const Validation validation = validate(scenario);
    QVERIFY2(validation.ok(), qPrintable(joined(validation.diagnostics)));
    QCOMPARE(validation.scenario->value().parallelism.dp, dp);
    QCOMPARE(validation.scenario->value().model.kv_heads, kv_heads);
}

void TestValidate::loaderLocatesTheSamePath() {
    // The same problem as the "pp 64, dp 2" edit, written in a file: the loader puts validate()'s message at the
    // line and column of the key, and keeps the path.
    const std::string text = "schema: 1\n"
                             "model: gpt3-175b\n"
                             "training: {global_batch: 1536}\n"
                             "cluster: dgx-a100-1024\n"
                             "parallelism:\n"
                             "  tp: 8\n"
                             "  pp: 64\n"
                             "  dp: 2\n";
    const LoadResult loaded = load_scenario_text(text, "edited.yaml");
    QVERIFY(!loaded.ok());
    QCOMPARE(loaded.diagnostics.size(), std::size_t{1});
    QCOMPARE(qs(loaded.diagnostics.front().path), QStringLiteral("parallelism.pp"));
    QCOMPARE(qs(loaded.diagnostics.front().to_string()),
             QStringLiteral("edited.yaml:7:3: pp 64 does not divide the model's 96 layers; choose a divisor or give "
                            "layers per stage in strategy_tree, e.g. {node: \"stage[0]\", layers: 1}"));
}

void TestValidate::simulateValidatesAScenario() {
    Scenario scenario = default_scenario();
    scenario.parallelism.pp = 64;
    scenario.parallelism.dp = 2;
    const auto simulation = simulate(scenario, SimulateOptions{});
    QVERIFY(!simulation);
    QCOMPARE(simulation.error().kind, SimulationErrorKind::invalid);
    QCOMPARE(simulation.error().diagnostics.size(), std::size_t{1});
    QCOMPARE(qs(simulation.error().diagnostics.front().path), QStringLiteral("parallelism.pp"));
}

QTEST_APPLESS_MAIN(TestValidate)
#include "test_validate.moc"
