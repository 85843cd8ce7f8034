#include "sweep/sweep_ranking.h"

#include "common/did_you_mean.h"
#include "common/message_text.h"
#include "export/run_column_text.h"

#include <array>

namespace parasight {
namespace {

constexpr std::array<RankingMetric, 6> metrics{{{"iteration_time_s", false},
                                                {"samples_per_s", true},
                                                {"tokens_per_s", true},
                                                {"mfu", true},
                                                {"hfu", true},
                                                {"peak_memory_bytes", false}}};

}  // namespace

double RankingMetric::of(const Report& report) const {
    if (column == "samples_per_s") return report.samples_per_s;
    if (column == "tokens_per_s") return report.tokens_per_s;
    if (column == "mfu") return report.mfu;
    if (column == "hfu") return report.hfu;
    if (column == "peak_memory_bytes") return report.peak_memory_bytes;
    return report.iteration_time_s;
}

std::string RankingMetric::format(double value) const {
    const std::string text = run_column_text(column, value);
    if (column == "mfu") return text + " MFU";
    if (column == "hfu") return text + " HFU";
    return text;
}

std::span<const RankingMetric> ranking_metrics() noexcept { return metrics; }

Expected<RankingMetric> ranking_metric(std::string_view name) {
    std::vector<std::string_view> names;
    for (const RankingMetric& metric : metrics) {
        if (metric.column == name) return metric;
        names.push_back(metric.column);
    }
    return Error{"unknown metric " + in_quotes(name) + did_you_mean_suffix(name, names) + "; the metrics are " +
                 join_alternatives(names)};
}

DefaultRanking default_ranking(const std::vector<std::string>& axis_paths, bool transformer) {
    for (const std::string& path : axis_paths) {
        const bool changes_work = path == "training.global_batch" || path == "model" || path.rfind("model.", 0) == 0;
        if (!changes_work) continue;
        return {transformer ? RankingMetric{"tokens_per_s", true} : RankingMetric{"samples_per_s", true},
                path + " changes the work per iteration, so iteration times do not compare"};
    }
    return {RankingMetric{"iteration_time_s", false}, {}};
}

Expected<DefaultRanking> chosen_ranking(const std::optional<std::string>& metric_name,
                                        const std::vector<std::string>& axis_paths, bool transformer) {
    if (!metric_name) return default_ranking(axis_paths, transformer);
    Expected<RankingMetric> metric = ranking_metric(*metric_name);
    if (!metric) return Error{metric.error()};
    return DefaultRanking{metric.value(), {}};
}

}  // namespace parasight
