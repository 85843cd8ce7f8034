#pragma once
// What the commands that use the results database share: where it is, how its errors are told, what "best" means
// for a sweep, and a sweep's points read into a table for printing.

#include "analysis/report.h"
#include "common/expected.h"
#include "store/result_store.h"

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parasight::cli {

// --db when given, otherwise the user's default results database (store/default_store_path.h).
[[nodiscard]] Expected<std::filesystem::path> store_location(const std::optional<std::string>& db_option);

// "parasight-cli COMMAND: 'DB' MESSAGE" on err; returns exit_internal_error.
int database_error(std::ostream& err, std::string_view command, const std::filesystem::path& database,
                   const std::string& message);

// A metric points are ranked by: a column of runs, and which way is better.
struct RankingMetric {
    std::string_view column;  // "iteration_time_s"
    bool higher_is_better = false;

    [[nodiscard]] double of(const Report& report) const;
    [[nodiscard]] bool better(double a, double b) const noexcept { return higher_is_better ? a > b : a < b; }
    // For people: "1.234 s", "45.1% MFU", "62.3 GiB".
    [[nodiscard]] std::string format(double value) const;
};
// The metric named `name`; the error lists the names.
[[nodiscard]] Expected<RankingMetric> ranking_metric(std::string_view name);

// What "best" means when no --metric is given: the shortest iteration, unless an axis changes the work an iteration
// does — the global batch or anything of the model (a longer sequence, more layers) — where iteration times do not
// compare and throughput does: tokens/s for a transformer, samples/s otherwise. `reason` says why when it is not the
// iteration time ("training.global_batch changes the work per iteration").
struct DefaultRanking {
    RankingMetric metric;
    std::string reason;
};
[[nodiscard]] DefaultRanking default_ranking(const std::vector<std::string>& axis_paths, bool transformer);

// The metric --metric names, or the default ranking of a sweep over `axis_paths`; the error is --metric's.
[[nodiscard]] Expected<DefaultRanking> chosen_ranking(const std::optional<std::string>& metric_option,
                                                      const std::vector<std::string>& axis_paths, bool transformer);

// Rows read whole: fine for a top-K list or one run.
struct StoredTable final : RowVisitor {
    std::vector<std::string> names;
    std::vector<std::vector<StoredValue>> rows;
    void columns(const std::vector<std::string>& column_names) override { names = column_names; }
    void row(const std::vector<StoredValue>& values) override { rows.push_back(values); }
    // The index of a column, or -1.
    [[nodiscard]] int column(std::string_view name) const;
};

// The best `count` simulated points (status ok) of a sweep by `metric`; ties in point order.
[[nodiscard]] Expected<StoredTable> best_points(ResultStore& store, std::int64_t sweep_id,
                                                const RankingMetric& metric, std::int64_t count);

// A value as text: integers as written, reals in shortest round-trip form, NULL as empty.
[[nodiscard]] std::string stored_text(const StoredValue& value);

// A number of the runs column `column` for people, with its unit: "629.2 us" (…_s), "35.05 MiB" (…_bytes),
// "25430.08 samples/s", "6.2%" (mfu, hfu), "19.2 TFLOP/s", "9.664e+10 FLOP"; `signed_value` writes a plus sign before
// a positive value (a difference).
[[nodiscard]] std::string run_column_text(std::string_view column, double value, bool signed_value = false);

// The best points as an aligned table: rank, point, each axis, the metric, iteration time, MFU, memory.
void print_best_points(std::ostream& out, const StoredTable& best, const std::vector<std::string>& axis_paths,
                       const RankingMetric& metric);

}  // namespace parasight::cli
