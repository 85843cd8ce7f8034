// The closed-form memory bound (compile/memory_lower_bound.h) worked out by hand on tests/data/cli/small_pipeline.yaml
// (h = 256, 8 heads, 256 tokens, 4 layers on pp 2, global batch 16 in micro-batches of 2, mixed-precision Adam), and
// checked against what the simulation allocates.
//   Parameters: a GPT-style layer holds 12h² + 13h = 789 760 (QKV, output projection and the MLP with their biases,
//   two LayerNorms), split tp ways; the vocabulary table V·h/tp (V = 1024) sits on the first stage. Stage 0:
//   2 · 789 760 / tp + 262 144 / tp. Mixed-precision Adam keeps 16 bytes a parameter (ZeRO §3.1), ZeRO-1 over dp
//   2 + 2 + 12/dp, ZeRO-3 16/dp.
//   Activations (Korthikanti 2022 Table 2, 16-bit): s·b·h·(10 + 24/t + 5·a·s/(h·t)) bytes a layer and micro-batch
//   with t > 1, s·b·h·(34 + 5·a·s/h) with t = 1; s·b·h = 256 · 2 · 256 = 131 072 and 5·a·s/h = 40.
//   1F1B's warm-up keeps pp − stage = 2 micro-batches in flight on stage 0 (each pipeline runs 16 / (dp · 2) ≥ 2).
//   The runtime: the a100-80gb preset's CUDA context, 1573 MiB = 1 649 410 048 B, on every device from the start.

#include "compile/memory_lower_bound.h"
#include "scenario_file/scenario_loader.h"
#include "simulation/simulate.h"
#include "sweep/strategy_space.h"

#include <QtTest>

using namespace parasight;

namespace {

std::optional<ValidatedScenario> small_pipeline(int tp, int zero, Schedule schedule = Schedule::one_f_one_b) {
    LoadResult loaded = load_scenario_file(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml");
    if (!loaded.ok()) return std::nullopt;
    Scenario scenario = loaded.scenario->value();
    scenario.parallelism.tp = tp;
    scenario.parallelism.dp = 8 / (2 * tp);
    scenario.parallelism.zero = zero;
    scenario.parallelism.schedule = schedule;
    Validation validated = validate(std::move(scenario));
    return validated.scenario;
}

}  // namespace

class TestMemoryLowerBound : public QObject {
    Q_OBJECT
private slots:
    void workedOutByHand_data();
    void workedOutByHand();
    void neverAboveTheSimulatedPeak_data();
    void neverAboveTheSimulatedPeak();
};

void TestMemoryLowerBound::workedOutByHand_data() {
    QTest::addColumn<int>("tp");
    QTest::addColumn<int>("zero");
    QTest::addColumn<int>("schedule");
    QTest::addColumn<double>("states_bytes");
    QTest::addColumn<double>("activation_bytes");
    QTest::addColumn<int>("in_flight");
    QTest::addColumn<int>("stage");
    const int one_f_one_b = static_cast<int>(Schedule::one_f_one_b);
    // tp 2: (789 760 + 131 072) · 16; a layer 131 072 · (10 + 12 + 20) = 5 505 024, 2 layers × 2 micro-batches.
    QTest::newRow("tp 2") << 2 << 0 << one_f_one_b << 920832.0 * 16 << 4 * 5505024.0 << 2 << 0;
    // tp 1 (dp 4): (1 579 520 + 262 144) · 16; a layer 131 072 · (34 + 40) = 9 699 328.
    QTest::newRow("tp 1") << 1 << 0 << one_f_one_b << 1841664.0 * 16 << 4 * 9699328.0 << 2 << 0;
    // tp 4 (dp 1): (394 880 + 65 536) · 16; a layer 131 072 · (10 + 6 + 10) = 3 407 872.
    QTest::newRow("tp 4") << 4 << 0 << one_f_one_b << 460416.0 * 16 << 4 * 3407872.0 << 2 << 0;
    QTest::newRow("tp 2, ZeRO-1") << 2 << 1 << one_f_one_b << 920832.0 * 10 << 4 * 5505024.0 << 2 << 0;
    QTest::newRow("tp 2, ZeRO-3") << 2 << 3 << one_f_one_b << 920832.0 * 8 << 4 * 5505024.0 << 2 << 0;
    // GPipe runs every forward first: all 4 micro-batches of the pipeline (16 / (2 · 2)) in flight on both stages,
    // so the last one, which also holds the output table and the final LayerNorm (789 760 + 131 072 + 512), needs
    // the most.
    QTest::newRow("tp 2, GPipe") << 2 << 0 << static_cast<int>(Schedule::gpipe) << 921344.0 * 16
                                 << 8 * 5505024.0 << 4 << 1;
}

void TestMemoryLowerBound::workedOutByHand() {
    QFETCH(int, tp);
    QFETCH(int, zero);
    QFETCH(int, schedule);
    QFETCH(double, states_bytes);
    QFETCH(double, activation_bytes);
    QFETCH(int, in_flight);
    QFETCH(int, stage);
    const std::optional<ValidatedScenario> scenario = small_pipeline(tp, zero, static_cast<Schedule>(schedule));
    QVERIFY(scenario);
    const MemoryLowerBound bound = memory_lower_bound(*scenario);
    QCOMPARE(bound.stage, stage);
    QCOMPARE(bound.model_state_bytes, states_bytes);
    QCOMPARE(bound.activation_bytes, activation_bytes);
    QCOMPARE(bound.micro_batches_in_flight, in_flight);
    const double context_bytes = 1573.0 * 1024 * 1024;
    QCOMPARE(bound.runtime_bytes, context_bytes);
    QCOMPARE(bound.needed_bytes, context_bytes + states_bytes + activation_bytes);
    QCOMPARE(bound.capacity_bytes, 80.0 * 1024 * 1024 * 1024);
    QVERIFY(!bound.exceeds_capacity());

    // The simulation allocates these model states on the stage's devices and their peak is never below the bound.
    SimulateOptions options;
    options.all_devices = true;
    const Expected<Simulation, SimulationError> simulated = simulate(*scenario, options);
    QVERIFY(simulated);
    for (const DeviceReport& device : simulated.value().report.per_device) {
        if (device.stage != stage) continue;
        const auto& at_peak = device.memory_at_peak_bytes;
        QCOMPARE(at_peak[static_cast<std::size_t>(MemoryCategory::weights)] +
                     at_peak[static_cast<std::size_t>(MemoryCategory::gradients)] +
                     at_peak[static_cast<std::size_t>(MemoryCategory::optimizer)],
                 states_bytes);
        QCOMPARE(at_peak[static_cast<std::size_t>(MemoryCategory::runtime)], context_bytes);
        QVERIFY(device.peak_memory_bytes >= bound.needed_bytes);
    }
}

void TestMemoryLowerBound::neverAboveTheSimulatedPeak_data() {
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QString>("changes");  // YAML merged over the scenario's parallelism section
    // Every strategy of the small pipeline (828, test_strategy_space counts them): schedules, interleaving,
    // micro-batches, ZeRO stages, recompute, sequence parallelism.
    QTest::newRow("small pipeline, strategies: all") << "cli/small_pipeline.yaml" << "";
    // A mixture of experts (8 experts, top-2) with expert parallelism.
    QTest::newRow("mixture of experts") << "cli/small_pipeline.yaml" << "moe";
}

void TestMemoryLowerBound::neverAboveTheSimulatedPeak() {
    QFETCH(QString, scenario);
    QFETCH(QString, changes);
    const ReadResult read =
        read_scenario_file(std::string(PARASIGHT_TEST_DATA_DIR "/") + scenario.toStdString());
    QVERIFY(read.scenario);
    Scenario base = *read.scenario;
    if (changes == "moe") {
        base.model.experts = 8;
        base.model.experts_per_token = 2;
    }
    const std::vector<SweepAxis> axes = strategy_axes(base, StrategySpace::all);
    QVERIFY(!axes.empty());
    const std::size_t strategies = axes.front().values.size();
    int simulated_count = 0;
    for (std::size_t k = 0; k < strategies; ++k) {
        Scenario point = base;
        ParallelismSpec& parallelism = point.parallelism;
        for (const SweepAxis& axis : axes) {
            const std::string& value = axis.values[k];
            if (axis.path == "parallelism.tp") parallelism.tp = std::stoi(value);
            if (axis.path == "parallelism.pp") parallelism.pp = std::stoi(value);
            if (axis.path == "parallelism.dp") parallelism.dp = std::stoi(value);
            if (axis.path == "parallelism.ep") parallelism.ep = std::stoi(value);
            if (axis.path == "parallelism.virtual_stages") parallelism.virtual_stages = std::stoi(value);
            if (axis.path == "parallelism.zero") parallelism.zero = std::stoi(value);
            if (axis.path == "training.micro_batch") point.training.micro_batch = std::stoi(value);
            if (axis.path == "parallelism.sequence_parallel") parallelism.sequence_parallel = value == "true";
            if (axis.path == "parallelism.schedule") {
                parallelism.schedule = *value_of(value, schedule_names);
            }
            if (axis.path == "parallelism.recompute") parallelism.recompute = *value_of(value, recompute_names);
        }
        parallelism.derived_axis.reset();
        const Validation validated = validate(point);
        if (!validated.ok()) continue;  // the loader's to refuse; test_strategy_space counts the space
        const MemoryLowerBound bound = memory_lower_bound(*validated.scenario);
        const auto simulated = simulate(*validated.scenario, SimulateOptions{});
        QVERIFY(simulated);
        ++simulated_count;
        QVERIFY2(simulated.value().report.peak_memory_bytes >= bound.needed_bytes,
                 qPrintable(QString("strategy %1: bound %2 B above the simulated peak %3 B")
                                .arg(k)
                                .arg(bound.needed_bytes)
                                .arg(simulated.value().report.peak_memory_bytes)));
    }
    QVERIFY(simulated_count > 100);
}

QTEST_GUILESS_MAIN(TestMemoryLowerBound)
#include "test_memory_lower_bound.moc"
