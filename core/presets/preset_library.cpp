#include "presets/preset_library.h"

namespace parasight {

// Generated from presets/ by core/presets/embed_presets.cmake.
std::span<const Preset> embedded_presets() noexcept;

const std::array<EnumName<PresetKind>, 5> preset_kind_names{{{PresetKind::device, "device"},
                                                            {PresetKind::model, "model"},
                                                            {PresetKind::cluster, "cluster"},
                                                            {PresetKind::scenario, "scenario"},
                                                            {PresetKind::lesson, "lesson"}}};

std::span<const Preset> all_presets() noexcept { return embedded_presets(); }

const Preset* find_preset(PresetKind kind, std::string_view id) noexcept {
    for (const Preset& preset : all_presets()) {
        if (preset.kind == kind && preset.id == id) return &preset;
    }
    return nullptr;
}

std::vector<std::string_view> preset_ids(PresetKind kind) {
    std::vector<std::string_view> ids;
    for (const Preset& preset : all_presets()) {
        if (preset.kind == kind) ids.push_back(preset.id);
    }
    return ids;
}

}  // namespace parasight
