#pragma once
// What "best" means for the points of a sweep: a metric of the runs table and which way is better, by choice or by
// default — the shortest iteration, unless an axis changes the work an iteration does, where iteration times do not
// compare and throughput does. The command line and the sweep views rank by the same rule.

#include "analysis/report.h"
#include "common/expected.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace parasight {

// A metric points are ranked by: a column of runs, and which way is better.
struct RankingMetric {
    std::string_view column;  // "iteration_time_s"
    bool higher_is_better = false;

    [[nodiscard]] double of(const Report& report) const;
    [[nodiscard]] bool better(double a, double b) const noexcept { return higher_is_better ? a > b : a < b; }
    // For people: "1.234 s", "45.1% MFU", "62.3 GiB".
    [[nodiscard]] std::string format(double value) const;
};

// Every metric a sweep can be ranked by, in the order help texts list them.
[[nodiscard]] std::span<const RankingMetric> ranking_metrics() noexcept;
// The metric named `name`; the error lists the names.
[[nodiscard]] Expected<RankingMetric> ranking_metric(std::string_view name);

// The metric and, when it is not the iteration time, why ("training.global_batch changes the work per iteration, so
// iteration times do not compare").
struct DefaultRanking {
    RankingMetric metric;
    std::string reason;
};
// The shortest iteration, unless an axis changes the work an iteration does — the global batch or anything of the
// model (a longer sequence, more layers) — where throughput ranks: tokens/s for a transformer, samples/s otherwise.
[[nodiscard]] DefaultRanking default_ranking(const std::vector<std::string>& axis_paths, bool transformer);
// The metric named `metric_name` when there is one, else the default ranking of a sweep over `axis_paths`; the error
// is about the name.
[[nodiscard]] Expected<DefaultRanking> chosen_ranking(const std::optional<std::string>& metric_name,
                                                      const std::vector<std::string>& axis_paths, bool transformer);

}  // namespace parasight
