#pragma once
// Runs the points of a sweep on a pool of threads. Each point is read from the base scenario and its axis values,
// estimated against the device's memory in closed form (compile/memory_lower_bound.h: a point whose model states
// and activations in flight do not fit is recorded as out of memory without simulating), then simulated keeping
// only its Report (a run that takes a device past its memory stops there and is recorded as out of memory). A
// point's result depends on nothing but the point, so any number of threads gives the same results; they reach the
// observer in batches (each in point order), on the calling thread. The workers simulate the points in order but
// for the sweep's last ones (8 a worker), which they read first and simulate the one expected to take longest first,
// so that the slowest points do not come last to one worker while the others have nothing left.

#include "sweep/point_result.h"
#include "sweep/sweep_point.h"
#include "scenario/scenario_names.h"
#include "scenario/validated_scenario.h"
#include "sweep/sweep_space.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace parasight {

struct SweepPlan {
    std::string name;                      // the base scenario's name
    std::string base_yaml;                 // the base scenario as write_scenario_yaml writes it
    std::filesystem::path base_directory;  // where the base scenario's relative paths start
    SweepSpace space;
    // What the base scenario's name states (scenario/scenario_names.h): a point whose axes change the device count,
    // the device or the model is stored under a name that says what it is, not the base's.
    std::optional<NameFacts> base_facts;
};

// Which points one process of several runs: point k belongs to shard k mod count (`--shard K/N`, K counted from 1
// on the command line, from 0 here), so shards are the same size to within one point and any point's shard is known
// without listing the others.
struct Shard {
    std::uint64_t index = 0;
    std::uint64_t count = 1;

    [[nodiscard]] bool holds(std::uint64_t point) const noexcept { return point % count == index; }
    // How many of points 0 … total − 1 it holds.
    [[nodiscard]] std::uint64_t size_of(std::uint64_t total) const noexcept {
        return total > index ? (total - index + count - 1) / count : 0;
    }
};
// "K/N" with 1 ≤ K ≤ N; the error says what is wrong.
[[nodiscard]] Expected<Shard> parse_shard(std::string_view text);

// What the sweep tells its caller, on the thread that called run_sweep.
class SweepObserver {
public:
    SweepObserver() = default;
    SweepObserver(const SweepObserver&) = delete;
    SweepObserver& operator=(const SweepObserver&) = delete;
    virtual ~SweepObserver() = default;

    // Points that finished, in increasing order: those before the first still running (once there are 16 of them,
    // batch_seconds after the last batch, or once every point has been read), and with them those after it once
    // one of them has waited out_of_order_seconds, batch_points have finished or the sweep has ended. An error (the
    // results could not be stored) stops the sweep.
    [[nodiscard]] virtual std::optional<std::string> points_done(std::span<const PointResult> points) = 0;
    // Polled several times a second: true stops the sweep; points in progress are dropped, not reported.
    [[nodiscard]] virtual bool cancelled() const = 0;
};

struct SweepOptions {
    int jobs = 1;                          // threads; at least 1
    Shard shard;
    std::vector<std::uint64_t> done;       // points already stored (increasing): not run again
    std::size_t batch_points = 256;
    double batch_seconds = 0.5;
    // How long a point that finished after one still running may wait for it before it is stored out of order.
    double out_of_order_seconds = 5.0;
    // Called on each worker thread before its first point (the window lowers their priority); may be empty.
    std::function<void()> worker_started;
};

struct SweepOutcome {
    std::uint64_t points_in_shard = 0;     // points of this shard, done before or not
    std::uint64_t already_done = 0;        // of those, skipped because SweepOptions::done held them
    std::uint64_t run = 0;                 // run now and reported
    bool cancelled = false;
    std::optional<std::string> error;      // the observer's, when it stopped the sweep
};

[[nodiscard]] SweepOutcome run_sweep(const SweepPlan& plan, const SweepOptions& options, SweepObserver& observer);

// A point read and checked, not yet simulated: its result as far as it goes — whole when it is not simulated (a
// scenario that does not load, one out of memory by the closed-form bound) — and else the scenario to simulate, with
// the least number of tasks its first engine run holds (minimum_task_count at first_run_micro_batches), which its
// simulation's time grows with.
struct PreparedPoint {
    PointResult result;
    std::optional<ValidatedScenario> scenario;
    double estimated_tasks = 0.0;
};
[[nodiscard]] PreparedPoint prepare_point(const SweepPlan& plan, const PointScenarios& scenarios, std::uint64_t point);

// The point's result: `prepared`'s own when there is nothing to simulate, else its simulation's; `cancel` (may be
// null) stops the simulation, and then the result is nothing.
[[nodiscard]] std::optional<PointResult> simulate_point(PreparedPoint prepared, ProgressSink* cancel = nullptr);

// One point, as a worker runs it (prepared, then simulated), read from `scenarios` (the plan's base_yaml's).
[[nodiscard]] std::optional<PointResult> run_point(const SweepPlan& plan, const PointScenarios& scenarios,
                                                   std::uint64_t point, ProgressSink* cancel = nullptr);

}  // namespace parasight
