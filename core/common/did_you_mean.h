#pragma once
// Suggests the known words a user probably meant, for "unknown key 'tpp' (did you mean 'tp'?)".

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace parasight {

// A spelling people write for a known word that is still not accepted, so that it gets a suggestion although it is
// far from the word in edits: "bfloat16" for bf16, "sec" for s, "Gbps" for Gb/s.
struct SuggestionAlias {
    std::string_view written;
    std::string_view meant;
};

// Edit distance counting a swap of neighbouring characters as one edit (optimal string alignment), case-sensitive.
[[nodiscard]] std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidates `word` was probably meant to be, by the first of these rules that finds any (comparisons ignore
// case; every list keeps the candidates' order, so the answer is deterministic):
//   1. a candidate equal to the word — the first;
//   2. the candidates an alias of the word means (an alias written exactly so wins over one differing in case);
//   3. the candidates the word begins, for a word of at least 2 characters ("A100" → a100-40gb, a100-80gb);
//   4. the candidates containing the word, for a word of at least 3 characters ("batch" → global_batch,
//      micro_batch);
//   5. the candidate fewest edits away, if that is at most a third of the word's length (at least 1, at most 3) —
//      the first of those tied.
// Empty when none applies.
[[nodiscard]] std::vector<std::string> suggestions(std::string_view word, std::span<const std::string_view> candidates,
                                                   std::span<const SuggestionAlias> aliases = {});

// The first suggestion, if any.
[[nodiscard]] std::optional<std::string> closest_match(std::string_view word, std::span<const std::string_view> candidates,
                                                       std::span<const SuggestionAlias> aliases = {});

// " (did you mean 'x'?)", " (did you mean 'x' or 'y'?)", or "" when nothing is suggested.
[[nodiscard]] std::string did_you_mean_suffix(std::string_view word, std::span<const std::string_view> candidates,
                                              std::span<const SuggestionAlias> aliases = {});

// "a, b or c" — for listing what is accepted.
[[nodiscard]] std::string join_alternatives(std::span<const std::string_view> words);

}  // namespace parasight
