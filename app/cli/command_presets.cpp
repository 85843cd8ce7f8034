#include "commands.h"

#include "cli_arguments.h"
#include "common/did_you_mean.h"
#include "common/message_text.h"
#include "presets/preset_library.h"
#include "scenario_file/preset_name.h"

#include <ostream>

namespace parasight::cli {

const std::string_view presets_help = R"(usage: parasight-cli presets list [KIND]
       parasight-cli presets show [KIND/]ID

The bundled presets: devices, models, clusters, scenarios and lessons. 'list' prints each id with its name; 'show'
prints the preset's YAML, with the source of every number. A scenario refers to a preset by id (model: gpt3-175b)
and may override any of its fields. KIND is one of device, model, cluster, scenario, lesson.

exit status: 0 ok, 2 unknown kind or id
)";

namespace {

int list_presets(const std::vector<std::string>& positional, std::ostream& out, std::ostream& err) {
    std::optional<PresetKind> only;
    if (positional.size() > 2) return usage_error(err, "presets", "list takes at most one KIND");
    if (positional.size() == 2) {
        only = value_of(positional[1], preset_kind_names);
        if (!only) {
            const auto kinds = names_of(preset_kind_names);
            return usage_error(err, "presets", "unknown kind " + in_quotes(positional[1]) +
                                                   did_you_mean_suffix(positional[1], kinds) + "; kinds: " +
                                                   join_alternatives(kinds));
        }
    }
    for (const Preset& preset : all_presets()) {
        if (only && preset.kind != *only) continue;
        std::string kind(name_of(preset.kind, preset_kind_names));
        kind.resize(10, ' ');
        std::string id(preset.id);
        if (id.size() < 18) id.resize(18, ' ');
        out << kind << id << ' ' << preset_name(preset) << '\n';
    }
    return exit_ok;
}

int show_preset(const std::vector<std::string>& positional, std::ostream& out, std::ostream& err) {
    if (positional.size() != 2) return usage_error(err, "presets", "show takes one preset id, e.g. 'show gpt3-175b'");
    std::string id = positional[1];
    std::optional<PresetKind> kind;
    if (const auto slash = id.find('/'); slash != std::string::npos) {
        kind = value_of(std::string_view(id).substr(0, slash), preset_kind_names);
        if (!kind) return usage_error(err, "presets", "unknown kind in " + in_quotes(id));
        id = id.substr(slash + 1);
    }
    std::vector<const Preset*> matches;
    std::vector<std::string_view> ids_of_kind;  // what to suggest from: the presets of KIND when it is given
    for (const Preset& preset : all_presets()) {
        if (kind && preset.kind != *kind) continue;
        ids_of_kind.push_back(preset.id);
        if (preset.id == id) matches.push_back(&preset);
    }
    if (matches.empty()) {
        return usage_error(err, "presets", "no preset " + in_quotes(positional[1]) +
                                               did_you_mean_suffix(id, ids_of_kind) +
                                               "; 'parasight-cli presets list' shows them all");
    }
    if (matches.size() > 1) {
        return usage_error(err, "presets", "'" + id + "' names presets of several kinds; write KIND/" + id);
    }
    out << "# " << matches.front()->file << '\n' << matches.front()->text;
    return exit_ok;
}

}  // namespace

int run_presets(const std::vector<std::string>& words, std::ostream& out, std::ostream& err) {
    const auto arguments = Arguments::parse(words, OptionSpec{});
    if (!arguments) return usage_error(err, "presets", arguments.error());
    const auto& positional = arguments->positional();
    if (positional.empty()) return usage_error(err, "presets", "say 'list' or 'show ID'");
    if (positional[0] == "list") return list_presets(positional, out, err);
    if (positional[0] == "show") return show_preset(positional, out, err);
    return usage_error(err, "presets", "unknown action " + in_quotes(positional[0]) + "; say 'list' or 'show ID'");
}

}  // namespace parasight::cli
