#pragma once
// A stored sweep ranked: its best points by a metric, and the metric it is ranked by when none is named — the same
// default the sweep ranked by when it ran (sweep/sweep_ranking.h), read from its axes and its base scenario.

#include "store/result_store.h"
#include "store/stored_table.h"
#include "sweep/sweep_ranking.h"

#include <cstdint>
#include <optional>
#include <string>

namespace parasight {

// The best `count` simulated points (status ok) of a sweep by `metric`: every column of its view, ties in point order.
[[nodiscard]] Expected<StoredTable> best_points(ResultStore& store, std::int64_t sweep_id,
                                                const RankingMetric& metric, std::int64_t count);

// The metric `metric_name` names (its error when it names none), or the default ranking of the sweep `sweep`: by
// throughput when an axis changes the work per iteration, tokens/s when its base scenario is a transformer. The
// error otherwise is the database's.
[[nodiscard]] Expected<DefaultRanking> stored_sweep_ranking(ResultStore& store, const SweepSummary& sweep,
                                                            const std::optional<std::string>& metric_name);

}  // namespace parasight
