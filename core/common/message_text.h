#pragma once
// Pieces every message is built from, so that all of them read alike: a count with its noun ("1 device",
// "8 devices"), and a user's text echoed back cut short when it is long — a name pasted by mistake, a runaway
// value — so that one bad value cannot bury the rest of the report.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace parasight {

// A count and its noun, singular for exactly 1: count_phrase(1, "device") is "1 device", count_phrase(0, "device")
// "0 devices". Nouns whose plural is not the singular with an "s" give it: count_phrase(2, "entry", "entries").
[[nodiscard]] std::string count_phrase(std::int64_t count, std::string_view singular, std::string_view plural = {});

// How many characters of a user's text a message echoes: names, keys, ids, values.
inline constexpr std::size_t max_echoed_characters = 80;
// Paths are echoed whole, as their end names the file, up to the longest path Linux opens (PATH_MAX).
inline constexpr std::size_t max_echoed_path_characters = 4096;

// A user's text as a message echoes it: whole when it has at most `limit` characters (UTF-8 characters, never cut
// inside one), else its first `limit`, "…" and how many were left out: "llama-llama-… (1920 more characters)".
[[nodiscard]] std::string shortened(std::string_view text, std::size_t limit = max_echoed_characters);

// The UTF-8 characters of `text` ("×" is one), as a terminal gives each a column.
[[nodiscard]] std::size_t character_count(std::string_view text);

// `text` followed by spaces up to `width` characters, for the columns of a table printed in a terminal; longer text is
// left as it is.
[[nodiscard]] std::string padded(std::string_view text, std::size_t width);

// shortened() in single quotes, the count of what was left out after them: 'tpp', 'llama-…' (1920 more characters).
[[nodiscard]] std::string in_quotes(std::string_view text, std::size_t limit = max_echoed_characters);

// A path as a message echoes it: in_quotes() with the path limit. A longer path cannot name a file Linux opens, so
// nothing a user needs is cut, and a runaway argument cannot flood the terminal.
[[nodiscard]] std::string quoted_path(std::string_view path);

}  // namespace parasight
