#pragma once
// Quantities with units, as scenario files write them: `300 GB/s`, `25 Gb/s`, `80 GiB`, `1.5 us`, `312 TFLOP/s`.
// GB = 10^9 B, GiB = 2^30 B, Gb = 10^9 bit. Internally: bytes, bytes/s, seconds and FLOP/s as double.
// Numbers are read and written with std::from_chars and std::to_chars, the same whatever the C and C++ locales say
// (printf would write "17,16 GiB" in a program running under a German locale).

#include "common/did_you_mean.h"
#include "common/expected.h"

#include <array>

#include <string>
#include <string_view>

namespace parasight::units {

enum class Dimension { size, bandwidth, time, flop_rate };

// "a size", "a bandwidth", … — for messages.
[[nodiscard]] std::string_view dimension_noun(Dimension dimension) noexcept;
// Every unit accepted for `dimension`, comma separated, for messages.
[[nodiscard]] std::string accepted_units(Dimension dimension);
// An example value, e.g. "80 GiB", for messages.
[[nodiscard]] std::string_view example_value(Dimension dimension) noexcept;

// Spellings people write for units that are not accepted, since a unit has one spelling in a scenario file, but get
// a suggestion: "1 sec" → 's', "100 Gbps" → 'Gb/s'. parse_quantity passes them to the did-you-mean.
extern const std::array<SuggestionAlias, 36> unit_suggestion_aliases;

// Parses "<number> <unit>" (the space is optional) into base units (bytes, bytes/s, s, FLOP/s).
// A bare number, an unknown unit or a unit of another dimension is an error that names the expected units.
[[nodiscard]] Expected<double> parse_quantity(std::string_view text, Dimension dimension);

// Prints a value in base units with the largest unit that represents it exactly, e.g. 85899345920 -> "80 GiB",
// 3e11 (bandwidth) -> "300 GB/s". parse_quantity(format_quantity(v, d), d) == v for every finite v.
[[nodiscard]] std::string format_quantity(double value, Dimension dimension);

// For people: the largest unit that keeps the number at or above 1, rounded to `significant` digits, e.g.
// 0.00439213 s -> "4.392 ms", 2.6e11 B/s -> "260 GB/s". Sizes and bandwidths use decimal units unless binary ones are
// asked for; past 10^15 of the largest unit, with an exponent ("1e+64 s"); infinity and NaN in words ("infinite",
// "not a number"). Not for round-tripping.
[[nodiscard]] std::string format_readable(double value, Dimension dimension, int significant = 4, bool binary = false);

// Shortest decimal text that reads back as exactly `value`.
[[nodiscard]] std::string format_number(double value);

// For people: `decimals` (0 or more) digits after the point, e.g. (155.3876, 2) -> "155.39", (1.28e8, 0) ->
// "128000000".
[[nodiscard]] std::string format_fixed(double value, int decimals);

}  // namespace parasight::units
