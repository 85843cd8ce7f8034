#pragma once
// Pieces every message is built from, so that all of them read alike: a count with its noun ("1 device",
// "8 devices").

#include <cstdint>
#include <string>
#include <string_view>

namespace parasight {

// A count and its noun, singular for exactly 1: count_phrase(1, "device") is "1 device", count_phrase(0, "device")
// "0 devices". Nouns whose plural is not the singular with an "s" give it: count_phrase(2, "entry", "entries").
[[nodiscard]] std::string count_phrase(std::int64_t count, std::string_view singular, std::string_view plural = {});

}  // namespace parasight
