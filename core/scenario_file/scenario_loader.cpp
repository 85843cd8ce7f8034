#include "scenario_file/scenario_loader.h"

#include "common/message_text.h"
#include "common/utf8.h"
#include "io/bounded_file.h"
#include "scenario/training_stack.h"
#include "scenario_file/scenario_readers.h"
#include "scenario_file/yaml_text_scan.h"

#include <yaml-cpp/eventhandler.h>

#include <algorithm>
#include <sstream>

namespace parasight {
namespace {

// `sweep` is read by scenario_file/sweep_section.h; a scenario is the same with or without it.
const std::vector<std::string_view> top_level_keys{"schema",      "name",        "model",         "training",
                                                   "cluster",     "parallelism", "strategy_tree", "simulation",
                                                   "what_if",     "sweep"};

// One pass over the events of the text (yaml-cpp's parser, not its node tree), for what the tree does not keep:
// where each alias was used — an alias node carries its anchor's mark — and where a second document starts, if one
// does. yaml-cpp 0.7's LoadAll can loop forever on some malformed input (yaml-cpp PR #1319), so documents are read one
// bounded step at a time instead.
class DocumentEvents : public YAML::EventHandler {
public:
    struct Found {
        AliasUses alias_uses;
        std::optional<YAML::Mark> second_document;
    };

    static Found find(const std::string& text) {
        // The pass is needed only for an alias (`*name`) or a second document, which needs a marker at the start of
        // a line before it: `---` or `...` (YAML 1.2, §9.2). Without either it is skipped — it was a third of a
        // large file's loading time.
        if (text.find('*') == std::string::npos && !has_document_marker(text)) return Found{};
        std::istringstream stream(text);
        YAML::Parser parser(stream);
        DocumentEvents events;
        Found found;
        if (!parser.HandleNextDocument(events)) return found;
        found.alias_uses = std::move(events.alias_uses_);
        if (parser.HandleNextDocument(events)) found.second_document = events.document_start_;
        return found;
    }

    void OnDocumentStart(const YAML::Mark& mark) override {
        document_start_ = mark;
        open_.clear();
        key_of_collection_.clear();
    }
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark&, YAML::anchor_t) override { enter_scalar(std::string()); }
    void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string& value) override {
        enter_scalar(value);
    }
    void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override {
        const bool is_key = begin_node();
        if (is_key) {
            open_.back().key = unreadable_key;
        } else if (alias_uses_.size() < max_recorded_aliases && open_.size() <= max_recorded_depth) {
            alias_uses_.emplace(path_of_next_node(), mark);
        }
        end_node(is_key);
    }
    void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
        enter_collection(false);
    }
    void OnSequenceEnd() override { leave_collection(); }
    void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
        enter_collection(true);
    }
    void OnMapEnd() override { leave_collection(); }

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

    // An open sequence or mapping and where the next node in it goes.
    struct Open {
        bool is_map = false;
        bool expecting_key = true;
        std::string key;        // of the value that comes next, in a mapping
        std::size_t index = 0;  // of the item that comes next, in a sequence
        std::string component;  // this collection's own place in its parent: "cluster", "[1]"
    };

    // No scenario path runs deeper or uses longer keys; aliases beyond the first 10 000 keep their anchor's mark,
    // which bounds the memory a file of nothing but aliases can take.
    static constexpr std::size_t max_recorded_aliases = 10'000;
    static constexpr std::size_t max_recorded_depth = 16;
    static constexpr std::size_t max_recorded_key = 64;
    static constexpr std::string_view unreadable_key = "\x01";  // a key no path holds: complex, aliased or too long

    // Whether the node that starts now is a mapping's key.
    bool begin_node() const { return !open_.empty() && open_.back().is_map && open_.back().expecting_key; }
    void end_node(bool was_key) {
        if (open_.empty()) return;
        Open& parent = open_.back();
        if (parent.is_map) {
            parent.expecting_key = !was_key;
        } else {
            ++parent.index;
        }
    }

    // The path of the node that starts now in the innermost open collection: "cluster.topology[1]".
    std::string path_of_next_node() const {
        std::string path;
        for (std::size_t i = 1; i < open_.size(); ++i) path += open_[i].component;
        if (!open_.empty()) path += next_component(open_.back());
        if (!path.empty() && path.front() == '.') path.erase(0, 1);  // the scenario's keys are paths themselves
        return path;
    }
    static std::string next_component(const Open& parent) {
        return parent.is_map ? "." + parent.key : "[" + std::to_string(parent.index) + "]";
    }

    void enter_scalar(const std::string& value) {
        const bool is_key = begin_node();
        if (is_key) open_.back().key = value.size() <= max_recorded_key ? value : std::string(unreadable_key);
        end_node(is_key);
    }
    void enter_collection(bool is_map) {
        const bool is_key = begin_node();
        Open opened;
        opened.is_map = is_map;
        if (is_key) {
            open_.back().key = unreadable_key;
            opened.component = "." + std::string(unreadable_key);
        } else if (!open_.empty()) {
            opened.component = next_component(open_.back());
        }
        opened.expecting_key = true;
        open_.push_back(std::move(opened));
        key_of_collection_.push_back(is_key);
    }
    void leave_collection() {
        if (open_.empty()) return;
        open_.pop_back();
        const bool was_key = key_of_collection_.back();
        key_of_collection_.pop_back();
        end_node(was_key);
    }

    YAML::Mark document_start_;
    std::vector<Open> open_;
    std::vector<bool> key_of_collection_;
    AliasUses alias_uses_;
};

void read_scenario(const YAML::Node& root, YamlSource& source, LocationIndex& locations, Scenario& scenario) {
    if (root.IsNull()) {
        source.error(SourceLocation{source.file(), 1, 1}, "the file is empty; a scenario starts with 'schema: 1'");
        return;
    }
    MapReader reader(MapReader::DocumentRoot{}, root, source, top_level_keys);
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
    for (const auto key : {"model", "training", "cluster", "parallelism", "simulation", "what_if"}) {
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
    if (reader.has("what_if")) read_what_if(reader.value("what_if"), source, locations, scenario.what_if);
    // The stack (none: ParaSight's defaults, already in place) sets the behaviours the file does not write (parallelism.zero is read by now: DeepSpeed's depends
    // on it).
    apply_stack(scenario, [&](std::string_view path) {
        const auto dot = path.find('.');
        // Const nodes: yaml-cpp's operator[] on a mutable node would add the key it looks for.
        const YAML::Node& document = root;
        const YAML::Node section = document[std::string(path.substr(0, dot))];
        // A missing section is an invalid node, whose IsMap() throws: IsDefined() first.
        if (!section.IsDefined() || !section.IsMap()) return false;
        return static_cast<const YAML::Node&>(section)[std::string(path.substr(dot + 1))].IsDefined();
    });
}

// Line and column (both from 1, the column in bytes) of a byte offset into the text.
SourceLocation location_of_offset(std::string_view text, std::size_t offset, const std::string& file_name) {
    const std::string_view before = text.substr(0, offset);
    const auto line = static_cast<int>(std::count(before.begin(), before.end(), '\n')) + 1;
    const auto line_start = before.rfind('\n');
    const int column = static_cast<int>(line_start == std::string_view::npos ? offset : offset - line_start - 1) + 1;
    return SourceLocation{file_name, line, column};
}

// Everything but validate(): YAML, types, keys, units, presets, ranges. False when the text is not YAML that could
// be read (encoding, nesting, syntax, a second document); else `scenario` holds what it says — values out of range
// included — and `locations` where each path was written. Either way `diagnostics` lists every problem.
bool read_text(std::string_view text, const std::string& file_name, const std::filesystem::path& base_directory,
               Diagnostics& diagnostics, Scenario& scenario, LocationIndex& locations) {
    YamlSource source(file_name, diagnostics, base_directory);
    locations.set_file(file_name);
    bool read = false;
    if (const auto offset = first_invalid_utf8(text)) {
        source.error(location_of_offset(text, *offset, file_name), "the file is not valid UTF-8 text here; save it as UTF-8");
        return false;
    }
    if (const auto control = first_control_character(text, "\t\n\r")) {
        source.error(location_of_offset(text, control->offset, file_name),
                     "the file holds the control character " + code_point_name(control->code_point) +
                         " here; a scenario file is printable text (YAML 1.2 §5.1)");
        return false;
    }
    // Nesting is bounded before yaml-cpp, whose parser recurses once per level, sees the text.
    const YamlTextScan scan = scan_yaml_text(text);
    if (scan.too_deep) {
        source.error(SourceLocation{file_name, scan.too_deep->line, scan.too_deep->column},
                     "lists and mappings are nested too deeply here: the limit is " +
                         std::to_string(max_yaml_nesting_depth) + " levels");
        return false;
    }
    try {
        const std::string owned(text);
        const YAML::Node root = YAML::Load(owned);
        DocumentEvents::Found found = DocumentEvents::find(owned);
        if (found.second_document) {
            source.error(source.location(*found.second_document),
                         "a scenario file holds one YAML document, but a second one starts here");
        } else {
            source.set_alias_uses(std::move(found.alias_uses));
            read_scenario(root, source, locations, scenario);
            read = true;
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
            source.error(at, "YAML syntax error: " + error.msg + yaml_error_hint(text, error));
        }
    }
    return read;
}

// validate() on what was read, its diagnostics located where their paths were written.
void validate_read(Scenario scenario, const LocationIndex& locations, LoadResult& result) {
    Validation validation = validate(std::move(scenario));
    for (Diagnostic& diagnostic : validation.diagnostics) {
        diagnostic.location = locations.find(diagnostic.path);
        result.diagnostics.push_back(std::move(diagnostic));
    }
    result.scenario = std::move(validation.scenario);
}

}  // namespace

LoadResult load_scenario_text(std::string_view text, const std::string& file_name,
                              const std::filesystem::path& base_directory) {
    LoadResult result;
    Scenario scenario;
    LocationIndex locations;
    if (!read_text(text, file_name, base_directory, result.diagnostics, scenario, locations) ||
        !result.diagnostics.empty()) {
        return result;
    }
    validate_read(std::move(scenario), locations, result);
    return result;
}

LoadResult load_scenario_yaml(const YAML::Node& root, const std::string& file_name,
                              const std::filesystem::path& base_directory) {
    LoadResult result;
    Scenario scenario;
    LocationIndex locations;
    YamlSource source(file_name, result.diagnostics, base_directory);
    locations.set_file(file_name);
    read_scenario(root, source, locations, scenario);
    if (!result.diagnostics.empty()) return result;
    validate_read(std::move(scenario), locations, result);
    return result;
}

ReadResult read_scenario_text(std::string_view text, const std::string& file_name,
                              const std::filesystem::path& base_directory) {
    ReadResult result;
    Scenario scenario;
    LocationIndex locations;
    if (read_text(text, file_name, base_directory, result.diagnostics, scenario, locations)) {
        result.scenario = std::move(scenario);
    }
    return result;
}

namespace {

// The file's text, or the diagnostic that says why it cannot be read.
Expected<std::string, Diagnostic> scenario_file_text(const std::filesystem::path& path) {
    auto text = read_bounded_file(path, max_input_file_bytes, "a scenario file");
    if (!text) {
        // A path too long to open is named cut short (the only case where a path past the echo limit is reported).
        return Diagnostic{SourceLocation{shortened(path.string(), max_echoed_path_characters), 0, 0},
                          "cannot load the scenario: " + text.error(), {}};
    }
    return std::move(text).value();
}

std::filesystem::path folder_of(const std::filesystem::path& path) {
    const std::filesystem::path folder = path.parent_path();
    return folder.empty() ? std::filesystem::path(".") : folder;
}

}  // namespace

LoadResult load_scenario_file(const std::filesystem::path& path) {
    Expected<std::string, Diagnostic> text = scenario_file_text(path);
    if (!text) {
        LoadResult result;
        result.diagnostics.push_back(text.error());
        return result;
    }
    return load_scenario_text(text.value(), path.string(), folder_of(path));
}

ReadResult read_scenario_file(const std::filesystem::path& path) {
    Expected<std::string, Diagnostic> text = scenario_file_text(path);
    if (!text) {
        ReadResult result;
        result.diagnostics.push_back(text.error());
        return result;
    }
    return read_scenario_text(text.value(), path.string(), folder_of(path));
}

}  // namespace parasight
