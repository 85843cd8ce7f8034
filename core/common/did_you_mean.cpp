#include "common/did_you_mean.h"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace parasight {

std::size_t edit_distance(std::string_view a, std::string_view b) {
    // Optimal string alignment: insertions, deletions, substitutions and swaps of neighbours ("modle" → "model").
    std::vector<std::size_t> before_previous(b.size() + 1);
    std::vector<std::size_t> previous(b.size() + 1);
    std::vector<std::size_t> current(b.size() + 1);
    std::iota(previous.begin(), previous.end(), std::size_t{0});
    for (std::size_t i = 1; i <= a.size(); ++i) {
        current[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
                current[j] = std::min(current[j], before_previous[j - 2] + 1);
            }
        }
        std::swap(before_previous, previous);
        std::swap(previous, current);
    }
    return previous[b.size()];
}

namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

bool equal_ignoring_case(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return lower(x) == lower(y);
           });
}

bool starts_with_ignoring_case(std::string_view text, std::string_view start) {
    return text.size() >= start.size() && equal_ignoring_case(text.substr(0, start.size()), start);
}

bool contains_ignoring_case(std::string_view text, std::string_view part) {
    if (part.size() > text.size()) return false;
    for (std::size_t i = 0; i + part.size() <= text.size(); ++i) {
        if (equal_ignoring_case(text.substr(i, part.size()), part)) return true;
    }
    return false;
}

// Candidates that pass `test`, in the candidates' order, each once.
template <class Test>
std::vector<std::string> candidates_where(std::span<const std::string_view> candidates, Test test) {
    std::vector<std::string> chosen;
    for (const std::string_view candidate : candidates) {
        if (test(candidate) && std::find(chosen.begin(), chosen.end(), candidate) == chosen.end()) {
            chosen.emplace_back(candidate);
        }
    }
    return chosen;
}

}  // namespace

std::vector<std::string> suggestions(std::string_view word, std::span<const std::string_view> candidates,
                                     std::span<const SuggestionAlias> aliases) {
    for (const std::string_view candidate : candidates) {
        if (equal_ignoring_case(word, candidate)) return {std::string(candidate)};
    }

    const bool written_exactly = std::any_of(aliases.begin(), aliases.end(), [&](const SuggestionAlias& alias) {
        return alias.written == word;
    });
    auto meant_by_alias = candidates_where(candidates, [&](std::string_view candidate) {
        return std::any_of(aliases.begin(), aliases.end(), [&](const SuggestionAlias& alias) {
            const bool same = written_exactly ? alias.written == word : equal_ignoring_case(alias.written, word);
            return same && alias.meant == candidate;
        });
    });
    if (!meant_by_alias.empty()) return meant_by_alias;

    if (word.size() >= 2) {
        auto begun = candidates_where(candidates, [&](std::string_view c) { return starts_with_ignoring_case(c, word); });
        if (!begun.empty()) return begun;
    }
    if (word.size() >= 3) {
        auto containing = candidates_where(candidates, [&](std::string_view c) { return contains_ignoring_case(c, word); });
        if (!containing.empty()) return containing;
    }

    const std::size_t allowed = std::clamp<std::size_t>(word.size() / 3, 1, 3);
    std::optional<std::string_view> best;
    std::size_t best_distance = allowed + 1;
    for (const std::string_view candidate : candidates) {
        // The distance is at least the difference in length: skip the quadratic work for words far too long.
        const std::size_t length_gap = word.size() > candidate.size() ? word.size() - candidate.size()
                                                                      : candidate.size() - word.size();
        if (length_gap >= best_distance) continue;
        const std::size_t distance = edit_distance(word, candidate);
        if (distance < best_distance) {
            best_distance = distance;
            best = candidate;
        }
    }
    if (best) return {std::string(*best)};
    return {};
}

std::optional<std::string> closest_match(std::string_view word, std::span<const std::string_view> candidates,
                                         std::span<const SuggestionAlias> aliases) {
    auto found = suggestions(word, candidates, aliases);
    if (found.empty()) return std::nullopt;
    return std::move(found.front());
}

std::string did_you_mean_suffix(std::string_view word, std::span<const std::string_view> candidates,
                                std::span<const SuggestionAlias> aliases) {
    const auto found = suggestions(word, candidates, aliases);
    if (found.empty()) return {};
    std::string text = " (did you mean ";
    for (std::size_t i = 0; i < found.size(); ++i) {
        if (i > 0) text += (i + 1 == found.size()) ? " or " : ", ";
        text += "'" + found[i] + "'";
    }
    return text + "?)";
}

std::string join_alternatives(std::span<const std::string_view> words) {
    std::string text;
    for (std::size_t i = 0; i < words.size(); ++i) {
        if (i > 0) text += (i + 1 == words.size()) ? " or " : ", ";
        text += words[i];
    }
    return text;
}

}  // namespace parasight
