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

std::string preset_parse_text(const Preset& preset) {
    std::string text;
    text.reserve(preset.text.size());
    std::size_t begin = 0;
    while (begin < preset.text.size()) {
        std::size_t end = preset.text.find('\n', begin);
        if (end == std::string_view::npos) end = preset.text.size();
        const std::string_view line = preset.text.substr(begin, end - begin);
        const std::size_t first = line.find_first_not_of(' ');
        if (first == std::string_view::npos || line[first] != '#') text += line;
        if (end < preset.text.size()) text += '\n';
        begin = end + 1;
    }
    return text;
}

}  // namespace parasight
