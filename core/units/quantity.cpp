#include "units/quantity.h"

#include "common/did_you_mean.h"
#include "common/message_text.h"

#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <vector>

namespace parasight::units {
namespace {

struct Unit {
    std::string_view symbol;
    double factor;  // base units per one of this unit: a whole number, or 1 / divisor below
    Dimension dimension;
    bool used_for_printing;  // aliases (µs, μs) are read, never written
    double divisor = 1.0;    // for units below the base unit: 10^k exactly, since 10^-k is not a double

    // Dividing by an exact 10^k rounds once; multiplying by an inexact 10^-k would round twice ("5 us" != 5e-6).
    [[nodiscard]] double to_base(double number) const noexcept { return number * factor / divisor; }
    [[nodiscard]] double from_base(double value) const noexcept { return value * divisor / factor; }
};

constexpr double kilo = 1e3;
constexpr double kibi = 1024.0;

constexpr std::array units{
    Unit{"B", 1.0, Dimension::size, true},
    Unit{"KB", kilo, Dimension::size, true},
    Unit{"MB", kilo * kilo, Dimension::size, true},
    Unit{"GB", kilo * kilo * kilo, Dimension::size, true},
    Unit{"TB", kilo * kilo * kilo * kilo, Dimension::size, true},
    Unit{"KiB", kibi, Dimension::size, true},
    Unit{"MiB", kibi * kibi, Dimension::size, true},
    Unit{"GiB", kibi * kibi * kibi, Dimension::size, true},
    Unit{"TiB", kibi * kibi * kibi * kibi, Dimension::size, true},

    Unit{"B/s", 1.0, Dimension::bandwidth, true},
    Unit{"KB/s", kilo, Dimension::bandwidth, true},
    Unit{"MB/s", kilo * kilo, Dimension::bandwidth, true},
    Unit{"GB/s", kilo * kilo * kilo, Dimension::bandwidth, true},
    Unit{"TB/s", kilo * kilo * kilo * kilo, Dimension::bandwidth, true},
    Unit{"KiB/s", kibi, Dimension::bandwidth, true},
    Unit{"MiB/s", kibi * kibi, Dimension::bandwidth, true},
    Unit{"GiB/s", kibi * kibi * kibi, Dimension::bandwidth, true},
    Unit{"TiB/s", kibi * kibi * kibi * kibi, Dimension::bandwidth, true},
    // Network rates are quoted in bits: 8 bits a byte.
    Unit{"Kb/s", kilo / 8.0, Dimension::bandwidth, true},
    Unit{"Mb/s", kilo * kilo / 8.0, Dimension::bandwidth, true},
    Unit{"Gb/s", kilo * kilo * kilo / 8.0, Dimension::bandwidth, true},
    Unit{"Tb/s", kilo * kilo * kilo * kilo / 8.0, Dimension::bandwidth, true},

    Unit{"ns", 1.0, Dimension::time, true, 1e9},
    Unit{"us", 1.0, Dimension::time, true, 1e6},
    Unit{"\u00b5s", 1.0, Dimension::time, false, 1e6},  // MICRO SIGN
    Unit{"\u03bcs", 1.0, Dimension::time, false, 1e6},  // GREEK SMALL LETTER MU
    Unit{"ms", 1.0, Dimension::time, true, 1e3},
    Unit{"s", 1.0, Dimension::time, true},

    Unit{"FLOP/s", 1.0, Dimension::flop_rate, true},
    Unit{"KFLOP/s", 1e3, Dimension::flop_rate, true},
    Unit{"MFLOP/s", 1e6, Dimension::flop_rate, true},
    Unit{"GFLOP/s", 1e9, Dimension::flop_rate, true},
    Unit{"TFLOP/s", 1e12, Dimension::flop_rate, true},
    Unit{"PFLOP/s", 1e15, Dimension::flop_rate, true},
};

std::vector<std::string_view> symbols_of(Dimension dimension) {
    std::vector<std::string_view> symbols;
    for (const Unit& unit : units) {
        if (unit.dimension == dimension) symbols.push_back(unit.symbol);
    }
    return symbols;
}

const Unit* find_unit(std::string_view symbol) {
    for (const Unit& unit : units) {
        if (unit.symbol == symbol) return &unit;
    }
    return nullptr;
}

std::string_view trim(std::string_view text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos) return {};
    const auto last = text.find_last_not_of(" \t");
    return text.substr(first, last - first + 1);
}

std::string expectation(Dimension dimension) {
    return "expected " + std::string(dimension_noun(dimension)) + " with a unit, e.g. '" +
           std::string(example_value(dimension)) + "' (units: " + accepted_units(dimension) + ")";
}

}  // namespace

// A unit has one spelling in a scenario file; these others are refused with a suggestion.
const std::array<SuggestionAlias, 36> unit_suggestion_aliases{{
    {"sec", "s"},          {"secs", "s"},          {"second", "s"},           {"seconds", "s"},
    {"msec", "ms"},        {"msecs", "ms"},        {"millisecond", "ms"},     {"milliseconds", "ms"},
    {"usec", "us"},        {"usecs", "us"},        {"microsecond", "us"},     {"microseconds", "us"},
    {"nsec", "ns"},        {"nsecs", "ns"},        {"nanosecond", "ns"},      {"nanoseconds", "ns"},
    {"Kbps", "Kb/s"},      {"Mbps", "Mb/s"},       {"Gbps", "Gb/s"},          {"Tbps", "Tb/s"},
    {"KBps", "KB/s"},      {"MBps", "MB/s"},       {"GBps", "GB/s"},          {"TBps", "TB/s"},
    {"Kbit/s", "Kb/s"},    {"Mbit/s", "Mb/s"},     {"Gbit/s", "Gb/s"},        {"Tbit/s", "Tb/s"},
    {"KiBps", "KiB/s"},    {"MiBps", "MiB/s"},     {"GiBps", "GiB/s"},        {"TiBps", "TiB/s"},
    {"bytes", "B"},        {"byte", "B"},          {"FLOPS", "FLOP/s"},       {"TFLOPS", "TFLOP/s"},
}};

std::string_view dimension_noun(Dimension dimension) noexcept {
    switch (dimension) {
    case Dimension::size: return "a size";
    case Dimension::bandwidth: return "a bandwidth";
    case Dimension::time: return "a time";
    case Dimension::flop_rate: return "a compute rate";
    }
    return "a quantity";
}

std::string_view example_value(Dimension dimension) noexcept {
    switch (dimension) {
    case Dimension::size: return "80 GiB";
    case Dimension::bandwidth: return "300 GB/s";
    case Dimension::time: return "1.5 us";
    case Dimension::flop_rate: return "312 TFLOP/s";
    }
    return "";
}

std::string accepted_units(Dimension dimension) {
    std::string text;
    for (const Unit& unit : units) {
        if (unit.dimension != dimension || !unit.used_for_printing) continue;
        if (!text.empty()) text += ", ";
        text += unit.symbol;
    }
    return text;
}

Expected<double> parse_quantity(std::string_view text, Dimension dimension) {
    const std::string_view trimmed = trim(text);
    if (trimmed.empty()) return Error{"empty value; " + expectation(dimension)};

    double number = 0.0;
    const char* begin = trimmed.data();
    const char* end = begin + trimmed.size();
    if (begin != end && *begin == '+') ++begin;
    const auto [number_end, status] = std::from_chars(begin, end, number);
    if (status == std::errc::result_out_of_range) {
        return Error{in_quotes(trimmed) + " is out of range; " + expectation(dimension)};
    }
    if (status != std::errc() || number_end == begin) {
        return Error{in_quotes(trimmed) + " does not start with a number; " + expectation(dimension)};
    }
    if (!std::isfinite(number)) {
        return Error{in_quotes(trimmed) + " is not a finite number; " + expectation(dimension)};
    }
    const std::string_view symbol = trim(std::string_view(number_end, static_cast<std::size_t>(end - number_end)));
    if (symbol.empty()) {
        return Error{in_quotes(trimmed) + " has no unit; " + expectation(dimension)};
    }
    const Unit* unit = find_unit(symbol);
    if (unit == nullptr) {
        const auto candidates = symbols_of(dimension);
        return Error{"unknown unit " + in_quotes(symbol) +
                     did_you_mean_suffix(symbol, candidates, unit_suggestion_aliases) + "; " + expectation(dimension)};
    }
    if (unit->dimension != dimension) {
        return Error{in_quotes(symbol) + " is a unit of " + std::string(dimension_noun(unit->dimension)) +
                     ", not of " + std::string(dimension_noun(dimension)) + "; " + expectation(dimension)};
    }
    const double value = unit->to_base(number);
    if (!std::isfinite(value)) return Error{in_quotes(trimmed) + " is too large"};
    return value;
}

std::string format_number(double value) {
    std::array<char, 64> buffer{};
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
    return std::string(buffer.data(), result.ptr);
}

std::string format_fixed(double value, int decimals) {
    // The longest fixed text of a double: a sign, 309 digits before the point, the point and the decimals.
    std::string text(std::numeric_limits<double>::max_exponent10 + 3 + static_cast<std::size_t>(decimals), '\0');
    const auto result =
        std::to_chars(text.data(), text.data() + text.size(), value, std::chars_format::fixed, decimals);
    text.resize(static_cast<std::size_t>(result.ptr - text.data()));
    return text;
}

std::string format_readable(double value, Dimension dimension, int significant, bool binary) {
    // Said in words rather than as "inf s": no unit makes them a quantity.
    if (std::isnan(value)) return "not a number";
    if (std::isinf(value)) return value > 0 ? "infinite" : "minus infinite";
    // Units of a family are listed small to large: keep the largest that the value reaches.
    const Unit* chosen = nullptr;
    for (const Unit& unit : units) {
        if (unit.dimension != dimension || !unit.used_for_printing) continue;
        if (unit.symbol.find("b/s") != std::string_view::npos) continue;  // people read bytes here
        const bool is_binary = unit.symbol.find('i') != std::string_view::npos;
        if (unit.factor != 1.0 && is_binary != binary) continue;
        if (chosen == nullptr || std::fabs(value) >= unit.to_base(1.0)) chosen = &unit;
    }
    std::array<char, 64> buffer{};
    const double scaled = chosen->from_base(value);
    // Past the largest unit, whole numbers rather than an exponent: "12345 s", not "1.235e+04 s" — up to 10^15,
    // past which the digits would be noise and an exponent reads better ("3.2e+20 s").
    const bool whole = std::fabs(scaled) >= std::pow(10.0, significant) && std::fabs(scaled) < 1e15;
    const auto result = whole ? std::to_chars(buffer.data(), buffer.data() + buffer.size(), std::round(scaled),
                                              std::chars_format::fixed, 0)
                              : std::to_chars(buffer.data(), buffer.data() + buffer.size(), scaled,
                                              std::chars_format::general, significant);
    return std::string(buffer.data(), result.ptr) + " " + std::string(chosen->symbol);
}

std::string format_quantity(double value, Dimension dimension) {
    std::string best;
    bool best_in_bits = false;
    for (const Unit& unit : units) {
        if (unit.dimension != dimension || !unit.used_for_printing) continue;
        const double scaled = unit.from_base(value);
        const bool base_unit = unit.factor == 1.0 && unit.divisor == 1.0;
        if (!base_unit && std::fabs(scaled) < 1.0) continue;
        if (unit.to_base(scaled) != value) continue;  // this unit cannot say the value exactly
        std::string candidate = format_number(scaled) + " " + std::string(unit.symbol);
        // The fewest characters reads best; on a tie bytes beat bits, then the larger unit wins (units are listed
        // small to large).
        const bool in_bits = unit.symbol.find("b/s") != std::string_view::npos;
        const bool shorter = candidate.size() < best.size();
        const bool tie_won = candidate.size() == best.size() && (!in_bits || best_in_bits);
        if (best.empty() || shorter || tie_won) {
            best = std::move(candidate);
            best_in_bits = in_bits;
        }
    }
    if (best.empty()) {
        // Base units always round-trip.
        for (const Unit& unit : units) {
            if (unit.dimension == dimension && unit.factor == 1.0 && unit.divisor == 1.0) {
                return format_number(value) + " " + std::string(unit.symbol);
            }
        }
    }
    return best;
}

}  // namespace parasight::units
