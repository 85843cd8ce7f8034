#include "scenario_file/scenario_diff.h"

#include <yaml-cpp/yaml.h>

#include <map>

namespace parasight {
namespace {

// Every scalar of `node` under its path; an empty map or list counts as a value ("{}", "[]").
void flatten(const YAML::Node& node, const std::string& path, std::map<std::string, std::string>& values) {
    if (node.IsMap() && node.size() > 0) {
        for (const auto& entry : node) {
            const std::string key = entry.first.as<std::string>();
            flatten(entry.second, path.empty() ? key : path + "." + key, values);
        }
    } else if (node.IsSequence() && node.size() > 0) {
        for (std::size_t i = 0; i < node.size(); ++i) flatten(node[i], path + "[" + std::to_string(i) + "]", values);
    } else if (node.IsMap()) {
        values[path] = "{}";
    } else if (node.IsSequence()) {
        values[path] = "[]";
    } else if (node.IsScalar()) {
        values[path] = node.Scalar();
    } else {
        values[path] = "";
    }
}

std::map<std::string, std::string> flattened(const std::string& yaml) {
    std::map<std::string, std::string> values;
    try {
        flatten(YAML::Load(yaml), "", values);
    } catch (const YAML::Exception&) {
        values[""] = yaml;
    }
    return values;
}

}  // namespace

std::vector<ScenarioDifference> scenario_differences(const std::string& before_yaml, const std::string& after_yaml) {
    const std::map<std::string, std::string> before = flattened(before_yaml);
    const std::map<std::string, std::string> after = flattened(after_yaml);
    std::vector<ScenarioDifference> differences;
    auto b = before.begin();
    auto a = after.begin();
    // Both maps in key order: one pass, as a merge.
    while (b != before.end() || a != after.end()) {
        if (a == after.end() || (b != before.end() && b->first < a->first)) {
            differences.push_back({b->first, b->second, {}});
            ++b;
        } else if (b == before.end() || a->first < b->first) {
            differences.push_back({a->first, {}, a->second});
            ++a;
        } else {
            if (b->second != a->second) differences.push_back({b->first, b->second, a->second});
            ++b;
            ++a;
        }
    }
    return differences;
}

}  // namespace parasight
