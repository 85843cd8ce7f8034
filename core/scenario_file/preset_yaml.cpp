// Looking up a preset a scenario names and parsing its YAML.
#include "common/message_text.h"
#include "scenario_file/scenario_readers.h"

namespace parasight {

std::optional<YAML::Node> load_preset_yaml(PresetKind kind, const std::string& id, const SourceLocation& referenced_at,
                                           YamlSource& source) {
    const Preset* preset = find_preset(kind, id);
    if (preset == nullptr) {
        const auto ids = preset_ids(kind);
        source.error(referenced_at, "unknown " + std::string(name_of(kind, preset_kind_names)) + " preset " +
                                        in_quotes(id) + did_you_mean_suffix(id, ids) + "; available: " +
                                        join_alternatives(ids));
        return std::nullopt;
    }
    try {
        return YAML::Load(preset_parse_text(*preset));
    } catch (const YAML::Exception& error) {
        source.error(SourceLocation{std::string(preset->file), error.mark.line + 1, error.mark.column + 1},
                     "preset does not parse: " + error.msg);
        return std::nullopt;
    }
}

}  // namespace parasight
