// Progress and cancellation through the ProgressSink in every phase of simulate(): compiling, the engine and the
// analysis each report fractions that climb to 1, in that order, and a cancel request in any phase stops the run
// there with a typed error and no report after it.

#include "common/progress.h"
#include "scenario_file/scenario_loader.h"
#include "simulation/simulate.h"
#include "validation/validate.h"

#include <QtTest>

#include <optional>
#include <utility>

using namespace parasight;

Q_DECLARE_METATYPE(parasight::SimulationPhase)

namespace {

struct ProgressReport {
    SimulationPhase phase;
    double fraction;
};

// Records every report; asks to stop once `cancel_after` reports of `cancel_phase` have arrived.
class RecordingSink : public ProgressSink {
public:
    RecordingSink() = default;
    RecordingSink(SimulationPhase cancel_phase, int cancel_after) : cancel_{std::in_place, cancel_phase, cancel_after} {}

    void progress(SimulationPhase phase, double fraction) override {
        reports.push_back(ProgressReport{phase, fraction});
        if (cancel_ && phase == cancel_->first) ++seen_in_phase_;
    }
    [[nodiscard]] bool cancelled() const override { return cancel_ && seen_in_phase_ >= cancel_->second; }

    std::vector<ProgressReport> reports;

private:
    std::optional<std::pair<SimulationPhase, int>> cancel_;
    int seen_in_phase_ = 0;
};

// The default scenario (GPT-3 175B on 1024 GPUs, 192 micro-batches), with its steady state used or not.
const ValidatedScenario& default_scenario(bool steady_state) {
    static const LoadResult loaded = load_scenario_file(PARASIGHT_SOURCE_DIR "/presets/scenarios/default.yaml");
    static const ValidatedScenario whole = [] {
        Scenario scenario = loaded.scenario->value();
        scenario.simulation.steady_state = false;
        return *validate(scenario).scenario;
    }();
    return steady_state ? *loaded.scenario : whole;
}

}  // namespace

class TestSimulationProgress : public QObject {
    Q_OBJECT
private slots:
    void everyPhaseClimbsToOne_data();
    void everyPhaseClimbsToOne();
    void cancelStopsInEveryPhase_data();
    void cancelStopsInEveryPhase();
};

void TestSimulationProgress::everyPhaseClimbsToOne_data() {
    QTest::addColumn<bool>("steady_state");
    // With its steady state, only a short run is compiled, inside the engine phase: the compile phase is the check of
    // the whole graph's size, reported as it starts and as it ends.
    QTest::newRow("steady state") << true;
    QTest::newRow("every micro-batch") << false;
}

void TestSimulationProgress::everyPhaseClimbsToOne() {
    QFETCH(bool, steady_state);
    RecordingSink sink;
    SimulateOptions options;
    options.progress = &sink;
    const auto simulation = simulate(default_scenario(steady_state), options);
    QVERIFY(simulation.has_value());
    QVERIFY(!sink.reports.empty());
    // The very first report comes before any work, so a front end shows activity at once.
    QCOMPARE(sink.reports.front().phase, SimulationPhase::compile);
    QCOMPARE(sink.reports.front().fraction, 0.0);
    std::array<int, 3> count{};
    for (std::size_t i = 0; i < sink.reports.size(); ++i) {
        const ProgressReport& report = sink.reports[i];
        QVERIFY(report.fraction >= 0.0 && report.fraction <= 1.0);
        ++count[static_cast<std::size_t>(report.phase)];
        if (i == 0) continue;
        const ProgressReport& before = sink.reports[i - 1];
        // Phases come in order; inside a phase the fraction never goes back.
        QVERIFY(before.phase <= report.phase);
        if (before.phase == report.phase) QVERIFY(report.fraction >= before.fraction);
        // A phase ends at 1 before the next begins.
        if (before.phase != report.phase) QCOMPARE(before.fraction, 1.0);
    }
    QCOMPARE(sink.reports.back().phase, SimulationPhase::analysis);
    QCOMPARE(sink.reports.back().fraction, 1.0);
    // The default scenario (GPT-3 on 1024 GPUs, one device per stage): every micro-batch run, 16 stages of 2 × 96
    // micro-batch steps are compiled with a report each; the engine reports every 1024 finished activities (with the
    // steady state, those of its short run of 19 micro-batches, after the reports of compiling it); the analysis at its
    // start, once per simulated device and at its end, then the Timeline's indexing at least at the end of each of its
    // two parts.
    if (steady_state) {
        QCOMPARE(count[0], 2);
        QVERIFY(count[1] > 30);
    } else {
        QVERIFY(count[0] > 16 * 192);
        QVERIFY(count[1] > 100);
    }
    QVERIFY(count[2] >= 16 + 2 + 2);
}

void TestSimulationProgress::cancelStopsInEveryPhase_data() {
    QTest::addColumn<SimulationPhase>("phase");
    QTest::addColumn<int>("after");  // reports of that phase before the request
    QTest::addColumn<bool>("steady_state");
    QTest::newRow("compile, before any work") << SimulationPhase::compile << 1 << false;
    QTest::newRow("compile, midway") << SimulationPhase::compile << 1000 << false;
    QTest::newRow("engine, preparing") << SimulationPhase::engine << 1 << false;
    QTest::newRow("engine, running") << SimulationPhase::engine << 50 << false;
    QTest::newRow("analysis, at its start") << SimulationPhase::analysis << 1 << false;
    QTest::newRow("analysis, midway") << SimulationPhase::analysis << 8 << false;
    QTest::newRow("analysis, at its end") << SimulationPhase::analysis << 18 << false;
    QTest::newRow("steady state: the size check's start") << SimulationPhase::compile << 1 << true;
    QTest::newRow("steady state: the size check's end") << SimulationPhase::compile << 2 << true;
    QTest::newRow("steady state: the short run's compile") << SimulationPhase::engine << 3 << true;
    QTest::newRow("steady state: the short run") << SimulationPhase::engine << 30 << true;
    QTest::newRow("steady state: the analysis") << SimulationPhase::analysis << 8 << true;
    QTest::newRow("steady state: the timeline") << SimulationPhase::analysis << 18 << true;
}

void TestSimulationProgress::cancelStopsInEveryPhase() {
    QFETCH(SimulationPhase, phase);
    QFETCH(int, after);
    QFETCH(bool, steady_state);
    RecordingSink sink(phase, after);
    SimulateOptions options;
    options.progress = &sink;
    const auto simulation = simulate(default_scenario(steady_state), options);
    QVERIFY(!simulation.has_value());
    QCOMPARE(simulation.error().kind, SimulationErrorKind::cancelled);
    QCOMPARE(simulation.error().phase, phase);
    QCOMPARE(QString::fromStdString(simulation.error().message), QStringLiteral("the simulation was cancelled"));
    // The request is honoured at the report that saw it: nothing is reported after it.
    QVERIFY(!sink.reports.empty());
    QCOMPARE(sink.reports.back().phase, phase);
    int in_phase = 0;
    for (const ProgressReport& report : sink.reports) in_phase += report.phase == phase ? 1 : 0;
    QCOMPARE(in_phase, after);
}

QTEST_APPLESS_MAIN(TestSimulationProgress)
#include "test_simulation_progress.moc"
