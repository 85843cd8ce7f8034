// Expert parallelism (Megatron-LM: expert-parallel ranks are carved out of data parallelism): ep ranks split the
// batch like data-parallel replicas, each holds experts/ep experts, dense gradients are reduced over dp × ep and
// expert gradients over dp only.

#include "collective/hierarchical_collective.h"
#include "model/transformer_costs.h"
#include "scenario_file/scenario_loader.h"
#include "simulation/simulate.h"

#include "numeric_compare.h"

#include <QtTest>

using namespace parasight;

namespace {

// 2 layers, h 256, 4 heads, F 1024, 4 experts, top-2, on 4 devices: ep 2 × dp 2.
const char* const moe_yaml = R"(schema: 1
name: small mixture of experts
model: {kind: transformer, layers: 2, hidden: 256, heads: 4, seq_len: 128, vocab: 1024, experts: 4, experts_per_token: 2}
training: {global_batch: 8, micro_batch: 1, dtype: bf16}
cluster:
  device: a100-80gb
  topology: [{kind: switch, size: 4, bandwidth: 100 GB/s, latency: 1 us}]
parallelism: {ep: 2, dp: 2, mapping: [ep, dp]}
)";

}  // namespace

class TestExpertParallel : public QObject {
    Q_OBJECT
private slots:
    void batchIsSplitOverDataAndExpertRanks();
    void gradientsGoToTheirGroups();
    void zeroShardsDenseStatesOverDataAndExpertRanks_data();
    void zeroShardsDenseStatesOverDataAndExpertRanks();
};

void TestExpertParallel::batchIsSplitOverDataAndExpertRanks() {
    const LoadResult loaded = load_scenario_text(moe_yaml, "moe.yaml");
    QVERIFY(loaded.ok());
    // 8 samples over dp 2 × ep 2 replicas of micro-batch 1: 2 micro-batches each.
    QCOMPARE(loaded.scenario->value().data_replicas(), std::int64_t{4});
    QCOMPARE(loaded.scenario->value().micro_batches(), std::int64_t{2});
}

void TestExpertParallel::gradientsGoToTheirGroups() {
    const LoadResult loaded = load_scenario_text(moe_yaml, "moe.yaml");
    QVERIFY(loaded.ok());
    const auto simulation = simulate_graph(*loaded.scenario, SimulateOptions{});
    QVERIFY(simulation.has_value());
    // Per layer: attention 4h² = 262 144, its biases 4h = 1 024, two LayerNorms 4h = 1 024: 264 192 dense. Each
    // expert MLP 2hF + F + h = 525 568; 4 experts over ep 2: 1 051 136 on a rank. The rank also holds the 1024 × 256
    // table (262 144) and the final LayerNorm (512). Dense: 2 · 264 192 + 262 144 + 512 = 791 040 parameters;
    // experts: 2 · 1 051 136 = 2 102 272. Gradients are bf16: 2 B each.
    QCOMPARE_EQ(layer_parameters_on_rank(loaded.scenario->value().model, 1, 2), 264192.0 + 1051136.0);
    QCOMPARE_EQ(expert_parameters_on_rank(loaded.scenario->value().model, 1, 2), 1051136.0);
    double dense_bytes = 0.0;
    double expert_bytes = 0.0;
    double dense_time_s = -1.0;
    for (const Task& task : simulation->graph.tasks) {
        const std::string& label = simulation->graph.labels[static_cast<std::size_t>(task.label)];
        if (task.device != 0) continue;
        if (label == "dp all-reduce") {
            dense_bytes += task.bytes;
            dense_time_s = task.work_s;
        }
        if (label == "dp expert all-reduce") expert_bytes += task.bytes;
    }
    QCOMPARE_EQ(dense_bytes, 2.0 * 791040.0);
    QCOMPARE_EQ(expert_bytes, 2.0 * 2102272.0);
    // The dense reduction runs among all 4 ranks (ep × dp span the whole switch of 4); 1 582 080 B fit one bucket.
    const Topology topology = loaded.scenario->value().topology();
    const std::vector<DimensionSpan> all{DimensionSpan{0, 1, 4}};
    QCOMPARE_EQ(dense_time_s,
                hierarchical_collective(CollectiveOp::all_reduce, 2.0 * 791040.0, topology, all, 64).time_s);
}

void TestExpertParallel::zeroShardsDenseStatesOverDataAndExpertRanks_data() {
    // Megatron-Core's distributed optimizer shards a parameter's optimizer state over the ranks that reduce its
    // gradients: dense parameters over dp × ep = 4, experts' over dp = 2. Per rank (gradientsGoToTheirGroups):
    // 791 040 dense and 2 102 272 expert parameters; bf16 weights and gradients 2 B each, Adam's fp32 master copy and
    // two moments 12 B (ZeRO §3.1).
    QTest::addColumn<int>("zero");
    QTest::addColumn<double>("gradients_bytes");
    QTest::addColumn<double>("optimizer_bytes");
    // ZeRO-1: gradients whole (2 B each); optimizer 12/4 dense, 12/2 expert:
    //   2 · 2 893 312 = 5 786 624; 3 · 791 040 + 6 · 2 102 272 = 2 373 120 + 12 613 632 = 14 986 752.
    QTest::newRow("ZeRO-1") << 1 << 5786624.0 << 14986752.0;
    // ZeRO-2: gradients too: 2/4 · 791 040 + 2/2 · 2 102 272 = 395 520 + 2 102 272 = 2 497 792.
    QTest::newRow("ZeRO-2") << 2 << 2497792.0 << 14986752.0;
}

void TestExpertParallel::zeroShardsDenseStatesOverDataAndExpertRanks() {
    QFETCH(int, zero);
    QFETCH(double, gradients_bytes);
    QFETCH(double, optimizer_bytes);
    LoadResult loaded = load_scenario_text(moe_yaml, "moe.yaml");
    QVERIFY(loaded.ok());
    Scenario scenario = loaded.scenario->value();
    scenario.parallelism.zero = zero;
    const Validation validated = validate(scenario);
    QVERIFY(validated.ok());
    const auto simulation = simulate_graph(*validated.scenario, SimulateOptions{});
    QVERIFY(simulation.has_value());
    const auto& states = simulation->graph.devices[0].static_bytes;
    QCOMPARE_EQ(states[static_cast<std::size_t>(MemoryCategory::weights)], 2.0 * (791040.0 + 2102272.0));
    QCOMPARE_EQ(states[static_cast<std::size_t>(MemoryCategory::gradients)], gradients_bytes);
    QCOMPARE_EQ(states[static_cast<std::size_t>(MemoryCategory::optimizer)], optimizer_bytes);
    // The optimizer step updates 791 040 / 4 + 2 102 272 / 2 = 197 760 + 1 051 136 = 1 248 896 parameters, streaming
    // 28 B each (mixed-precision Adam, one fused kernel at its measured 0.813 of the bandwidth: model_states.h); then
    // each shard is gathered back in its own group.
    double step_bytes = 0.0;
    double dense_gather = 0.0;
    double expert_gather = 0.0;
    for (const Task& task : simulation->graph.tasks) {
        if (task.device != 0) continue;
        const std::string& label = simulation->graph.labels[static_cast<std::size_t>(task.label)];
        if (task.kind == TaskKind::optimizer) step_bytes += task.bytes;
        if (label == "dp parameter all-gather") dense_gather += task.bytes;
        if (label == "dp expert parameter all-gather") expert_gather += task.bytes;
    }
    PS_COMPARE_RELATIVE(step_bytes, 1248896.0 * 28 / 0.813, 1e-12);
    QCOMPARE_EQ(dense_gather, 2.0 * 791040.0);
    QCOMPARE_EQ(expert_gather, 2.0 * 2102272.0);
}

QTEST_APPLESS_MAIN(TestExpertParallel)
#include "test_expert_parallel.moc"
