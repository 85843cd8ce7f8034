#include "stored_results.h"

#include "commands.h"
#include "common/message_text.h"
#include "store/default_store_path.h"

#include <ostream>

namespace parasight::cli {

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

void print_status_counts(std::ostream& out, const SweepSummary& sweep) {
    out << ' ';
    for (const auto& status : point_status_names) {
        out << " " << status.name << " " << sweep.stored_by_status[static_cast<std::size_t>(status.value)];
    }
    out << '\n';
}

void write_status_counts(JsonWriter& json, const SweepSummary& sweep) {
    json.key("by_status").begin_object();
    for (const auto& status : point_status_names) {
        const std::uint64_t count = sweep.stored_by_status[static_cast<std::size_t>(status.value)];
        json.key(status.name).value(static_cast<std::int64_t>(count));
    }
    json.end_object();
}

void print_best_points(std::ostream& out, const StoredTable& best, const std::vector<std::string>& axis_paths,
                       const DefaultRanking& ranking) {
    const RankingMetric& metric = ranking.metric;
    out << "best " << best.rows.size() << " by " << metric.column;
    if (!ranking.reason.empty()) out << " (" << ranking.reason << ")";
    out << ":\n";
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

void print_aligned(std::ostream& out, const std::vector<std::vector<std::string>>& cells) {
    std::vector<std::size_t> widths;
    for (const auto& line : cells) {
        widths.resize(std::max(widths.size(), line.size()), 0);
        for (std::size_t c = 0; c < line.size(); ++c) widths[c] = std::max(widths[c], character_count(line[c]));
    }
    for (const auto& line : cells) {
        std::string text;
        for (std::size_t c = 0; c < line.size(); ++c) {
            const std::string padding(widths[c] - character_count(line[c]), ' ');
            text += c == 0 ? line[c] + padding : padding + line[c];
            if (c + 1 < line.size()) text += "  ";
        }
        while (!text.empty() && text.back() == ' ') text.pop_back();
        out << text << '\n';
    }
}

}  // namespace parasight::cli
