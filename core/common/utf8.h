#pragma once
// UTF-8 text checks: scenario files are UTF-8 text (YAML 1.2 §5.2) of printable characters (§5.1); anything else is
// reported where it starts.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace parasight {

// The byte offset of the first byte that does not start a well-formed UTF-8 sequence (overlong forms, surrogates and
// code points above U+10FFFF included), or nullopt when the whole text is valid.
[[nodiscard]] std::optional<std::size_t> first_invalid_utf8(std::string_view text) noexcept;

struct ControlCharacter {
    std::size_t offset = 0;  // of its first byte
    char32_t code_point = 0;
};

// The first C0 control (U+0000–U+001F), DEL (U+007F) or C1 control (U+0080–U+009F) in well-formed UTF-8 text,
// skipping the ASCII characters listed in `allowed` (e.g. "\t\n\r" for a whole file), or nullopt when there is none.
[[nodiscard]] std::optional<ControlCharacter> first_control_character(std::string_view text,
                                                                      std::string_view allowed = {}) noexcept;

// "U+0000" for 0.
[[nodiscard]] std::string code_point_name(char32_t code_point);

}  // namespace parasight
