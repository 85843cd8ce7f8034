#include "stored_results.h"

#include "commands.h"
#include "common/did_you_mean.h"
#include "common/message_text.h"
#include "store/default_store_path.h"
#include "units/quantity.h"

#include <array>
#include <ostream>

namespace parasight::cli {
namespace {

constexpr std::array<RankingMetric, 6> metrics{{{"iteration_time_s", false},
                                                {"samples_per_s", true},
                                                {"tokens_per_s", true},
                                                {"mfu", true},
                                                {"hfu", true},
                                                {"peak_memory_bytes", false}}};

}  // namespace

Expected<std::filesystem::path> store_location(const std::optional<std::string>& db_option) {
    if (db_option) return std::filesystem::path(*db_option);
    if (auto path = default_store_path()) return *path;
    return Error{"neither XDG_DATA_HOME nor HOME says where the results database goes; name one with --db DB"};
}

int database_error(std::ostream& err, std::string_view command, const std::filesystem::path& database,
                   const std::string& message) {
    err << "parasight-cli " << command << ": " << quoted_path(database.string()) << " " << message << '\n';
    return exit_internal_error;
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

Expected<DefaultRanking> chosen_ranking(const std::optional<std::string>& metric_option,
                                        const std::vector<std::string>& axis_paths, bool transformer) {
    if (!metric_option) return default_ranking(axis_paths, transformer);
    Expected<RankingMetric> metric = ranking_metric(*metric_option);
    if (!metric) return Error{metric.error()};
    return DefaultRanking{metric.value(), {}};
}

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

std::string run_column_text(std::string_view column, double value, bool signed_value) {
    using units::Dimension;
    const auto ends_with = [&](std::string_view suffix) {
        return column.size() >= suffix.size() && column.substr(column.size() - suffix.size()) == suffix;
    };
    std::string text;
    if (column == "samples_per_s") {
        text = units::format_fixed(value, 2) + " samples/s";
    } else if (column == "tokens_per_s") {
        text = units::format_fixed(value, 0) + " tokens/s";
    } else if (column == "mfu" || column == "hfu") {
        text = units::format_fixed(100.0 * value, 1) + "%";
    } else if (column == "model_tflops_per_device") {
        text = units::format_fixed(value, 1) + " TFLOP/s";
    } else if (ends_with("_flops_per_iteration")) {
        text = units::format_number(value) + " FLOP";
    } else if (ends_with("_bytes")) {
        text = units::format_readable(value, Dimension::size, 4, true);
    } else if (ends_with("_s")) {
        text = units::format_readable(value, Dimension::time);
    } else {
        text = units::format_number(value);
    }
    return signed_value && value > 0.0 ? "+" + text : text;
}

Expected<RankingMetric> ranking_metric(std::string_view name) {
    std::vector<std::string_view> names;
    for (const RankingMetric& metric : metrics) {
        if (metric.column == name) return metric;
        names.push_back(metric.column);
    }
    return Error{"unknown metric " + in_quotes(name) + did_you_mean_suffix(name, names) + "; the metrics are " +
                 join_alternatives(names)};
}

int StoredTable::column(std::string_view name) const {
    for (std::size_t c = 0; c < names.size(); ++c) {
        if (names[c] == name) return static_cast<int>(c);
    }
    return -1;
}

Expected<StoredTable> best_points(ResultStore& store, std::int64_t sweep_id, const RankingMetric& metric,
                                  std::int64_t count) {
    StoredTable table;
    const std::string order = std::string(metric.column) + (metric.higher_is_better ? " DESC" : " ASC");
    if (auto problem = store.read_sweep(sweep_id, table, "status = 'ok'", order, count)) return Error{*problem};
    return table;
}

std::string stored_text(const StoredValue& value) {
    if (const auto* integer = std::get_if<std::int64_t>(&value)) return std::to_string(*integer);
    if (const auto* real = std::get_if<double>(&value)) return units::format_number(*real);
    if (const auto* text = std::get_if<std::string>(&value)) return *text;
    return {};
}

void print_best_points(std::ostream& out, const StoredTable& best, const std::vector<std::string>& axis_paths,
                       const RankingMetric& metric) {
    std::vector<std::string> header{"#", "point"};
    for (const std::string& path : axis_paths) header.push_back(path);
    header.push_back(std::string(metric.column));
    for (const std::string_view extra : {"iteration_time_s", "mfu", "peak_memory_bytes"}) {
        if (extra != metric.column) header.emplace_back(extra);
    }
    std::vector<std::vector<std::string>> cells{header};
    for (std::size_t r = 0; r < best.rows.size(); ++r) {
        std::vector<std::string> line{std::to_string(r + 1)};
        for (std::size_t c = 1; c < header.size(); ++c) {
            const int column = best.column(header[c]);
            if (column < 0) {
                line.emplace_back();
                continue;
            }
            const StoredValue& value = best.rows[r][static_cast<std::size_t>(column)];
            const auto* real = std::get_if<double>(&value);
            const auto ranked = ranking_metric(header[c]);
            line.push_back(real != nullptr && ranked ? ranked.value().format(*real) : stored_text(value));
        }
        cells.push_back(std::move(line));
    }
    std::vector<std::size_t> widths(header.size(), 0);
    for (const auto& line : cells) {
        for (std::size_t c = 0; c < line.size(); ++c) widths[c] = std::max(widths[c], line[c].size());
    }
    for (const auto& line : cells) {
        std::string text = " ";
        for (std::size_t c = 0; c < line.size(); ++c) {
            std::string cell = line[c];
            if (c + 1 < line.size()) cell.resize(widths[c], ' ');
            text += " " + cell;
        }
        out << text << '\n';
    }
}

}  // namespace parasight::cli
