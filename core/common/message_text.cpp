#include "common/message_text.h"

#include <algorithm>

namespace parasight {
namespace {

// A byte that continues a UTF-8 sequence (10xxxxxx) rather than starting a character.
bool is_continuation_byte(char byte) { return (static_cast<unsigned char>(byte) & 0xC0U) == 0x80U; }

struct Cut {
    std::string_view kept;
    std::int64_t omitted = 0;  // characters
};

// The first `limit` characters of `text` and how many follow them.
Cut cut_after(std::string_view text, std::size_t limit) {
    std::size_t characters = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (is_continuation_byte(text[i])) continue;
        if (characters == limit) {
            Cut cut{text.substr(0, i), 0};
            for (std::size_t j = i; j < text.size(); ++j) {
                if (!is_continuation_byte(text[j])) ++cut.omitted;
            }
            return cut;
        }
        ++characters;
    }
    return Cut{text, 0};
}

std::string omitted_phrase(std::int64_t omitted) { return "(" + count_phrase(omitted, "more character") + ")"; }

}  // namespace

std::size_t character_count(std::string_view text) {
    return static_cast<std::size_t>(
        std::count_if(text.begin(), text.end(), [](char byte) { return !is_continuation_byte(byte); }));
}

std::string padded(std::string_view text, std::size_t width) {
    const std::size_t characters = character_count(text);
    std::string result(text);
    if (characters < width) result.append(width - characters, ' ');
    return result;
}

std::string count_phrase(std::int64_t count, std::string_view singular, std::string_view plural) {
    std::string phrase = std::to_string(count) + " ";
    if (count == 1) return phrase + std::string(singular);
    return plural.empty() ? phrase + std::string(singular) + "s" : phrase + std::string(plural);
}

std::string shortened(std::string_view text, std::size_t limit) {
    const Cut cut = cut_after(text, limit);
    if (cut.omitted == 0) return std::string(text);
    return std::string(cut.kept) + "\u2026 " + omitted_phrase(cut.omitted);
}

std::string in_quotes(std::string_view text, std::size_t limit) {
    const Cut cut = cut_after(text, limit);
    if (cut.omitted == 0) return "'" + std::string(text) + "'";
    return "'" + std::string(cut.kept) + "\u2026' " + omitted_phrase(cut.omitted);
}

std::string quoted_path(std::string_view path) { return in_quotes(path, max_echoed_path_characters); }

}  // namespace parasight
