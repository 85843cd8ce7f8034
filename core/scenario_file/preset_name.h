#pragma once
// The `name` a bundled preset gives itself, for listings.

#include "presets/preset_library.h"

#include <string>

namespace parasight {

// Empty when the preset has no name (or its YAML does not parse: the tests catch that).
[[nodiscard]] std::string preset_name(const Preset& preset);

}  // namespace parasight
