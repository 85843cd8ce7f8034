#pragma once
// A sweep stopped halfway, as a cancelled run or an unmerged shard leaves it: the small pipeline
// (tests/data/cli/small_pipeline.yaml) over tp ∈ {1, 2} × micro-batch ∈ {1, 2}, 4 points, of which shard 1 of 2
// (points 0 and 2) is run into `store` by the core, as parasight-cli sweep --shard 1/2 runs it.

#include "store/stored_sweep_run.h"
#include "sweep/sweep_setup.h"

#include <optional>

namespace parasight::testing {

// The stored sweep's id, or nothing when it could not be set up or run.
inline std::optional<std::int64_t> store_half_a_sweep(ResultStore& store) {
    const auto base = read_sweep_base(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml");
    if (!base) return std::nullopt;
    const auto plan = plan_sweep(base.value(), {"parallelism.tp=1,2", "training.micro_batch=1,2"}, std::nullopt);
    if (!plan) return std::nullopt;
    SweepOptions half;
    half.shard = Shard{0, 2};
    const auto start = start_stored_sweep(store, plan.value(), half);
    if (!start) return std::nullopt;
    struct Observer final : StoringSweepObserver {
        using StoringSweepObserver::StoringSweepObserver;
        bool cancelled() const override { return false; }
    } observer(store, start.value().sweep_id, RankingMetric{"iteration_time_s"});
    if (run_sweep(plan.value(), half, observer).error) return std::nullopt;
    return start.value().sweep_id;
}

}  // namespace parasight::testing
