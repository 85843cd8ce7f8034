#include "store/point_filter.h"

#include "common/did_you_mean.h"
#include "common/message_text.h"
#include "store/sql_text.h"
#include "store/store_schema.h"
#include "store/sweep_grid.h"
#include "units/quantity.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <optional>
#include <vector>

namespace parasight {

using store::quoted_identifier;
using store::quoted_text;
namespace {

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// A piece of the text and where it starts (0-based).
struct Piece {
    std::string_view text;
    std::size_t at = 0;
};

Piece trimmed(Piece piece) {
    while (!piece.text.empty() && is_space(piece.text.front())) {
        piece.text.remove_prefix(1);
        ++piece.at;
    }
    while (!piece.text.empty() && is_space(piece.text.back())) piece.text.remove_suffix(1);
    return piece;
}

// The clauses: split at "," and at the word "and" (any case).
std::vector<Piece> clauses_of(std::string_view text) {
    std::vector<Piece> clauses;
    std::size_t start = 0;
    const auto lower = [&](std::size_t i) { return static_cast<char>(std::tolower(static_cast<unsigned char>(text[i]))); };
    for (std::size_t i = 0; i <= text.size(); ++i) {
        std::size_t skip = 0;
        if (i == text.size() || text[i] == ',') {
            skip = 1;
        } else if (i + 5 <= text.size() && is_space(text[i]) && lower(i + 1) == 'a' && lower(i + 2) == 'n' &&
                   lower(i + 3) == 'd' && is_space(text[i + 4])) {
            skip = 5;
        }
        if (skip == 0) continue;
        clauses.push_back(trimmed({text.substr(start, i - start), start}));
        start = i + skip;
        i += skip - 1;
    }
    return clauses;
}

std::optional<double> number_of(std::string_view text) {
    double value = 0.0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

bool ends_with(std::string_view text, std::string_view suffix) {
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// A name the filter knows: its SQL, and the unit its values take.
struct Known {
    std::string sql;
    std::optional<units::Dimension> dimension;
};

}  // namespace

std::string PointFilterProblem::located() const {
    return "filter:1:" + std::to_string(column) + ": " + message;
}

Expected<PointFilter, PointFilterProblem> parse_point_filter(std::string_view text,
                                                            std::span<const std::string> axis_paths) {
    PointFilter filter;
    if (trimmed({text, 0}).text.empty()) return filter;
    // What a name may be: the axes, their last parts when those name one axis each, the runs' columns and shares.
    std::vector<std::pair<std::string, Known>> names;
    for (const std::string& path : axis_paths) names.push_back({path, {quoted_identifier(path), std::nullopt}});
    for (const std::string& path : axis_paths) {
        const std::string last = path.substr(path.find_last_of('.') == std::string::npos ? 0 : path.find_last_of('.') + 1);
        const auto same_last = std::count_if(axis_paths.begin(), axis_paths.end(), [&](const std::string& other) {
            return other == last || ends_with(other, "." + last);
        });
        if (same_last == 1 && last != path) names.push_back({last, {quoted_identifier(path), std::nullopt}});
    }
    for (const std::string_view column : store::run_columns()) {
        std::optional<units::Dimension> dimension;
        if (ends_with(column, "_bytes")) dimension = units::Dimension::size;
        if (ends_with(column, "_s")) dimension = units::Dimension::time;
        names.push_back({std::string(column), {quoted_identifier(column), dimension}});
    }
    for (const GridMetric& metric : grid_metrics()) {
        if (ends_with(metric.name, "_share")) names.push_back({std::string(metric.name), {"(" + std::string(metric.sql) + ")", std::nullopt}});
    }

    constexpr std::array<std::string_view, 7> operators{"<=", ">=", "!=", "==", "<", ">", "="};
    std::string where;
    for (const Piece& clause : clauses_of(text)) {
        if (clause.text.empty()) return PointFilterProblem{clause.at + 1, "an empty clause: write a condition between the commas"};
        std::string condition;
        if (clause.text == "fits") {
            condition = "status = 'ok'";
        } else {
            std::size_t op_at = std::string_view::npos;
            std::string_view op;
            for (const std::string_view candidate : operators) {
                const std::size_t found = clause.text.find(candidate);
                if (found != std::string_view::npos && (op_at == std::string_view::npos || found < op_at ||
                                                        (found == op_at && candidate.size() > op.size()))) {
                    op_at = found;
                    op = candidate;
                }
            }
            if (op_at == std::string_view::npos) {
                return PointFilterProblem{clause.at + 1, in_quotes(clause.text) +
                                                             " is no condition: write fits, or NAME OP VALUE with OP "
                                                             "one of < <= > >= = !="};
            }
            const Piece name = trimmed({clause.text.substr(0, op_at), clause.at});
            const Piece value = trimmed({clause.text.substr(op_at + op.size()), clause.at + op_at + op.size()});
            if (name.text.empty()) return PointFilterProblem{clause.at + 1, "a condition names what it compares before " + std::string(op)};
            if (value.text.empty()) return PointFilterProblem{clause.at + op_at + op.size() + 1, "a value follows " + std::string(op)};
            const auto known = std::find_if(names.begin(), names.end(), [&](const auto& n) { return n.first == name.text; });
            if (known == names.end()) {
                std::vector<std::string_view> spelled;
                for (const auto& n : names) spelled.push_back(n.first);
                return PointFilterProblem{name.at + 1, "unknown name " + in_quotes(name.text) +
                                                           did_you_mean_suffix(name.text, spelled) +
                                                           "; a condition names an axis or a result column"};
            }
            std::string literal;
            if (const auto number = number_of(value.text)) {
                if (!std::isfinite(*number)) return PointFilterProblem{value.at + 1, "a value is a finite number"};
                literal = units::format_number(*number);
            } else if (known->second.dimension) {
                const Expected<double> quantity = units::parse_quantity(value.text, *known->second.dimension);
                if (!quantity) return PointFilterProblem{value.at + 1, quantity.error()};
                literal = units::format_number(quantity.value());
            } else {
                literal = quoted_text(value.text);
            }
            condition = known->second.sql + " " + std::string(op == "==" ? "=" : op) + " " + literal;
        }
        where += (where.empty() ? "" : " AND ") + condition;
    }
    filter.where = where;
    return filter;
}

}  // namespace parasight
