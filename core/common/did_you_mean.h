#pragma once
// Suggests the closest known word for a misspelt one, for "unknown key 'tpp' (did you mean 'tp'?)".

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace parasight {

// Edit distance counting a swap of neighbouring characters as one edit (optimal string alignment), case-sensitive.
[[nodiscard]] std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `word`, if it is close enough to be a plausible typo: a case-insensitive match, or an
// edit distance of at most a third of the word's length (at least 1, at most 3).
[[nodiscard]] std::optional<std::string> closest_match(std::string_view word, std::span<const std::string_view> candidates);

// " (did you mean 'x'?)" or "" when nothing is close.
[[nodiscard]] std::string did_you_mean_suffix(std::string_view word, std::span<const std::string_view> candidates);

// "a, b or c" — for listing what is accepted.
[[nodiscard]] std::string join_alternatives(std::span<const std::string_view> words);

}  // namespace parasight
