#include "validation/problem_list.h"

#include "common/utf8.h"

#include <cmath>

namespace parasight {

void ProblemList::integer(const std::string& path, std::int64_t value, IntegerRange range) {
    if (auto problem = integer_range_problem(path, value, range)) add(path, std::move(*problem));
}

void ProblemList::quantity(const std::string& path, double value, units::Dimension dimension, QuantityRange range) {
    const std::string shown = std::isfinite(value) ? units::format_quantity(value, dimension) : "infinite";
    if (auto problem = quantity_range_problem(path, value, shown, dimension, range)) add(path, std::move(*problem));
}

void ProblemList::number(const std::string& path, double value, NumberRange range) {
    const std::string shown = std::isfinite(value) ? units::format_number(value) : std::isnan(value) ? "NaN" : "infinite";
    if (auto problem = number_range_problem(path, value, shown, range)) add(path, std::move(*problem));
}

void ProblemList::text(const std::string& path, std::string_view value, bool required) {
    if (value.empty()) {
        if (required) add(path, path + " must not be empty");
        return;
    }
    if (first_invalid_utf8(value)) {
        add(path, path + " is not valid UTF-8 text");
    } else if (const auto control = first_control_character(value)) {
        add(path, path + " holds the control character " + code_point_name(control->code_point) +
                      "; write it on one line of printable text");
    }
}

}  // namespace parasight
