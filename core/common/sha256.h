#pragma once
// SHA-256 (FIPS 180-4) of a byte string, as 64 lowercase hex digits — what `sha256sum` prints for the same bytes.
// The results store names scenarios by it, so that the same scenario text is stored once and a reader can check a
// stored scenario against its name with any tool.

#include <string>
#include <string_view>

namespace parasight {

[[nodiscard]] std::string sha256_hex(std::string_view bytes);

}  // namespace parasight
