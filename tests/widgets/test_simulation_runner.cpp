// The simulation runner (widgets/run/): simulate() runs off the GUI thread and its result comes back by queued
// signal; a newer job cancels the one running and only the newest outcome is delivered; cancel stops a run; a
// runner destroyed mid-run stops its job and returns.

#include "run/simulation_runner.h"

#include "scenario_file/scenario_loader.h"

#include <QSignalSpy>
#include <QTest>
#include <QThread>

using parasight::gui::SimulationResult;
using parasight::gui::SimulationRunner;
using ResultPointer = std::shared_ptr<const SimulationResult>;

namespace {

// tests/data/cli/small_pipeline.yaml: tp 2 · dp 2 · pp 2 on 8 A100s, simulated in milliseconds.
std::shared_ptr<const parasight::ValidatedScenario> small_pipeline() {
    parasight::LoadResult loaded =
        parasight::load_scenario_file(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml");
    if (!loaded.ok()) return nullptr;
    return std::make_shared<const parasight::ValidatedScenario>(std::move(*loaded.scenario));
}

// The bundled default scenario with every device simulated: a run of seconds, long enough to cancel.
std::shared_ptr<const parasight::ValidatedScenario> every_device_gpt3() {
    parasight::LoadResult loaded = parasight::load_scenario_file(PARASIGHT_SOURCE_DIR "/presets/scenarios/default.yaml");
    if (!loaded.ok()) return nullptr;
    return std::make_shared<const parasight::ValidatedScenario>(std::move(*loaded.scenario));
}

parasight::SimulateOptions all_devices() {
    parasight::SimulateOptions options;
    options.all_devices = true;
    return options;
}

}  // namespace

class TestSimulationRunner : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void resultArrivesOnTheRunnersThread();
    void onlyTheNewestJobIsDelivered();
    void cancelStopsTheRun();
    void destroyedWhileRunning();
};

void TestSimulationRunner::resultArrivesOnTheRunnersThread() {
    const auto scenario = small_pipeline();
    QVERIFY(scenario != nullptr);
    SimulationRunner runner;
    QSignalSpy finished(&runner, &SimulationRunner::finished);
    QSignalSpy idle(&runner, &SimulationRunner::idle);
    QThread* delivered_on = nullptr;
    connect(&runner, &SimulationRunner::finished, this, [&] { delivered_on = QThread::currentThread(); });
    const auto job = runner.start(scenario);
    QCOMPARE(job, std::uint64_t{1});
    QVERIFY(runner.isRunning());
    QVERIFY(finished.wait(10000));
    QCOMPARE(delivered_on, QThread::currentThread());
    const auto result = finished.front().front().value<ResultPointer>();
    QCOMPARE(result->job, job);
    QVERIFY(result->scenario == scenario);
    QVERIFY(result->simulation.report.iteration_time_s > 0.0);
    // The GUI asks for the timeline with its dependencies.
    QVERIFY(result->simulation.timeline != nullptr);
    QVERIFY(!runner.isRunning());
    QTRY_COMPARE(idle.count(), 1);
}

void TestSimulationRunner::onlyTheNewestJobIsDelivered() {
    const auto slow = every_device_gpt3();
    const auto quick = small_pipeline();
    QVERIFY(slow != nullptr && quick != nullptr);
    SimulationRunner runner;
    QSignalSpy finished(&runner, &SimulationRunner::finished);
    QSignalSpy cancelled(&runner, &SimulationRunner::cancelled);
    QSignalSpy failed(&runner, &SimulationRunner::failed);
    QSignalSpy idle(&runner, &SimulationRunner::idle);
    // An edit during a run: the first (seconds long) is cancelled by the second, whose result alone arrives.
    const auto first = runner.start(slow, all_devices());
    const auto second = runner.start(quick);
    QCOMPARE(second, first + 1);
    QVERIFY(finished.wait(30000));
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.front().front().value<ResultPointer>()->job, second);
    QTRY_COMPARE(idle.count(), 1);
    QCOMPARE(cancelled.count(), 0);  // the superseded job's end is not news
    QCOMPARE(failed.count(), 0);
}

void TestSimulationRunner::cancelStopsTheRun() {
    const auto slow = every_device_gpt3();
    QVERIFY(slow != nullptr);
    SimulationRunner runner;
    QSignalSpy progressed(&runner, &SimulationRunner::progressed);
    QSignalSpy cancelled(&runner, &SimulationRunner::cancelled);
    QSignalSpy finished(&runner, &SimulationRunner::finished);
    const auto job = runner.start(slow, all_devices());
    // Wait for the first progress report, so that the cancel reaches a running simulation.
    QVERIFY(progressed.wait(30000));
    QCOMPARE(progressed.front().at(0).value<quint64>(), job);
    runner.cancel();
    QVERIFY(cancelled.wait(30000));
    QCOMPARE(cancelled.front().front().value<quint64>(), job);
    QCOMPARE(finished.count(), 0);
    QVERIFY(!runner.isRunning());
}

void TestSimulationRunner::destroyedWhileRunning() {
    const auto slow = every_device_gpt3();
    QVERIFY(slow != nullptr);
    auto runner = std::make_unique<SimulationRunner>();
    QSignalSpy progressed(runner.get(), &SimulationRunner::progressed);
    runner->start(slow, all_devices());
    QVERIFY(progressed.wait(30000));
    // The destructor cancels the job and waits for the worker; nothing is delivered to a destroyed runner.
    runner.reset();
    QCoreApplication::processEvents();
}

QTEST_MAIN(TestSimulationRunner)
#include "test_simulation_runner.moc"
