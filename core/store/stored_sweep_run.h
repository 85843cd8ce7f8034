#pragma once
// Running a sweep into a results database: the sweep is found by its key (or made), the points it already holds are
// skipped, and each batch of finished points is stored in one transaction as it arrives — so an interrupted sweep
// resumes where it stopped, from the command line or from the window alike.

#include "store/result_store.h"
#include "sweep/sweep_ranking.h"
#include "sweep/sweep_runner.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace parasight {

// The store's record of the plan's sweep: its name, base, axes and point count.
[[nodiscard]] SweepRecord sweep_record(const SweepPlan& plan);

// The plan that runs a stored sweep again — its base scenario as stored, its axes as its `sweep:` section — to
// resume it: the same key, so the points it holds are skipped. Refused when this version would make another sweep
// of it (its points were computed by another core version, or its base no longer reads the same).
[[nodiscard]] Expected<SweepPlan> stored_sweep_plan(ResultStore& store, std::int64_t sweep_id);

struct StoredSweepStart {
    std::int64_t sweep_id = 0;
    std::uint64_t in_shard = 0;         // points of options.shard
    std::uint64_t stored_in_shard = 0;  // of those, already stored
};

// Opens the plan's sweep in `store` (made when new) and puts the points it already holds into `options.done`.
[[nodiscard]] Expected<StoredSweepStart> start_stored_sweep(ResultStore& store, const SweepPlan& plan,
                                                            SweepOptions& options);

// Stores each batch of points, counts them and keeps the best simulated point so far by a metric; after each batch
// is stored, batch_stored() lets a front end show progress. Whether to stop (cancelled()) is the front end's.
class StoringSweepObserver : public SweepObserver {
public:
    StoringSweepObserver(ResultStore& store, std::int64_t sweep_id, RankingMetric metric)
        : store_(store), sweep_id_(sweep_id), metric_(metric) {}

    [[nodiscard]] std::optional<std::string> points_done(std::span<const PointResult> points) final;

    [[nodiscard]] std::uint64_t stored_now() const noexcept { return stored_now_; }
    // The best value of the metric among the points stored now (status ok), and that point's axis values.
    [[nodiscard]] const std::optional<double>& best() const noexcept { return best_; }
    [[nodiscard]] const std::vector<AxisValue>& best_values() const noexcept { return best_values_; }
    [[nodiscard]] const RankingMetric& metric() const noexcept { return metric_; }

protected:
    virtual void batch_stored() {}

private:
    ResultStore& store_;
    std::int64_t sweep_id_;
    RankingMetric metric_;
    std::uint64_t stored_now_ = 0;
    std::optional<double> best_;
    std::vector<AxisValue> best_values_;
};

}  // namespace parasight
