#include "scenario_file/yaml_reader.h"

#include "scenario_file/yaml_text_scan.h"

#include "common/utf8.h"
#include "common/message_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace parasight {

SourceLocation YamlSource::location(const YAML::Mark& mark) const {
    if (mark.is_null() || mark.line < 0) return SourceLocation{file_, 0, 0};
    return SourceLocation{file_, mark.line + 1, mark.column + 1};
}

std::optional<SourceLocation> YamlSource::alias_use(std::string_view path) const {
    if (alias_uses_.empty()) return std::nullopt;
    // The outermost first: "cluster", "cluster.topology", "cluster.topology[1]", "cluster.topology[1].size".
    for (std::size_t end = 0; end <= path.size(); ++end) {
        if (end < path.size() && path[end] != '.' && path[end] != '[') continue;
        if (const auto it = alias_uses_.find(path.substr(0, end)); it != alias_uses_.end()) return location(it->second);
    }
    return std::nullopt;
}

SourceLocation YamlSource::location_at(std::string_view path, const YAML::Node& node) const {
    if (auto used = alias_use(path)) return *used;
    return location(node);
}

void YamlSource::error(const SourceLocation& where, std::string message) {
    diagnostics_.push_back(Diagnostic{where, std::move(message), {}});
}

std::string_view node_type_noun(const YAML::Node& node) {
    switch (node.Type()) {
    case YAML::NodeType::Map: return "a mapping";
    case YAML::NodeType::Sequence: return "a sequence";
    case YAML::NodeType::Scalar: return "a scalar";
    case YAML::NodeType::Null: return "nothing";
    case YAML::NodeType::Undefined: return "nothing";
    }
    return "something else";
}

MapReader::MapReader(const YAML::Node& node, YamlSource& source, std::string what,
                     std::vector<std::string_view> allowed_keys, std::span<const SuggestionAlias> key_aliases)
    : node_(node), source_(source), what_(std::move(what)), path_(what_) {
    read_keys(std::move(allowed_keys), key_aliases);
}

MapReader::MapReader(DocumentRoot root, const YAML::Node& node, YamlSource& source,
                     std::vector<std::string_view> allowed_keys)
    : node_(node), source_(source), what_(root.name) {
    read_keys(std::move(allowed_keys), {});
}

SourceLocation MapReader::location_of_key(const YAML::Node& key_node) const {
    if (auto used = source_.alias_use(path_)) return *used;
    return source_.location(key_node);
}

void MapReader::read_keys(std::vector<std::string_view> allowed_keys, std::span<const SuggestionAlias> key_aliases) {
    if (!node_.IsMap()) {
        source_.error(location(), what_ + " must be a mapping of keys to values, found " +
                                      std::string(node_type_noun(node_)));
        return;
    }
    is_map_ = true;
    for (auto it = node_.begin(); it != node_.end(); ++it) {
        const YAML::Node key_node = it->first;
        if (!key_node.IsScalar()) {
            source_.error(location_of_key(key_node), "keys in " + what_ + " must be plain words, found " +
                                                         std::string(node_type_noun(key_node)));
            continue;
        }
        const std::string& key = key_node.Scalar();
        if (find(key) != nullptr) {
            source_.error(location_of_key(key_node), "duplicate key " + in_quotes(key) + " in " + what_ +
                                                         " (first given at line " +
                                                         std::to_string(location_of_key(find(key)->key_node).line) +
                                                         ")");
            continue;
        }
        if (std::find(allowed_keys.begin(), allowed_keys.end(), key) == allowed_keys.end()) {
            source_.error(location_of_key(key_node), "unknown key " + in_quotes(key) + " in " + what_ +
                                                         did_you_mean_suffix(key, allowed_keys, key_aliases) +
                                                         "; allowed keys: " + join_alternatives(allowed_keys));
            continue;
        }
        entries_.push_back(Entry{key, key_node, it->second});
    }
}

const MapReader::Entry* MapReader::find(std::string_view key) const {
    for (const Entry& entry : entries_) {
        if (entry.key == key) return &entry;
    }
    return nullptr;
}

bool MapReader::has(std::string_view key) const { return find(key) != nullptr; }

YAML::Node MapReader::value(std::string_view key) const {
    const Entry* entry = find(key);
    return entry != nullptr ? entry->value_node : YAML::Node(YAML::NodeType::Undefined);
}

SourceLocation MapReader::key_location(std::string_view key) const {
    const Entry* entry = find(key);
    return entry != nullptr ? location_of_key(entry->key_node) : location();
}

SourceLocation MapReader::value_location(std::string_view key) const {
    const Entry* entry = find(key);
    if (entry == nullptr) return location();
    if (auto used = source_.alias_use(path(key))) return *used;
    // yaml-cpp places an empty value at the next token, often on the next line: point at the key instead.
    if (entry->value_node.IsNull()) return source_.location(entry->key_node);
    const SourceLocation where = source_.location(entry->value_node);
    return where.line > 0 ? where : source_.location(entry->key_node);
}

bool MapReader::require(std::string_view key) {
    if (!is_map_) return false;
    if (has(key)) return true;
    source_.error(location(), "missing key '" + std::string(key) + "' in " + what_);
    return false;
}

std::optional<std::string> MapReader::scalar_text(std::string_view key) {
    const Entry* entry = find(key);
    if (entry == nullptr) return std::nullopt;
    if (!entry->value_node.IsScalar()) {
        source_.error(value_location(key), path(key) + " must be a single value, found " +
                                               std::string(node_type_noun(entry->value_node)));
        return std::nullopt;
    }
    return entry->value_node.Scalar();
}

bool MapReader::read_integer(std::string_view key, std::int64_t& out, IntegerRange range) {
    const auto text = scalar_text(key);
    if (!text) return false;
    const auto value = parse_integer(*text);
    if (!value) {
        // Digits past 64 bits are a whole number all the same, outside every range: say so, with the range.
        source_.error(value_location(key), is_whole_number_text(*text)
                                               ? integer_beyond_range_problem(path(key), *text, range)
                                               : path(key) + " must be a whole number, not " + in_quotes(*text));
        return false;
    }
    out = *value;  // kept out of range too: read_scenario_text gives the scenario as it is written
    if (const auto problem = integer_range_problem(path(key), *value, range)) {
        source_.error(value_location(key), *problem);
        return false;
    }
    return true;
}

bool MapReader::read_integer(std::string_view key, int& out, IntegerRange range) {
    std::int64_t wide = out;
    const bool read = read_integer(key, wide, range);
    if (wide >= std::numeric_limits<int>::min() && wide <= std::numeric_limits<int>::max()) {
        out = static_cast<int>(wide);
    }
    return read;
}

bool MapReader::read_quantity(std::string_view key, double& out, units::Dimension dimension, QuantityRange range) {
    const auto text = scalar_text(key);
    if (!text) return false;
    const auto value = units::parse_quantity(*text, dimension);
    if (!value) {
        source_.error(value_location(key), path(key) + ": " + value.error());
        return false;
    }
    out = *value;  // kept out of range too, as read_integer
    if (const auto problem = quantity_range_problem(path(key), *value, *text, dimension, range)) {
        source_.error(value_location(key), *problem);
        return false;
    }
    return true;
}

bool MapReader::read_fraction(std::string_view key, double& out, NumberRange range) {
    const auto text = scalar_text(key);
    if (!text) return false;
    const auto value = parse_number(*text);
    if (!value) {
        source_.error(value_location(key), path(key) + " must be a number, not " + in_quotes(*text));
        return false;
    }
    out = *value;  // kept out of range too, as read_integer
    if (const auto problem = number_range_problem(path(key), *value, *text, range)) {
        source_.error(value_location(key), *problem);
        return false;
    }
    return true;
}

bool MapReader::read_bool(std::string_view key, bool& out) {
    const auto text = scalar_text(key);
    if (!text) return false;
    if (*text == "true" || *text == "false") {
        out = *text == "true";
        return true;
    }
    source_.error(value_location(key), path(key) + " must be true or false, not " + in_quotes(*text));
    return false;
}

bool MapReader::read_string(std::string_view key, std::string& out) {
    const auto text = scalar_text(key);
    if (!text) return false;
    if (text->empty()) {
        source_.error(value_location(key), path(key) + " must not be empty");
        return false;
    }
    if (const auto control = first_control_character(*text)) {
        // Escapes in quoted scalars ("\0", "\n", "\t") can carry what the file itself may not.
        source_.error(value_location(key), path(key) + " holds the control character " +
                                               code_point_name(control->code_point) + "; write it on one line of "
                                               "printable text");
        return false;
    }
    out = *text;
    return true;
}

namespace {

bool ends_plain_text(char c) {
    return c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != ',' && c != ':' && c != '[' && c != ']' &&
           c != '{' && c != '}' && c != '"' && c != '\'';
}

}  // namespace

// When yaml-cpp stops at a bracket in the middle of an unquoted value inside a flow collection — `{node:
// layer[1].mlp}`, where a bracket cannot be text — a hint to quote the value, written out: ` node: "layer[1].mlp"`.
// Empty when the error is another one.
std::string yaml_error_hint(std::string_view text, const YAML::Exception& error) {
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

std::optional<YAML::Node> load_yaml_document(std::string_view text, YamlSource& source) {
    const YamlTextScan scan = scan_yaml_text(text);
    if (scan.too_deep) {
        source.error(SourceLocation{source.file(), scan.too_deep->line, scan.too_deep->column},
                     "lists and mappings are nested too deeply here: the limit is " +
                         std::to_string(max_yaml_nesting_depth) + " levels");
        return std::nullopt;
    }
    try {
        return YAML::Load(std::string(text));
    } catch (const YAML::Exception& error) {
        const auto& tab = scan.first_indentation_tab;
        if (tab && (error.mark.is_null() || tab->line <= error.mark.line + 1)) {
            source.error(SourceLocation{source.file(), tab->line, tab->column},
                         "tabs are not allowed for indentation in YAML; indent with spaces");
        } else {
            source.error(source.location(error.mark), "YAML syntax error: " + error.msg + yaml_error_hint(text, error));
        }
        return std::nullopt;
    }
}

}  // namespace parasight
