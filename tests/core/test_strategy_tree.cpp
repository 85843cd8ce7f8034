// The strategy tree: structure (model → stages → layers → blocks → operations), layer assignment including uneven and
// interleaved splits, inheritance with explicit and inherited values told apart, and recompute per layer, block and
// operation reaching the compiled graph.

#include "compile/compiler.h"
#include "presets/preset_library.h"
#include "model/transformer_costs.h"
#include "scenario_file/scenario_loader.h"
#include "simulation/simulate.h"
#include "strategy/node_path.h"
#include "strategy/strategy_tree.h"

#include <QtTest>

#include <map>
#include <string>
#include <vector>

using namespace parasight;

namespace {

// GPT-2 small with the attention core unfused (as Korthikanti 2022 counts its activations), or `attention`.
ValidatedScenario load(const std::string& strategy, const std::string& parallelism = "{pp: 4, dp: 2}", int layers = 12,
                       const std::string& attention = "unfused") {
    const std::string text = "schema: 1\nmodel: {preset: gpt2-small, layers: " + std::to_string(layers) +
                             "}\ntraining: {global_batch: 16, attention: " + attention +
                             "}\ncluster:\n  device: a100-80gb\n  topology:\n"
                             "    - {kind: switch, size: 8, bandwidth: 300 GB/s, latency: 1 us}\n"
                             "parallelism: " + parallelism + "\nstrategy_tree: " + strategy + "\n";
    const LoadResult result = load_scenario_text(text, "tree.yaml");
    if (!result.ok()) {
        for (const auto& d : result.diagnostics) qWarning("%s", d.to_string().c_str());
    }
    return *result.scenario;
}

std::vector<int> layers_under(const StrategyTree& tree, int node) {
    std::vector<int> layers;
    for (const int child : tree.nodes()[static_cast<std::size_t>(node)].children) {
        layers.push_back(tree.nodes()[static_cast<std::size_t>(child)].path.index);
    }
    return layers;
}

// What a compiled graph shows of recomputation: its recompute tasks (all must belong to `layer`) and the activation
// bytes each layer's first forward keeps for micro-batch 0.
struct RecomputeSeen {
    std::vector<const Task*> tasks;
    std::vector<std::string> labels;
    std::map<int, double> kept_by_layer;
};

RecomputeSeen recompute_seen(const ExecutionGraph& graph) {
    RecomputeSeen seen;
    for (const Task& task : graph.tasks) {
        const std::string& label = graph.labels[static_cast<std::size_t>(task.label)];
        if (task.kind == TaskKind::recompute) {
            seen.tasks.push_back(&task);
            seen.labels.push_back(label);
        }
        if (task.kind == TaskKind::forward && label == "attention" && task.micro_batch == 0) {
            seen.kept_by_layer[task.layer] = task.allocate_bytes;
        }
    }
    return seen;
}

}  // namespace

class TestStrategyTree : public QObject {
    Q_OBJECT
private slots:
    void nodePaths_data();
    void nodePaths();
    void evenSplit();
    void unevenSplitFromStageNodes();
    void interleavedStagesHoldEveryPthChunk();
    void interleavedUnevenStagesSpreadOverTheirChunks();
    void llama3ChunksHoldTheEmbeddingAndTheOutputAlone();
    void inheritanceSaysWhereAValueComesFrom();
    void layerRecomputeReachesTheGraph();
    void blockRecomputeReachesTheGraph();
    void operationRecomputeIsInherited();
    void operationRecomputeReachesTheGraph();
    void recomputationThatFreesNothingIsReported();
    void selectiveRecomputeWithFusedAttentionFreesOnlyItsLogSumExp();
};

void TestStrategyTree::nodePaths_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("index");
    QTest::newRow("stage[0]") << "stage[0]" << true << int(StrategyNodeKind::stage) << 0;
    QTest::newRow("stage[15]") << "stage[15]" << true << int(StrategyNodeKind::stage) << 15;
    QTest::newRow("layer[125]") << "layer[125]" << true << int(StrategyNodeKind::layer) << 125;
    QTest::newRow("leading zero") << "stage[01]" << false << 0 << 0;
    QTest::newRow("negative") << "layer[-1]" << false << 0 << 0;
    QTest::newRow("empty index") << "stage[]" << false << 0 << 0;
    QTest::newRow("no bracket") << "stage[3" << false << 0 << 0;
    QTest::newRow("other node") << "block[3]" << false << 0 << 0;
    QTest::newRow("too many digits") << "layer[12345678]" << false << 0 << 0;
    QTest::newRow("trailing text") << "stage[3]x" << false << 0 << 0;
    QTest::newRow("attention block") << "layer[4].attention" << true << int(StrategyNodeKind::block) << 4;
    QTest::newRow("mlp block") << "layer[0].mlp" << true << int(StrategyNodeKind::block) << 0;
    QTest::newRow("unknown block") << "layer[0].norm" << false << 0 << 0;
    QTest::newRow("stage has no blocks") << "stage[0].mlp" << false << 0 << 0;
    QTest::newRow("attention operation") << "layer[4].attention.qkv" << true << int(StrategyNodeKind::operation) << 4;
    QTest::newRow("mlp operation") << "layer[11].mlp.activation" << true << int(StrategyNodeKind::operation) << 11;
    QTest::newRow("operation of the other block") << "layer[0].mlp.qkv" << false << 0 << 0;
    QTest::newRow("empty operation") << "layer[0].attention." << false << 0 << 0;
    QTest::newRow("below an operation") << "layer[0].attention.qkv.bias" << false << 0 << 0;
    QTest::newRow("stage has no operations") << "stage[0].attention.qkv" << false << 0 << 0;
}

void TestStrategyTree::nodePaths() {
    QFETCH(QString, text);
    QFETCH(bool, valid);
    QFETCH(int, kind);
    QFETCH(int, index);
    const auto path = parse_node_path(text.toStdString());
    QCOMPARE(path.has_value(), valid);
    if (!valid) return;
    QCOMPARE(int(path->kind), kind);
    QCOMPARE(path->index, index);
    QCOMPARE(QString::fromStdString(to_string(*path)), text);
}

void TestStrategyTree::evenSplit() {
    // 12 layers over pp 4: 3 each, in order; each transformer layer has an attention block of 7 operations and an
    // MLP block of 5.
    const ValidatedScenario scenario = load("[]");
    const StrategyTree tree(scenario);
    QCOMPARE(tree.stage_count(), 4);
    QCOMPARE(tree.nodes().size(), std::size_t{1 + 4 + 12 + 2 * 12 + 12 * (7 + 5)});
    const int softmax = tree.operation(7, LayerBlock::attention, 3);
    QCOMPARE(tree.nodes()[static_cast<std::size_t>(softmax)].parent, tree.block(7, LayerBlock::attention));
    QCOMPARE(QString::fromStdString(to_string(tree.nodes()[static_cast<std::size_t>(softmax)].path)),
             QStringLiteral("layer[7].attention.softmax_dropout"));
    QCOMPARE(tree.nodes()[static_cast<std::size_t>(tree.block(7, LayerBlock::mlp))].parent, tree.layer(7));
    QCOMPARE(QString::fromStdString(to_string(tree.nodes()[static_cast<std::size_t>(tree.block(7, LayerBlock::mlp))].path)),
             QStringLiteral("layer[7].mlp"));
    for (int s = 0; s < 4; ++s) {
        QCOMPARE(tree.layers_of_stage(s), 3);
        QCOMPARE(layers_under(tree, tree.stage(s)), (std::vector<int>{3 * s, 3 * s + 1, 3 * s + 2}));
    }
    QCOMPARE(tree.nodes()[static_cast<std::size_t>(tree.layer(7))].parent, tree.stage(2));
}

void TestStrategyTree::unevenSplitFromStageNodes() {
    // 12 layers, stage 0 and stage 3 take 2 each (they carry embedding and logits): 12 − 4 = 8 over 2 stages = 4.
    const ValidatedScenario scenario = load(R"([{node: "stage[0]", layers: 2}, {node: "stage[3]", layers: 2}])");
    const StrategyTree tree(scenario);
    QCOMPARE(tree.layers_of_stage(0), 2);
    QCOMPARE(tree.layers_of_stage(1), 4);
    QCOMPARE(tree.layers_of_stage(2), 4);
    QCOMPARE(tree.layers_of_stage(3), 2);
    QCOMPARE(layers_under(tree, tree.stage(1)), (std::vector<int>{2, 3, 4, 5}));
    QCOMPARE(layers_under(tree, tree.stage(3)), (std::vector<int>{10, 11}));
}

void TestStrategyTree::interleavedStagesHoldEveryPthChunk() {
    // 16 layers, pp 2, v 2: 4 chunks of 4 layers; stage s holds chunks s and s + 2 (Narayanan 2021 §2.2).
    const ValidatedScenario scenario =
        load("[]", "{pp: 2, dp: 4, schedule: interleaved, virtual_stages: 2}", 16);
    const StrategyTree tree(scenario);
    QCOMPARE(layers_under(tree, tree.stage(0)), (std::vector<int>{0, 1, 2, 3, 8, 9, 10, 11}));
    QCOMPARE(layers_under(tree, tree.stage(1)), (std::vector<int>{4, 5, 6, 7, 12, 13, 14, 15}));
    QCOMPARE(tree.nodes()[static_cast<std::size_t>(tree.layer(12))].parent, tree.stage(1));
}

void TestStrategyTree::interleavedUnevenStagesSpreadOverTheirChunks() {
    // 12 layers, pp 4, v 2, stage[0] and stage[3] given 3: stages 1 and 2 share the other 6, 3 each. Each stage
    // spreads its 3 layers over its 2 chunks, 2 and 1; the chunk with 1 is stage 0's first, and the last elsewhere
    // (the last stage's last too):
    //   model chunk c·4 + s:  0 (s0 c0) 1, 1 (s1 c0) 2, 2 (s2 c0) 2, 3 (s3 c0) 2, 4 (s0 c1) 2, 5 (s1 c1) 1,
    //                         6 (s2 c1) 1, 7 (s3 c1) 1
    //   so layers             [0] [1 2] [3 4] [5 6] [7 8] [9] [10] [11]
    const ValidatedScenario scenario = load(R"([{node: "stage[0]", layers: 3}, {node: "stage[3]", layers: 3}])",
                                            "{pp: 4, dp: 2, schedule: interleaved, virtual_stages: 2}", 12);
    const StrategyTree tree(scenario);
    const std::vector<std::pair<int, int>> expected{{0, 1}, {1, 2}, {3, 2}, {5, 2}, {7, 2}, {9, 1}, {10, 1}, {11, 1}};
    for (int chunk = 0; chunk < 8; ++chunk) {
        QCOMPARE(tree.chunk_layers(chunk), expected[static_cast<std::size_t>(chunk)]);
    }
    QCOMPARE(layers_under(tree, tree.stage(0)), (std::vector<int>{0, 7, 8}));
    QCOMPARE(layers_under(tree, tree.stage(1)), (std::vector<int>{1, 2, 9}));
    QCOMPARE(layers_under(tree, tree.stage(2)), (std::vector<int>{3, 4, 10}));
    QCOMPARE(layers_under(tree, tree.stage(3)), (std::vector<int>{5, 6, 11}));
}

void TestStrategyTree::llama3ChunksHoldTheEmbeddingAndTheOutputAlone() {
    // Dubey et al. 2024 §3.3.2, as presets/scenarios/llama3-405b-16k.yaml runs it: 126 layers on pp 16 × v 8, stage 0
    // and stage 15 given 7. Model chunk 0 (stage 0's first) and 127 (stage 15's last) hold no layer; every other one
    // holds one, in order: chunk k ≥ 1 holds layer k − 1.
    const Preset* preset = find_preset(PresetKind::scenario, "llama3-405b-16k");
    QVERIFY(preset != nullptr);
    const LoadResult result = load_scenario_text(std::string(preset->text), std::string(preset->file));
    QVERIFY(result.ok());
    const StrategyTree tree(*result.scenario);
    QCOMPARE(tree.chunk_layers(0), (std::pair<int, int>{0, 0}));
    for (int chunk = 1; chunk < 127; ++chunk) QCOMPARE(tree.chunk_layers(chunk), (std::pair<int, int>{chunk - 1, 1}));
    QCOMPARE(tree.chunk_layers(127), (std::pair<int, int>{126, 0}));
    QCOMPARE(tree.layers_of_stage(0), 7);
    QCOMPARE(tree.layers_of_stage(15), 7);
    // The schedule runs to the end (no step waits for one that never comes) with the embedding alone in stage 0's
    // first chunk: its forward sends straight after the embedding, and its backward ends with the embedding's.
    const auto sim = simulate_graph(*result.scenario, SimulateOptions{});
    QVERIFY(sim.has_value());
    QCOMPARE(sim->run.end, EngineEnd::finished);
    int embedding_forwards = 0;
    for (const Task& task : sim->graph.tasks) {
        if (sim->graph.labels[static_cast<std::size_t>(task.label)] == "embedding") ++embedding_forwards;
    }
    QCOMPARE(embedding_forwards, 16);  // stage 0's device, one per micro-batch
}

void TestStrategyTree::inheritanceSaysWhereAValueComesFrom() {
    const ValidatedScenario scenario = load(R"([{node: "stage[1]", recompute: full, max_ongoing_micro_batches: 2},
                                       {node: "layer[4]", recompute: none}])",
                                   "{pp: 4, dp: 2, recompute: selective}");
    const StrategyTree tree(scenario);
    // The root holds the scenario's own value, explicitly.
    const auto root = tree.recompute(tree.root());
    QCOMPARE(root.value, Recompute::selective);
    QVERIFY(root.is_explicit);
    QCOMPARE(QString::fromStdString(root.source), QStringLiteral("parallelism"));
    // Stage 0 inherits it from the root.
    const auto stage0 = tree.recompute(tree.stage(0));
    QCOMPARE(stage0.value, Recompute::selective);
    QVERIFY(!stage0.is_explicit);
    QCOMPARE(QString::fromStdString(stage0.source), QStringLiteral("parallelism"));
    // Stage 1 sets full; its layers 3 and 5 inherit it; layer 4 sets none.
    QCOMPARE(tree.recompute(tree.stage(1)).value, Recompute::full);
    QVERIFY(tree.recompute(tree.stage(1)).is_explicit);
    const auto layer3 = tree.recompute(tree.layer(3));
    QCOMPARE(layer3.value, Recompute::full);
    QVERIFY(!layer3.is_explicit);
    QCOMPARE(QString::fromStdString(layer3.source), QStringLiteral("stage[1]"));
    const auto layer4 = tree.recompute(tree.layer(4));
    QCOMPARE(layer4.value, Recompute::none);
    QVERIFY(layer4.is_explicit);
    QCOMPARE(QString::fromStdString(layer4.source), QStringLiteral("layer[4]"));
    // Schedule settings: stage 1 caps its 1F1B warm-up at 2; others keep the schedule's own (0).
    QCOMPARE(tree.max_ongoing_micro_batches(tree.stage(1)).value, 2);
    QCOMPARE(tree.max_ongoing_micro_batches(tree.stage(2)).value, 0);
    // Micro-batches come from training: 16 / (dp 2 × micro-batch 1) = 8.
    const auto micro_batches = tree.micro_batches(tree.layer(9));
    QCOMPARE(micro_batches.value, 8);
    QVERIFY(!micro_batches.is_explicit);
    QCOMPARE(QString::fromStdString(micro_batches.source), QStringLiteral("training"));
}

void TestStrategyTree::layerRecomputeReachesTheGraph() {
    // Only layer 5 is fully recomputed: the graph then holds recompute tasks for layer 5 alone, one forward's worth
    // (attention and MLP) per micro-batch: 2 tasks × 8 micro-batches = 16.
    const ValidatedScenario scenario = load(R"([{node: "layer[5]", recompute: full}])");
    const auto graph = compile_scenario(scenario, CompileOptions{});
    QVERIFY(graph.has_value());
    int recompute_tasks = 0;
    for (const Task& task : graph->tasks) {
        if (task.kind != TaskKind::recompute) continue;
        QCOMPARE(task.layer, 5);
        ++recompute_tasks;
    }
    QCOMPARE(recompute_tasks, 16);
}

void TestStrategyTree::blockRecomputeReachesTheGraph() {
    // Only layer 5's MLP block is fully recomputed: one MLP forward again per micro-batch (8), no attention recompute;
    // the layer keeps the MLP block's input instead of all its activations, and its attention block's in full.
    const ValidatedScenario scenario = load(R"([{node: "layer[5].mlp", recompute: full}])");
    const auto graph = compile_scenario(scenario, CompileOptions{});
    QVERIFY(graph.has_value());
    const RecomputeSeen seen = recompute_seen(*graph);
    for (std::size_t i = 0; i < seen.tasks.size(); ++i) {
        QCOMPARE(seen.tasks[i]->layer, 5);
        QCOMPARE(QString::fromStdString(seen.labels[i]), QStringLiteral("mlp"));
    }
    QCOMPARE(seen.tasks.size(), std::size_t{8});
    const double kept_layer4 = seen.kept_by_layer.at(4);
    const double kept_layer5 = seen.kept_by_layer.at(5);
    // Korthikanti 2022 §4.1 counts bytes of 16-bit values: the MLP block keeps its LayerNorm's input 2·sbh plus the
    // MLP's 19·sbh = 21·sbh bytes, and only its input, 2·sbh, when recomputed. GPT-2 small, s 1024, b 1, h 768, bf16:
    // layer 5 keeps 19·sbh = 19 · 786 432 = 14 942 208 B less than layer 4.
    const double sbh = 1024.0 * 1.0 * 768.0;
    QCOMPARE_EQ(kept_layer4 - kept_layer5, 19.0 * sbh);
    // Selective recompute cannot be asked of an MLP block.
    const LoadResult rejected = load_scenario_text(
        "schema: 1\nmodel: {preset: gpt2-small, layers: 12}\ntraining: {global_batch: 16}\ncluster:\n"
        "  device: a100-80gb\n  topology: [{kind: switch, size: 8, bandwidth: 300 GB/s, latency: 1 us}]\n"
        "parallelism: {pp: 4, dp: 2}\nstrategy_tree: [{node: \"layer[5].mlp\", recompute: selective}]\n",
        "tree.yaml");
    QVERIFY(!rejected.ok());
    QVERIFY(QString::fromStdString(rejected.diagnostics.front().message).startsWith("selective recompute redoes"));
}

void TestStrategyTree::operationRecomputeIsInherited() {
    // Selective recompute on the root means the attention core: attention_scores (2), softmax_dropout (3) and
    // attention_values (4). Layer 2 keeps its softmax; layer 3 also recomputes its MLP activation function.
    const ValidatedScenario scenario = load(R"([{node: "layer[2].attention.softmax_dropout", recompute: none},
                                       {node: "layer[3].mlp.activation", recompute: full}])",
                                   "{pp: 4, dp: 2, recompute: selective}");
    const StrategyTree tree(scenario);
    const auto kept = tree.recompute(tree.operation(2, LayerBlock::attention, 3));
    QCOMPARE(kept.value, Recompute::none);
    QVERIFY(kept.is_explicit);
    QCOMPARE(QString::fromStdString(kept.source), QStringLiteral("layer[2].attention.softmax_dropout"));
    const auto inherited = tree.recompute(tree.operation(2, LayerBlock::attention, 2));
    QCOMPARE(inherited.value, Recompute::selective);
    QVERIFY(!inherited.is_explicit);
    QCOMPARE(QString::fromStdString(inherited.source), QStringLiteral("parallelism"));

    // Masks, bit i for operation i: the core is 0b11100 = 28.
    QCOMPARE(tree.recomputed_operations(1).mask(LayerBlock::attention), 28U);
    QCOMPARE(tree.recomputed_operations(1).mask(LayerBlock::mlp), 0U);
    QCOMPARE(tree.recomputed_operations(2).mask(LayerBlock::attention), 0b10100U);
    QCOMPARE(tree.recomputed_operations(3).mask(LayerBlock::attention), 28U);
    QCOMPARE(tree.recomputed_operations(3).mask(LayerBlock::mlp), 0b00100U);
    QVERIFY(!tree.recomputed_operations(3).whole(LayerBlock::mlp));
}

void TestStrategyTree::operationRecomputeReachesTheGraph() {
    // Layer 5 recomputes its MLP activation function and down projection: one "mlp recompute" task per micro-batch
    // (8), holding the down projection's 2·t·h·F = 2 · 1024 · 768 · 3072 FLOPs (GPT-2 small, micro-batch 1, no TP;
    // the activation function is memory-bound and adds none).
    const ValidatedScenario scenario = load(R"([{node: "layer[5].mlp.activation", recompute: full},
                                       {node: "layer[5].mlp.mlp_down", recompute: full}])");
    const auto graph = compile_scenario(scenario, CompileOptions{});
    QVERIFY(graph.has_value());
    const RecomputeSeen seen = recompute_seen(*graph);
    for (std::size_t i = 0; i < seen.tasks.size(); ++i) {
        QCOMPARE(seen.tasks[i]->layer, 5);
        QCOMPARE(QString::fromStdString(seen.labels[i]), QStringLiteral("mlp recompute"));
        QCOMPARE_EQ(seen.tasks[i]->flops, 2.0 * 1024 * 768 * 3072);
        QVERIFY(seen.tasks[i]->work_s > 0.0);
    }
    QCOMPARE(seen.tasks.size(), std::size_t{8});
    const double kept_layer4 = seen.kept_by_layer.at(4);
    const double kept_layer5 = seen.kept_by_layer.at(5);
    // The down projection's input (the activation's output, 4h wide: 8·sbh bytes in 16-bit) is made and kept by
    // recomputed operations, so it is dropped; the activation's input, made by mlp_up, stays. s 1024, b 1, h 768.
    const double sbh = 1024.0 * 1.0 * 768.0;
    QCOMPARE_EQ(kept_layer4 - kept_layer5, 8.0 * sbh);
}

void TestStrategyTree::recomputationThatFreesNothingIsReported() {
    // Layers 5 and 7 recompute their MLP activation alone: its output is kept for mlp_down anyway, so the report says
    // so once, with the layer count and the first layer, about the first layer's operation node. Recomputing mlp_down
    // with it (layer 5 in the test above) or the whole attention core (selective) gives no warning.
    const ValidatedScenario scenario = load(R"([{node: "layer[7].mlp.activation", recompute: full},
                                       {node: "layer[5].mlp.activation", recompute: full}])",
                                   "{pp: 4, dp: 2, recompute: selective}");
    const auto graph = compile_scenario(scenario, CompileOptions{});
    QVERIFY(graph.has_value());
    QCOMPARE(graph->warnings.size(), std::size_t{1});
    const Warning& warning = graph->warnings.front();
    QCOMPARE(warning.code, WarningCode::recomputation_frees_nothing);
    QCOMPARE(QString::fromStdString(warning.subject), QStringLiteral("layer[5].mlp.activation"));
    QCOMPARE(QString::fromStdString(warning.operation), QStringLiteral("mlp.activation"));
    QCOMPARE(warning.layers, 2);
    QCOMPARE(warning.first_layer, 5);
    // The simulated run's report carries it as it is.
    SimulateOptions options;
    options.timeline = TimelineDetail::none;
    const auto simulation = simulate(scenario, options);
    QVERIFY(simulation.has_value());
    QVERIFY(simulation->report.warnings == graph->warnings);
    const ValidatedScenario useful = load(R"([{node: "layer[5].mlp.activation", recompute: full},
                                     {node: "layer[5].mlp.mlp_down", recompute: full}])",
                                 "{pp: 4, dp: 2, recompute: selective}");
    const auto useful_graph = compile_scenario(useful, CompileOptions{});
    QVERIFY(useful_graph.has_value());
    QVERIFY(useful_graph->warnings.empty());
}

void TestStrategyTree::selectiveRecomputeWithFusedAttentionFreesOnlyItsLogSumExp() {
    // A fused attention kernel keeps no s² scores (FlashAttention-2): recomputing the core frees only the kernel's
    // fp32 log-sum-exp, 4·a·s·b = 4 · 12 · 1024 · 1 = 49 152 B per layer (GPT-2 small, no TP). The softmax + dropout
    // and ·V slots do no work of their own: recomputing them costs nothing and frees nothing, and is not reported
    // (it was, as "recompute them too, or leave this one out", about kernels that do not exist).
    const ValidatedScenario scenario = load("[]", "{pp: 4, dp: 2, recompute: selective}", 12, "fused");
    const auto graph = compile_scenario(scenario, CompileOptions{});
    QVERIFY(graph.has_value());
    QVERIFY(graph->warnings.empty());
    const LayerSplit split{1, 1, false, Recompute::none, Attention::fused};
    const ModelSpec& model = scenario.value().model;
    const double kept = layer_activation_bytes(model, 1.0, split, RecomputedOperations{});
    const double kept_selective =
        layer_activation_bytes(model, 1.0, split, RecomputedOperations::from_blocks(Recompute::selective,
                                                                                    Recompute::none));
    QCOMPARE_EQ(kept - kept_selective, 49152.0);
}

QTEST_APPLESS_MAIN(TestStrategyTree)
#include "test_strategy_tree.moc"
