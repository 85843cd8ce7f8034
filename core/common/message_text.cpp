#include "common/message_text.h"

namespace parasight {

std::string count_phrase(std::int64_t count, std::string_view singular, std::string_view plural) {
    std::string phrase = std::to_string(count) + " ";
    if (count == 1) return phrase + std::string(singular);
    return plural.empty() ? phrase + std::string(singular) + "s" : phrase + std::string(plural);
}

}  // namespace parasight
