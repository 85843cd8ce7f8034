#include "common/number_text.h"

#include <charconv>
#include <cmath>

namespace parasight {

std::optional<std::int64_t> parse_integer(std::string_view text) {
    std::int64_t value = 0;
    const char* begin = text.data();
    const char* end = begin + text.size();
    if (begin != end && *begin == '+') ++begin;
    const auto [stop, status] = std::from_chars(begin, end, value);
    if (status != std::errc() || stop != end || begin == end) return std::nullopt;
    return value;
}

std::optional<double> parse_number(std::string_view text) {
    double value = 0.0;
    const char* begin = text.data();
    const char* end = begin + text.size();
    if (begin != end && *begin == '+') ++begin;
    const auto [stop, status] = std::from_chars(begin, end, value);
    if (status != std::errc() || stop != end || begin == end || !std::isfinite(value)) return std::nullopt;
    return value;
}

}  // namespace parasight
