#pragma once
// Pieces of YAML text an importer writes by hand (to comment each value): a string as one double-quoted scalar
// that reads back as exactly that string.

#include <string>
#include <string_view>

namespace parasight {

[[nodiscard]] std::string yaml_string(std::string_view text);

}  // namespace parasight
