// The job runner (widgets/run/job_runner.h) and the simulation as one of its jobs (run/simulation_job.h): the work
// runs off the GUI thread and its value comes back on the runner's thread; a newer job cancels the one running and
// only the newest outcome is delivered; cancel stops a run; whatever the work throws is a failure, not a crash;
// progress is posted at most every 50 ms; a runner destroyed mid-run stops its job and returns. Abandoned work and
// old results being freed run on the background pool (run/background_pool.h), never on Qt's global pool, whose
// threads Qt 6.4's painting waits for.

#include "run/background_pool.h"
#include "run/freed_off_gui_thread.h"
#include "run/job_runner.h"
#include "run/simulation_job.h"

#include "scenario_file/scenario_loader.h"

#include <QScopeGuard>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <QThreadPool>

#include <algorithm>
#include <atomic>
#include <memory>
#include <stdexcept>
#include <vector>

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

using parasight::gui::JobRunner;
using parasight::gui::SimulationOutcome;

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

// Work that reports progress until it is asked to stop (or 10 s pass), then says how many reports it made.
int until_cancelled(JobRunner::Context& context) {
    int reports = 0;
    const auto start = std::chrono::steady_clock::now();
    while (!context.cancelled() && std::chrono::steady_clock::now() - start < std::chrono::seconds(10)) {
        context.report(QStringLiteral("waiting"), 0.5);
        ++reports;
        QThread::msleep(1);
    }
    return reports;
}

}  // namespace

class TestJobRunner : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aValueArrivesOnTheRunnersThread();
    void onlyTheNewestJobIsDelivered();
    void cancelStopsTheJob();
    void whatTheWorkThrowsIsAFailure();
    void progressIsPostedAtMostEvery50ms();
    void destroyedWhileRunning();
    void abandonedWhenDestroyed();
    void abandonedWorkLeavesQtsPoolFree();
    void resultsAreFreedOffTheGuiThread();
    void aCancelledJobDoesNotStart();
    void workersGiveWayToTheGuiThread();
};

void TestJobRunner::aValueArrivesOnTheRunnersThread() {
    const auto scenario = small_pipeline();
    QVERIFY(scenario != nullptr);
    JobRunner runner;
    QSignalSpy idle(&runner, &JobRunner::idle);
    QThread* worked_on = nullptr;
    QThread* delivered_on = nullptr;
    std::optional<SimulationOutcome> delivered;
    auto work = parasight::gui::simulation_work(scenario, {});
    const auto job = runner.start<SimulationOutcome>(
        [&, work](JobRunner::Context& context) {
            worked_on = QThread::currentThread();
            return work(context);
        },
        [&](std::uint64_t, SimulationOutcome outcome) {
            delivered_on = QThread::currentThread();
            delivered = std::move(outcome);
        });
    QCOMPARE(job, std::uint64_t{1});
    QVERIFY(runner.isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(delivered.has_value(), 10000);
    QVERIFY(worked_on != QThread::currentThread());
    QCOMPARE(delivered_on, QThread::currentThread());
    QVERIFY(delivered->has_value());
    const auto& result = delivered->value();
    QCOMPARE(result->job, job);
    QVERIFY(result->scenario == scenario);
    QVERIFY(result->simulation.report.iteration_time_s > 0.0);
    // The window asks for the timeline with its dependencies.
    QVERIFY(result->simulation.timeline != nullptr);
    QVERIFY(!runner.isRunning());
    QTRY_COMPARE(idle.count(), 1);
}

void TestJobRunner::onlyTheNewestJobIsDelivered() {
    const auto slow = every_device_gpt3();
    const auto quick = small_pipeline();
    QVERIFY(slow != nullptr && quick != nullptr);
    JobRunner runner;
    QSignalSpy cancelled(&runner, &JobRunner::cancelled);
    QSignalSpy failed(&runner, &JobRunner::failed);
    QSignalSpy idle(&runner, &JobRunner::idle);
    std::vector<std::uint64_t> delivered;
    const auto keep = [&](std::uint64_t job, SimulationOutcome outcome) {
        QVERIFY(outcome.has_value());
        delivered.push_back(job);
    };
    // An edit during a run: the first (seconds long) is cancelled by the second, whose result alone arrives.
    const auto first = runner.start<SimulationOutcome>(parasight::gui::simulation_work(slow, all_devices()), keep);
    const auto second = runner.start<SimulationOutcome>(parasight::gui::simulation_work(quick, {}), keep);
    QCOMPARE(second, first + 1);
    QTRY_COMPARE_WITH_TIMEOUT(idle.count(), 1, 30000);
    QCOMPARE(delivered, std::vector<std::uint64_t>{second});
    QCOMPARE(cancelled.count(), 0);  // the superseded job's end is not news
    QCOMPARE(failed.count(), 0);
}

void TestJobRunner::cancelStopsTheJob() {
    const auto slow = every_device_gpt3();
    QVERIFY(slow != nullptr);
    JobRunner runner;
    QSignalSpy progressed(&runner, &JobRunner::progressed);
    QSignalSpy cancelled(&runner, &JobRunner::cancelled);
    bool delivered = false;
    const auto job = runner.start<SimulationOutcome>(parasight::gui::simulation_work(slow, all_devices()),
                                                     [&](std::uint64_t, SimulationOutcome) { delivered = true; });
    // Wait for the first progress report, so that the cancel reaches a running simulation.
    QVERIFY(progressed.wait(30000));
    QCOMPARE(progressed.front().at(0).value<quint64>(), job);
    runner.cancel();
    QVERIFY(cancelled.wait(30000));
    QCOMPARE(cancelled.front().front().value<quint64>(), job);
    QVERIFY(!delivered);
    QVERIFY(!runner.isRunning());
}

void TestJobRunner::whatTheWorkThrowsIsAFailure() {
    JobRunner runner;
    QSignalSpy failed(&runner, &JobRunner::failed);
    QSignalSpy idle(&runner, &JobRunner::idle);
    bool delivered = false;
    // As a view's derivation might after simulate() returned: the window is told, and keeps running.
    const auto job = runner.start<int>([](JobRunner::Context&) -> int { throw std::length_error("vector too long"); },
                                       [&](std::uint64_t, int) { delivered = true; });
    QVERIFY(failed.wait(10000));
    QCOMPARE(failed.front().at(0).value<quint64>(), job);
    QCOMPARE(failed.front().at(1).toString(), QStringLiteral("vector too long"));
    QVERIFY(!delivered);
    QTRY_COMPARE(idle.count(), 1);
    // Something thrown that is not an exception says so.
    runner.start<int>([](JobRunner::Context&) -> int { throw 42; }, [&](std::uint64_t, int) { delivered = true; });
    QVERIFY(failed.wait(10000));
    QCOMPARE(failed.back().at(1).toString(), QStringLiteral("an unknown error"));
    QVERIFY(!delivered);
}

void TestJobRunner::progressIsPostedAtMostEvery50ms() {
    JobRunner runner;
    QSignalSpy progressed(&runner, &JobRunner::progressed);
    QSignalSpy cancelled(&runner, &JobRunner::cancelled);
    int reports = 0;
    runner.start<int>(until_cancelled, [&](std::uint64_t, int made) { reports = made; });
    QTest::qWait(300);
    runner.cancel();
    QVERIFY(cancelled.wait(10000));
    QCoreApplication::processEvents();
    // Reports every millisecond or so for 300 ms: hundreds made, at most 300 / 50 + 1 = 7 posted.
    QVERIFY2(progressed.count() >= 1 && progressed.count() <= 7, qPrintable(QString::number(progressed.count())));
    QCOMPARE(progressed.front().at(1).toString(), QStringLiteral("waiting"));
    QCOMPARE(reports, 0);  // cancelled: the value is dropped
}

void TestJobRunner::destroyedWhileRunning() {
    auto runner = std::make_unique<JobRunner>();
    QSignalSpy progressed(runner.get(), &JobRunner::progressed);
    bool delivered = false;
    runner->start<int>(until_cancelled, [&](std::uint64_t, int) { delivered = true; });
    QVERIFY(progressed.wait(10000));
    // The destructor cancels the job and waits for the worker; nothing is delivered to a destroyed runner.
    runner.reset();
    QCoreApplication::processEvents();
    QVERIFY(!delivered);
}

// OnDestroy::abandon: the destructor returns while the work still runs — the work here waits for the test to let it
// go, which the test does only after the runner is gone, so a destructor that waited would never return — and the
// value is dropped, never delivered.
void TestJobRunner::abandonedWhenDestroyed() {
    auto runner = std::make_unique<JobRunner>(nullptr, JobRunner::OnDestroy::abandon);
    auto started = std::make_shared<QSemaphore>();
    auto release = std::make_shared<QSemaphore>();
    auto finished = std::make_shared<QSemaphore>();
    bool delivered = false;
    runner->start<int>(
        [started, release, finished](JobRunner::Context&) {
            started->release();
            release->acquire();
            finished->release();
            return 7;
        },
        [&](std::uint64_t, int) { delivered = true; });
    QVERIFY(started->tryAcquire(1, 10000));
    runner.reset();
    release->release();
    QVERIFY(finished->tryAcquire(1, 10000));
    parasight::gui::background_pool()->waitForDone();
    QCoreApplication::processEvents();
    QVERIFY(!delivered);
}

// An abandoned runner's job runs on the background pool and leaves every thread of Qt's global pool free: a job
// there would make the GUI thread wait for it whenever Qt scales an image while painting.
void TestJobRunner::abandonedWorkLeavesQtsPoolFree() {
    JobRunner runner(nullptr, JobRunner::OnDestroy::abandon);
    auto release = std::make_shared<QSemaphore>();
    auto let_go = qScopeGuard([release] { release->release(); });  // also when a check below fails
    auto on_background = std::make_shared<std::atomic<bool>>(false);
    runner.start<int>(
        [release, on_background](JobRunner::Context&) {
            *on_background = parasight::gui::background_pool()->activeThreadCount() == 1;
            release->acquire();
            return 0;
        },
        [](std::uint64_t, int) {});
    QTRY_VERIFY(parasight::gui::background_pool()->activeThreadCount() == 1);
    QCOMPARE(QThreadPool::globalInstance()->activeThreadCount(), 0);
    let_go.dismiss();
    release->release();
    QTRY_VERIFY(!runner.isRunning());
    QVERIFY(on_background->load());
}

namespace {

// Says on which thread it was destroyed.
struct Probe {
    explicit Probe(std::shared_ptr<std::atomic<QThread*>> destroyed_on) : destroyed_on_(std::move(destroyed_on)) {}
    ~Probe() { *destroyed_on_ = QThread::currentThread(); }
    std::shared_ptr<std::atomic<QThread*>> destroyed_on_;
};

}  // namespace

// A result wrapped by freed_off_gui_thread() and let go of last on the GUI thread is destroyed on a pool thread; let
// go of on another thread, it is destroyed there at once; the pointer reads what it wraps.
void TestJobRunner::resultsAreFreedOffTheGuiThread() {
    auto destroyed_on = std::make_shared<std::atomic<QThread*>>(nullptr);
    auto wrapped = parasight::gui::freed_off_gui_thread(std::make_shared<const Probe>(destroyed_on));
    QCOMPARE(wrapped->destroyed_on_, destroyed_on);
    wrapped.reset();
    QTRY_VERIFY(destroyed_on->load() != nullptr);
    QVERIFY(destroyed_on->load() != QThread::currentThread());

    *destroyed_on = nullptr;
    auto elsewhere = parasight::gui::freed_off_gui_thread(std::make_shared<const Probe>(destroyed_on));
    QThread* worker = QThread::create([moved = std::move(elsewhere)]() mutable { moved.reset(); });
    worker->start();
    QVERIFY(worker->wait(10000));
    QCOMPARE(destroyed_on->load(), worker);
    delete worker;
    QVERIFY(parasight::gui::freed_off_gui_thread(std::shared_ptr<const Probe>()) == nullptr);
}

// A job superseded while an earlier one still runs never starts its work: only the newest runs after the first.
void TestJobRunner::aCancelledJobDoesNotStart() {
    for (const auto on_destroy : {JobRunner::OnDestroy::wait, JobRunner::OnDestroy::abandon}) {
        JobRunner runner(nullptr, on_destroy);
        auto release = std::make_shared<QSemaphore>();
        auto runs = std::make_shared<std::atomic<int>>(0);
        const auto work = [release, runs](JobRunner::Context&) {
            ++*runs;
            release->acquire();
            return runs->load();
        };
        QSignalSpy idle(&runner, &JobRunner::idle);
        std::vector<std::uint64_t> delivered;
        const auto deliver = [&](std::uint64_t job, int) { delivered.push_back(job); };
        runner.start<int>(work, deliver);
        QTRY_COMPARE(runs->load(), 1);
        runner.start<int>(work, deliver);  // superseded by the next before its turn
        const std::uint64_t newest = runner.start<int>(work, deliver);
        release->release(2);  // the first, then the newest
        QVERIFY(idle.wait(10000));
        QCOMPARE(runs->load(), 2);
        QCOMPARE(delivered, std::vector<std::uint64_t>{newest});
    }
}

// A job's thread is niced to 10 (its own thread only: setpriority on a thread id applies to that thread on Linux),
// so that the GUI thread preempts it; the GUI thread keeps its priority.
void TestJobRunner::workersGiveWayToTheGuiThread() {
#if defined(__linux__)
    const int gui_nice_before = getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)));
    JobRunner runner;
    std::optional<int> worker_nice;
    runner.start<int>(
        [](JobRunner::Context&) { return getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid))); },
        [&](std::uint64_t, int nice) { worker_nice = nice; });
    QTRY_VERIFY_WITH_TIMEOUT(worker_nice.has_value(), 10000);
    QCOMPARE(*worker_nice, std::max(10, gui_nice_before));
    QCOMPARE(getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid))), gui_nice_before);
#else
    QSKIP("threads are niced on Linux only");
#endif
}

QTEST_MAIN(TestJobRunner)
#include "test_job_runner.moc"
