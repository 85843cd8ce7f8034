#include "sweep/sweep_axis.h"

#include "common/message_text.h"
#include "common/number_text.h"
#include "units/quantity.h"

#include <cctype>
#include <cmath>
#include <optional>

namespace parasight {

namespace {

std::string_view trimmed(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    return text;
}

// A number at the start of `text` and what follows it (trimmed), e.g. "400 GB/s" -> 400, "GB/s".
std::optional<std::pair<double, std::string_view>> leading_number(std::string_view text) {
    text = trimmed(text);
    std::size_t end = 0;
    while (end < text.size() && (std::isdigit(static_cast<unsigned char>(text[end])) != 0 || text[end] == '.' ||
                                 text[end] == 'e' || text[end] == 'E' || text[end] == '-' ||
                                 (end > 0 && text[end] == '+' && (text[end - 1] == 'e' || text[end - 1] == 'E')))) {
        ++end;
    }
    const auto number = parse_number(text.substr(0, end));
    if (!number) return std::nullopt;
    return std::pair(*number, trimmed(text.substr(end)));
}

// The dimension `unit` measures, if it is a unit at all.
std::optional<units::Dimension> dimension_of_unit(std::string_view unit) {
    for (const auto dimension : {units::Dimension::size, units::Dimension::bandwidth, units::Dimension::time,
                                 units::Dimension::flop_rate}) {
        if (units::parse_quantity("1 " + std::string(unit), dimension)) return dimension;
    }
    return std::nullopt;
}

Expected<std::vector<std::string>> parse_range(std::string_view text, std::size_t dots) {
    const std::string_view low_text = trimmed(text.substr(0, dots));
    std::string_view rest = trimmed(text.substr(dots + 2));
    // The step: " xK" or " +S[ UNIT]" after the end; "+S" may follow the end's unit at once (0..10ms+0.5ms), where
    // a '+' after a digit's 'e' is an exponent's sign (1e+3).
    std::optional<char> step_kind;
    std::string_view step_text;
    for (std::size_t i = 0; i < rest.size(); ++i) {
        const bool after_space = i > 0 && rest[i - 1] == ' ';
        const bool glued_plus = rest[i] == '+' && i > 0 && rest[i - 1] != 'e' && rest[i - 1] != 'E';
        if (((rest[i] == 'x' || rest[i] == '+') && after_space) || glued_plus) {
            step_kind = rest[i];
            step_text = trimmed(rest.substr(i + 1));
            rest = trimmed(rest.substr(0, i));
            break;
        }
    }
    const auto low = leading_number(low_text);
    const auto high = leading_number(rest);
    if (!low || !low->second.empty()) return Error{"the range's start " + in_quotes(low_text) + " is not a number"};
    if (!high) return Error{"the range's end " + in_quotes(rest) + " is not a number"};
    if (!step_kind) return Error{"a range needs a step: 'xK' to multiply (1..64 x2) or '+S' to add (100..400 GB/s +50 GB/s)"};
    const std::string_view unit = high->second;
    std::optional<units::Dimension> dimension;
    if (!unit.empty()) {
        dimension = dimension_of_unit(unit);
        if (!dimension) return Error{"the range's unit " + in_quotes(unit) + " is not a unit of size, bandwidth, time or FLOP/s"};
    }
    const double scale = dimension ? *units::parse_quantity("1 " + std::string(unit), *dimension) : 1.0;
    const double first = low->first * scale;
    const double last = high->first * scale;
    if (!(last >= first)) return Error{"the range is empty: its end comes before its start"};
    std::vector<std::string> values;
    // In the range's own unit, as the user wrote it: 250 GB/s stays "250 GB/s" (the shortest exact form would be
    // "2 Tb/s").
    const auto write = [&](double value) {
        values.push_back(dimension ? units::format_number(value / scale) + " " + std::string(unit)
                                   : units::format_number(value));
    };
    // A hair of tolerance, so that 0.1 steps reach their end despite rounding.
    const double end = last + std::abs(last) * 1e-12;
    if (*step_kind == 'x') {
        const auto factor = leading_number(step_text);
        if (!factor || !factor->second.empty() || !(factor->first > 1.0)) {
            return Error{"a range's factor must be a number above 1, not " + in_quotes(step_text)};
        }
        if (!(first > 0.0)) return Error{"a range that multiplies must start above 0"};
        for (double value = first; value <= end; value *= factor->first) {
            if (values.size() == max_axis_values) return Error{"the range has more than " + std::to_string(max_axis_values) + " values"};
            write(value);
        }
    } else {
        double step = 0.0;
        if (dimension) {
            const auto parsed = units::parse_quantity(step_text, *dimension);
            if (!parsed) return Error{"the range's step " + in_quotes(step_text) + ": " + parsed.error()};
            step = *parsed;
        } else {
            const auto number = leading_number(step_text);
            if (!number || !number->second.empty()) {
                return Error{"the range's step " + in_quotes(step_text) + " needs the range's unit (the range has none)"};
            }
            step = number->first;
        }
        if (!(step > 0.0)) return Error{"a range's step must be above 0, not " + in_quotes(step_text)};
        for (std::size_t k = 0;; ++k) {
            const double value = first + static_cast<double>(k) * step;  // no accumulated rounding
            if (value > end) break;
            if (values.size() == max_axis_values) return Error{"the range has more than " + std::to_string(max_axis_values) + " values"};
            write(value);
        }
    }
    return values;
}

}  // namespace

Expected<std::vector<std::string>> parse_axis_values(std::string_view text) {
    text = trimmed(text);
    if (text.empty()) return Error{"no values after '='; write a list (1,2,4) or a range (1..64 x2)"};
    if (const std::size_t dots = text.find(".."); dots != std::string_view::npos) return parse_range(text, dots);
    std::vector<std::string> values;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = text.find(',', start);
        const std::string_view value = trimmed(text.substr(start, comma == std::string_view::npos ? text.size() - start : comma - start));
        if (value.empty()) return Error{"an empty value in the list " + in_quotes(text)};
        if (values.size() == max_axis_values) return Error{"more than " + std::to_string(max_axis_values) + " values"};
        values.emplace_back(value);
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    return values;
}

Expected<SweepAxis> parse_sweep_axis(std::string_view spec) {
    const std::size_t equals = spec.find('=');
    if (equals == std::string_view::npos) {
        return Error{"an axis is written PATH=VALUES (e.g. parallelism.tp=1,2,4,8), not " + in_quotes(spec)};
    }
    const std::string_view path = trimmed(spec.substr(0, equals));
    if (path.empty()) return Error{"an axis needs a scenario path before '=' (e.g. parallelism.tp)"};
    auto values = parse_axis_values(spec.substr(equals + 1));
    if (!values) return Error{std::string(path) + ": " + values.error()};
    return SweepAxis{std::string(path), std::move(values).value()};
}

Expected<std::vector<SweepAxis>> parse_sweep_axes(std::string_view spec) {
    std::vector<SweepAxis> axes;
    std::size_t start = 0;
    for (;;) {
        const std::size_t ampersand = spec.find('&', start);
        Expected<SweepAxis> axis = parse_sweep_axis(spec.substr(start, ampersand == std::string_view::npos
                                                                           ? std::string_view::npos
                                                                           : ampersand - start));
        if (!axis) return Error{axis.error()};
        axis.value().zipped_with_previous = !axes.empty();
        if (!axes.empty() && axis.value().values.size() != axes.front().values.size()) {
            return Error{"zipped axes take their values together, so each needs as many: " + axes.front().path +
                         " has " + std::to_string(axes.front().values.size()) + ", " + axis.value().path + " has " +
                         std::to_string(axis.value().values.size())};
        }
        axes.push_back(std::move(axis).value());
        if (ampersand == std::string_view::npos) return axes;
        start = ampersand + 1;
    }
}

}  // namespace parasight
