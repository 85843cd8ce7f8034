#include "common/did_you_mean.h"

#include <algorithm>
#include <cctype>
#include <numeric>
#include <vector>

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

bool equal_ignoring_case(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

}  // namespace

std::optional<std::string> closest_match(std::string_view word, std::span<const std::string_view> candidates) {
    for (const std::string_view candidate : candidates) {
        if (equal_ignoring_case(word, candidate)) return std::string(candidate);
    }
    const std::size_t allowed = std::clamp<std::size_t>(word.size() / 3, 1, 3);
    std::optional<std::string> best;
    std::size_t best_distance = allowed + 1;
    for (const std::string_view candidate : candidates) {
        const std::size_t distance = edit_distance(word, candidate);
        if (distance < best_distance) {
            best_distance = distance;
            best = std::string(candidate);
        }
    }
    return best;
}

std::string did_you_mean_suffix(std::string_view word, std::span<const std::string_view> candidates) {
    const auto match = closest_match(word, candidates);
    return match ? " (did you mean '" + *match + "'?)" : std::string();
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
