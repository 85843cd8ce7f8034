#pragma once
// Plain numbers as users write them — in scenario files and on the command line — read the same whatever the C or
// C++ locale (std::from_chars): "1.5" is one and a half under a German locale too. A leading '+' is allowed.

#include <cstdint>
#include <optional>
#include <string_view>

namespace parasight {

// A whole number; nullopt when the text is not one (or does not fit in 64 bits).
[[nodiscard]] std::optional<std::int64_t> parse_integer(std::string_view text);
// Whether the text is written as a whole number — an optional sign and decimal digits — however many digits: what
// tells "100000000000000000000000000" (too large) from "1.5" or "eight" (not whole numbers) when parse_integer
// gives nothing.
[[nodiscard]] bool is_whole_number_text(std::string_view text) noexcept;
// A finite number without a unit; nullopt otherwise.
[[nodiscard]] std::optional<double> parse_number(std::string_view text);

}  // namespace parasight
