#pragma once
// The bundled presets (presets/ in the source tree, embedded at build time): devices, models, clusters, scenarios and
// lessons (docs/lessons.md), each a YAML text named by its file.

#include "common/enum_names.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace parasight {

enum class PresetKind { device, model, cluster, scenario, lesson };
extern const std::array<EnumName<PresetKind>, 5> preset_kind_names;  // "device", "model", …

struct Preset {
    PresetKind kind;
    std::string_view id;    // the file name without .yaml
    std::string_view file;  // "presets/models/gpt3-175b.yaml", for messages
    std::string_view text;
};

[[nodiscard]] std::span<const Preset> all_presets() noexcept;
[[nodiscard]] const Preset* find_preset(PresetKind kind, std::string_view id) noexcept;
[[nodiscard]] std::vector<std::string_view> preset_ids(PresetKind kind);

// The text a preset is parsed from: its own with every comment line emptied (a line whose first character after
// spaces is '#'), the lines kept, so that a place in it is the same. The presets' comments — each number's source —
// are about half their bytes, and the YAML parser scans a comment character by character (a sixth of a simulation's
// instructions went to parsing its presets). No preset holds a block scalar, whose '#' lines would be text: the
// loader's tests parse every preset both ways.
[[nodiscard]] std::string preset_parse_text(const Preset& preset);

}  // namespace parasight
