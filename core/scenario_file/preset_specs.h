#pragma once
// A bundled preset as the value a scenario holds when it names it (`model: gpt3-175b`): read by the same readers as
// a scenario file, so an editor that switches presets gets exactly what loading the file would give.

#include "scenario/scenario.h"

#include <optional>
#include <string_view>

namespace parasight {

// Nothing for an id that is not a bundled preset of that kind.
[[nodiscard]] std::optional<ModelSpec> model_preset_spec(std::string_view id);
[[nodiscard]] std::optional<DeviceSpec> device_preset_spec(std::string_view id);
[[nodiscard]] std::optional<ClusterSpec> cluster_preset_spec(std::string_view id);

}  // namespace parasight
