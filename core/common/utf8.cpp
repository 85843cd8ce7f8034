#include "common/utf8.h"

#include <array>
#include <cstdio>

namespace parasight {

std::optional<std::size_t> first_invalid_utf8(std::string_view text) noexcept {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    const auto continuation = [&](std::size_t i) { return i < text.size() && (byte(i) & 0xC0) == 0x80; };
    std::size_t i = 0;
    while (i < text.size()) {
        const unsigned char lead = byte(i);
        if (lead < 0x80) {
            ++i;
            continue;
        }
        // RFC 3629 table of well-formed sequences: the second byte's range depends on the lead byte.
        std::size_t length = 0;
        unsigned char low = 0x80;
        unsigned char high = 0xBF;
        if (lead >= 0xC2 && lead <= 0xDF) {
            length = 2;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            length = 3;
            if (lead == 0xE0) low = 0xA0;   // no overlong forms
            if (lead == 0xED) high = 0x9F;  // no surrogates
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            length = 4;
            if (lead == 0xF0) low = 0x90;   // no overlong forms
            if (lead == 0xF4) high = 0x8F;  // nothing above U+10FFFF
        } else {
            return i;
        }
        if (i + 1 >= text.size() || byte(i + 1) < low || byte(i + 1) > high) return i;
        for (std::size_t k = 2; k < length; ++k) {
            if (!continuation(i + k)) return i;
        }
        i += length;
    }
    return std::nullopt;
}

std::optional<ControlCharacter> first_control_character(std::string_view text, std::string_view allowed) noexcept {
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto byte = static_cast<unsigned char>(text[i]);
        if ((byte < 0x20 || byte == 0x7F) && allowed.find(text[i]) == std::string_view::npos) {
            return ControlCharacter{i, byte};
        }
        // U+0080–U+009F are encoded as C2 80 – C2 9F.
        if (byte == 0xC2 && i + 1 < text.size()) {
            const auto next = static_cast<unsigned char>(text[i + 1]);
            if (next >= 0x80 && next <= 0x9F) return ControlCharacter{i, next};
        }
    }
    return std::nullopt;
}

std::string code_point_name(char32_t code_point) {
    std::array<char, 16> buffer{};
    std::snprintf(buffer.data(), buffer.size(), "U+%04X", static_cast<unsigned>(code_point));
    return buffer.data();
}

}  // namespace parasight
