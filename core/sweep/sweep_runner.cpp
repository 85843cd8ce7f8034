#include "sweep/sweep_runner.h"

#include "common/number_text.h"
#include "compile/compiler.h"
#include "compile/memory_lower_bound.h"
#include "simulation/simulate.h"
#include "simulation/steady_state_run.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <limits>
#include <mutex>
#include <span>
#include <thread>

namespace parasight {
namespace {

// A simulation's ProgressSink that only answers whether the sweep was stopped.
class StopFlag final : public ProgressSink {
public:
    explicit StopFlag(const std::atomic<bool>& stop) : stop_(stop) {}
    void progress(SimulationPhase, double) override {}
    [[nodiscard]] bool cancelled() const override { return stop_.load(std::memory_order_relaxed); }

private:
    const std::atomic<bool>& stop_;
};

// The loader's reasons as one line: each diagnostic by its scenario path (the point's YAML is generated, so its
// lines and columns would tell the user nothing).
std::string reasons(const Diagnostics& diagnostics) {
    std::string text;
    for (Diagnostic diagnostic : diagnostics) {
        diagnostic.location = {};
        if (!text.empty()) text += "; ";
        text += diagnostic.to_string();
    }
    return text;
}

}  // namespace

Expected<Shard> parse_shard(std::string_view text) {
    const std::size_t slash = text.find('/');
    const auto index = slash == std::string_view::npos ? std::nullopt : parse_integer(text.substr(0, slash));
    const auto count = slash == std::string_view::npos ? std::nullopt : parse_integer(text.substr(slash + 1));
    if (!index || !count) {
        return Error{"a shard is written K/N (the K-th of N, 1 ≤ K ≤ N), not '" + std::string(text) + "'"};
    }
    if (*count < 1 || *index < 1 || *index > *count) {
        return Error{"shard " + std::string(text) + " does not exist: K must be between 1 and N"};
    }
    return Shard{static_cast<std::uint64_t>(*index - 1), static_cast<std::uint64_t>(*count)};
}

PreparedPoint prepare_point(const SweepPlan& plan, const PointScenarios& scenarios, std::uint64_t point) {
    PreparedPoint prepared;
    PointResult& result = prepared.result;
    result.point = point;
    result.values = plan.space.point(static_cast<std::size_t>(point));
    result.scenario_name = plan.name;
    PointScenarios::Point at = scenarios.at(result.values, plan.name, plan.base_directory);
    result.scenario_yaml = std::move(at.yaml);
    LoadResult& loaded = at.loaded;
    if (!loaded.ok()) {
        result.status = PointStatus::invalid;
        result.reason = reasons(loaded.diagnostics);
        return prepared;
    }
    const Scenario& scenario = loaded.scenario->value();
    result.scenario_name = plan.base_facts ? true_scenario_name(*plan.base_facts, scenario) : scenario.name;

    const MemoryLowerBound bound = memory_lower_bound(*loaded.scenario);
    if (bound.exceeds_capacity()) {
        result.status = PointStatus::oom_estimated;
        result.memory_estimate = MemoryEstimate{bound.needed_bytes, bound.capacity_bytes};
        Warning cause;
        cause.code = WarningCode::memory_bound_exceeded;
        cause.subject = "stage[" + std::to_string(bound.stage) + "]";
        cause.stage = bound.stage;
        cause.needed_bytes = bound.needed_bytes;
        cause.model_state_bytes = bound.model_state_bytes;
        cause.activation_bytes = bound.activation_bytes;
        cause.runtime_bytes = bound.runtime_bytes;
        cause.micro_batches = bound.micro_batches_in_flight;
        cause.capacity_bytes = bound.capacity_bytes;
        result.cause = cause;
        return prepared;
    }
    CompileOptions first_run;
    first_run.micro_batches = first_run_micro_batches(scenario);
    prepared.estimated_tasks = minimum_task_count(scenario, first_run);
    prepared.scenario = std::move(loaded.scenario);
    return prepared;
}

std::optional<PointResult> simulate_point(PreparedPoint prepared, ProgressSink* cancel) {
    PointResult result = std::move(prepared.result);
    if (!prepared.scenario) return result;
    SimulateOptions options;
    options.timeline = TimelineDetail::none;
    options.progress = cancel;
    options.stop_at_out_of_memory = true;
    Expected<Simulation, SimulationError> simulated = simulate(*prepared.scenario, options);
    if (!simulated) {
        if (simulated.error().kind == SimulationErrorKind::cancelled) return std::nullopt;
        if (simulated.error().kind == SimulationErrorKind::out_of_memory) {
            const Warning& crossed = simulated.error().out_of_memory;
            result.status = PointStatus::oom;
            result.cause = crossed;
            result.memory_estimate = MemoryEstimate{crossed.needed_bytes, crossed.capacity_bytes};
            return result;
        }
        result.status = PointStatus::failed;
        result.reason = simulated.error().message;
        return result;
    }
    Report report = std::move(simulated).value().report;
    report.per_device.clear();
    report.per_device.shrink_to_fit();
    result.status = report.out_of_memory ? PointStatus::oom : PointStatus::ok;
    result.report = std::move(report);
    return result;
}

std::optional<PointResult> run_point(const SweepPlan& plan, const PointScenarios& scenarios, std::uint64_t point,
                                     ProgressSink* cancel) {
    return simulate_point(prepare_point(plan, scenarios, point), cancel);
}

SweepOutcome run_sweep(const SweepPlan& plan, const SweepOptions& options, SweepObserver& observer) {
    SweepOutcome outcome;
    std::vector<std::uint64_t> pending;
    const std::uint64_t total = plan.space.point_count();
    for (std::uint64_t point = options.shard.index; point < total; point += options.shard.count) {
        ++outcome.points_in_shard;
        if (std::binary_search(options.done.begin(), options.done.end(), point)) {
            ++outcome.already_done;
        } else {
            pending.push_back(point);
        }
    }

    const PointScenarios scenarios(plan.base_yaml);
    std::atomic<std::size_t> next{0};
    std::atomic<bool> stop{false};
    std::mutex mutex;
    std::condition_variable finished;
    std::vector<PointResult> ready;  // guarded by mutex
    std::size_t workers_left = 0;    // guarded by mutex
    std::vector<std::uint8_t> point_finished(pending.size(), 0);  // by index into `pending`; guarded by mutex

    const std::size_t jobs = std::clamp<std::size_t>(static_cast<std::size_t>(std::max(options.jobs, 1)), 1,
                                                     std::max<std::size_t>(pending.size(), 1));
    // The sweep's last points (8 a worker), read but not yet simulated (guarded by mutex), each with its index into
    // `pending`: the points are simulated in order until these are left, which are all read first and then simulated
    // the one expected to take longest first — the longest-first rule (Graham 1969) where it matters, at the end, so
    // that a sweep whose last points are its slowest does not end with one worker running them while the others have
    // nothing left. (Over the whole sweep, a small point could wait behind larger ones to the end, and the points
    // after it could not be stored in order until then.)
    struct Waiting {
        std::size_t index = 0;
        PreparedPoint point;
    };
    std::vector<Waiting> window;
    const std::size_t window_size = 8 * jobs;
    auto finish = [&](std::size_t k, PointResult result) {
        const std::lock_guard lock(mutex);
        ready.push_back(std::move(result));
        point_finished[k] = 1;
        finished.notify_one();
    };
    // The window's point expected to take longest, taken out of it; none when it is empty.
    auto take_longest = [&]() -> std::optional<Waiting> {
        const std::lock_guard lock(mutex);
        if (window.empty()) return std::nullopt;
        const auto longest = std::max_element(window.begin(), window.end(), [](const Waiting& a, const Waiting& b) {
            return a.point.estimated_tasks < b.point.estimated_tasks;
        });
        Waiting taken = std::move(*longest);
        *longest = std::move(window.back());
        window.pop_back();
        return taken;
    };
    const auto work = [&] {
        if (options.worker_started) options.worker_started();
        StopFlag flag(stop);
        while (!stop.load(std::memory_order_relaxed)) {
            std::size_t k = next.fetch_add(1, std::memory_order_relaxed);
            std::optional<PreparedPoint> point;
            if (k < pending.size()) {
                PreparedPoint prepared = prepare_point(plan, scenarios, pending[k]);
                if (!prepared.scenario) {
                    finish(k, std::move(prepared.result));  // not simulated: done
                    continue;
                }
                if (pending.size() - k <= window_size) {
                    const std::lock_guard lock(mutex);
                    window.push_back(Waiting{k, std::move(prepared)});
                    continue;
                }
                point = std::move(prepared);
            } else {
                std::optional<Waiting> taken = take_longest();
                if (!taken) break;  // every point read, none waiting
                k = taken->index;
                point = std::move(taken->point);
            }
            std::optional<PointResult> result = simulate_point(std::move(*point), &flag);
            if (!result) break;  // cancelled
            finish(k, std::move(*result));
        }
        const std::lock_guard lock(mutex);
        --workers_left;
        finished.notify_one();
    };

    std::vector<std::thread> threads;
    workers_left = jobs;
    threads.reserve(jobs);
    for (std::size_t j = 0; j < jobs; ++j) threads.emplace_back(work);

    using Clock = std::chrono::steady_clock;
    const auto batch_time = std::chrono::duration<double>(options.batch_seconds);
    const auto out_of_order_time = std::chrono::duration<double>(options.out_of_order_seconds);
    auto batch_started = Clock::now();
    std::optional<Clock::time_point> waiting_since;  // since when a point after the first still running has waited
    std::vector<PointResult> batch;
    std::size_t first_unfinished = 0;  // index into `pending`
    std::unique_lock lock(mutex);
    for (;;) {
        // Woken by a point finishing or the workers ending — which may have come while the results were being
        // stored, the lock released: then it does not wait at all (a notification with no one waiting is lost) —
        // or after 50 ms, to poll for a cancel and a batch's time.
        finished.wait_for(lock, std::chrono::milliseconds(50), [&] { return !ready.empty() || workers_left == 0; });
        const bool all_finished = workers_left == 0;
        if (outcome.error) {
            batch.clear();  // nothing is handed on after an error
        } else {
            for (PointResult& result : ready) batch.push_back(std::move(result));
        }
        ready.clear();
        while (first_unfinished < pending.size() && point_finished[first_unfinished]) ++first_unfinished;
        // The points are stored in their order: those before the first still running once 16 of them have
        // finished, once a batch's time has passed since the last store, and once every point has been read (else
        // the points finished early waited for the sweep's last ones, and a sweep shorter than a batch's time stored
        // all its points after its last one finished, one core idle). Those after it — finished while an earlier
        // point runs — wait for it, so that the runs are numbered in the points' order, unless some have waited
        // out_of_order_seconds (a point that runs for minutes holds back no more than that), the batch holds
        // batch_points, or the sweep has ended.
        constexpr std::size_t prefix_points = 16;
        std::sort(batch.begin(), batch.end(),
                  [](const PointResult& a, const PointResult& b) { return a.point < b.point; });
        const std::uint64_t prefix_end =
            first_unfinished == pending.size() ? std::numeric_limits<std::uint64_t>::max() : pending[first_unfinished];
        const auto prefix = std::partition_point(batch.begin(), batch.end(),
                                                 [&](const PointResult& result) { return result.point < prefix_end; });
        const auto now = Clock::now();
        if (prefix == batch.end()) {
            waiting_since.reset();
        } else if (!waiting_since) {
            waiting_since = now;
        }
        const bool all_due = all_finished || batch.size() >= options.batch_points ||
                             (waiting_since && now - *waiting_since >= out_of_order_time);
        const bool prefix_due = next.load(std::memory_order_relaxed) >= pending.size() ||
                                static_cast<std::size_t>(prefix - batch.begin()) >= prefix_points ||
                                now - batch_started >= batch_time;
        const auto stored_end = all_due ? batch.end() : prefix_due ? prefix : batch.begin();
        if (stored_end != batch.begin()) {
            lock.unlock();
            const auto count = static_cast<std::size_t>(stored_end - batch.begin());
            std::optional<std::string> error = observer.points_done(std::span<const PointResult>(batch.data(), count));
            outcome.run += count;
            batch.erase(batch.begin(), stored_end);
            batch_started = Clock::now();
            lock.lock();
            if (error) {
                outcome.error = std::move(error);
                stop = true;
            }
        }
        if (!stop && observer.cancelled()) {
            outcome.cancelled = true;
            stop = true;
        }
        if (all_finished) break;
    }
    lock.unlock();
    for (std::thread& thread : threads) thread.join();
    return outcome;
}

}  // namespace parasight
