#pragma once
// Loading a scenario file: YAML syntax, types, keys, units and ranges, presets with field-by-field overrides, then
// validate() (validation/validate.h) on what was read. Every problem found is reported, each as
// FILE:LINE:COL: message.

#include "validation/validate.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace parasight {

struct LoadResult {
    std::optional<ValidatedScenario> scenario;  // set only when there are no diagnostics
    Diagnostics diagnostics;

    [[nodiscard]] bool ok() const noexcept { return scenario.has_value(); }
};

// `file_name` is what messages call the text.
[[nodiscard]] LoadResult load_scenario_text(std::string_view text, const std::string& file_name);
[[nodiscard]] LoadResult load_scenario_file(const std::filesystem::path& path);

}  // namespace parasight
