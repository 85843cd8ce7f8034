#include "scenario_file/scenario_loader.h"

#include "common/message_text.h"
#include "common/utf8.h"
#include "io/bounded_file.h"
#include "scenario_file/scenario_readers.h"
#include "scenario_file/yaml_text_scan.h"

#include <yaml-cpp/eventhandler.h>

#include <algorithm>
#include <sstream>

namespace parasight {
namespace {

const std::vector<std::string_view> top_level_keys{"schema",      "name",          "model",     "training",
                                                   "cluster",     "parallelism",   "strategy_tree", "simulation"};

// Finds where a second YAML document starts, if any. yaml-cpp 0.7's LoadAll can loop forever on some malformed input
// (yaml-cpp PR #1319), so documents are counted one bounded step at a time instead.
class SecondDocumentFinder : public YAML::EventHandler {
public:
    void OnDocumentStart(const YAML::Mark& mark) override { start_ = mark; }
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
    void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
    void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
    void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
    void OnMapEnd() override {}

    static std::optional<YAML::Mark> find(const std::string& text) {
        // A second document needs a marker at the start of a line before it: `---` or `...` (YAML 1.2, §9.2).
        // Without one, the second parse — a third of a large file's loading time — is not needed.
        if (!has_document_marker(text)) return std::nullopt;
        std::istringstream stream(text);
        YAML::Parser parser(stream);
        SecondDocumentFinder finder;
        if (!parser.HandleNextDocument(finder)) return std::nullopt;
        if (!parser.HandleNextDocument(finder)) return std::nullopt;
        return finder.start_;
    }

private:
    static bool has_document_marker(std::string_view text) {
        for (std::size_t line = 0; line < text.size();) {
            const std::string_view rest = text.substr(line);
            if (rest.starts_with("---") || rest.starts_with("...")) return true;
            const std::size_t end = text.find('\n', line);
            if (end == std::string_view::npos) break;
            line = end + 1;
        }
        return false;
    }

    YAML::Mark start_;
};

void read_scenario(const YAML::Node& root, YamlSource& source, LocationIndex& locations, Scenario& scenario) {
    if (root.IsNull()) {
        source.error(SourceLocation{source.file(), 1, 1}, "the file is empty; a scenario starts with 'schema: 1'");
        return;
    }
    MapReader reader(root, source, "scenario", top_level_keys);
    if (!reader.is_map()) return;
    for (const auto key : top_level_keys) {
        if (reader.has(key)) locations.record(std::string(key), reader.key_location(key));
    }
    if (reader.require("schema") && reader.read_integer("schema", scenario.schema, {1, 1'000'000}) &&
        scenario.schema != current_schema) {
        source.error(reader.value_location("schema"), "schema " + std::to_string(scenario.schema) +
                                                          " is not one this ParaSight reads; write 'schema: " +
                                                          std::to_string(current_schema) + "'");
        return;
    }
    reader.read_string("name", scenario.name);
    for (const auto key : {"model", "training", "cluster", "parallelism", "simulation"}) {
        if (reader.has(key) && reader.value(key).IsNull()) {
            source.error(reader.key_location(key), "'" + std::string(key) + "' has no value; expected a mapping");
            return;
        }
    }
    if (reader.require("model")) read_model(reader.value("model"), source, locations, scenario.model);
    if (reader.require("training")) read_training(reader.value("training"), source, locations, scenario.training);
    if (reader.require("cluster")) read_cluster(reader.value("cluster"), source, locations, scenario.cluster);
    if (reader.has("parallelism")) {
        read_parallelism(reader.value("parallelism"), source, locations, scenario.parallelism);
    }
    if (reader.has("strategy_tree")) {
        read_strategy_tree(reader.value("strategy_tree"), source, locations, scenario.strategy_tree);
    }
    if (reader.has("simulation")) read_simulation(reader.value("simulation"), source, locations, scenario.simulation);
}

// Line and column (both from 1, the column in bytes) of a byte offset into the text.
SourceLocation location_of_offset(std::string_view text, std::size_t offset, const std::string& file_name) {
    const std::string_view before = text.substr(0, offset);
    const auto line = static_cast<int>(std::count(before.begin(), before.end(), '\n')) + 1;
    const auto line_start = before.rfind('\n');
    const int column = static_cast<int>(line_start == std::string_view::npos ? offset : offset - line_start - 1) + 1;
    return SourceLocation{file_name, line, column};
}

bool ends_plain_text(char c) {
    return c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != ',' && c != ':' && c != '[' && c != ']' &&
           c != '{' && c != '}' && c != '"' && c != '\'';
}

// When yaml-cpp stops at a bracket in the middle of an unquoted value inside a flow collection — `{node:
// layer[1].mlp}`, where a bracket cannot be text — a hint to quote the value, written out: ` node: "layer[1].mlp"`.
// Empty when the error is another one.
std::string quote_brackets_hint(std::string_view text, const YAML::Exception& error) {
    if (error.msg != YAML::ErrorMsg::END_OF_MAP_FLOW && error.msg != YAML::ErrorMsg::END_OF_SEQ_FLOW) return {};
    if (error.mark.is_null() || error.mark.pos <= 0) return {};
    const auto at = static_cast<std::size_t>(error.mark.pos);
    if (at >= text.size() || (text[at] != '[' && text[at] != '{') || !ends_plain_text(text[at - 1])) return {};
    std::size_t begin = at;
    while (begin > 0 && ends_plain_text(text[begin - 1])) --begin;
    // The value runs on through balanced brackets to the comma or bracket that ends it.
    std::size_t end = at;
    int depth = 0;
    for (; end < text.size() && text[end] != '\n'; ++end) {
        const char c = text[end];
        if (c == '[' || c == '{') {
            ++depth;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        } else if (depth == 0 && (c == ',' || c == ']' || c == '}' || c == ' ' || c == '\t' || c == '\r')) {
            break;
        }
    }
    // The key it is the value of, if any: "node" in "node: layer[1]".
    std::size_t colon = begin;
    while (colon > 0 && (text[colon - 1] == ' ' || text[colon - 1] == '\t')) --colon;
    std::string key;
    if (colon > 0 && colon < begin && text[colon - 1] == ':') {
        std::size_t key_begin = colon - 1;
        while (key_begin > 0 && ends_plain_text(text[key_begin - 1])) --key_begin;
        key = std::string(text.substr(key_begin, colon - 1 - key_begin)) + ": ";
    }
    return "; within [ ] or { }, quote a value that holds brackets: " + shortened(key) + "\"" +
           shortened(text.substr(begin, end - begin)) + "\"";
}

}  // namespace

LoadResult load_scenario_text(std::string_view text, const std::string& file_name,
                              const std::filesystem::path& base_directory) {
    LoadResult result;
    YamlSource source(file_name, result.diagnostics, base_directory);
    LocationIndex locations;
    locations.set_file(file_name);
    Scenario scenario;
    if (const auto offset = first_invalid_utf8(text)) {
        source.error(location_of_offset(text, *offset, file_name), "the file is not valid UTF-8 text here; save it as UTF-8");
        return result;
    }
    if (const auto control = first_control_character(text, "\t\n\r")) {
        source.error(location_of_offset(text, control->offset, file_name),
                     "the file holds the control character " + code_point_name(control->code_point) +
                         " here; a scenario file is printable text (YAML 1.2 §5.1)");
        return result;
    }
    // Nesting is bounded before yaml-cpp, whose parser recurses once per level, sees the text.
    const YamlTextScan scan = scan_yaml_text(text);
    if (scan.too_deep) {
        source.error(SourceLocation{file_name, scan.too_deep->line, scan.too_deep->column},
                     "lists and mappings are nested too deeply here: the limit is " +
                         std::to_string(max_yaml_nesting_depth) + " levels");
        return result;
    }
    try {
        const std::string owned(text);
        const YAML::Node root = YAML::Load(owned);
        if (const auto second = SecondDocumentFinder::find(owned)) {
            source.error(source.location(*second), "a scenario file holds one YAML document, but a second one starts here");
        } else {
            read_scenario(root, source, locations, scenario);
        }
    } catch (const YAML::Exception& error) {
        const SourceLocation at = source.location(error.mark);
        const auto& tab = scan.first_indentation_tab;
        const std::string tab_message = "tabs are not allowed for indentation in YAML; indent with spaces";
        if (tab && (at.line == 0 || tab->line <= at.line)) {
            // yaml-cpp stumbles some way after the tab ("illegal map value"): name the cause, where it is.
            source.error(SourceLocation{file_name, tab->line, tab->column}, tab_message);
        } else if (error.msg == YAML::ErrorMsg::TAB_IN_INDENTATION) {
            // A tab on a blank or comment line, which yaml-cpp refuses between entries: it points at the tab.
            source.error(at, tab_message);
        } else {
            // yaml-cpp's messages are terse; say that it is the YAML itself that is broken.
            source.error(at, "YAML syntax error: " + error.msg + quote_brackets_hint(text, error));
        }
    }
    if (!result.diagnostics.empty()) return result;
    Validation validation = validate(std::move(scenario));
    for (Diagnostic& diagnostic : validation.diagnostics) {
        diagnostic.location = locations.find(diagnostic.path);
        result.diagnostics.push_back(std::move(diagnostic));
    }
    result.scenario = std::move(validation.scenario);
    return result;
}

LoadResult load_scenario_file(const std::filesystem::path& path) {
    auto text = read_bounded_file(path, max_input_file_bytes, "a scenario file");
    if (!text) {
        LoadResult result;
        result.diagnostics.push_back(
            Diagnostic{SourceLocation{path.string(), 0, 0}, "cannot load the scenario: " + text.error(), {}});
        return result;
    }
    const std::filesystem::path folder = path.parent_path();
    return load_scenario_text(text.value(), path.string(), folder.empty() ? std::filesystem::path(".") : folder);
}

}  // namespace parasight
