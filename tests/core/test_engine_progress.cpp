// Progress and cancellation through the engine's ProgressSink: fractions climb to 1, and a cancel request stops a
// simulation instead of finishing it.

#include "engine/progress.h"
#include "scenario/scenario_loader.h"
#include "simulation/simulate.h"

#include <QtTest>

using namespace parasight;

namespace {

class RecordingSink : public ProgressSink {
public:
    explicit RecordingSink(int cancel_after = -1) : cancel_after_(cancel_after) {}
    void progress(double fraction) override { fractions.push_back(fraction); }
    [[nodiscard]] bool cancelled() const override {
        return cancel_after_ >= 0 && static_cast<int>(fractions.size()) > cancel_after_;
    }
    std::vector<double> fractions;

private:
    int cancel_after_;
};

Scenario default_scenario() {
    const LoadResult loaded = load_scenario_file(PARASIGHT_SOURCE_DIR "/presets/scenarios/default.yaml");
    return *loaded.scenario;
}

}  // namespace

class TestEngineProgress : public QObject {
    Q_OBJECT
private slots:
    void progressClimbsToOne();
    void cancelStopsTheSimulation();
};

void TestEngineProgress::progressClimbsToOne() {
    RecordingSink sink;
    SimulateOptions options;
    options.progress = &sink;
    const auto simulation = simulate(default_scenario(), options);
    QVERIFY(simulation.has_value());
    // The default scenario has ~250 000 tasks; the engine reports every 1024 finished activities, then 1 at the end.
    QVERIFY(sink.fractions.size() > 10);
    for (std::size_t i = 1; i < sink.fractions.size(); ++i) QVERIFY(sink.fractions[i] >= sink.fractions[i - 1]);
    QCOMPARE(sink.fractions.back(), 1.0);
    QVERIFY(sink.fractions.front() > 0.0 && sink.fractions.front() < 0.1);
}

void TestEngineProgress::cancelStopsTheSimulation() {
    RecordingSink sink(2);  // cancel once three progress reports have arrived
    SimulateOptions options;
    options.progress = &sink;
    const auto simulation = simulate(default_scenario(), options);
    QVERIFY(!simulation.has_value());
    QCOMPARE(QString::fromStdString(simulation.error()), QStringLiteral("the simulation was cancelled"));
    QCOMPARE(sink.fractions.size(), std::size_t{3});  // no report after the request
    QVERIFY(sink.fractions.back() < 0.1);
}

QTEST_APPLESS_MAIN(TestEngineProgress)
#include "test_engine_progress.moc"
