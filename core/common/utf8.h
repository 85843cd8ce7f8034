#pragma once
// UTF-8 validation: scenario files are UTF-8 text (YAML 1.2 §5.2); anything else is reported where it starts.

#include <cstddef>
#include <optional>
#include <string_view>

namespace parasight {

// The byte offset of the first byte that does not start a well-formed UTF-8 sequence (overlong forms, surrogates and
// code points above U+10FFFF included), or nullopt when the whole text is valid.
[[nodiscard]] std::optional<std::size_t> first_invalid_utf8(std::string_view text) noexcept;

}  // namespace parasight
