#include "store/stored_sweep_ranking.h"

#include "scenario_file/scenario_loader.h"

namespace parasight {

Expected<StoredTable> best_points(ResultStore& store, std::int64_t sweep_id, const RankingMetric& metric,
                                  std::int64_t count) {
    StoredTable table;
    const std::string order = std::string(metric.column) + (metric.higher_is_better ? " DESC" : " ASC");
    if (auto problem = store.read_sweep(sweep_id, table, "status = 'ok'", order, count)) return Error{*problem};
    return table;
}

Expected<DefaultRanking> stored_sweep_ranking(ResultStore& store, const SweepSummary& sweep,
                                              const std::optional<std::string>& metric_name) {
    if (metric_name) return chosen_ranking(metric_name, sweep.axis_paths, true);
    const Expected<std::string> base = store.scenario_yaml(sweep.base_scenario_hash);
    if (!base) return Error{base.error()};
    const ReadResult base_scenario = read_scenario_text(base.value(), "the sweep's base scenario");
    const bool transformer = !base_scenario.scenario || base_scenario.scenario->model.kind == ModelKind::transformer;
    return default_ranking(sweep.axis_paths, transformer);
}

}  // namespace parasight
