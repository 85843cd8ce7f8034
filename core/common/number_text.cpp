#include "common/number_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace parasight {

std::optional<std::int64_t> parse_integer(std::string_view text) {
    std::int64_t value = 0;
    const char* begin = text.data();
    const char* end = begin + text.size();
    if (begin != end && *begin == '+') {
        ++begin;
        if (begin != end && *begin == '-') return std::nullopt;  // "+-8" has two signs
    }
    const auto [stop, status] = std::from_chars(begin, end, value);
    if (status != std::errc() || stop != end || begin == end) return std::nullopt;
    return value;
}

bool is_whole_number_text(std::string_view text) noexcept {
    if (!text.empty() && (text.front() == '+' || text.front() == '-')) text.remove_prefix(1);
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::optional<double> parse_number(std::string_view text) {
    double value = 0.0;
    const char* begin = text.data();
    const char* end = begin + text.size();
    if (begin != end && *begin == '+') {
        ++begin;
        if (begin != end && *begin == '-') return std::nullopt;
    }
    const auto [stop, status] = std::from_chars(begin, end, value);
    if (status != std::errc() || stop != end || begin == end || !std::isfinite(value)) return std::nullopt;
    return value;
}

}  // namespace parasight
