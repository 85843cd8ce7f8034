#pragma once
// Loading a scenario file: YAML syntax, types, keys, units and ranges, presets with field-by-field overrides, then
// validate() (validation/validate.h) on what was read. Every problem found is reported, each as
// FILE:LINE:COL: message.

#include "validation/validate.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace YAML {
class Node;
}

namespace parasight {

// A loaded scenario is a validated one, or the diagnostics (now located in the file) that say why not.
using LoadResult = Validation;

// `file_name` is what messages call the text. Relative paths inside it (simulation.measured_operations) start at
// `base_directory`; text with none (an unsaved or generated scenario) must give such paths in full.
[[nodiscard]] LoadResult load_scenario_text(std::string_view text, const std::string& file_name,
                                            const std::filesystem::path& base_directory = {});
// The scenario a YAML document already parsed (or built in memory) states, read and validated as
// load_scenario_text reads its text — for a sweep's points, its base parsed once with each point's values set. Nodes
// built in memory have no place in a file: diagnostics about them are located at none.
[[nodiscard]] LoadResult load_scenario_yaml(const YAML::Node& root, const std::string& file_name,
                                            const std::filesystem::path& base_directory = {});
// What the text says, read as the loader reads it but not refused for its problems: an editor's autosave of a
// scenario in the middle of an edit (micro_batch 0 typed, tp not yet matching the devices) reads back as it was.
// `diagnostics` lists what the reading found (not validate()'s cross-checks); `scenario` is empty only when the
// text is not YAML that could be read at all.
struct ReadResult {
    std::optional<Scenario> scenario;
    Diagnostics diagnostics;
};
[[nodiscard]] ReadResult read_scenario_text(std::string_view text, const std::string& file_name,
                                            const std::filesystem::path& base_directory = {});
// Relative paths inside start at the file's folder.
[[nodiscard]] LoadResult load_scenario_file(const std::filesystem::path& path);
// The file read as read_scenario_text reads text: a sweep's base scenario, which its axes may yet make valid.
[[nodiscard]] ReadResult read_scenario_file(const std::filesystem::path& path);

}  // namespace parasight
