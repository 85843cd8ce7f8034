#include "scenario/scenario_limits.h"

#include "common/message_text.h"

#include <cmath>

namespace parasight {

std::string integer_beyond_range_problem(std::string_view path, std::string_view shown, IntegerRange range) {
    return std::string(path) + " must be between " + std::to_string(range.min) + " and " + std::to_string(range.max) +
           ", not " + shortened(shown);
}

std::optional<std::string> integer_range_problem(std::string_view path, std::int64_t value, IntegerRange range) {
    if (value >= range.min && value <= range.max) return std::nullopt;
    return integer_beyond_range_problem(path, std::to_string(value), range);
}

std::optional<std::string> quantity_range_problem(std::string_view path, double value, std::string_view shown,
                                                  units::Dimension dimension, QuantityRange range) {
    if (std::isnan(value)) return std::string(path) + " is not a number";
    const bool too_small = range.min_allowed ? value < range.min : value <= range.min;
    if (too_small) {
        if (range.min != 0.0) {
            return std::string(path) + " must be " + (range.min_allowed ? "at least " : "above ") +
                   units::format_quantity(range.min, dimension) + ", got " + in_quotes(shown);
        }
        return std::string(path) + " must not be " + (range.min_allowed ? "negative" : "zero or negative") +
               ", got " + in_quotes(shown);
    }
    if (value > range.max) {
        return std::string(path) + " of " + in_quotes(shown) + " is absurdly large (the limit is " +
               units::format_quantity(range.max, dimension) + ")";
    }
    return std::nullopt;
}

std::optional<std::string> number_range_problem(std::string_view path, double value, std::string_view shown,
                                                NumberRange range) {
    // Written so that NaN, which compares false with everything, is outside every range.
    if (value >= range.min && value <= range.max) return std::nullopt;
    return std::string(path) + " must be between " + units::format_number(range.min) + " and " +
           units::format_number(range.max) + ", not " + shortened(shown);
}

}  // namespace parasight
