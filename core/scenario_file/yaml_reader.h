#pragma once
// Typed, located reading of YAML mappings: every wrong type, missing key, unknown key (with a did-you-mean),
// duplicate key or out-of-range value becomes a Diagnostic at the right FILE:LINE:COL. Reading goes on after an error
// so that one pass reports every problem.

#include "common/did_you_mean.h"
#include "common/number_text.h"
#include "common/enum_names.h"
#include "common/message_text.h"
#include "diagnostics/diagnostic.h"
#include "scenario/scenario_limits.h"
#include "units/quantity.h"

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace parasight {

// Where each alias of a file was used, by the path of the node it stands for there ("cluster.topology[1]").
using AliasUses = std::map<std::string, YAML::Mark, std::less<>>;

// The file being read and where its problems go.
class YamlSource {
public:
    // `base_directory`: where relative paths written in the file start (its folder); empty for text with no folder.
    YamlSource(std::string file, Diagnostics& diagnostics, std::filesystem::path base_directory = {})
        : file_(std::move(file)), diagnostics_(diagnostics), base_directory_(std::move(base_directory)) {}

    [[nodiscard]] const std::string& file() const noexcept { return file_; }
    [[nodiscard]] const std::filesystem::path& base_directory() const noexcept { return base_directory_; }
    [[nodiscard]] SourceLocation location(const YAML::Mark& mark) const;
    [[nodiscard]] SourceLocation location(const YAML::Node& node) const { return location(node.Mark()); }
    // yaml-cpp gives an alias node the mark of its anchor, so a value used twice through an alias would be reported
    // twice where it was first written. With the aliases' uses known, a node is located where it was used.
    void set_alias_uses(AliasUses uses) { alias_uses_ = std::move(uses); }
    // Where the node at `path` was written: at the alias that put it there, or put there a node holding it (the
    // outermost such alias, the one written in this part of the file), else at `node`'s own mark.
    [[nodiscard]] SourceLocation location_at(std::string_view path, const YAML::Node& node) const;
    // The use of the alias that put the node at `path`, or a node holding it, there; nullopt when none did.
    [[nodiscard]] std::optional<SourceLocation> alias_use(std::string_view path) const;
    void error(const SourceLocation& where, std::string message);
    void error(const YAML::Node& node, std::string message) { error(location(node), std::move(message)); }
    [[nodiscard]] std::size_t error_count() const noexcept { return diagnostics_.size(); }
    [[nodiscard]] Diagnostics& diagnostics() noexcept { return diagnostics_; }

private:
    std::string file_;
    Diagnostics& diagnostics_;
    std::filesystem::path base_directory_;
    AliasUses alias_uses_;
};

// Reads one YAML mapping whose allowed keys are known. Constructing it reports a non-mapping, unknown keys and
// duplicate keys; each read_* reports problems with that key. A read into a field leaves it untouched when the key
// is absent, so a preset's values survive where the file says nothing.
class MapReader {
public:
    // For a file's own mapping: messages call it `name` ("scenario", "the network file"), its keys' paths are the
    // keys themselves.
    struct DocumentRoot {
        std::string_view name = "scenario";
    };

    // `key_aliases`: spellings of allowed keys that are suggested for an unknown key (dtype_suggestion_aliases).
    // `what` names the mapping in messages and is its path ("cluster.topology[0]").
    MapReader(const YAML::Node& node, YamlSource& source, std::string what, std::vector<std::string_view> allowed_keys,
              std::span<const SuggestionAlias> key_aliases = {});
    MapReader(DocumentRoot root, const YAML::Node& node, YamlSource& source, std::vector<std::string_view> allowed_keys);

    [[nodiscard]] bool is_map() const noexcept { return is_map_; }
    [[nodiscard]] bool has(std::string_view key) const;
    [[nodiscard]] YAML::Node value(std::string_view key) const;  // an undefined node when absent
    [[nodiscard]] SourceLocation key_location(std::string_view key) const;  // the map's location when absent
    [[nodiscard]] SourceLocation location() const { return source_.location_at(path_, node_); }
    [[nodiscard]] const std::string& what() const noexcept { return what_; }
    [[nodiscard]] YamlSource& source() noexcept { return source_; }

    // Reports "missing key" when `key` is absent. Returns whether it is present.
    bool require(std::string_view key);

    bool read_integer(std::string_view key, int& out, IntegerRange range);
    bool read_integer(std::string_view key, std::int64_t& out, IntegerRange range);
    bool read_quantity(std::string_view key, double& out, units::Dimension dimension, QuantityRange range);
    bool read_fraction(std::string_view key, double& out, NumberRange range);  // a plain number
    bool read_bool(std::string_view key, bool& out);
    bool read_string(std::string_view key, std::string& out);

    // `aliases`: spellings that are not accepted but suggested, e.g. dtype_suggestion_aliases.
    template <class Enum, std::size_t N>
    bool read_enum(std::string_view key, Enum& out, const std::array<EnumName<Enum>, N>& names,
                   std::span<const SuggestionAlias> aliases = {}) {
        const auto text = scalar_text(key);
        if (!text) return false;
        if (const auto parsed = value_of(*text, names)) {
            out = *parsed;
            return true;
        }
        const auto candidates = names_of(names);
        source_.error(value_location(key), in_quotes(*text) + " is not a valid " + what_ + "." + std::string(key) +
                                               did_you_mean_suffix(*text, candidates, aliases) + "; expected " +
                                               join_alternatives(candidates));
        return false;
    }

    // The scalar text of `key`, or an error (and nullopt) when it is a mapping or sequence; nullopt when absent.
    [[nodiscard]] std::optional<std::string> scalar_text(std::string_view key);
    [[nodiscard]] SourceLocation value_location(std::string_view key) const;
    [[nodiscard]] std::string path(std::string_view key) const {
        return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
    }

private:
    struct Entry {
        std::string key;
        YAML::Node key_node;
        YAML::Node value_node;
    };
    [[nodiscard]] const Entry* find(std::string_view key) const;
    void read_keys(std::vector<std::string_view> allowed_keys, std::span<const SuggestionAlias> key_aliases);
    // Where a key of this mapping was written: at the alias that put the mapping here, if one did.
    [[nodiscard]] SourceLocation location_of_key(const YAML::Node& key_node) const;

    YAML::Node node_;
    YamlSource& source_;
    std::string what_;
    std::string path_;
    bool is_map_ = false;
    std::vector<Entry> entries_;
};

// When yaml-cpp stops at a bracket in the middle of an unquoted value inside a flow collection — `{node:
// layer[1].mlp}`, where a bracket cannot be text — a hint to quote the value, written out: ` node: "layer[1].mlp"`.
// Empty when the error is another one.
[[nodiscard]] std::string yaml_error_hint(std::string_view text, const YAML::Exception& error);

// `text` as one YAML document, after a look for nesting too deep to parse safely; nothing, with the problem reported
// (too deep, a tab in the indentation, a syntax error with yaml_error_hint), when it is not one. For the files other
// than scenarios: a sweep section, a lesson.
[[nodiscard]] std::optional<YAML::Node> load_yaml_document(std::string_view text, YamlSource& source);

// YAML's node type in words, for "expected a mapping, found a sequence".
[[nodiscard]] std::string_view node_type_noun(const YAML::Node& node);

}  // namespace parasight
