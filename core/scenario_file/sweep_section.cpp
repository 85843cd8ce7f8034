#include "scenario_file/sweep_section.h"

#include "io/bounded_file.h"
#include "scenario_file/yaml_reader.h"

#include <yaml-cpp/yaml.h>

namespace parasight {
namespace {

// A YAML scalar, or the error that it is not one.
std::optional<std::string> scalar(const YAML::Node& node, YamlSource& source, const std::string& what) {
    if (node.IsScalar()) return node.Scalar();
    source.error(node, what + " must be a value, found " + std::string(node_type_noun(node)));
    return std::nullopt;
}

void read_axis_entry(const YAML::Node& entry, std::size_t index, YamlSource& source, SweepSection& section) {
    const std::string what = "sweep.axes[" + std::to_string(index) + "]";
    if (!entry.IsMap() || entry.size() == 0) {
        source.error(entry, what + " must map a scenario path to its values (parallelism.tp: [1, 2, 4]), found " +
                                std::string(node_type_noun(entry)));
        return;
    }
    bool first = true;
    for (const auto& item : entry) {
        const std::optional<std::string> path = scalar(item.first, source, what + "'s key");
        if (!path) continue;
        SweepSectionAxis axis;
        axis.path = *path;
        axis.zipped_with_previous = !first;
        axis.location = source.location(item.second);
        first = false;
        if (item.second.IsSequence()) {
            for (std::size_t v = 0; v < item.second.size(); ++v) {
                const auto value = scalar(item.second[v], source, what + "." + *path + "[" + std::to_string(v) + "]");
                if (value) axis.values.push_back(*value);
            }
            if (axis.values.empty()) source.error(item.second, what + "." + *path + " has no values");
        } else if (item.second.IsScalar() && !item.second.Scalar().empty()) {
            axis.text = item.second.Scalar();
        } else {
            source.error(item.first, what + "." + *path + " needs values: a list, or a range such as 1..64 x2");
            continue;
        }
        section.axes.push_back(std::move(axis));
    }
}

}  // namespace

SweepSectionRead read_sweep_section(std::string_view text, const std::string& file_name) {
    SweepSectionRead result;
    YamlSource source(file_name, result.diagnostics);
    const std::optional<YAML::Node> document = load_yaml_document(text, source);
    if (!document) return result;
    const YAML::Node& root = *document;
    if (!root.IsMap() || !root["sweep"]) return result;
    YAML::Emitter out;
    out << YAML::BeginMap << YAML::Key << "sweep" << YAML::Value << root["sweep"] << YAML::EndMap;
    result.yaml = std::string(out.c_str()) + "\n";
    MapReader reader(root["sweep"], source, "sweep", {"axes", "strategies"});
    if (!reader.is_map()) return result;
    SweepSection section;
    if (reader.has("axes")) {
        const YAML::Node axes = reader.value("axes");
        if (!axes.IsSequence()) {
            source.error(reader.value_location("axes"),
                         "sweep.axes must be a list of entries such as - parallelism.tp: [1, 2, 4], found " +
                             std::string(node_type_noun(axes)));
        } else {
            for (std::size_t i = 0; i < axes.size(); ++i) read_axis_entry(axes[i], i, source, section);
        }
    }
    if (const auto strategies = reader.scalar_text("strategies")) {
        section.strategies = *strategies;
        section.strategies_location = reader.value_location("strategies");
    }
    result.section = std::move(section);
    return result;
}

SweepSectionRead read_sweep_section_file(const std::filesystem::path& path) {
    Expected<std::string> text = read_bounded_file(path, max_input_file_bytes, "a scenario file");
    if (!text) {
        SweepSectionRead result;
        result.diagnostics.push_back(Diagnostic{SourceLocation{path.string(), 0, 0},
                                                "cannot load the scenario: " + text.error(), {}});
        return result;
    }
    return read_sweep_section(text.value(), path.string());
}

std::string write_sweep_section_yaml(const SweepSection& section) {
    YAML::Emitter out;
    out << YAML::BeginMap << YAML::Key << "sweep" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "axes" << YAML::Value << YAML::BeginSeq;
    for (std::size_t a = 0; a < section.axes.size();) {
        // An entry holds an axis and those zipped with it.
        out << YAML::Flow << YAML::BeginMap;
        do {
            const SweepSectionAxis& axis = section.axes[a];
            out << YAML::Key << axis.path << YAML::Value;
            if (axis.values.empty()) {
                out << axis.text;
            } else {
                out << YAML::Flow << YAML::BeginSeq;
                for (const std::string& value : axis.values) out << value;
                out << YAML::EndSeq;
            }
            ++a;
        } while (a < section.axes.size() && section.axes[a].zipped_with_previous);
        out << YAML::EndMap;
    }
    out << YAML::EndSeq;
    if (!section.strategies.empty()) out << YAML::Key << "strategies" << YAML::Value << section.strategies;
    out << YAML::EndMap << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
}

}  // namespace parasight
