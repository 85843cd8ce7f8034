// The simulation core end to end (docs/model.md §3–5: compiler, engine, analysis; docs/contracts.md "Published
// numbers"): scenarios written as YAML, compiled, run by the event-driven engine and analysed, checked against
// schedule arithmetic worked out by hand, the published numbers (pipeline bubbles, Korthikanti 2022 Table 4, ZeRO's
// model states), and the engine's own rules on hand-built graphs (bandwidth sharing, overlap slowdown, collective
// rendezvous).
//
// Exact times. Several scenarios run on an "ideal binary machine": peak 2^40 FLOP/s, memory bandwidth 2^49 B/s, every
// efficiency 1 and matmul_half_dim 0, links of 2^k B/s with zero latency. Every operation's time is then its FLOPs
// (or bytes) divided by a power of two — a binary fraction — and every sum the engine forms is exact, so start and end
// times can be compared with == against the same costs summed by hand from the public cost functions
// (transformer_layer_work, logits_operation, embedding_operation, make_compute_model, point_to_point,
// hierarchical_collective).

#include "analysis/report.h"
#include "collective/hierarchical_collective.h"
#include "collective/point_to_point.h"
#include "compile/compiler.h"
#include "device/compute_model.h"
#include "engine/engine.h"
#include "export/chrome_trace.h"
#include "export/report_json.h"
#include "model/layer_operations.h"
#include "model/transformer_costs.h"
#include "scenario_file/scenario_loader.h"
#include "simulation/simulate.h"
#include "topology/parallel_layout.h"

#include "bubble_scenario.h"
#include "numeric_compare.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

using parasight::CommGroup;
using parasight::ExecutionGraph;
using parasight::MemoryCategory;
using parasight::Recompute;
using parasight::Scenario;
using parasight::SimulatedGraph;
using parasight::Stream;
using parasight::Task;
using parasight::TaskId;
using parasight::TaskKind;
using parasight::testing::bubble_yaml;
using parasight::testing::qs;

Q_DECLARE_METATYPE(parasight::Recompute)

namespace {

constexpr double GiB = 1024.0 * 1024.0 * 1024.0;

// --- running scenarios -----------------------------------------------------------------------------------------------

struct Outcome {
    std::optional<Scenario> scenario;
    std::optional<SimulatedGraph> simulation;
    QString error;
};

Outcome simulate_text(const std::string& yaml, bool all_devices = false, bool memory_timeline = false) {
    Outcome outcome;
    const auto loaded = parasight::load_scenario_text(yaml, "scenario.yaml");
    if (!loaded.ok()) {
        for (const auto& diagnostic : loaded.diagnostics) outcome.error += qs(diagnostic.to_string()) + QLatin1Char('\n');
        return outcome;
    }
    outcome.scenario = loaded.scenario->value();
    parasight::SimulateOptions options;
    options.all_devices = all_devices;
    options.record_memory_timeline = memory_timeline;
    auto simulation = parasight::simulate_graph(*loaded.scenario, options);
    if (!simulation) {
        outcome.error = qs(simulation.error().message);
        return outcome;
    }
    outcome.simulation = std::move(simulation).value();
    return outcome;
}

// Declares `name` (the SimulatedGraph) and `name##_scenario`, or fails the test with the loader's or simulator's message.
#define PS_SIMULATE(name, ...)                                                                   \
    const Outcome name##_outcome = simulate_text(__VA_ARGS__);                                   \
    QVERIFY2(name##_outcome.error.isEmpty(), qPrintable(name##_outcome.error));                  \
    const SimulatedGraph& name = *name##_outcome.simulation;                                      \
    const Scenario& name##_scenario = *name##_outcome.scenario;                                  \
    (void)name##_scenario

// The tasks of `device` with this label, kind and micro-batch (layer -2: any layer), in TaskId order.
std::vector<TaskId> find_tasks(const ExecutionGraph& graph, int device, const std::string& label, TaskKind kind,
                               int micro_batch, int layer = -2) {
    std::vector<TaskId> found;
    for (std::size_t t = 0; t < graph.tasks.size(); ++t) {
        const Task& task = graph.tasks[t];
        if (task.device == device && graph.labels[static_cast<std::size_t>(task.label)] == label && task.kind == kind &&
            task.micro_batch == micro_batch && (layer == -2 || task.layer == layer)) {
            found.push_back(static_cast<TaskId>(t));
        }
    }
    return found;
}

struct Interval {
    double start_s = 0.0;
    double end_s = 0.0;
};

// A pipeline step of one micro-batch on one device: its compute-stream tasks (forward kind, or backward and
// recompute), which run back to back.
Interval step_interval(const SimulatedGraph& simulation, int device, bool forward, int micro_batch) {
    Interval interval{1e300, -1e300};
    const auto& graph = simulation.graph;
    for (std::size_t t = 0; t < graph.tasks.size(); ++t) {
        const Task& task = graph.tasks[t];
        if (task.device != device || task.micro_batch != micro_batch || task.stream != Stream::compute) continue;
        const bool is_forward = task.kind == TaskKind::forward;
        const bool is_backward = task.kind == TaskKind::backward || task.kind == TaskKind::recompute;
        if (forward ? !is_forward : !is_backward) continue;
        interval.start_s = std::min(interval.start_s, simulation.run.timings[t].start_s);
        interval.end_s = std::max(interval.end_s, simulation.run.timings[t].end_s);
    }
    return interval;
}

// Times of one transformer layer, the embedding and the logits as the compiler costs them, summed in the same order.
struct HandCosts {
    double attention_forward_s = 0.0;
    double mlp_forward_s = 0.0;
    double attention_backward_s = 0.0;
    double mlp_backward_s = 0.0;
    // Half the backward of the layer's four linears (QKV, attention output, MLP up and down): their weight gradients.
    double weight_gradients_s = 0.0;
    double embedding_forward_s = 0.0;
    double embedding_backward_s = 0.0;
    double logits_forward_s = 0.0;
    double logits_backward_s = 0.0;
    // Of those, what the device's memory bounds (ComputeModel::kernel_time): a layer's forward and backward, and the
    // embedding's and logits' forward and backward together.
    double layer_memory_bound_s = 0.0;
    double ends_memory_bound_s = 0.0;
};

HandCosts hand_costs(const Scenario& scenario) {
    const auto& p = scenario.parallelism;
    const parasight::ComputeModel compute = parasight::make_compute_model(scenario.cluster.device, scenario.training.dtype);
    const double eb = parasight::dtype_bytes(scenario.training.dtype);
    const double mb = scenario.training.micro_batch;
    const parasight::LayerSplit split{p.tp, p.cp, p.sequence_parallel, p.recompute, scenario.training.attention};
    const auto work = parasight::transformer_layer_work(scenario.model, mb, split, eb);
    HandCosts costs;
    for (const auto& op : work.attention) {
        costs.attention_forward_s += compute.time_s(op.name, parasight::Pass::forward, op.forward);
        costs.attention_backward_s += compute.time_s(op.name, parasight::Pass::backward, op.backward);
    }
    for (const auto& op : work.mlp) {
        costs.mlp_forward_s += compute.time_s(op.name, parasight::Pass::forward, op.forward);
        costs.mlp_backward_s += compute.time_s(op.name, parasight::Pass::backward, op.backward);
    }
    for (const auto* block : {&work.attention, &work.mlp}) {
        for (const auto& op : *block) {
            if (op.name == "qkv" || op.name == "attention_out" || op.name == "mlp_up" || op.name == "mlp_down") {
                costs.weight_gradients_s += compute.time_s(op.name, parasight::Pass::backward, op.backward) / 2.0;
            }
        }
    }
    const auto logits = parasight::logits_operation(scenario.model, mb / p.cp, p.tp, eb, scenario.training.eager_kernels);
    const auto embedding = parasight::embedding_operation(scenario.model, mb / p.cp, p.tp, eb);
    costs.logits_forward_s = compute.time_s("logits", parasight::Pass::forward, logits.forward);
    costs.logits_backward_s = compute.time_s("logits", parasight::Pass::backward, logits.backward);
    costs.embedding_forward_s = compute.time_s("embedding", parasight::Pass::forward, embedding.forward);
    costs.embedding_backward_s = compute.time_s("embedding", parasight::Pass::backward, embedding.backward);
    for (const auto* block : {&work.attention, &work.mlp}) {
        for (const auto& op : *block) {
            costs.layer_memory_bound_s += compute.kernel_time(op.name, parasight::Pass::forward, op.forward).memory_bound_s +
                                          compute.kernel_time(op.name, parasight::Pass::backward, op.backward).memory_bound_s;
        }
    }
    for (const auto& [name, op] : {std::pair{"logits", logits}, std::pair{"embedding", embedding}}) {
        costs.ends_memory_bound_s += compute.kernel_time(name, parasight::Pass::forward, op.forward).memory_bound_s +
                                     compute.kernel_time(name, parasight::Pass::backward, op.backward).memory_bound_s;
    }
    return costs;
}

// The step times of gpipe_two_stage_yaml's stages: stage 0 holds the embedding and layer 0, stage 1 layer 1 and the
// logits — F0 = embedding + attention + MLP forward, F1 = attention + MLP + logits forward, B0 = MLP + attention +
// embedding backward, B1 = logits + MLP + attention backward.
struct TwoStageSteps {
    double F0, F1, B0, B1;
};

// GPT-2 small, a batch of 4, on one switch of 4 A100s, with `parallelism` (the section's keys).
std::string gpt2_small_on_four(const std::string& parallelism) {
    return "schema: 1\nname: states\nmodel: gpt2-small\n"
           "training: {global_batch: 4, micro_batch: 1, dtype: bf16, optimizer: adam}\n"
           "cluster:\n  device: a100-80gb\n"
           "  topology: [{kind: switch, size: 4, bandwidth: 300 GB/s, latency: 1 us}]\n"
           "parallelism: {" + parallelism + "}\n";
}

// The first simulated device's model states: the weights, gradients and optimizer state the compiler allocates for
// the whole iteration.
double model_state_bytes(const SimulatedGraph& simulation) {
    const auto& statics = simulation.graph.devices.front().static_bytes;
    return statics[static_cast<std::size_t>(MemoryCategory::weights)] +
           statics[static_cast<std::size_t>(MemoryCategory::gradients)] +
           statics[static_cast<std::size_t>(MemoryCategory::optimizer)];
}

TwoStageSteps two_stage_steps(const HandCosts& c) {
    return {c.embedding_forward_s + c.attention_forward_s + c.mlp_forward_s,
            c.attention_forward_s + c.mlp_forward_s + c.logits_forward_s,
            c.mlp_backward_s + c.attention_backward_s + c.embedding_backward_s,
            c.logits_backward_s + c.mlp_backward_s + c.attention_backward_s};
}

// The report as JSON with the "simulation" object (events, wall_s, mode) cut out.
std::string without_simulation_object(std::string json) {
    const auto key = json.find("\"simulation\"");
    if (key == std::string::npos) return json;
    const auto close = json.find('}', key);
    json.erase(key, close - key + 1);
    return json;
}

// Where two JSON values differ beyond rounding: numbers by more than 1e-12 relative, anything else at all. Empty when
// they agree. Simulating every device adds the same times in another order, so the last bit may differ.
QString json_difference(const QJsonValue& a, const QJsonValue& b, const QString& path = QStringLiteral("$")) {
    if (a.isDouble() && b.isDouble()) {
        const double x = a.toDouble();
        const double y = b.toDouble();
        return std::abs(x - y) <= 1e-12 * std::max(std::abs(x), std::abs(y))
                   ? QString()
                   : QStringLiteral("%1: %2 vs %3").arg(path).arg(x, 0, 'g', 17).arg(y, 0, 'g', 17);
    }
    if (a.isObject() && b.isObject()) {
        const QJsonObject x = a.toObject();
        const QJsonObject y = b.toObject();
        if (x.keys() != y.keys()) return path + QStringLiteral(": different keys");
        for (const QString& key : x.keys()) {
            const QString difference = json_difference(x.value(key), y.value(key), path + "." + key);
            if (!difference.isEmpty()) return difference;
        }
        return {};
    }
    if (a.isArray() && b.isArray()) {
        const QJsonArray x = a.toArray();
        const QJsonArray y = b.toArray();
        if (x.size() != y.size()) return path + QStringLiteral(": different lengths");
        for (qsizetype i = 0; i < x.size(); ++i) {
            const QString difference = json_difference(x.at(i), y.at(i), path + QStringLiteral("[%1]").arg(i));
            if (!difference.isEmpty()) return difference;
        }
        return {};
    }
    return a == b ? QString() : path + QStringLiteral(": differs");
}

// The report as JSON without its wall_s line.
std::string without_wall_time(const std::string& json) {
    std::istringstream lines(json);
    std::string line;
    std::string kept;
    while (std::getline(lines, line)) {
        if (line.find("\"wall_s\"") == std::string::npos) kept += line + '\n';
    }
    return kept;
}

// --- scenarios -------------------------------------------------------------------------------------------------------

// The ideal binary machine: 2^40 FLOP/s, 2^49 B/s of memory bandwidth, efficiencies 1, no small-matmul penalty.
const std::string binary_device =
    "{name: binary GPU, peak: {bf16: 1099511627776 FLOP/s}, memory: 80 GiB, memory_bandwidth: 562949953421312 B/s, "
    "matmul_efficiency: 1, matmul_half_dim: 0, memory_efficiency: 1}";

// A small GPT-style model whose FLOP and byte counts are small integers times powers of two:
// h = 64 (one head of 64), s = 128, V = 64, F = 4h = 256; micro-batch 1 gives t = 128 tokens.
std::string small_model(int layers) {
    return "{kind: transformer, layers: " + std::to_string(layers) +
           ", hidden: 64, heads: 1, seq_len: 128, vocab: 64}";
}

// Two stages, GPipe, four micro-batches; pipeline link 2^32 B/s, no latency.
// Two data-parallel replicas of a 4-layer model on the binary machine, 2^31 B/s between them, buckets of 199 936 B.
std::string data_parallel_yaml(bool overlap_grad_reduce) {
    return "schema: 1\nname: data parallel\nmodel: " + small_model(4) +
           "\ntraining: {global_batch: 2, micro_batch: 1, dtype: bf16, attention: unfused}\n"
           "cluster:\n  device: " + binary_device +
           "\n  topology: [{kind: switch, size: 2, bandwidth: 2147483648 B/s, latency: 0 s}]\n"
           "parallelism: {dp: 2, overlap_grad_reduce: " + (overlap_grad_reduce ? "true" : "false") + "}\n"
           "simulation: {overlap_slowdown: 0, bandwidth_sharing: false, gradient_bucket: 199936 B}\n";
}

std::string gpipe_two_stage_yaml() {
    return "schema: 1\nname: two-stage GPipe on the binary machine\nmodel: " + small_model(2) +
           "\ntraining: {global_batch: 4, micro_batch: 1, dtype: bf16, attention: unfused}\n"
           "cluster:\n  device: " + binary_device +
           "\n  topology: [{kind: switch, size: 2, bandwidth: 4294967296 B/s, latency: 0 s}]\n"
           "parallelism: {pp: 2, schedule: gpipe}\n"
           "simulation: {overlap_slowdown: 0, bandwidth_sharing: false}\n";
}

// tp, dp and pp all > 1 with ZeRO-1, sequence parallelism and selective recompute, on two 4-GPU nodes.
const std::string hybrid_yaml = R"(schema: 1
name: hybrid tp2 dp2 pp2
model: {kind: transformer, layers: 4, hidden: 256, heads: 8, seq_len: 256, vocab: 1024}
training: {global_batch: 16, micro_batch: 2, dtype: bf16}
cluster:
  device: a100-80gb
  topology:
    - {kind: switch, size: 4, bandwidth: 300 GB/s, latency: 1 us}
    - {kind: switch, size: 2, bandwidth: 25 GB/s, latency: 5 us}
parallelism: {tp: 2, dp: 2, pp: 2, zero: 1, sequence_parallel: true, recompute: selective, mapping: [tp, dp, pp]}
)";

// The same shape with ZeRO-3, full recompute and the interleaved schedule.
const std::string hybrid_interleaved_yaml = R"(schema: 1
name: hybrid interleaved
model: {kind: transformer, layers: 8, hidden: 256, heads: 8, seq_len: 256, vocab: 1024}
training: {global_batch: 16, micro_batch: 2, dtype: bf16}
cluster:
  device: a100-80gb
  topology:
    - {kind: switch, size: 4, bandwidth: 300 GB/s, latency: 1 us}
    - {kind: switch, size: 2, bandwidth: 25 GB/s, latency: 5 us}
parallelism: {tp: 2, dp: 2, pp: 2, zero: 3, recompute: full, schedule: interleaved, virtual_stages: 2, mapping: [tp, dp, pp]}
)";

// GPT-2 small on one inline device with the given memory, two micro-batches of one sequence; the attention core
// unfused, so that a layer keeps Korthikanti's sbh·(34 + 5as/h).
std::string gpt2_small_yaml(const std::string& memory) {
    return "schema: 1\nname: gpt2-small on one device\nmodel: gpt2-small\n"
           "training: {global_batch: 2, micro_batch: 1, dtype: bf16, attention: unfused}\n"
           "cluster:\n  device: {name: small GPU, peak: {bf16: 312 TFLOP/s}, memory: " + memory +
           ", memory_bandwidth: 2039 GB/s}\n"
           "  topology: [{kind: switch, size: 1, bandwidth: 300 GB/s, latency: 1 us}]\n";
}

const std::map<QString, std::string>& named_scenarios() {
    static const std::map<QString, std::string> scenarios{
        {QStringLiteral("hybrid"), hybrid_yaml},
        {QStringLiteral("hybrid interleaved"), hybrid_interleaved_yaml},
        // The hybrid shape with the zero-bubble schedule: split backwards, weight gradients filling the DP buckets.
        {QStringLiteral("hybrid zb-h1"),
         [] {
             std::string yaml = hybrid_yaml;
             const std::string from = "recompute: selective,";
             yaml.replace(yaml.find(from), from.size(), "recompute: selective, schedule: zb-h1,");
             return yaml;
         }()},
        {QStringLiteral("gpipe two-stage"), gpipe_two_stage_yaml()},
        {QStringLiteral("out of memory"), gpt2_small_yaml("2 GiB")},
        {QStringLiteral("1f1b p4 m8"), bubble_yaml("1f1b", 4, 8, 1, 2)},
    };
    return scenarios;
}

// --- hand-built graphs -----------------------------------------------------------------------------------------------

struct HandTask {
    TaskKind kind = TaskKind::tp_comm;
    Stream stream = Stream::feature_comm;
    double work_s = 1.0;
    std::uint32_t dimension_mask = 1;
    double expected_start_s = 0.0;
    double expected_end_s = 0.0;
};

}  // namespace

using HandTasks = std::vector<HandTask>;
Q_DECLARE_METATYPE(HandTasks)

class TestSimulation : public QObject {
    Q_OBJECT

private slots:
    void hostBoundLayersWarn_data();
    void hostBoundLayersWarn();
    void gpipeTwoStagesExactTimeline();
    void blockingPipelineSendsHoldTheNextStep();
    void deepSpeedSendsWaitForTheirReceive();
    void pipelineBubbleFractions_data();
    void pipelineBubbleFractions();
    void dataParallelAllReduceOverlapsBackward();
    void dataParallelAllReduceAfterBackwardWithoutOverlap();
    void dataParallelSweepHasNoStepAtNinetySix();
    void tensorParallelBackward_data();
    void tensorParallelBackward();
    void pipelineScatterGather_data();
    void pipelineScatterGather();
    void korthikantiTable4_data();
    void korthikantiTable4();
    void zeroModelStates_data();
    void zeroModelStates();
    void contextParallelRanksShareGradientsAndShards_data();
    void contextParallelRanksShareGradientsAndShards();
    void activationPeakOneFOneBVersusGpipe_data();
    void activationPeakOneFOneBVersusGpipe();
    void stoppingAtOutOfMemoryEndsWhereTheFullRunCrossed();
    void representativeEqualsEveryDevice_data();
    void representativeEqualsEveryDevice();
    void deterministic_data();
    void deterministic();
    void outOfMemoryNamesTheTensor();
    void outOfMemoryInModelStates();
    void utilisation_data();
    void utilisation();
    void zero3HoldsGatheredParametersWhileTheLayerRuns();
    void zero3PrefetchDepth_data();
    void zero3PrefetchDepth();
    void zero3GathersEachModule();
    void eachStageReducesTheGradientsItHolds_data();
    void eachStageReducesTheGradientsItHolds();
    void maxOngoingMicroBatchesIsNotIgnored_data();
    void maxOngoingMicroBatchesIsNotIgnored();
    void breakdownSumsToIterationTime_data();
    void breakdownSumsToIterationTime();

    void engineBandwidthSharingAndOverlap_data();
    void engineBandwidthSharingAndOverlap();
    void engineCollectiveWaitsForEveryMember();
    void engineCollectiveRunsAtItsSlowestMembersRate();

    void chromeTraceIsValid_data();
    void chromeTraceIsValid();

    void graphSizeLimit();
};

// --- schedules ---------------------------------------------------------------------------------------------------------

void TestSimulation::blockingPipelineSendsHoldTheNextStep() {
    // gpipeTwoStagesExactTimeline's pipeline with overlap_p2p: false: a stage's step after a send waits for the send
    // (c). Stage 0 sends after each forward, stage 1 after each backward:
    //   stage 0 forward i:  [i·(F0 + c), … + F0]                      (each waits for the send before it)
    //   stage 1 forward i:  [F0 + c + i·p, … + F1], p = max(F1, F0 + c) (inputs arrive every F0 + c)
    //   stage 1 backward i: [E + i·(B1 + c), … + B1], E = its last forward's end
    //   stage 0 backward i: [E + (i + 1)·(B1 + c), … + B0]            (each gradient arrives c after it is sent;
    //                                                                  B1 + c > B0 paces it)
    std::string yaml = gpipe_two_stage_yaml();
    const std::string from = "parallelism: {pp: 2, schedule: gpipe}";
    yaml.replace(yaml.find(from), from.size(), "parallelism: {pp: 2, schedule: gpipe, overlap_p2p: false}");
    PS_SIMULATE(sim, yaml);
    const auto [F0, F1, B0, B1] = two_stage_steps(hand_costs(sim_scenario));
    const double send = std::ldexp(1.0, -18);  // gpipeTwoStagesExactTimeline: 16384 B at 2^32 B/s
    QVERIFY(B1 + send > B0);
    const double p = std::max(F1, F0 + send);
    const double E = F0 + send + 3 * p + F1;
    for (int i = 0; i < 4; ++i) {
        const Interval s0f = step_interval(sim, 0, true, i);
        QCOMPARE_EQ(s0f.start_s, i * (F0 + send));
        QCOMPARE_EQ(s0f.end_s, i * (F0 + send) + F0);
        const Interval s1f = step_interval(sim, 1, true, i);
        QCOMPARE_EQ(s1f.start_s, F0 + send + i * p);
        const Interval s1b = step_interval(sim, 1, false, i);
        QCOMPARE_EQ(s1b.start_s, E + i * (B1 + send));
        QCOMPARE_EQ(s1b.end_s, E + i * (B1 + send) + B1);
        const Interval s0b = step_interval(sim, 0, false, i);
        QCOMPARE_EQ(s0b.start_s, E + (i + 1) * (B1 + send));
        QCOMPARE_EQ(s0b.end_s, E + (i + 1) * (B1 + send) + B0);
    }
}

void TestSimulation::deepSpeedSendsWaitForTheirReceive() {
    // gpipeTwoStagesExactTimeline's pipeline in 1F1B order with DeepSpeed's exchange (p2p_rendezvous: blocking sends,
    // each paired with its receive). Stage 0 runs F(0) F(1) B(0) F(2) B(1) F(3) B(2) B(3), stage 1 F(i) B(i); a_i is
    // stage 0's send after F(i), g_i stage 1's after B(i), each c long.
    //   a_0 [F0, F0 + c]; stage 1 runs F(0) B(0) until X0 = F0 + c + F1 + B1.
    //   a_i (i ≥ 1) waits for stage 1 to post its receive after B(i − 1): [X(i−1), X(i−1) + c]; g_(i−1) is sent after
    //   that receive (a forward step receives first): [X(i−1) + c, X(i−1) + 2c]; stage 1's F(i) waits for its own
    //   send, so X(i) = X(i−1) + 2c + F1 + B1 — two transfers a micro-batch where overlap_p2p: false alone costs one.
    //   Stage 0's B(i) starts when g_i arrives: X(i) + 2c for i < 3; B(3) at X(3) + c (no activation left to wait for).
    std::string yaml = gpipe_two_stage_yaml();
    const std::string from = "parallelism: {pp: 2, schedule: gpipe}";
    yaml.replace(yaml.find(from), from.size(),
                 "parallelism: {pp: 2, schedule: 1f1b, overlap_p2p: false, p2p_rendezvous: true}");
    PS_SIMULATE(sim, yaml);
    const auto [F0, F1, B0, B1] = two_stage_steps(hand_costs(sim_scenario));
    const double send = std::ldexp(1.0, -18);  // gpipeTwoStagesExactTimeline: 16384 B at 2^32 B/s
    // Stage 0 is ready to send before stage 1 is ready to receive: stage 1 paces the exchange.
    QVERIFY(F1 + B1 > F0 + B0);
    const auto X = [&](int i) { return F0 + send + F1 + B1 + i * (F1 + B1 + 2 * send); };
    for (int i = 1; i < 4; ++i) {
        const Interval s1f = step_interval(sim, 1, true, i);
        PS_COMPARE_RELATIVE(s1f.start_s, X(i - 1) + 2 * send, 1e-12);
    }
    for (int i = 0; i < 3; ++i) {
        PS_COMPARE_RELATIVE(step_interval(sim, 0, false, i).start_s, X(i) + 2 * send, 1e-12);
    }
    PS_COMPARE_RELATIVE(step_interval(sim, 0, false, 3).end_s, X(3) + send + B0, 1e-12);
    // Without the rendezvous the same blocking sends cost one transfer a micro-batch: three fewer in all.
    yaml.replace(yaml.find(", p2p_rendezvous: true"), 22, "");
    PS_SIMULATE(blocking, yaml);
    PS_COMPARE_RELATIVE(step_interval(blocking, 0, false, 3).end_s, X(3) + send + B0 - 3 * send, 1e-12);
}

void TestSimulation::gpipeTwoStagesExactTimeline() {
    PS_SIMULATE(sim, gpipe_two_stage_yaml());
    const HandCosts c = hand_costs(sim_scenario);
    // Step times on the binary machine (two_stage_steps says what each stage runs).
    const auto [F0, F1, B0, B1] = two_stage_steps(c);
    // Send: the 128 × 64 bf16 activation, 16384 B at 2^32 B/s with no latency = 2^-18 s.
    const double send = parasight::point_to_point(sim_scenario.topology(), 0, 1, 128.0 * 64.0 * 2.0).time_s;
    QCOMPARE_EQ(send, std::ldexp(1.0, -18));
    // The optimizer streams 28 B per parameter of its stage: one layer (12·64² + 13·64 = 49 984) plus a copy of the
    // 64 × 64 table on each stage (Megatron keeps the tied table on the first and the last stage): 54 080 parameters,
    // 1 514 240 B at 2^49 B/s, over the fused kernel's 0.813 of the bandwidth (model_states.h).
    const double optimizer = 54080.0 * 28.0 / 0.813 / std::ldexp(1.0, 49);
    // The arithmetic below assumes the last stage is the slower one both ways (it has the logits, the first only the
    // memory-bound embedding) and that a send is shorter than any step.
    QVERIFY(F1 > F0 && B1 > B0 && send < F0 && send < B0);

    // GPipe, p = 2, m = 4:
    //   stage 0 forward i:  [i·F0, (i+1)·F0]              (back to back: it never waits)
    //   stage 1 forward i:  [F0 + c + i·F1, … + F1]        (its first input arrives at F0 + c; then F1 ≥ F0 paces it)
    //   stage 1 backward i: [F0 + c + 4·F1 + i·B1, … + B1]  (after its last forward, back to back)
    //   stage 0 backward i: [F0 + 4·F1 + (i+1)·B1 + 2c, … + B0]   (each waits for stage 1's gradient: B1 ≥ B0)
    for (int i = 0; i < 4; ++i) {
        const Interval s0f = step_interval(sim, 0, true, i);
        QCOMPARE_EQ(s0f.start_s, i * F0);
        QCOMPARE_EQ(s0f.end_s, (i + 1) * F0);
        const Interval s1f = step_interval(sim, 1, true, i);
        QCOMPARE_EQ(s1f.start_s, F0 + send + i * F1);
        QCOMPARE_EQ(s1f.end_s, F0 + send + (i + 1) * F1);
        const Interval s1b = step_interval(sim, 1, false, i);
        QCOMPARE_EQ(s1b.start_s, F0 + send + 4 * F1 + i * B1);
        QCOMPARE_EQ(s1b.end_s, F0 + send + 4 * F1 + (i + 1) * B1);
        const Interval s0b = step_interval(sim, 0, false, i);
        QCOMPARE_EQ(s0b.start_s, F0 + 4 * F1 + (i + 1) * B1 + 2 * send);
        QCOMPARE_EQ(s0b.end_s, F0 + 4 * F1 + (i + 1) * B1 + 2 * send + B0);
    }
    // Then the tied table's two copies have their gradients all-reduced between the stages (Megatron's embedding
    // group): it starts when stage 0's last backward ends and moves the 64 × 64 bf16 table, 8192 B at 2^32 B/s with
    // no latency = 2^-19 s. Both optimizer steps follow it; the last stage's holds the final LayerNorm too
    // (2·64 = 128 more parameters: 54 208 · 28 B / 0.813 at 2^49 B/s) and ends the iteration:
    //   F0 + 4·F1 + 4·B1 + B0 + 2c + tied + optimizer₁.
    // With balanced stages (F0 = F1 = f, B0 = B1 = b) and no sends or optimizer this is 5f + 5b = (m + p − 1)(f + b).
    const double tied = 8192.0 / std::ldexp(1.0, 32);
    const double optimizer_last = 54208.0 * 28.0 / 0.813 / std::ldexp(1.0, 49);
    const double backward_end = F0 + 4 * F1 + 4 * B1 + B0 + 2 * send;
    const auto reduction = find_tasks(sim.graph, 0, "tied embedding all-reduce", TaskKind::dp_comm, -1);
    QCOMPARE(reduction.size(), std::size_t{1});
    QCOMPARE_EQ(sim.run.timings[static_cast<std::size_t>(reduction.front())].start_s, backward_end);
    QCOMPARE_EQ(sim.run.timings[static_cast<std::size_t>(reduction.front())].end_s, backward_end + tied);
    const auto step0 = find_tasks(sim.graph, 0, "optimizer step", TaskKind::optimizer, -1);
    QCOMPARE(step0.size(), std::size_t{1});
    PS_COMPARE_RELATIVE(sim.run.timings[static_cast<std::size_t>(step0.front())].end_s, backward_end + tied + optimizer,
                        1e-15);
    PS_COMPARE_RELATIVE(sim.report.iteration_time_s, backward_end + tied + optimizer_last, 1e-15);
}

void TestSimulation::pipelineBubbleFractions_data() {
    QTest::addColumn<QString>("schedule");
    QTest::addColumn<int>("stages");
    QTest::addColumn<int>("micro_batches");
    QTest::addColumn<int>("chunks");
    QTest::addColumn<int>("group");  // micro_batch_group N; 0: pp
    // GPipe and 1F1B: (p − 1)/(m + p − 1); interleaved with v chunks: (p − 1)/(v·m + p − 1).
    QTest::newRow("gpipe p=2 m=4: 1/5") << QStringLiteral("gpipe") << 2 << 4 << 1 << 0;
    QTest::newRow("gpipe p=4 m=8: 3/11") << QStringLiteral("gpipe") << 4 << 8 << 1 << 0;
    QTest::newRow("1f1b p=4 m=8: 3/11") << QStringLiteral("1f1b") << 4 << 8 << 1 << 0;
    QTest::newRow("1f1b p=4 m=2: 3/5") << QStringLiteral("1f1b") << 4 << 2 << 1 << 0;
    QTest::newRow("interleaved p=4 v=2 m=8: 3/19") << QStringLiteral("interleaved") << 4 << 8 << 2 << 0;
    // m not a multiple of p, in groups of N (Megatron-Core): with equal chunks the bubble is still (p − 1) chunk
    // steps. p = 2, m = 3, N = 3: one group; stage 1 starts a chunk step late and, waiting for nothing after, ends
    // one late: 7 steps, 1/7. p = 4, m = 10, N = 5 (two groups of 5): 3/23.
    QTest::newRow("interleaved p=2 v=2 m=3 N=3: 1/7") << QStringLiteral("interleaved") << 2 << 3 << 2 << 3;
    QTest::newRow("interleaved p=4 v=2 m=10 N=5: 3/23") << QStringLiteral("interleaved") << 4 << 10 << 2 << 5;
    QTest::newRow("interleaved p=4 v=3 m=10 N=6: 3/33") << QStringLiteral("interleaved") << 4 << 10 << 3 << 6;
    // ZB-H1 (Qi et al. 2024 §2.1): m(F + B + W) + (p − 1)(F + B − W), W each stage's weight gradients and B the rest
    // of its backward (the formula holds while W ≤ B, as it is here).
    QTest::newRow("zb-h1 p=4 m=8") << QStringLiteral("zb-h1") << 4 << 8 << 1 << 0;
    QTest::newRow("zb-h1 p=2 m=3") << QStringLiteral("zb-h1") << 2 << 3 << 1 << 0;
}

void TestSimulation::pipelineBubbleFractions() {
    QFETCH(QString, schedule);
    QFETCH(int, stages);
    QFETCH(int, micro_batches);
    QFETCH(int, chunks);
    QFETCH(int, group);
    const int layers_per_chunk = 16;
    PS_SIMULATE(sim,
                bubble_yaml(schedule.toUtf8().constData(), stages, micro_batches, chunks, layers_per_chunk, group));
    const double p = stages, m = micro_batches, v = chunks;
    const HandCosts c = hand_costs(sim_scenario);
    const double chunk_f_plus_b =
        layers_per_chunk * (c.attention_forward_s + c.mlp_forward_s + c.attention_backward_s + c.mlp_backward_s);
    if (schedule == QStringLiteral("zb-h1")) {
        const double W = layers_per_chunk * c.weight_gradients_s;
        const double F = layers_per_chunk * (c.attention_forward_s + c.mlp_forward_s);
        const double B = chunk_f_plus_b - F - W;
        QVERIFY(W <= B);
        PS_COMPARE_RELATIVE(sim.report.iteration_time_s, m * (F + B + W) + (p - 1.0) * (F + B - W), 1e-9);
        PS_COMPARE_RELATIVE(sim.report.breakdown.bubble_s, (p - 1.0) * (F + B - W), 1e-9);
        QVERIFY(sim.report.breakdown.exposed_comm_total_s() <= 1e-9 * sim.report.iteration_time_s);
        // W is a kind of its own (drawn and named apart from B): on the first stage, the attention and MLP weight
        // gradients of its 16 layers for each of the m micro-batches, m·W of work in all (nothing overlaps them).
        std::size_t w_tasks = 0;
        double w_s = 0.0;
        for (std::size_t t = 0; t < sim.graph.tasks.size(); ++t) {
            const auto& task = sim.graph.tasks[t];
            if (task.device != 0 || task.kind != TaskKind::weight_gradient) continue;
            ++w_tasks;
            w_s += task.work_s;
        }
        QCOMPARE(w_tasks, static_cast<std::size_t>(2 * layers_per_chunk * micro_batches));
        PS_COMPARE_RELATIVE(w_s, m * W, 1e-9);
        return;
    }
    const double fraction = sim.report.breakdown.bubble_s / sim.report.iteration_time_s;
    PS_COMPARE_RELATIVE(fraction, (p - 1.0) / (v * m + p - 1.0), 1e-9);
    // And the iteration is (v·m + p − 1) chunk steps of f + b, f + b being one chunk's 16 layers forward and backward.
    PS_COMPARE_RELATIVE(sim.report.iteration_time_s, (v * m + p - 1.0) * chunk_f_plus_b, 1e-9);
    // Communication is made negligible, not absent: what it exposes is below 1e-9 of the iteration.
    QVERIFY(sim.report.breakdown.exposed_comm_total_s() <= 1e-9 * sim.report.iteration_time_s);
}

void TestSimulation::dataParallelAllReduceOverlapsBackward() {
    // dp = 2, pp = 1, one micro-batch per replica, 4 layers on the binary machine; 2^31 B/s between the replicas.
    // Each layer's gradients are (12·64² + 13·64)·2 B = 99 968 B and the bucket flushes at 199 936 B. Backward first
    // adds the final LayerNorm's (2·64·2 = 256 B) at the logits backward, so it flushes AR1 = norm + layers 3 and 2
    // = 200 192 B (when layer 2's backward ends, T2), AR2 = layers 1 and 0 = 199 936 B (at T0), and after the
    // embedding's backward (at Te) AR3 = the 64 × 64 table's gradients, 8 192 B.
    PS_SIMULATE(sim, data_parallel_yaml(true));
    const HandCosts c = hand_costs(sim_scenario);
    const double layer_backward = c.mlp_backward_s + c.attention_backward_s;
    // Compute runs back to back until the embedding's backward ends (T3, T2, T1, T0: each layer's backward end).
    const double forward_end = c.embedding_forward_s + 4 * (c.attention_forward_s + c.mlp_forward_s) + c.logits_forward_s;
    const double T3 = forward_end + c.logits_backward_s + layer_backward;
    const double T2 = T3 + layer_backward;
    const double T0 = T2 + 2 * layer_backward;
    const double Te = T0 + c.embedding_backward_s;
    // A 2-member halving-doubling all-reduce sends 2·(n−1)/n = 1 times the buffer: bytes / 2^31 B/s.
    const auto spans = parasight::ParallelLayout::make(sim_scenario.topology(), sim_scenario.parallelism.layout_order())
                           ->spans(parasight::ParallelAxis::dp);
    const double A1 = parasight::hierarchical_collective(parasight::CollectiveOp::all_reduce, 200192.0,
                                                         sim_scenario.topology(), spans, 64).time_s;
    const double A2 = parasight::hierarchical_collective(parasight::CollectiveOp::all_reduce, 199936.0,
                                                         sim_scenario.topology(), spans, 64).time_s;
    const double A3 = parasight::hierarchical_collective(parasight::CollectiveOp::all_reduce, 8192.0,
                                                         sim_scenario.topology(), spans, 64).time_s;
    QCOMPARE_EQ(A1, 200192.0 / 2147483648.0);
    QCOMPARE_EQ(A2, 199936.0 / 2147483648.0);
    QCOMPARE_EQ(A3, 8192.0 / 2147483648.0);
    // The bucket is slow enough that AR2 queues behind AR1 and ends after the embedding's backward:
    //   AR1 [T2, T2 + A1], AR2 [T2 + A1, T2 + A1 + A2], AR3 [… , T2 + A1 + A2 + A3]; the optimizer waits for AR3.
    QVERIFY(T2 + A1 > T0 && T2 + A1 + A2 > Te);
    const auto reductions = find_tasks(sim.graph, 0, "dp all-reduce", TaskKind::dp_comm, 0);
    QCOMPARE(reductions.size(), std::size_t{3});
    const std::vector<Interval> expected{{T2, T2 + A1}, {T2 + A1, T2 + A1 + A2}, {T2 + A1 + A2, T2 + A1 + A2 + A3}};
    const std::vector<double> bytes{200192.0, 199936.0, 8192.0};
    for (std::size_t i = 0; i < 3; ++i) {
        const auto& timing = sim.run.timings[static_cast<std::size_t>(reductions[i])];
        QCOMPARE_EQ(sim.graph.tasks[static_cast<std::size_t>(reductions[i])].bytes, bytes[i]);
        QCOMPARE_EQ(timing.start_s, expected[i].start_s);
        QCOMPARE_EQ(timing.end_s, expected[i].end_s);
    }
    const auto optimizer = find_tasks(sim.graph, 0, "optimizer step", TaskKind::optimizer, -1);
    QCOMPARE(optimizer.size(), std::size_t{1});
    QCOMPARE_EQ(sim.run.timings[static_cast<std::size_t>(optimizer.front())].start_s, T2 + A1 + A2 + A3);
    // Exposed: from the end of the last computation before the optimizer (Te) to the optimizer's start — what of AR2
    // and AR3 backward could not hide: T2 + A1 + A2 + A3 − Te. Everything before Te overlapped computation.
    const double exposed = T2 + A1 + A2 + A3 - Te;
    QCOMPARE_EQ(sim.report.breakdown.exposed_comm_s[static_cast<std::size_t>(CommGroup::dp)], exposed);
    QCOMPARE_EQ(sim.report.per_device.front().breakdown.exposed_comm_s[static_cast<std::size_t>(CommGroup::dp)], exposed);
    QCOMPARE_EQ(sim.report.breakdown.idle_s, 0.0);
    PS_COMPARE_RELATIVE(sim.report.breakdown.compute_s + sim.report.breakdown.exposed_local_memory_s + exposed,
                        sim.report.iteration_time_s, 1e-12);
}

void TestSimulation::dataParallelSweepHasNoStepAtNinetySix() {
    // GPT-2 small cut to 4 layers, data parallel over one switch of dp GPUs at 25 GB/s (5 us a hop, NCCL's network
    // step latency 9.6 us), 4 micro-batches of 1 per replica, gradients reduced after backward: the exposed dp time is
    // the gradient all-reduces'. With the switch's default (NCCL's choice) the 25 MiB buckets run the tree, whose
    // depth ⌈log2 n⌉ is 7 from 65 to 128 members: 96 costs exactly what 112 and 128 cost, and no more than 64 plus
    // one tree level. Named halving-doubling folds the 32 members beyond 64 at 96: about twice 128's time.
    const auto exposed_dp_s = [](int dp, const char* algorithm) {
        const std::string yaml = "schema: 1\nname: dp " + std::to_string(dp) +
                                 "\nmodel: {preset: gpt2-small, layers: 4}\n"
                                 "training: {global_batch: " + std::to_string(4 * dp) + ", micro_batch: 1}\n"
                                 "cluster:\n  device: a100-80gb\n  topology:\n"
                                 "    - {kind: switch, size: " + std::to_string(dp) +
                                 ", bandwidth: 25 GB/s, latency: 5 us, step_latency: 9.6 us" + algorithm + "}\n"
                                 "parallelism: {dp: " + std::to_string(dp) + ", overlap_grad_reduce: false}\n";
        const Outcome outcome = simulate_text(yaml);
        return outcome.error.isEmpty()
                   ? outcome.simulation->report.breakdown.exposed_comm_s[static_cast<std::size_t>(CommGroup::dp)]
                   : -1.0;
    };
    const double at_64 = exposed_dp_s(64, "");
    const double at_96 = exposed_dp_s(96, "");
    const double at_128 = exposed_dp_s(128, "");
    QVERIFY(at_64 > 0.0);
    PS_COMPARE_RELATIVE(at_96, at_128, 1e-9);
    PS_COMPARE_RELATIVE(exposed_dp_s(112, ""), at_128, 1e-9);
    QVERIFY(at_96 >= at_64 && at_96 < 1.15 * at_64);
    const double folded_96 = exposed_dp_s(96, ", algorithm: halving_doubling");
    const double power_of_two_128 = exposed_dp_s(128, ", algorithm: halving_doubling");
    QVERIFY2(folded_96 > 1.5 * power_of_two_128,
             qPrintable(QStringLiteral("%1 s at 96 against %2 s at 128").arg(folded_96).arg(power_of_two_128)));
}

void TestSimulation::dataParallelAllReduceAfterBackwardWithoutOverlap() {
    // The scenario of dataParallelAllReduceOverlapsBackward with overlap_grad_reduce: false (Megatron-LM's DDP of
    // 2021-2022): no bucket is reduced while backward runs; after the embedding's backward (Te) one all-reduce takes
    // every gradient, 200 192 + 199 936 + 8 192 = 408 320 B, in A = 408 320 / 2^31 s, all of it exposed.
    PS_SIMULATE(sim, data_parallel_yaml(false));
    const HandCosts c = hand_costs(sim_scenario);
    const double layer_backward = c.mlp_backward_s + c.attention_backward_s;
    const double forward_end = c.embedding_forward_s + 4 * (c.attention_forward_s + c.mlp_forward_s) + c.logits_forward_s;
    const double Te = forward_end + c.logits_backward_s + 4 * layer_backward + c.embedding_backward_s;
    const double A = 408320.0 / 2147483648.0;
    const auto reductions = find_tasks(sim.graph, 0, "dp all-reduce", TaskKind::dp_comm, 0);
    QCOMPARE(reductions.size(), std::size_t{1});
    const auto& timing = sim.run.timings[static_cast<std::size_t>(reductions.front())];
    QCOMPARE_EQ(sim.graph.tasks[static_cast<std::size_t>(reductions.front())].bytes, 408320.0);
    QCOMPARE_EQ(timing.start_s, Te);
    QCOMPARE_EQ(timing.end_s, Te + A);
    const auto optimizer = find_tasks(sim.graph, 0, "optimizer step", TaskKind::optimizer, -1);
    QCOMPARE_EQ(sim.run.timings[static_cast<std::size_t>(optimizer.front())].start_s, Te + A);
    QCOMPARE_EQ(sim.report.breakdown.exposed_comm_s[static_cast<std::size_t>(CommGroup::dp)], A);
    // The computations run back to back but for A: their time is compute and the part of it the device's memory
    // bounds, exposed local memory — each kernel's excess of streaming its bytes over its arithmetic, summed over the
    // embedding, 4 layers and the logits, forward and backward, and all of the optimizer step, which streams
    // 28 B a parameter and computes nothing. The split is kept per task as a float: 1e-6.
    const double step_s = sim.graph.tasks[static_cast<std::size_t>(optimizer.front())].work_s;
    const double local_memory_s = 4 * c.layer_memory_bound_s + c.ends_memory_bound_s + step_s;
    QVERIFY(local_memory_s > step_s);
    PS_COMPARE_RELATIVE(sim.report.breakdown.exposed_local_memory_s, local_memory_s, 1e-6);
    PS_COMPARE_RELATIVE(sim.report.breakdown.compute_s + sim.report.breakdown.exposed_local_memory_s + A,
                        sim.report.iteration_time_s, 1e-12);
}

// --- published numbers --------------------------------------------------------------------------------------------------

void TestSimulation::tensorParallelBackward_data() {
    QTest::addColumn<QString>("overlap");
    QTest::addColumn<bool>("sequence_parallel");
    QTest::newRow("none") << QStringLiteral("none") << false;
    QTest::newRow("none, sp") << QStringLiteral("none") << true;
    QTest::newRow("backward") << QStringLiteral("backward") << false;
    QTest::newRow("backward, sp") << QStringLiteral("backward") << true;
}

void TestSimulation::pipelineScatterGather_data() {
    QTest::addColumn<bool>("scatter_gather");
    QTest::addColumn<bool>("sequence_parallel");
    QTest::newRow("whole sends") << false << false;
    QTest::newRow("scattered, gathered") << true << false;
    QTest::newRow("sequence parallel: already a shard") << true << true;
}

void TestSimulation::pipelineScatterGather() {
    QFETCH(bool, scatter_gather);
    QFETCH(bool, sequence_parallel);
    // tp 2 × pp 2, one layer per stage (h 64, s 128, b 1, bf16) on the binary machine. The boundary activation is
    // 128 · 64 · 2 B = 2^14 B per TP rank (2^13 B with SP, a sequence shard). Megatron-LM's scatter/gather
    // (Narayanan et al. 2021 §4.1) sends 1/t of it, 2^13 B, and the receiving rank all-gathers the 2^14 B over TP
    // before its step.
    const std::string yaml = "schema: 1\nname: scatter gather\n"
                             "model: {kind: transformer, layers: 2, hidden: 64, heads: 2, seq_len: 128, vocab: 64}\n"
                             "training: {global_batch: 1, micro_batch: 1, dtype: bf16, attention: unfused}\n"
                             "cluster:\n  device: " + binary_device +
                             "\n  topology: [{kind: switch, size: 4, bandwidth: 4294967296 B/s, latency: 0 s}]\n"
                             "parallelism: {tp: 2, pp: 2, sequence_parallel: " +
                             std::string(sequence_parallel ? "true" : "false") + ", pp_scatter_gather: " +
                             std::string(scatter_gather ? "true" : "false") + ", mapping: [tp, pp]}\n"
                             "simulation: {overlap_slowdown: 0, bandwidth_sharing: false}\n";
    PS_SIMULATE(sim, yaml);
    const bool scattered = scatter_gather && !sequence_parallel;
    const auto sends = find_tasks(sim.graph, 0, "pp send activations", TaskKind::pp_comm, 0);
    QCOMPARE(sends.size(), std::size_t{1});
    const double shard_bytes = sequence_parallel ? 8192.0 : 16384.0;
    QCOMPARE_EQ(sim.graph.tasks[static_cast<std::size_t>(sends.front())].bytes, scattered ? 8192.0 : shard_bytes);
    // Stage 1 (device 1) gathers the activations first; stage 0 gathers the gradients coming back.
    const auto gathers = find_tasks(sim.graph, 1, "pp all-gather activations", TaskKind::tp_comm, 0);
    const auto gradient_gathers = find_tasks(sim.graph, 0, "pp all-gather gradients", TaskKind::tp_comm, 0);
    QCOMPARE(gathers.size(), scattered ? std::size_t{1} : std::size_t{0});
    QCOMPARE(gradient_gathers.size(), scattered ? std::size_t{1} : std::size_t{0});
    if (!scattered) return;
    const Task& gather = sim.graph.tasks[static_cast<std::size_t>(gathers.front())];
    QCOMPARE_EQ(gather.bytes, 16384.0);
    // The gather starts when the send ends (2^13 B at 2^32 B/s: 2^-19 s after it started) and the stage's first
    // layer starts when the gather ends.
    const auto& send = sim.run.timings[static_cast<std::size_t>(sends.front())];
    QCOMPARE_EQ(send.end_s - send.start_s, std::ldexp(1.0, -19));
    const auto& gathered = sim.run.timings[static_cast<std::size_t>(gathers.front())];
    QCOMPARE_EQ(gathered.start_s, send.end_s);
    const auto attention = find_tasks(sim.graph, 1, "attention", TaskKind::forward, 0);
    QCOMPARE(attention.size(), std::size_t{1});
    QVERIFY(sim.run.timings[static_cast<std::size_t>(attention.front())].start_s >= gathered.end_s);
}

void TestSimulation::tensorParallelBackward() {
    QFETCH(QString, overlap);
    QFETCH(bool, sequence_parallel);
    // One layer (h 64, 2 heads, s 128, b 1) with tp 2 on the binary machine: 2^40 FLOP/s, 2^49 B/s, 2^32 B/s links.
    const std::string yaml = "schema: 1\nname: tp backward\n"
                             "model: {kind: transformer, layers: 1, hidden: 64, heads: 2, seq_len: 128, vocab: 64}\n"
                             "training: {global_batch: 1, micro_batch: 1, dtype: bf16, attention: unfused}\n"
                             "cluster:\n  device: " + binary_device +
                             "\n  topology: [{kind: switch, size: 2, bandwidth: 4294967296 B/s, latency: 0 s}]\n"
                             "parallelism: {tp: 2, sequence_parallel: " +
                             std::string(sequence_parallel ? "true" : "false") + ", tp_overlap: " +
                             overlap.toStdString() + "}\n"
                             "simulation: {overlap_slowdown: 0, bandwidth_sharing: false}\n";
    PS_SIMULATE(sim, yaml);
    const auto interval = [&](TaskId task) { return sim.run.timings[static_cast<std::size_t>(task)]; };
    const auto only = [&](const char* label, TaskKind kind) {
        const auto found = find_tasks(sim.graph, 0, label, kind, 0, 0);
        return found.size() == 1 ? found.front() : TaskId{-1};
    };
    // The layer's TP collectives in backward: an all-reduce per block; with SP a gradient all-gather before each
    // block, a reduce-scatter after it and the block's input gathered again for its weight gradient (Korthikanti
    // 2022 §4.2.2): 2 or 6.
    std::vector<TaskId> tp_backward;
    const TaskId rest = only("attention backward", TaskKind::backward);
    QVERIFY(rest >= 0);
    const auto logits = find_tasks(sim.graph, 0, "logits backward", TaskKind::backward, 0);
    QCOMPARE(logits.size(), std::size_t{1});
    const double backward_start_s = interval(logits.front()).end_s;
    for (std::size_t t = 0; t < sim.graph.tasks.size(); ++t) {
        const Task& task = sim.graph.tasks[t];
        if (task.device == 0 && task.kind == TaskKind::tp_comm &&
            interval(static_cast<TaskId>(t)).start_s >= backward_start_s) {
            tp_backward.push_back(static_cast<TaskId>(t));
        }
    }
    QCOMPARE(tp_backward.size(), sequence_parallel ? std::size_t{6} : std::size_t{2});
    // The attention block's QKV projection: forward 2 · 128 tokens · 96 (= (64 + 2·64)/2 outputs) · 64 = 1.5 · 2^20
    // FLOPs, backward twice that: 1.5 · 2^-20 s for its input gradient and as much for its weight gradient. Its
    // LayerNorm's backward streams 2 · 2 · 128 · 64 · 2 B = 2^16 B (half with SP, on a sequence shard): 2^-33 s.
    const double half_linear_s = 1.5 * std::ldexp(1.0, -20);
    const double norm_s = std::ldexp(1.0, sequence_parallel ? -34 : -33);
    // With SP the attention block's gather of its input is the last one of the layer.
    std::vector<TaskId> gathers;
    for (const TaskId t : tp_backward) {
        if (sim.graph.labels[static_cast<std::size_t>(sim.graph.tasks[static_cast<std::size_t>(t)].label)] ==
            "tp all-gather input again") {
            gathers.push_back(t);
        }
    }
    QCOMPARE(gathers.size(), sequence_parallel ? std::size_t{2} : std::size_t{0});
    const double gathered_s = sequence_parallel ? interval(gathers.back()).end_s : 0.0;
    // The collective of the QKV input gradient: the TP collective that starts last.
    const TaskId reduce = *std::max_element(tp_backward.begin(), tp_backward.end(), [&](TaskId a, TaskId b) {
        return interval(a).start_s < interval(b).start_s;
    });
    const double whole_s = sim.graph.tasks[static_cast<std::size_t>(rest)].work_s;
    if (overlap == QStringLiteral("none")) {
        // Each waits for the one before: the gather, the block's backward as one task, its collective.
        QCOMPARE(find_tasks(sim.graph, 0, "attention qkv weight gradient", TaskKind::backward, 0).size(),
                 std::size_t{0});
        if (sequence_parallel) QCOMPARE_EQ(interval(rest).start_s, gathered_s);
        QCOMPARE_EQ(whole_s, hand_costs(sim_scenario).attention_backward_s);
        QCOMPARE_EQ(interval(reduce).start_s, interval(rest).end_s);
    } else {
        // The block's backward stops before the QKV weight gradient; the gather runs beside it, the input
        // gradient's collective beside the weight gradient, which waits for the gathered input.
        const TaskId weight = only("attention qkv weight gradient", TaskKind::backward);
        QVERIFY(weight >= 0);
        QCOMPARE_EQ(sim.graph.tasks[static_cast<std::size_t>(weight)].work_s, norm_s + half_linear_s);
        if (sequence_parallel) QCOMPARE_EQ(interval(gathers.back()).start_s, interval(rest).start_s);
        QCOMPARE_EQ(interval(weight).start_s, std::max(interval(rest).end_s, gathered_s));
        QCOMPARE_EQ(interval(reduce).start_s, std::max(interval(rest).end_s, gathered_s));
        QVERIFY(interval(reduce).start_s < interval(weight).end_s);
        // Together the two parts are the block's backward.
        PS_COMPARE_RELATIVE(whole_s + norm_s + half_linear_s,
                            hand_costs(sim_scenario).attention_backward_s, 1e-12);
    }
}

void TestSimulation::korthikantiTable4_data() {
    QTest::addColumn<QString>("recompute");
    QTest::addColumn<bool>("forward");
    QTest::addColumn<double>("published_ms");
    // Korthikanti et al. 2022 Table 4: one layer of the 22B model (h = 6144, a = 64, s = 2048, b = 4), TP = 8 on A100s,
    // no sequence parallelism.
    QTest::newRow("forward") << QStringLiteral("none") << true << 7.7;
    QTest::newRow("backward") << QStringLiteral("none") << false << 11.9;
    QTest::newRow("backward, full recompute") << QStringLiteral("full") << false << 19.5;
    QTest::newRow("backward, selective recompute") << QStringLiteral("selective") << false << 13.2;
}

void TestSimulation::korthikantiTable4() {
    QFETCH(QString, recompute);
    QFETCH(bool, forward);
    QFETCH(double, published_ms);
    // One layer on the a100-80gb preset, 8 GPUs on one NVSwitch at 300 GB/s (1 us: the dgx-a100-1024 preset's estimate).
    const std::string yaml = "schema: 1\nname: Korthikanti Table 4\n"
                             "model: {kind: transformer, layers: 1, hidden: 6144, heads: 64, seq_len: 2048, vocab: 51200}\n"
                             "training: {global_batch: 4, micro_batch: 4, dtype: bf16, attention: unfused}\n"
                             "cluster:\n  device: a100-80gb\n"
                             "  topology: [{kind: switch, size: 8, bandwidth: 300 GB/s, latency: 1 us}]\n"
                             "parallelism: {tp: 8, tp_overlap: backward, recompute: " + recompute.toStdString() + "}\n";
    PS_SIMULATE(sim, yaml);
    // The layer's forward runs between the embedding and the logits; its backward between the logits' backward and the
    // embedding's: attention and MLP with their two TP all-reduces, plus whatever recomputation the setting adds.
    const auto logits_forward = find_tasks(sim.graph, 0, "logits and loss", TaskKind::forward, 0);
    const auto logits_backward = find_tasks(sim.graph, 0, "logits backward", TaskKind::backward, 0);
    QCOMPARE(logits_forward.size(), std::size_t{1});
    QCOMPARE(logits_backward.size(), std::size_t{1});
    const double split_s = forward ? sim.run.timings[static_cast<std::size_t>(logits_forward.front())].start_s
                                   : sim.run.timings[static_cast<std::size_t>(logits_backward.front())].end_s;
    double start_s = 1e300;
    double end_s = -1e300;
    int tp_collectives = 0;
    for (std::size_t t = 0; t < sim.graph.tasks.size(); ++t) {
        const Task& task = sim.graph.tasks[t];
        if (task.layer != 0) continue;
        const auto& timing = sim.run.timings[t];
        if (forward ? timing.start_s >= split_s : timing.start_s < split_s) continue;
        start_s = std::min(start_s, timing.start_s);
        end_s = std::max(end_s, timing.end_s);
        tp_collectives += task.kind == TaskKind::tp_comm ? 1 : 0;
    }
    // Megatron's layer all-reduces twice forward and twice backward; full recompute repeats the forward's two.
    QCOMPARE(tp_collectives, recompute == QStringLiteral("full") && !forward ? 4 : 2);
    const double measured_ms = (end_s - start_s) * 1e3;
    qInfo("%s: simulated %.3f ms, published %.1f ms", QTest::currentDataTag(), measured_ms, published_ms);
    PS_COMPARE_RELATIVE(measured_ms, published_ms, 0.15);
}

void TestSimulation::zeroModelStates_data() {
    QTest::addColumn<int>("zero");
    QTest::addColumn<double>("psi_factor");      // bytes of weights + gradients + optimizer state per Ψ ...
    QTest::addColumn<double>("psi_over_n_factor");  // ... plus this many per Ψ/N
    // Rajbhandari et al. 2020 §3.1/§5, mixed-precision Adam (K = 12), N = dp = 4:
    QTest::newRow("stage 0: 16Ψ") << 0 << 16.0 << 0.0;
    QTest::newRow("stage 1: 4Ψ + 12Ψ/N") << 1 << 4.0 << 12.0;
    QTest::newRow("stage 2: 2Ψ + 14Ψ/N") << 2 << 2.0 << 14.0;
    QTest::newRow("stage 3: 16Ψ/N") << 3 << 0.0 << 16.0;
}

// Context-parallel ranks hold the same weights: Megatron-Core reduces gradients and shards its distributed
// optimizer over dp × cp (parallel_state.get_data_parallel_group(with_context_parallel=True)); ZeRO-3 shards a layer
// over the same ranks (FSDP2's dp_shard_cp mesh). GPT-2 small (Ψ = 123 689 472) on dp 2 × cp 2: 4 shards.
//   ZeRO-1: 2Ψ weights + 2Ψ gradients + 12Ψ/4 optimizer = 4Ψ + 3Ψ = 7Ψ = 865 826 304 B
//   ZeRO-3: 16Ψ/4 = 4Ψ = 494 757 888 B
// and the gradients are reduce-scattered among all 4 ranks.
void TestSimulation::contextParallelRanksShareGradientsAndShards_data() {
    QTest::addColumn<int>("zero");
    QTest::addColumn<double>("model_states");
    QTest::newRow("zero 1") << 1 << 865826304.0;
    QTest::newRow("zero 3") << 3 << 494757888.0;
}

void TestSimulation::contextParallelRanksShareGradientsAndShards() {
    QFETCH(int, zero);
    QFETCH(double, model_states);
    PS_SIMULATE(sim, gpt2_small_on_four("dp: 2, cp: 2, zero: " + std::to_string(zero) + ", mapping: [cp, dp]"));
    QCOMPARE_EQ(parasight::model_parameters(sim_scenario.model), 123689472.0);
    QCOMPARE_EQ(model_state_bytes(sim), model_states);
    bool reduced = false;
    for (const auto& task : sim.graph.tasks) {
        if (task.kind != TaskKind::dp_comm || task.transfer_shape < 0) continue;
        const auto& shape = sim.graph.transfer_shapes[static_cast<std::size_t>(task.transfer_shape)];
        QCOMPARE(shape.ranks, std::int64_t{4});
        reduced = true;
    }
    QVERIFY(reduced);
}

void TestSimulation::zeroModelStates() {
    QFETCH(int, zero);
    QFETCH(double, psi_factor);
    QFETCH(double, psi_over_n_factor);
    // GPT-2 small on 4 data-parallel replicas (pp = tp = 1): every device holds the whole model, so Ψ is every
    // parameter: 12 layers · 7 087 872 + the tied 50304 × 768 table 38 633 472 + the final LayerNorm 2·768 =
    // 123 689 472 (the compiler's stage_parameters(0) with pp = 1 and tied embeddings: the layers, one table, the norm).
    PS_SIMULATE(sim, gpt2_small_on_four("dp: 4, zero: " + std::to_string(zero)));
    const double psi = parasight::model_parameters(sim_scenario.model);
    QCOMPARE_EQ(psi, 123689472.0);
    const double n = 4.0;
    const double expected = psi_factor * psi + psi_over_n_factor * psi / n;
    // The compiler's static allocations ...
    QCOMPARE_EQ(model_state_bytes(sim), expected);
    const auto& statics = sim.graph.devices.front().static_bytes;
    const auto at = [](MemoryCategory c) { return static_cast<std::size_t>(c); };
    // ... split as ZeRO splits them: 2Ψ weights (sharded at stage 3), 2Ψ gradients (from stage 2), 12Ψ optimizer
    // state (from stage 1).
    QCOMPARE_EQ(statics[at(MemoryCategory::weights)], 2.0 * psi / (zero >= 3 ? n : 1.0));
    QCOMPARE_EQ(statics[at(MemoryCategory::gradients)], 2.0 * psi / (zero >= 2 ? n : 1.0));
    QCOMPARE_EQ(statics[at(MemoryCategory::optimizer)], 12.0 * psi / (zero >= 1 ? n : 1.0));
    // ... and what the report shows at the peak: tasks allocate only activations and buffers, so the model states
    // there are still the static ones.
    const auto& by_category = sim.report.memory_by_category_bytes;
    QCOMPARE_EQ(by_category[at(MemoryCategory::weights)] + by_category[at(MemoryCategory::gradients)] +
                    by_category[at(MemoryCategory::optimizer)],
                expected);
    // ... on every device alike (the memory view stacks each device's categories).
    for (const parasight::DeviceReport& device : sim.report.per_device) {
        const auto& own = device.memory_at_peak_bytes;
        QCOMPARE_EQ(own[at(MemoryCategory::weights)] + own[at(MemoryCategory::gradients)] +
                        own[at(MemoryCategory::optimizer)],
                    expected);
    }
    // ZeRO-3 gathers each layer's parameters from the other N − 1 replicas into a buffer: 2Ψ_layer·(N − 1)/N bytes.
    const double layer_gather = 2.0 * parasight::layer_parameters(sim_scenario.model) * (n - 1.0) / n;
    int gathers = 0;
    for (const Task& task : sim.graph.tasks) {
        if (sim.graph.labels[static_cast<std::size_t>(task.label)] != "zero-3 parameter all-gather") continue;
        ++gathers;
        QCOMPARE_EQ(task.allocate_bytes, layer_gather);
        QCOMPARE(task.allocate_category, MemoryCategory::buffers);
    }
    // One per layer forward and one per layer backward (one micro-batch per replica), only at stage 3.
    QCOMPARE(gathers, zero == 3 ? 24 : 0);
}

void TestSimulation::activationPeakOneFOneBVersusGpipe_data() {
    QTest::addColumn<QString>("schedule");
    QTest::addColumn<int>("stage");
    QTest::addColumn<double>("layer_units");   // activations at the peak, in units of one layer's activation bytes A
    QTest::addColumn<double>("logits_units");  // plus this many logits buffers
    // p = 4 stages of 2 layers, m = 8 micro-batches.
    // GPipe runs every forward first: stage 0 holds all 8 micro-batches, 8·2 = 16 A.
    QTest::newRow("gpipe stage 0") << QStringLiteral("gpipe") << 0 << 16.0 << 0.0;
    // 1F1B: stage 0 starts p − 1 = 3 warm-up forwards and a fourth before its first backward: 4·2 = 8 A.
    QTest::newRow("1f1b stage 0") << QStringLiteral("1f1b") << 0 << 8.0 << 0.0;
    // Stage 1 of 1F1B holds p − 1 = 3 micro-batches: 6 A.
    QTest::newRow("1f1b stage 1") << QStringLiteral("1f1b") << 1 << 6.0 << 0.0;
    // The last stage also keeps the logits (b·s·V/t·(2 + 4) B: bf16 logits and their fp32 softmax) until their backward:
    // GPipe all 8 micro-batches, 1F1B one.
    QTest::newRow("gpipe stage 3") << QStringLiteral("gpipe") << 3 << 16.0 << 8.0;
    QTest::newRow("1f1b stage 3") << QStringLiteral("1f1b") << 3 << 2.0 << 1.0;
}

void TestSimulation::activationPeakOneFOneBVersusGpipe() {
    QFETCH(QString, schedule);
    QFETCH(int, stage);
    QFETCH(double, layer_units);
    QFETCH(double, logits_units);
    const std::string yaml = "schema: 1\nname: activation peak\n"
                             "model: {kind: transformer, layers: 8, hidden: 256, heads: 4, seq_len: 128, vocab: 1000}\n"
                             "training: {global_batch: 8, micro_batch: 1, dtype: bf16, attention: unfused}\n"
                             "cluster:\n  device: a100-80gb\n"
                             "  topology: [{kind: switch, size: 4, bandwidth: 300 GB/s, latency: 1 us}]\n"
                             "parallelism: {pp: 4, schedule: " + schedule.toStdString() + "}\n";
    PS_SIMULATE(sim, yaml);
    // A = sbh·(34 + 5as/h) = 128·256·(34 + 5·4·128/256) = 32 768·44 = 1 441 792 B; logits 128·1000·6 = 768 000 B.
    const double A = parasight::layer_activation_bytes(sim_scenario.model, 1.0, parasight::LayerSplit{});
    QCOMPARE_EQ(A, 1441792.0);
    const double logits = 768000.0;
    const auto& memory = sim.run.memory[static_cast<std::size_t>(stage)];
    QCOMPARE(sim.graph.devices[static_cast<std::size_t>(stage)].stage, stage);
    QCOMPARE_EQ(memory.at_peak_bytes[static_cast<std::size_t>(MemoryCategory::activations)],
                layer_units * A + logits_units * logits);
}

// --- modes, determinism, OOM, breakdown --------------------------------------------------------------------------------

void TestSimulation::representativeEqualsEveryDevice_data() {
    QTest::addColumn<QString>("scenario");
    QTest::newRow("tp2 dp2 pp2, zero 1, sp, selective") << QStringLiteral("hybrid");
    QTest::newRow("tp2 dp2 pp2, zero 3, full, interleaved") << QStringLiteral("hybrid interleaved");
    QTest::newRow("tp2 dp2 pp2, zero 1, sp, selective, zb-h1") << QStringLiteral("hybrid zb-h1");
}

void TestSimulation::stoppingAtOutOfMemoryEndsWhereTheFullRunCrossed() {
    // tests/data/cli/small_pipeline.yaml on devices of 20 MB (its model states take at most 14.7 MB, its peak
    // 36.8 MB): the full run crosses the capacity on some device at some allocation; the run asked to stop there
    // names the same device, allocation and moment, with the memory it had then.
    using namespace parasight;
    LoadResult loaded = load_scenario_file(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml");
    QVERIFY(loaded.ok());
    Scenario scenario = loaded.scenario->value();
    scenario.cluster.device.memory_bytes = 20e6;
    const Validation validated = validate(scenario);
    QVERIFY(validated.ok());
    const auto full = simulate_graph(*validated.scenario, SimulateOptions{});
    QVERIFY(full);
    const EngineRun& run = full.value().run;
    std::optional<std::size_t> first;
    for (std::size_t d = 0; d < run.memory.size(); ++d) {
        if (run.memory[d].over_capacity_task == -2) continue;
        if (!first || run.memory[d].over_capacity_time_s < run.memory[*first].over_capacity_time_s) first = d;
    }
    QVERIFY(first);
    const Warning expected = out_of_memory_warning(full.value().graph, run, *first, 20e6);

    SimulateOptions stop;
    stop.stop_at_out_of_memory = true;
    const auto stopped = simulate(*validated.scenario, stop);
    QVERIFY(!stopped);
    QCOMPARE(stopped.error().kind, SimulationErrorKind::out_of_memory);
    const Warning& crossed = stopped.error().out_of_memory;
    QCOMPARE(crossed.npu, expected.npu);
    QCOMPARE(crossed.tensor, expected.tensor);
    QCOMPARE(crossed.time_s, expected.time_s);
    QVERIFY(crossed.needed_bytes > 20e6);
    QVERIFY(crossed.needed_bytes <= run.memory[*first].peak_bytes);  // what it had then, at most its final peak
    QCOMPARE(crossed.capacity_bytes, 20e6);
    // A scenario that fits runs to the end either way, to the same report.
    const auto fits = simulate(*loaded.scenario, stop);
    const auto fits_in_full = simulate(*loaded.scenario, SimulateOptions{});
    QVERIFY(fits && fits_in_full);
    QCOMPARE(fits.value().report.iteration_time_s, fits_in_full.value().report.iteration_time_s);
    QCOMPARE(fits.value().report.peak_memory_bytes, fits_in_full.value().report.peak_memory_bytes);
}

void TestSimulation::representativeEqualsEveryDevice() {
    QFETCH(QString, scenario);
    const std::string& yaml = named_scenarios().at(scenario);
    PS_SIMULATE(representative, yaml, false);
    PS_SIMULATE(every, yaml, true);
    QCOMPARE(representative.graph.devices.size(), std::size_t{2});  // one per stage
    QCOMPARE(every.graph.devices.size(), std::size_t{8});
    QCOMPARE(qs(representative.report.mode), QStringLiteral("representative"));
    QCOMPARE(qs(every.report.mode), QStringLiteral("all-devices"));
    // Homogeneous cluster: the same report, to the last bits of rounding, apart from how the simulation ran.
    const std::string a = without_simulation_object(parasight::report_json(representative.report));
    const std::string b = without_simulation_object(parasight::report_json(every.report));
    QVERIFY2(a.find("\"simulation\"") == std::string::npos, a.c_str());
    const QString difference = json_difference(QJsonDocument::fromJson(QByteArray::fromStdString(a)).object(),
                                               QJsonDocument::fromJson(QByteArray::fromStdString(b)).object());
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
    // Every simulated device of a stage agrees with that stage's representative.
    for (const auto& device : every.report.per_device) {
        const auto& reference = representative.report.per_device[static_cast<std::size_t>(device.stage)];
        QCOMPARE_EQ(device.breakdown.compute_s, reference.breakdown.compute_s);
        QCOMPARE_EQ(device.breakdown.bubble_s, reference.breakdown.bubble_s);
        QCOMPARE_EQ(device.peak_memory_bytes, reference.peak_memory_bytes);
    }
}

// Every named scenario, simulated with one device per symmetry class and with every device.
static void add_scenario_rows() {
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<bool>("all_devices");
    for (const auto& [name, yaml] : named_scenarios()) {
        (void)yaml;
        QTest::newRow(qPrintable(name + QStringLiteral(", representative"))) << name << false;
        QTest::newRow(qPrintable(name + QStringLiteral(", every device"))) << name << true;
    }
}

void TestSimulation::deterministic_data() { add_scenario_rows(); }

void TestSimulation::deterministic() {
    QFETCH(QString, scenario);
    QFETCH(bool, all_devices);
    const std::string& yaml = named_scenarios().at(scenario);
    PS_SIMULATE(first, yaml, all_devices);
    PS_SIMULATE(second, yaml, all_devices);
    const std::string a = parasight::report_json(first.report);
    QVERIFY(a.find("\"wall_s\"") != std::string::npos);
    QCOMPARE(qs(without_wall_time(parasight::report_json(second.report))), qs(without_wall_time(a)));
    QCOMPARE(first.run.events, second.run.events);
}

void TestSimulation::outOfMemoryNamesTheTensor() {
    // GPT-2 small, one device with 2 GiB. Model states 16Ψ = 16·123 687 936 = 1 979 006 976 B fit (2 GiB =
    // 2 147 483 648 B), leaving 168 476 672 B. One layer's activations: sbh(34 + 5as/h) with s = 1024, b = 1, h = 768,
    // a = 12: 786 432·34 + 5·12·1024² = 26 738 688 + 62 914 560 = 89 653 248 B. Layer 0's fit (total 2 068 660 224),
    // layer 1's do not (2 158 313 472): the first micro-batch's layer-1 attention breaks the capacity, at its start =
    // embedding + layer 0's attention and MLP.
    PS_SIMULATE(sim, gpt2_small_yaml("2 GiB"));
    QCOMPARE_EQ(sim.report.memory_capacity_bytes, 2.0 * GiB);
    QVERIFY(sim.report.out_of_memory.has_value());
    const auto& oom = *sim.report.out_of_memory;
    QCOMPARE(oom.npu, std::int64_t{0});
    QCOMPARE(qs(oom.tensor), QStringLiteral("activations allocated by attention, layer 1, micro-batch 0"));
    const HandCosts c = hand_costs(sim_scenario);
    PS_COMPARE_RELATIVE(oom.time_s, c.embedding_forward_s + c.attention_forward_s + c.mlp_forward_s, 1e-12);
    const auto attention = find_tasks(sim.graph, 0, "attention", TaskKind::forward, 0, 1);
    QCOMPARE(attention.size(), std::size_t{1});
    QCOMPARE_EQ(oom.time_s, sim.run.timings[static_cast<std::size_t>(attention.front())].start_s);
    QCOMPARE(sim.run.memory.front().over_capacity_task, attention.front());
    // The JSON says so too, and a warning explains it.
    const QJsonObject json = QJsonDocument::fromJson(QByteArray::fromStdString(parasight::report_json(sim.report))).object();
    const QJsonObject memory = json.value(QStringLiteral("memory")).toObject();
    QCOMPARE(memory.value(QStringLiteral("oom")).toBool(), true);
    QCOMPARE(memory.value(QStringLiteral("oom_at")).toObject().value(QStringLiteral("tensor")).toString(),
             QStringLiteral("activations allocated by attention, layer 1, micro-batch 0"));
    QCOMPARE(json.value(QStringLiteral("warnings")).toArray().size(), 1);
    QVERIFY(json.value(QStringLiteral("warnings")).toArray().at(0).toString().contains(QStringLiteral("out of memory")));
    // The warning as a value names the device and carries the numbers of its sentence: the peak (the device's
    // highest), the 2 GiB capacity, the tensor and the time.
    QCOMPARE(sim.report.warnings.size(), std::size_t{1});
    const parasight::Warning& warning = sim.report.warnings.front();
    QCOMPARE(warning.code, parasight::WarningCode::out_of_memory);
    QCOMPARE(qs(warning.subject), QStringLiteral("NPU 0"));
    QCOMPARE(warning.npu, std::int64_t{0});
    QCOMPARE_EQ(warning.needed_bytes, sim.report.peak_memory_bytes);
    QCOMPARE_EQ(warning.capacity_bytes, 2.0 * GiB);
    QCOMPARE(qs(warning.tensor), QStringLiteral("activations allocated by attention, layer 1, micro-batch 0"));
    QCOMPARE_EQ(warning.time_s, oom.time_s);

    // The same on 80 GiB fits: no oom_at, no warning.
    PS_SIMULATE(roomy, gpt2_small_yaml("80 GiB"));
    QVERIFY(!roomy.report.out_of_memory.has_value());
    const QJsonObject roomy_json =
        QJsonDocument::fromJson(QByteArray::fromStdString(parasight::report_json(roomy.report))).object();
    QCOMPARE(roomy_json.value(QStringLiteral("memory")).toObject().value(QStringLiteral("oom")).toBool(), false);
    QVERIFY(!roomy_json.value(QStringLiteral("memory")).toObject().contains(QStringLiteral("oom_at")));
    // The capacity changes the verdict, not what is allocated.
    QCOMPARE_EQ(roomy.report.peak_memory_bytes, sim.report.peak_memory_bytes);
}

void TestSimulation::outOfMemoryInModelStates() {
    // GPT-2 small's model states alone, 16Ψ = 1 979 006 976 B, exceed 1 GiB before any task runs: the static
    // allocations break the capacity, at time 0.
    const std::string yaml = "schema: 1\nname: oom\nmodel: gpt2-small\n"
                             "training: {global_batch: 1, micro_batch: 1, dtype: bf16}\n"
                             "cluster:\n  device: {name: tiny GPU, peak: {bf16: 312 TFLOP/s}, memory: 1 GiB, "
                             "memory_bandwidth: 2039 GB/s}\n"
                             "  topology: [{kind: switch, size: 1, bandwidth: 300 GB/s, latency: 1 us}]\n";
    PS_SIMULATE(sim, yaml);
    QVERIFY(sim.report.out_of_memory.has_value());
    QCOMPARE(qs(sim.report.out_of_memory->tensor), QStringLiteral("weights, gradients and optimizer state"));
    QCOMPARE_EQ(sim.report.out_of_memory->time_s, 0.0);
    QCOMPARE(sim.run.memory.front().over_capacity_task, TaskId{-1});
}

void TestSimulation::utilisation_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("parallelism");
    QTest::addColumn<int>("devices");
    QTest::addColumn<Recompute>("recompute");
    QTest::addColumn<QString>("attention");
    const QString dense = QStringLiteral("{kind: transformer, layers: 4, hidden: 256, heads: 4, seq_len: 256, vocab: 1024}");
    const QString fused = QStringLiteral("fused");
    QTest::newRow("one device") << dense << QStringLiteral("{}") << 1 << Recompute::none << fused;
    QTest::newRow("one device, unfused") << dense << QStringLiteral("{}") << 1 << Recompute::none
                                         << QStringLiteral("unfused");
    QTest::newRow("one device, selective") << dense << QStringLiteral("{recompute: selective}") << 1
                                           << Recompute::selective << fused;
    QTest::newRow("one device, selective, unfused") << dense << QStringLiteral("{recompute: selective}") << 1
                                                    << Recompute::selective << QStringLiteral("unfused");
    QTest::newRow("one device, full") << dense << QStringLiteral("{recompute: full}") << 1 << Recompute::full << fused;
    QTest::newRow("tp2 dp2 pp2") << dense << QStringLiteral("{tp: 2, dp: 2, pp: 2, mapping: [tp, dp, pp]}") << 8
                                 << Recompute::none << fused;
    QTest::newRow("cp2 dp2 pp2, full") << dense
                                       << QStringLiteral("{cp: 2, dp: 2, pp: 2, recompute: full, mapping: [cp, dp, pp]}")
                                       << 8 << Recompute::full << fused;
    QTest::newRow("moe ep2 dp2")
        << QStringLiteral("{kind: transformer, layers: 4, hidden: 256, heads: 4, seq_len: 256, vocab: 1024, experts: 4, "
                          "experts_per_token: 2}")
        << QStringLiteral("{ep: 2, dp: 2, mapping: [ep, dp]}") << 4 << Recompute::none << fused;
}

void TestSimulation::utilisation() {
    QFETCH(QString, model);
    QFETCH(QString, parallelism);
    QFETCH(int, devices);
    QFETCH(Recompute, recompute);
    QFETCH(QString, attention);
    const std::string yaml = "schema: 1\nname: utilisation\nmodel: " + model.toStdString() +
                             "\ntraining: {global_batch: 8, micro_batch: 2, dtype: bf16, attention: " +
                             attention.toStdString() + "}\n"
                             "cluster:\n  device: a100-80gb\n"
                             "  topology: [{kind: switch, size: " + std::to_string(devices) +
                             ", bandwidth: 300 GB/s, latency: 1 us}]\n"
                             "parallelism: " + parallelism.toStdString() + "\n";
    PS_SIMULATE(sim, yaml);
    const auto& r = sim.report;
    // MFU = model FLOPs of the iteration / (iteration time · devices · peak), the A100's bf16 peak being 312 TFLOP/s.
    const double model_flops = parasight::model_flops_per_iteration(sim_scenario.model, 8.0);
    QCOMPARE_EQ(r.model_flops_per_iteration, model_flops);
    PS_COMPARE_RELATIVE(r.mfu, model_flops / (r.iteration_time_s * devices * 312e12), 1e-12);
    PS_COMPARE_RELATIVE(r.tokens_per_s, 8.0 * 256.0 / r.iteration_time_s, 1e-12);
    // Hardware FLOPs are what the kernels compute; model FLOPs count 3 times each forward, the attention core's
    // whole s × s square included. Per sequence: l layers of f forward FLOPs, of which the core (QKᵀ and ·V,
    // 4·b·s²·h) is c, logits ℓ.
    //   no recompute, unfused: 3·(l·f + ℓ), HFU = MFU;
    //   fused attention with the causal mask: the kernel computes the tiles on and below the diagonal, a share
    //     k = (s/2 + 64) / s of the square (192 / 256 = 0.75 here), forward k·c and backward 2.5·k·c (it recomputes
    //     the scores; Dao 2023): 3.5·k·c in place of 3·c per layer;
    //   selective: the attention core once more per layer (k·c when fused);
    //   full: the whole forward of every layer once more (f − c + k·c when fused).
    const auto flops = parasight::layer_forward_flops(sim_scenario.model, 1.0);
    const double l = sim_scenario.model.layers;
    const double f = flops.total();
    const double c = flops.attention_core;
    const double logits = parasight::logits_forward_flops(sim_scenario.model, 1.0);
    const bool fused = attention == QStringLiteral("fused");
    const double k = fused ? parasight::fused_attention_keys_per_query(256.0, true) / 256.0 : 1.0;
    QCOMPARE_EQ(k, fused ? 0.75 : 1.0);
    const double recomputed_core = fused ? k * c : c;
    const double extra = recompute == Recompute::full        ? l * (f - c + recomputed_core)
                         : recompute == Recompute::selective ? l * recomputed_core
                                                             : 0.0;
    const double kernel = fused ? l * c * (3.5 * k - 3.0) : 0.0;
    const double ratio = (3.0 * (l * f + logits) + extra + kernel) / (3.0 * (l * f + logits));
    PS_COMPARE_RELATIVE(r.hfu / r.mfu, ratio, 1e-12);
}

void TestSimulation::zero3HoldsGatheredParametersWhileTheLayerRuns() {
    // ZeRO-3 (Rajbhandari 2020 §5.3): a layer's parameters are all-gathered before it runs and dropped once it has
    // run; the compiler's own comment: "released as soon as the layer has used it". dp = 4, one micro-batch each.
    const std::string yaml = "schema: 1\nname: zero-3 lifetime\n"
                             "model: {kind: transformer, layers: 4, hidden: 256, heads: 4, seq_len: 128, vocab: 64}\n"
                             "training: {global_batch: 4, micro_batch: 1, dtype: bf16, attention: unfused}\n"
                             "cluster:\n  device: a100-80gb\n"
                             "  topology: [{kind: switch, size: 4, bandwidth: 300 GB/s, latency: 1 us}]\n"
                             "parallelism: {dp: 4, zero: 3}\n";
    PS_SIMULATE(sim, yaml, false, true);
    // Layer 2's forward attention starts with layers 0-2's activations (3·A) allocated and layer 2's gathered
    // parameters, G = 2·(12·256² + 13·256)·3/4 = 2·789 760·3/4 = 1 184 640 B, in memory for it to use.
    const double A = parasight::layer_activation_bytes(sim_scenario.model, 1.0, parasight::LayerSplit{});
    const double G = 2.0 * parasight::layer_parameters(sim_scenario.model) * 3.0 / 4.0;
    QCOMPARE_EQ(G, 1184640.0);
    double statics = 0.0;
    for (const double bytes : sim.graph.devices.front().static_bytes) statics += bytes;
    const auto attention = find_tasks(sim.graph, 0, "attention", TaskKind::forward, 0, 2);
    QCOMPARE(attention.size(), std::size_t{1});
    const double start_s = sim.run.timings[static_cast<std::size_t>(attention.front())].start_s;
    // The memory the device holds just after the attention's allocation: the last sample at that moment.
    std::optional<double> held;
    for (const auto& sample : sim.run.memory.front().timeline) {
        if (sample.time_s == start_s) held = sample.bytes;
    }
    QVERIFY(held.has_value());
    QCOMPARE_EQ(*held, statics + 3.0 * A + G);
}

void TestSimulation::zero3PrefetchDepth_data() {
    QTest::addColumn<int>("ahead");
    QTest::newRow("on demand") << 0;
    QTest::newRow("one layer ahead (default)") << 1;
    QTest::newRow("two layers ahead") << 2;
}

void TestSimulation::zero3PrefetchDepth() {
    QFETCH(int, ahead);
    // zero3HoldsGatheredParametersWhileTheLayerRuns' 4 layers on dp 4, its bandwidth cut to 1 GB/s so that a gather
    // takes longer than a layer. Layer 2's forward gather waits for the gradient stream (layer 1's gather before it)
    // and for:
    //   0: layer 1's end (its MLP, the layer's last task: no TP) — on demand;
    //   1: layer 1 to be under way (its first task, the attention, done);
    //   2: layer 0 to be under way — long since: only the stream holds it.
    const std::string yaml = "schema: 1\nname: zero-3 prefetch\n"
                             "model: {kind: transformer, layers: 4, hidden: 256, heads: 4, seq_len: 128, vocab: 64}\n"
                             "training: {global_batch: 4, micro_batch: 1, dtype: bf16, attention: unfused}\n"
                             "cluster:\n  device: a100-80gb\n"
                             "  topology: [{kind: switch, size: 4, bandwidth: 1 GB/s, latency: 1 us}]\n"
                             "parallelism: {dp: 4, zero: 3, zero3_prefetch_layers: " + std::to_string(ahead) + "}\n"
                             "simulation: {overlap_slowdown: 0, bandwidth_sharing: false}\n";
    PS_SIMULATE(sim, yaml);
    const auto interval = [&](const char* label, TaskKind kind, int layer) {
        const auto found = find_tasks(sim.graph, 0, label, kind, 0, layer);
        return found.size() == 1 ? sim.run.timings[static_cast<std::size_t>(found.front())]
                                 : parasight::TaskTiming{-1.0, -1.0};
    };
    // Each layer is gathered twice, forward then backward: the forward one is the first.
    const auto forward_gather = [&](int layer) {
        const auto found = find_tasks(sim.graph, 0, "zero-3 parameter all-gather", TaskKind::dp_comm, 0, layer);
        return found.size() == 2 ? sim.run.timings[static_cast<std::size_t>(found.front())]
                                 : parasight::TaskTiming{-1.0, -1.0};
    };
    const parasight::TaskTiming gather1 = forward_gather(1);
    QVERIFY(gather1.start_s >= 0.0);
    QVERIFY(gather1.end_s - gather1.start_s > interval("mlp", TaskKind::forward, 1).end_s -
                                                   interval("attention", TaskKind::forward, 1).start_s);
    const parasight::TaskTiming gather2 = forward_gather(2);
    const parasight::TaskTiming layer1_attention = interval("attention", TaskKind::forward, 1);
    const parasight::TaskTiming layer1_mlp = interval("mlp", TaskKind::forward, 1);
    if (ahead == 0) QCOMPARE_EQ(gather2.start_s, layer1_mlp.end_s);
    if (ahead == 1) QCOMPARE_EQ(gather2.start_s, std::max(layer1_attention.end_s, gather1.end_s));
    if (ahead == 2) QCOMPARE_EQ(gather2.start_s, gather1.end_s);
    // Layer 1 waits for its own gather.
    QVERIFY(layer1_attention.start_s >= gather1.end_s);
}

void TestSimulation::zero3GathersEachModule() {
    // zero3PrefetchDepth's scenario with zero3_gather: module (DeepSpeed): each of a layer's six modules (two norms,
    // QKV, output projection, MLP up, MLP down) gathered on its own, forward and backward: 12 gathers a layer. Their
    // bytes add up to the layer's: 2 B × (12·256² + 13·256) = 1 579 520 per pass. Forward, the attention block waits
    // for its three, the MLP block for its own three, which may still be running when the attention starts.
    const std::string yaml = "schema: 1\nname: zero-3 modules\n"
                             "model: {kind: transformer, layers: 4, hidden: 256, heads: 4, seq_len: 128, vocab: 64}\n"
                             "training: {global_batch: 4, micro_batch: 1, dtype: bf16, attention: unfused}\n"
                             "cluster:\n  device: a100-80gb\n"
                             "  topology: [{kind: switch, size: 4, bandwidth: 1 GB/s, latency: 1 us}]\n"
                             "parallelism: {dp: 4, zero: 3, zero3_gather: module}\n"
                             "simulation: {overlap_slowdown: 0, bandwidth_sharing: false}\n";
    PS_SIMULATE(sim, yaml);
    const auto gathers = find_tasks(sim.graph, 0, "zero-3 parameter all-gather", TaskKind::dp_comm, 0, 2);
    QCOMPARE(gathers.size(), std::size_t{12});
    double forward_bytes = 0.0;
    for (std::size_t g = 0; g < 6; ++g) forward_bytes += sim.graph.tasks[static_cast<std::size_t>(gathers[g])].bytes;
    QCOMPARE_EQ(forward_bytes, 1579520.0);
    // Forward order: LayerNorm (2·256·2 = 1 024 B), QKV ((3·256² + 3·256)·2 = 394 752 B), ...
    QCOMPARE_EQ(sim.graph.tasks[static_cast<std::size_t>(gathers[0])].bytes, 1024.0);
    QCOMPARE_EQ(sim.graph.tasks[static_cast<std::size_t>(gathers[1])].bytes, 394752.0);
    const auto timing = [&](TaskId id) { return sim.run.timings[static_cast<std::size_t>(id)]; };
    const auto attention = find_tasks(sim.graph, 0, "attention", TaskKind::forward, 0, 2);
    const auto mlp = find_tasks(sim.graph, 0, "mlp", TaskKind::forward, 0, 2);
    QCOMPARE(attention.size(), std::size_t{1});
    QCOMPARE(mlp.size(), std::size_t{1});
    QVERIFY(timing(attention.front()).start_s >= timing(gathers[2]).end_s);
    QVERIFY(timing(attention.front()).start_s < timing(gathers[5]).end_s);  // the MLP's gathers still running
    QCOMPARE_EQ(timing(mlp.front()).start_s, timing(gathers[5]).end_s);
}

void TestSimulation::eachStageReducesTheGradientsItHolds_data() {
    QTest::addColumn<bool>("tied");
    QTest::addColumn<int>("zero");
    QTest::newRow("tied, zero 0") << true << 0;
    QTest::newRow("untied, zero 0") << false << 0;
    QTest::newRow("tied, zero 1") << true << 1;
}

void TestSimulation::eachStageReducesTheGradientsItHolds() {
    QFETCH(bool, tied);
    QFETCH(int, zero);
    // dp = 2, pp = 2, one micro-batch per replica: each stage reduces every gradient it holds exactly once over dp.
    // What a stage holds is what the compiler gives it weights and an optimizer for (its static memory: 2 B of bf16
    // weight per parameter): 2 layers of 12·256² + 13·256 = 789 760, plus the 1024 × 256 table (262 144) on stage 0
    // and — Megatron's output layer — a table on the last stage too (the tied copy, or the untied output projection),
    // which also holds the final LayerNorm (2·256 = 512). So stage 0 holds 2·789 760 + 262 144 = 1 841 664
    // parameters and stage 1 1 842 176; their bf16 gradients are twice that in bytes.
    const std::string yaml = "schema: 1\nname: gradients\n"
                             "model: {kind: transformer, layers: 4, hidden: 256, heads: 4, seq_len: 128, vocab: 1024, "
                             "tie_embeddings: " + std::string(tied ? "true" : "false") + "}\n"
                             "training: {global_batch: 2, micro_batch: 1, dtype: bf16}\n"
                             "cluster:\n  device: a100-80gb\n"
                             "  topology: [{kind: switch, size: 4, bandwidth: 300 GB/s, latency: 1 us}]\n"
                             "parallelism: {dp: 2, pp: 2, zero: " + std::to_string(zero) + ", mapping: [dp, pp]}\n";
    PS_SIMULATE(sim, yaml);
    const std::string reduction = zero == 0 ? "dp all-reduce" : "dp reduce-scatter";
    for (int stage = 0; stage < 2; ++stage) {
        const double held =
            sim.graph.devices[static_cast<std::size_t>(stage)].static_bytes[static_cast<std::size_t>(MemoryCategory::weights)] / 2.0;
        QCOMPARE_EQ(held, stage == 0 ? 1841664.0 : 1842176.0);
        double reduced_bytes = 0.0;
        for (const Task& task : sim.graph.tasks) {
            if (task.device == stage && sim.graph.labels[static_cast<std::size_t>(task.label)] == reduction) {
                reduced_bytes += task.bytes;
            }
        }
        QVERIFY2(reduced_bytes == 2.0 * held, qPrintable(QStringLiteral("stage %1 reduces %2 B of gradients, holds %3 B")
                                                             .arg(stage)
                                                             .arg(reduced_bytes, 0, 'f', 0)
                                                             .arg(2.0 * held, 0, 'f', 0)));
    }
}

void TestSimulation::maxOngoingMicroBatchesIsNotIgnored_data() {
    QTest::addColumn<QString>("schedule");
    QTest::addColumn<int>("chunks");
    QTest::addColumn<QString>("capped_stages");
    QTest::addColumn<QString>("rejection");  // the loader's message, or empty when the scenario loads
    QTest::addColumn<QString>("warned_stage");  // the stage the in-flight warning names, or empty
    QTest::addColumn<QString>("uncapped_stage");  // the stage whose cap has no effect, or empty
    // Every stage capped at 2: stage s wants min(2, p − s) = 2, 2, 2, 1 and its upstream allows 2 — no in-flight
    // warning. Stage 3's schedule keeps p − 3 = 1 in flight anyway, so its cap of 2 changes nothing: that is warned.
    QTest::newRow("1f1b, every stage capped")
        << QStringLiteral("1f1b") << 1 << QStringLiteral("0123") << QString() << QString()
        << QStringLiteral("stage[3]");
    // Stage 0 capped at 2 (its schedule's own is p − 0 = 4): stage 1 wants p − 1 = 3 but stage 0 lets only 2
    // through, so it warns; stages 2 and 3 want 2 and 1, which fit.
    QTest::newRow("1f1b, stage 0 capped")
        << QStringLiteral("1f1b") << 1 << QStringLiteral("0") << QString() << QStringLiteral("stage[1]") << QString();
    // Only 1F1B's warm-up can be capped; the loader refuses the cap elsewhere, at the strategy-tree entry (line 9,
    // column 17: the `{` after "strategy_tree: [").
    QTest::newRow("gpipe, stage 0 capped")
        << QStringLiteral("gpipe") << 1 << QStringLiteral("0")
        << QStringLiteral("capped.yaml:9:17: max_ongoing_micro_batches caps a 1f1b schedule's warm-up; the gpipe "
                          "schedule cannot honour it")
        << QString() << QString();
    QTest::newRow("interleaved, stage 0 capped")
        << QStringLiteral("interleaved") << 2 << QStringLiteral("0")
        << QStringLiteral("capped.yaml:9:17: max_ongoing_micro_batches caps a 1f1b schedule's warm-up; the "
                          "interleaved schedule cannot honour it")
        << QString() << QString();
}

void TestSimulation::maxOngoingMicroBatchesIsNotIgnored() {
    QFETCH(QString, schedule);
    QFETCH(int, chunks);
    QFETCH(QString, capped_stages);
    QFETCH(QString, rejection);
    QFETCH(QString, warned_stage);
    QFETCH(QString, uncapped_stage);
    // Proteus' schedule configuration caps the micro-batches a stage has in flight (max_ongoing_micro_batch). A
    // strategy-tree cap of 2, p = 4, m = 8: a capped stage 0 may hold at most 2 micro-batches' activations — or, if a
    // schedule cannot honour the cap, the scenario is rejected or the report warns (docs/contracts.md "Reliability
    // rules": no configuration key is silently ignored; every bad input gets a clear message, never a crash or hang).
    std::string tree;
    for (const QChar stage : capped_stages) {
        tree += std::string(tree.empty() ? "" : ", ") + "{node: \"stage[" + stage.toLatin1() +
                "]\", max_ongoing_micro_batches: 2}";
    }
    const std::string yaml = "schema: 1\nname: capped\n"
                             "model: {kind: transformer, layers: 8, hidden: 256, heads: 4, seq_len: 128, vocab: 1000}\n"
                             "training: {global_batch: 8, micro_batch: 1, dtype: bf16, attention: unfused}\n"
                             "cluster:\n  device: a100-80gb\n"
                             "  topology: [{kind: switch, size: 4, bandwidth: 300 GB/s, latency: 1 us}]\n"
                             "parallelism: {pp: 4, schedule: " + schedule.toStdString() +
                             ", virtual_stages: " + std::to_string(chunks) + "}\n"
                             "strategy_tree: [" + tree + "]\n";
    const auto loaded = parasight::load_scenario_text(yaml, "capped.yaml");
    if (!rejection.isEmpty()) {
        QVERIFY(!loaded.ok());
        QCOMPARE(loaded.diagnostics.size(), std::size_t{1});
        QCOMPARE(qs(loaded.diagnostics.front().to_string()), rejection);
        return;
    }
    QVERIFY2(loaded.ok(), qPrintable(qs(loaded.ok() ? std::string() : loaded.diagnostics.front().to_string())));
    const Outcome outcome = simulate_text(yaml);
    // 1F1B with only stage 0 capped: stage 0 runs F0 F1 B0 …, stage 1 still wants F0 F1 F2 before its B0, and F2 comes
    // only after stage 0's B0, which waits for stage 1's B0: a cycle.
    QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
    const SimulatedGraph& sim = *outcome.simulation;
    // Stage 0 holds 8/(4·chunks) layers per chunk; 2 micro-batches in flight hold at most 2·2 = 4 layers' activations
    // (interleaved: 2 micro-batches through each of its 2 one-layer chunks — 4 as well).
    const double A = parasight::layer_activation_bytes(loaded.scenario->value().model, 1.0, parasight::LayerSplit{});
    const double held = sim.run.memory.front().at_peak_bytes[static_cast<std::size_t>(MemoryCategory::activations)];
    const bool honoured = held <= 4.0 * A;
    std::vector<parasight::Warning> capped;
    std::vector<parasight::Warning> without_effect;
    for (const parasight::Warning& warning : sim.report.warnings) {
        if (warning.code == parasight::WarningCode::in_flight_capped) capped.push_back(warning);
        if (warning.code == parasight::WarningCode::in_flight_cap_without_effect) without_effect.push_back(warning);
    }
    QCOMPARE(capped.size() + without_effect.size(), sim.report.warnings.size());
    QVERIFY2(honoured || !capped.empty(), qPrintable(QStringLiteral("stage 0 holds %1 A of activations and no warning")
                                                         .arg(held / A)));
    if (warned_stage.isEmpty()) {
        QVERIFY(capped.empty());
    } else {
        QCOMPARE(capped.size(), std::size_t{1});
        QCOMPARE(qs(capped.front().subject), warned_stage);
        QCOMPARE(capped.front().micro_batches, 2);
    }
    if (uncapped_stage.isEmpty()) {
        QVERIFY(without_effect.empty());
    } else {
        QCOMPARE(without_effect.size(), std::size_t{1});
        QCOMPARE(qs(without_effect.front().subject), uncapped_stage);
        QCOMPARE(without_effect.front().requested_micro_batches, 2);
        QCOMPARE(without_effect.front().micro_batches, 1);
    }
}

void TestSimulation::breakdownSumsToIterationTime_data() { add_scenario_rows(); }

void TestSimulation::breakdownSumsToIterationTime() {
    QFETCH(QString, scenario);
    QFETCH(bool, all_devices);
    PS_SIMULATE(sim, named_scenarios().at(scenario), all_devices);
    const double iteration = sim.report.iteration_time_s;
    QVERIFY(iteration > 0.0);
    for (const auto& device : sim.report.per_device) {
        const auto& b = device.breakdown;
        QVERIFY(b.compute_s >= 0.0 && b.bubble_s >= 0.0 && b.idle_s >= 0.0 && b.exposed_remote_memory_s >= 0.0);
        for (const double part : b.exposed_comm_s) QVERIFY(part >= 0.0);
        PS_COMPARE_RELATIVE(b.total_s(), iteration, 1e-12);
    }
    PS_COMPARE_RELATIVE(sim.report.breakdown.total_s(), iteration, 1e-12);
}

// --- the engine on hand-built graphs --------------------------------------------------------------------------------------

void TestSimulation::engineBandwidthSharingAndOverlap_data() {
    QTest::addColumn<bool>("bandwidth_sharing");
    QTest::addColumn<double>("overlap_slowdown");
    QTest::addColumn<HandTasks>("tasks");
    const auto comm = [](Stream stream, double work_s, std::uint32_t mask, double start_s, double end_s,
                         TaskKind kind = TaskKind::tp_comm) {
        return HandTask{kind, stream, work_s, mask, start_s, end_s};
    };
    const auto compute = [](double work_s, double start_s, double end_s) {
        return HandTask{TaskKind::forward, Stream::compute, work_s, 0, start_s, end_s};
    };
    // Two 1-s transfers on the same link (dimension 0) of one device: half the bandwidth each, both end at 2 s.
    QTest::newRow("one link, shared") << true << 0.0
                                      << HandTasks{comm(Stream::feature_comm, 1, 1, 0, 2),
                                                   comm(Stream::gradient_comm, 1, 1, 0, 2, TaskKind::dp_comm)};
    // Sharing switched off: each as if alone.
    QTest::newRow("one link, sharing off") << false << 0.0
                                           << HandTasks{comm(Stream::feature_comm, 1, 1, 0, 1),
                                                        comm(Stream::gradient_comm, 1, 1, 0, 1, TaskKind::dp_comm)};
    // Different dimensions do not share.
    QTest::newRow("two dimensions") << true << 0.0
                                    << HandTasks{comm(Stream::feature_comm, 1, 1, 0, 1),
                                                 comm(Stream::gradient_comm, 1, 2, 0, 1, TaskKind::dp_comm)};
    // Re-rated at a finish: 0.5 s and 1 s of work share until the short one ends at 1 s (0.5 done each); the long one
    // does its remaining 0.5 s alone, ending at 1.5 s.
    QTest::newRow("re-rated at finish") << true << 0.0
                                        << HandTasks{comm(Stream::feature_comm, 1, 1, 0, 1.5),
                                                     comm(Stream::gradient_comm, 0.5, 1, 0, 1, TaskKind::dp_comm)};
    // A transfer over two dimensions shares each of them: A on dimension 0 (0.5 s of work), B on 0 and 1 (1 s), C on 1
    // (2 s; on the compute stream, the third a device has). Every dimension has two users: 1/2 each until A ends at
    // 1 s, B and C having done 0.5 s. B still shares dimension 1 with C: its last 0.5 s at 1/2 ends at 2 s; C, 1 s
    // done by then, does its last 1 s alone and ends at 3 s. (Three transfers are as many as a device can run at
    // once, too few for max-min fairness to differ from an equal split of each dimension.)
    QTest::newRow("two dimensions, shared") << true << 0.0
                                            << HandTasks{comm(Stream::feature_comm, 0.5, 0b01, 0, 1),
                                                         comm(Stream::gradient_comm, 1, 0b11, 0, 2, TaskKind::dp_comm),
                                                         comm(Stream::compute, 2, 0b10, 0, 3, TaskKind::ep_comm)};
    // Proteus' overlap factor γ = 0.5: overlapped computation and communication each run at 1/1.5; 1 s of each ends
    // at 1.5 s.
    QTest::newRow("overlap, gamma 0.5") << true << 0.5
                                        << HandTasks{compute(1, 0, 1.5), comm(Stream::feature_comm, 1, 1, 0, 1.5)};
    // With 0.5 s of communication: it ends at 0.75 s (rate 2/3); the computation has done 0.5 s by then and finishes
    // the other 0.5 s at full speed, at 1.25 s.
    QTest::newRow("overlap, gamma 0.5, short transfer")
        << true << 0.5 << HandTasks{compute(1, 0, 1.25), comm(Stream::feature_comm, 0.5, 1, 0, 0.75)};
    // Two communications do not slow each other by γ (only bandwidth sharing, off here).
    QTest::newRow("overlap applies to compute vs communication only")
        << false << 0.5
        << HandTasks{comm(Stream::feature_comm, 1, 1, 0, 1), comm(Stream::gradient_comm, 1, 1, 0, 1, TaskKind::dp_comm)};
}

void TestSimulation::engineBandwidthSharingAndOverlap() {
    QFETCH(bool, bandwidth_sharing);
    QFETCH(double, overlap_slowdown);
    QFETCH(HandTasks, tasks);
    ExecutionGraph graph;
    graph.devices.push_back(parasight::SimulatedDevice{0, 0, 1.0, {}});
    for (const HandTask& hand : tasks) {
        Task task;
        task.kind = hand.kind;
        task.stream = hand.stream;
        task.device = 0;
        task.work_s = hand.work_s;
        task.dimension_mask = hand.dimension_mask;
        task.label = graph.label("task");
        graph.add(task);
    }
    graph.finish();
    parasight::EngineOptions options;
    options.bandwidth_sharing = bandwidth_sharing;
    options.overlap_slowdown = overlap_slowdown;
    const auto run = parasight::run_engine(graph, options);
    for (std::size_t t = 0; t < tasks.size(); ++t) {
        // Rates like 1/3 and 1/1.5 are not binary fractions: compare with Qt's fuzzy double comparison (1e-12).
        QCOMPARE(run.timings[t].start_s, tasks[t].expected_start_s);
        QCOMPARE(run.timings[t].end_s, tasks[t].expected_end_s);
    }
}

void TestSimulation::engineCollectiveWaitsForEveryMember() {
    // Two devices reach the two members of one collective (id 0) at 1 s and 2 s; it starts when the second arrives and
    // takes its 0.5 s of work: both members run [2, 2.5]. Device 0's compute stream is not held meanwhile: a 0.5-s
    // computation queued after its first runs [1, 1.5].
    ExecutionGraph graph;
    graph.devices.push_back(parasight::SimulatedDevice{0, 0, 1.0, {}});
    graph.devices.push_back(parasight::SimulatedDevice{1, 0, 1.0, {}});
    graph.collective_count = 1;
    const auto add = [&graph](int device, TaskKind kind, Stream stream, double work_s, std::int32_t collective) {
        Task task;
        task.kind = kind;
        task.stream = stream;
        task.device = device;
        task.work_s = work_s;
        task.collective = collective;
        task.dimension_mask = kind == TaskKind::tp_comm ? 1U : 0U;
        task.label = graph.label("task");
        return graph.add(task);
    };
    const TaskId a = add(0, TaskKind::forward, Stream::compute, 1.0, -1);
    const TaskId a_member = add(0, TaskKind::tp_comm, Stream::feature_comm, 0.5, 0);
    const TaskId a_next = add(0, TaskKind::forward, Stream::compute, 0.5, -1);
    const TaskId b = add(1, TaskKind::forward, Stream::compute, 2.0, -1);
    const TaskId b_member = add(1, TaskKind::tp_comm, Stream::feature_comm, 0.5, 0);
    const TaskId after = add(1, TaskKind::forward, Stream::compute, 1.0, -1);
    graph.depend(a, a_member);
    graph.depend(b, b_member);
    graph.depend(a_member, after);  // device 1 continues once the collective is done everywhere
    graph.finish();
    parasight::EngineOptions options;
    options.overlap_slowdown = 0.0;
    const auto run = parasight::run_engine(graph, options);
    const auto at = [&run](TaskId id) { return run.timings[static_cast<std::size_t>(id)]; };
    QCOMPARE_EQ(at(a).end_s, 1.0);
    QCOMPARE_EQ(at(a_member).start_s, 2.0);
    QCOMPARE_EQ(at(b_member).start_s, 2.0);
    QCOMPARE_EQ(at(a_member).end_s, 2.5);
    QCOMPARE_EQ(at(b_member).end_s, 2.5);
    QCOMPARE_EQ(at(a_next).start_s, 1.0);
    QCOMPARE_EQ(at(a_next).end_s, 1.5);
    QCOMPARE_EQ(at(after).start_s, 2.5);
    QCOMPARE_EQ(at(after).end_s, 3.5);
    QCOMPARE_EQ(run.makespan_s, 3.5);
}

void TestSimulation::engineCollectiveRunsAtItsSlowestMembersRate() {
    // A 1-s collective on dimension 0 of devices 0 and 1, both arriving at 0. Device 1 also sends 1 s on the same
    // dimension from its gradient stream, so there the collective gets half the link: the whole collective runs at
    // 1/2 and ends at 2 s on both devices.
    ExecutionGraph graph;
    graph.devices.push_back(parasight::SimulatedDevice{0, 0, 1.0, {}});
    graph.devices.push_back(parasight::SimulatedDevice{1, 0, 1.0, {}});
    graph.collective_count = 1;
    const auto add = [&graph](int device, Stream stream, double work_s, std::int32_t collective) {
        Task task;
        task.kind = collective >= 0 ? TaskKind::tp_comm : TaskKind::dp_comm;
        task.stream = stream;
        task.device = device;
        task.work_s = work_s;
        task.collective = collective;
        task.dimension_mask = 1;
        task.label = graph.label("task");
        return graph.add(task);
    };
    const TaskId member0 = add(0, Stream::feature_comm, 1.0, 0);
    const TaskId member1 = add(1, Stream::feature_comm, 1.0, 0);
    const TaskId transfer = add(1, Stream::gradient_comm, 1.5, -1);
    graph.finish();
    parasight::EngineOptions options;
    options.overlap_slowdown = 0.0;
    const auto run = parasight::run_engine(graph, options);
    const auto at = [&run](TaskId id) { return run.timings[static_cast<std::size_t>(id)]; };
    // Collective: 1 s of work at 1/2 → [0, 2]. Transfer: 1.5 s of work, 1 s done by 2 s at 1/2, then 0.5 s alone → 2.5 s.
    QCOMPARE_EQ(at(member0).end_s, 2.0);
    QCOMPARE_EQ(at(member1).end_s, 2.0);
    QCOMPARE_EQ(at(transfer).end_s, 2.5);
}

// --- trace ----------------------------------------------------------------------------------------------------------------

void TestSimulation::chromeTraceIsValid_data() {
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<bool>("all_devices");
    QTest::addColumn<bool>("memory_timeline");
    QTest::newRow("hybrid, representative, memory") << QStringLiteral("hybrid") << false << true;
    QTest::newRow("hybrid, every device, memory") << QStringLiteral("hybrid") << true << true;
    QTest::newRow("hybrid interleaved, every device, no memory") << QStringLiteral("hybrid interleaved") << true << false;
    QTest::newRow("gpipe two-stage, memory") << QStringLiteral("gpipe two-stage") << false << true;
}

void TestSimulation::chromeTraceIsValid() {
    QFETCH(QString, scenario);
    QFETCH(bool, all_devices);
    QFETCH(bool, memory_timeline);
    PS_SIMULATE(sim, named_scenarios().at(scenario), all_devices, memory_timeline);
    // The trace is written from the Timeline of the same simulation.
    parasight::SimulateOptions options;
    options.all_devices = all_devices;
    options.record_memory_timeline = memory_timeline;
    options.timeline = parasight::TimelineDetail::events;
    const auto traced = parasight::simulate(sim_scenario, options);
    QVERIFY(traced.has_value() && traced->timeline != nullptr);
    std::ostringstream out;
    parasight::write_chrome_trace(out, *traced->timeline);
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(QByteArray::fromStdString(out.str()), &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    QVERIFY(document.isObject());
    QVERIFY(document.object().value(QStringLiteral("traceEvents")).isArray());
    const QJsonArray events = document.object().value(QStringLiteral("traceEvents")).toArray();

    std::map<std::pair<qint64, qint64>, std::vector<std::pair<double, double>>> slices;  // (pid, tid) → (ts, dur)
    std::set<qint64> named_processes;
    std::set<std::pair<qint64, qint64>> named_threads;
    std::set<qint64> counter_pids;
    int complete = 0;
    int counters = 0;
    for (const QJsonValue& value : events) {
        const QJsonObject event = value.toObject();
        const QString ph = event.value(QStringLiteral("ph")).toString();
        const qint64 pid = event.value(QStringLiteral("pid")).toInteger(-1);
        QVERIFY2(pid >= 0, qPrintable(QJsonDocument(event).toJson()));
        if (ph == QStringLiteral("X")) {
            ++complete;
            const double ts = event.value(QStringLiteral("ts")).toDouble(-1.0);
            const double dur = event.value(QStringLiteral("dur")).toDouble(-1.0);
            QVERIFY2(ts >= 0.0 && dur >= 0.0, qPrintable(QJsonDocument(event).toJson()));
            QVERIFY(!event.value(QStringLiteral("name")).toString().isEmpty());
            slices[{pid, event.value(QStringLiteral("tid")).toInteger(-1)}].emplace_back(ts, dur);
        } else if (ph == QStringLiteral("M")) {
            const QString name = event.value(QStringLiteral("name")).toString();
            QVERIFY(!event.value(QStringLiteral("args")).toObject().value(QStringLiteral("name")).toString().isEmpty());
            if (name == QStringLiteral("process_name")) named_processes.insert(pid);
            if (name == QStringLiteral("thread_name")) named_threads.insert({pid, event.value(QStringLiteral("tid")).toInteger(-1)});
        } else if (ph == QStringLiteral("C")) {
            ++counters;
            counter_pids.insert(pid);
            QVERIFY(event.value(QStringLiteral("args")).toObject().value(QStringLiteral("GiB")).toDouble(-1.0) >= 0.0);
        } else {
            QFAIL(qPrintable(QStringLiteral("unexpected event phase '%1'").arg(ph)));
        }
    }
    // One complete event per task.
    QCOMPARE(complete, static_cast<int>(sim.graph.tasks.size()));
    // No two slices on one thread overlap (Perfetto would drop one). Times are µs written in shortest round-trip form,
    // so ts + dur of one slice may exceed the next ts by rounding: allow 1e-12 relative.
    for (auto& [thread, list] : slices) {
        QVERIFY2(named_processes.count(thread.first) == 1, qPrintable(QStringLiteral("pid %1 has no process_name").arg(thread.first)));
        QVERIFY2(named_threads.count(thread) == 1,
                 qPrintable(QStringLiteral("pid %1 tid %2 has no thread_name").arg(thread.first).arg(thread.second)));
        std::sort(list.begin(), list.end());
        for (std::size_t i = 1; i < list.size(); ++i) {
            const double previous_end = list[i - 1].first + list[i - 1].second;
            QVERIFY2(list[i].first >= previous_end - 1e-12 * previous_end,
                     qPrintable(QStringLiteral("pid %1 tid %2: a slice at %3 us starts before the previous ends at %4 us")
                                    .arg(thread.first)
                                    .arg(thread.second)
                                    .arg(list[i].first, 0, 'g', 17)
                                    .arg(previous_end, 0, 'g', 17)));
        }
    }
    // Counters: the memory track of every device when recorded, none otherwise.
    if (memory_timeline) {
        QVERIFY(counters > 0);
        QCOMPARE(counter_pids.size(), sim.graph.devices.size());
        for (const qint64 pid : counter_pids) QVERIFY(named_processes.count(pid) == 1);
    } else {
        QCOMPARE(counters, 0);
    }
}

// --- limits --------------------------------------------------------------------------------------------------------

void TestSimulation::graphSizeLimit() {
    const parasight::LoadResult loaded = parasight::load_scenario_text(hybrid_yaml, "hybrid.yaml");
    QVERIFY(loaded.ok());
    const parasight::ValidatedScenario& validated = *loaded.scenario;
    // The hybrid scenario: 4 layers, 16 / (dp 2 × micro-batch 2) = 4 micro-batches, tp 2. Each simulated device runs
    // at least 8 tasks per layer and micro-batch (attention and MLP forward and backward, and a TP collective next to
    // each): 8 · 4 · 4 = 128 in all over the pipeline, one device per stage; every device: 4 per stage, 512.
    const auto below = parasight::compile_scenario(validated, parasight::CompileOptions{false, 127});
    QVERIFY(!below);
    QCOMPARE(below.error().kind, parasight::SimulationErrorKind::too_large);
    QCOMPARE(below.error().graph_tasks, 128.0);
    QVERIFY(below.error().graph_tasks_at_least);
    QCOMPARE(below.error().task_limit, std::int64_t{127});
    QCOMPARE(QString::fromStdString(below.error().message),
             QStringLiteral("the execution graph would hold at least 128 tasks (4 micro-batches per pipeline); the "
                            "limit is 127. Simulate fewer micro-batches (a larger training.micro_batch or a smaller "
                            "global_batch)"));
    const auto every_device = parasight::compile_scenario(validated, parasight::CompileOptions{true, 511});
    QVERIFY(!every_device);
    QCOMPARE(every_device.error().graph_tasks, 512.0);
    // The core names no command-line option; the CLI adds its own hint.
    QCOMPARE(QString::fromStdString(every_device.error().message),
             QStringLiteral("the execution graph would hold at least 512 tasks (4 micro-batches per pipeline, every "
                            "device simulated); the limit is 511. Simulate fewer micro-batches (a larger "
                            "training.micro_batch or a smaller global_batch) or one device per symmetry class"));
    // At the estimate the compiler starts, and stops once the real graph (embedding, logits, pipeline sends, the
    // optimizer, …) passes the limit.
    const auto stopped = parasight::compile_scenario(validated, parasight::CompileOptions{false, 128});
    QVERIFY(!stopped);
    QCOMPARE(stopped.error().kind, parasight::SimulationErrorKind::too_large);
    QVERIFY(!stopped.error().graph_tasks_at_least);
    QVERIFY(stopped.error().graph_tasks > 128.0);
    QVERIFY2(QString::fromStdString(stopped.error().message)
                 .startsWith(QStringLiteral("the execution graph would hold more than ")),
             stopped.error().message.c_str());
    const auto compiled = parasight::compile_scenario(validated, parasight::CompileOptions{});
    QVERIFY(compiled.has_value());
    QVERIFY(compiled->tasks.size() > 128);
    // Every device: each of a stage's devices runs as many tasks as the stage's representative, so the compiler counts
    // the whole graph from one device per stage and refuses it before building it. The hybrid scenario has 8 devices
    // and pp 2 (4 per stage): the every-device graph holds 4 times the representative graph's tasks.
    const auto every_device_graph = parasight::compile_scenario(validated, parasight::CompileOptions{true});
    QVERIFY(every_device_graph.has_value());
    const std::size_t every_device_tasks = every_device_graph->tasks.size();
    QCOMPARE(every_device_tasks, 4 * compiled->tasks.size());
    // The same holds for every schedule, ZeRO stage, recompute policy and model kind the tests simulate.
    for (const auto& [name, yaml] : named_scenarios()) {
        const parasight::LoadResult other = parasight::load_scenario_text(yaml, name.toStdString());
        QVERIFY(other.ok());
        const auto representatives = parasight::compile_scenario(*other.scenario, parasight::CompileOptions{});
        const auto every = parasight::compile_scenario(*other.scenario, parasight::CompileOptions{true});
        QVERIFY(representatives.has_value() && every.has_value());
        const parasight::Scenario& value = other.scenario->value();
        const std::size_t devices_per_stage = value.device_count() / static_cast<std::size_t>(value.parallelism.pp);
        QVERIFY2(every->tasks.size() == representatives->tasks.size() * devices_per_stage, qPrintable(name));
    }
    const auto counted = parasight::compile_scenario(
        validated, parasight::CompileOptions{true, static_cast<std::int64_t>(every_device_tasks) - 1});
    QVERIFY(!counted);
    QCOMPARE(counted.error().graph_tasks, static_cast<double>(every_device_tasks));
    QVERIFY(!counted.error().graph_tasks_at_least);
    QCOMPARE(QString::fromStdString(counted.error().message),
             QStringLiteral("the execution graph would hold %1 tasks (4 micro-batches per pipeline, every device "
                            "simulated); the limit is %2. Simulate fewer micro-batches (a larger training.micro_batch "
                            "or a smaller global_batch) or one device per symmetry class")
                 .arg(every_device_tasks)
                 .arg(every_device_tasks - 1));
    QVERIFY(parasight::compile_scenario(
                validated, parasight::CompileOptions{true, static_cast<std::int64_t>(every_device_tasks)})
                .has_value());
}

void TestSimulation::hostBoundLayersWarn_data() {
    QTest::addColumn<QString>("training");
    QTest::addColumn<bool>("warned");
    QTest::addColumn<QString>("subject");
    QTest::addColumn<double>("launchedPassS");
    // GPT-2 small on the h200-measured preset, one sequence a micro-batch, eager kernels: a layer launches 16 kernels
    // forward and 27 backward (test_model_costs kernelLaunchFloor counts them by hand) at 40.53 us each, 1.743 ms,
    // more than the GPU needs for either pass, so every one of the 12 layers is host-bound.
    QTest::newRow("eager") << QStringLiteral("eager_kernels: true") << true
                           << QStringLiteral("cluster.device.kernel_launch") << 43 * 40.53e-6;
    // Replayed from CUDA graphs at 849.7 ns a kernel, 36.5 us: the GPU's time bounds the passes, and nothing is said.
    QTest::newRow("CUDA graphs") << QStringLiteral("eager_kernels: true, cuda_graphs: true") << false << QString()
                                 << 0.0;
}

void TestSimulation::hostBoundLayersWarn() {
    QFETCH(QString, training);
    QFETCH(bool, warned);
    QFETCH(QString, subject);
    QFETCH(double, launchedPassS);
    PS_SIMULATE(sim, "schema: 1\nmodel: gpt2-small\n"
                     "training: {global_batch: 8, micro_batch: 1, " + training.toStdString() + "}\n"
                     "cluster:\n  device: h200-measured\n"
                     "  topology: [{kind: switch, size: 8, bandwidth: 450 GB/s, latency: 1 us}]\n"
                     "parallelism: {dp: 8}\n");
    const parasight::Warning* found = nullptr;
    for (const parasight::Warning& warning : sim.report.warnings) {
        if (warning.code == parasight::WarningCode::host_bound_layers) found = &warning;
    }
    QCOMPARE(found != nullptr, warned);
    if (!warned) return;
    QCOMPARE(QString::fromStdString(found->subject), subject);
    QCOMPARE(found->layers, 12);
    PS_COMPARE_RELATIVE(found->time_s, launchedPassS, 1e-12);
    QVERIFY(found->gpu_time_s > 0.0 && found->gpu_time_s < found->time_s / 2.0);
}

QTEST_GUILESS_MAIN(TestSimulation)
#include "test_simulation.moc"
