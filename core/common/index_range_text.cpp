#include "common/index_range_text.h"

#include "common/number_text.h"

namespace parasight {

std::optional<std::pair<std::int64_t, std::int64_t>> parse_index_range(std::string_view text) {
    const auto dots = text.find("..");
    if (dots == std::string_view::npos) {
        const auto single = parse_integer(text);
        if (!single) return std::nullopt;
        return std::pair(*single, *single);
    }
    const auto first = parse_integer(text.substr(0, dots));
    const auto last = parse_integer(text.substr(dots + 2));
    if (!first || !last) return std::nullopt;
    return std::pair(*first, *last);
}

std::string index_range_text(std::int64_t first, std::int64_t last) {
    return first == last ? std::to_string(first) : std::to_string(first) + ".." + std::to_string(last);
}

std::vector<std::pair<std::int64_t, std::int64_t>> index_runs(const std::vector<std::int64_t>& indices) {
    std::vector<std::pair<std::int64_t, std::int64_t>> runs;
    for (std::size_t i = 0; i < indices.size();) {
        std::size_t end = i + 1;
        while (end < indices.size() && indices[end] == indices[end - 1] + 1) ++end;
        runs.emplace_back(indices[i], indices[end - 1]);
        i = end;
    }
    return runs;
}

std::string index_list_text(const std::vector<std::int64_t>& indices) {
    std::string text;
    for (const auto& [first, last] : index_runs(indices)) {
        if (!text.empty()) text += ", ";
        text += index_range_text(first, last);
    }
    return text;
}

}  // namespace parasight
