#include "scenario_file/preset_name.h"

#include <yaml-cpp/yaml.h>

namespace parasight {

std::string preset_name(const Preset& preset) {
    try {
        const YAML::Node node = YAML::Load(preset_parse_text(preset));
        // A lesson is named by its title.
        for (const char* key : {"name", "title"}) {
            if (node.IsMap() && node[key] && node[key].IsScalar()) return node[key].Scalar();
        }
    } catch (const YAML::Exception&) {
        // A broken preset is caught by the loader's tests; listings show it without a name.
    }
    return {};
}

}  // namespace parasight
