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

// A loaded scenario is a validated one, or the diagnostics (now located in the file) that say why not.
using LoadResult = Validation;

// `file_name` is what messages call the text. Relative paths inside it (simulation.measured_operations) start at
// `base_directory`; text with none (an unsaved or generated scenario) must give such paths in full.
[[nodiscard]] LoadResult load_scenario_text(std::string_view text, const std::string& file_name,
                                            const std::filesystem::path& base_directory = {});
// Relative paths inside start at the file's folder.
[[nodiscard]] LoadResult load_scenario_file(const std::filesystem::path& path);

}  // namespace parasight
