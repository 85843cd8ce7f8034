// The closed-form memory bound (compile/memory_lower_bound.h) worked out by hand on tests/data/cli/small_pipeline.yaml
// — a GPT-style layer of hidden h = 256 holds 12h² + 13h = 789 760 parameters (QKV, output projection and the MLP
// with their biases, two LayerNorms), split tp ways; the vocabulary table V·h/tp sits on the first stage and the
// output table and the final LayerNorm (2h) on the last — and checked against what the simulation allocates.

#include "compile/memory_lower_bound.h"
#include "scenario_file/scenario_loader.h"
#include "simulation/simulate.h"

#include <QtTest>

using namespace parasight;

namespace {

std::optional<ValidatedScenario> small_pipeline(int tp, int zero) {
    LoadResult loaded = load_scenario_file(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml");
    if (!loaded.ok()) return std::nullopt;
    Scenario scenario = loaded.scenario->value();
    scenario.parallelism.tp = tp;
    scenario.parallelism.dp = 8 / (2 * tp);
    scenario.parallelism.zero = zero;
    Validation validated = validate(std::move(scenario));
    return validated.scenario;
}

}  // namespace

class TestMemoryLowerBound : public QObject {
    Q_OBJECT
private slots:
    void modelStatesWorkedOutByHand_data();
    void modelStatesWorkedOutByHand();
};

void TestMemoryLowerBound::modelStatesWorkedOutByHand_data() {
    QTest::addColumn<int>("tp");
    QTest::addColumn<int>("zero");
    QTest::addColumn<double>("needed_bytes");
    // Stage 1 (the last) holds the most: 2 layers · 789 760 / tp + 1024 · 256 / tp + 512.
    // tp 2: 789 760 + 131 072 + 512 = 921 344 parameters; mixed-precision Adam keeps 16 bytes each (ZeRO §3.1).
    QTest::newRow("tp 2") << 2 << 0 << 921344.0 * 16;
    // tp 1: 1 579 520 + 262 144 + 512 = 1 842 176 parameters.
    QTest::newRow("tp 1") << 1 << 0 << 1842176.0 * 16;
    // tp 4 (dp 1): 394 880 + 65 536 + 512 = 460 928 parameters.
    QTest::newRow("tp 4") << 4 << 0 << 460928.0 * 16;
    // ZeRO-1 over dp 2 shards the 12 optimizer bytes: 2 + 2 + 12/2 = 10 bytes a parameter; ZeRO-3 all 16: 8.
    QTest::newRow("tp 2, ZeRO-1") << 2 << 1 << 921344.0 * 10;
    QTest::newRow("tp 2, ZeRO-3") << 2 << 3 << 921344.0 * 8;
}

void TestMemoryLowerBound::modelStatesWorkedOutByHand() {
    QFETCH(int, tp);
    QFETCH(int, zero);
    QFETCH(double, needed_bytes);
    const std::optional<ValidatedScenario> scenario = small_pipeline(tp, zero);
    QVERIFY(scenario);
    const MemoryLowerBound bound = memory_lower_bound(*scenario);
    QCOMPARE(bound.needed_bytes, needed_bytes);
    QCOMPARE(bound.stage, 1);
    QCOMPARE(bound.capacity_bytes, 80.0 * 1024 * 1024 * 1024);
    QVERIFY(!bound.exceeds_capacity());

    // The simulation allocates exactly these model states on the last stage's device, and its peak is above them.
    SimulateOptions options;
    options.all_devices = true;
    const Expected<Simulation, SimulationError> simulated = simulate(*scenario, options);
    QVERIFY(simulated);
    double most_states = 0.0;
    for (const DeviceReport& device : simulated.value().report.per_device) {
        const auto& at_peak = device.memory_at_peak_bytes;
        const double states = at_peak[static_cast<std::size_t>(MemoryCategory::weights)] +
                              at_peak[static_cast<std::size_t>(MemoryCategory::gradients)] +
                              at_peak[static_cast<std::size_t>(MemoryCategory::optimizer)];
        most_states = std::max(most_states, states);
        QVERIFY(device.peak_memory_bytes >= states);
    }
    QCOMPARE(most_states, needed_bytes);
    QVERIFY(simulated.value().report.peak_memory_bytes >= bound.needed_bytes);
}

QTEST_GUILESS_MAIN(TestMemoryLowerBound)
#include "test_memory_lower_bound.moc"
