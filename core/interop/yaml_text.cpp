#include "interop/yaml_text.h"

#include <yaml-cpp/yaml.h>

namespace parasight {

std::string yaml_string(std::string_view text) {
    YAML::Emitter out;
    out << YAML::DoubleQuoted << std::string(text);
    return out.c_str();
}

}  // namespace parasight
