// Progress and cancellation through the ProgressSink in every phase of simulate(): compiling, the engine and the
// analysis each report fractions that climb to 1, in that order, and a cancel request in any phase stops the run
// there with a typed error and no report after it.

#include "common/progress.h"
#include "scenario_file/scenario_loader.h"
#include "simulation/simulate.h"

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

const ValidatedScenario& default_scenario() {
    static const LoadResult loaded = load_scenario_file(PARASIGHT_SOURCE_DIR "/presets/scenarios/default.yaml");
    return *loaded.scenario;
}

}  // namespace

class TestSimulationProgress : public QObject {
    Q_OBJECT
private slots:
    void everyPhaseClimbsToOne();
    void cancelStopsInEveryPhase_data();
    void cancelStopsInEveryPhase();
};

void TestSimulationProgress::everyPhaseClimbsToOne() {
    RecordingSink sink;
    SimulateOptions options;
    options.progress = &sink;
    const auto simulation = simulate(default_scenario(), options);
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
    // The default scenario (GPT-3 on 1024 GPUs, one device per stage): 16 stages of 2 × 96 micro-batch steps are
    // compiled with a report each; the engine reports every 1024 finished activities; the analysis at its start, once
    // per simulated device and at its end, then the Timeline's indexing at least at the end of each of its two parts.
    QVERIFY(count[0] > 16 * 192);
    QVERIFY(count[1] > 100);
    QVERIFY(count[2] >= 16 + 2 + 2);
}

void TestSimulationProgress::cancelStopsInEveryPhase_data() {
    QTest::addColumn<SimulationPhase>("phase");
    QTest::addColumn<int>("after");  // reports of that phase before the request
    QTest::newRow("compile, before any work") << SimulationPhase::compile << 1;
    QTest::newRow("compile, midway") << SimulationPhase::compile << 1000;
    QTest::newRow("engine, preparing") << SimulationPhase::engine << 1;
    QTest::newRow("engine, running") << SimulationPhase::engine << 50;
    QTest::newRow("analysis, at its start") << SimulationPhase::analysis << 1;
    QTest::newRow("analysis, midway") << SimulationPhase::analysis << 8;
    QTest::newRow("analysis, at its end") << SimulationPhase::analysis << 18;
}

void TestSimulationProgress::cancelStopsInEveryPhase() {
    QFETCH(SimulationPhase, phase);
    QFETCH(int, after);
    RecordingSink sink(phase, after);
    SimulateOptions options;
    options.progress = &sink;
    const auto simulation = simulate(default_scenario(), options);
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
