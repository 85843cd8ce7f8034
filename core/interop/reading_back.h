#pragma once
// Numbers an exporter writes so that the importer reads back exactly the scenario's value: the peers' units differ
// from ParaSight's (ns for s, GB for bytes, a link's bandwidth for an NPU's), so a conversion and its inverse round
// twice; the number written is the one nearest the exact inverse whose import gives the value itself.

#include "units/quantity.h"

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace parasight {

// Of the numbers within a few units in the last place of `guess`, the one `imported` turns into exactly `target`
// whose shortest decimal is shortest (1e-05 rather than 9.999999999999999e-06), nearest `guess` among equals; `guess`
// when none does: the file then holds the nearest decimal, and a re-import differs in the last digit.
template <class Imported>
[[nodiscard]] double reading_back(double guess, double target, Imported imported) {
    constexpr int reach = 16;
    std::optional<double> best;
    std::size_t best_length = 0;
    auto consider = [&](double candidate) {
        if (imported(candidate) != target) return;
        const std::size_t length = units::format_number(candidate).size();
        if (!best || length < best_length) {
            best = candidate;
            best_length = length;
        }
    };
    consider(guess);
    double below = guess;
    double above = guess;
    for (int step = 0; step < reach; ++step) {
        below = std::nextafter(below, -std::numeric_limits<double>::infinity());
        above = std::nextafter(above, std::numeric_limits<double>::infinity());
        consider(below);
        consider(above);
    }
    return best.value_or(guess);
}

// What a scenario makes of `number` written in its shortest decimal with `unit` ("936.25 ns"); NaN when it cannot.
[[nodiscard]] inline double read_as_written(double number, std::string_view unit, units::Dimension dimension) {
    const auto value = units::parse_quantity(units::format_number(number) + " " + std::string(unit), dimension);
    return value ? *value : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace parasight
