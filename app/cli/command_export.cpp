#include "commands.h"

#include "cli_arguments.h"
#include "common/did_you_mean.h"
#include "common/message_text.h"
#include "interop/astra_sim_export.h"
#include "interop/calculon_export.h"
#include "io/atomic_output.h"
#include "path_checks.h"
#include "scenario_file/scenario_loader.h"

#include <filesystem>
#include <memory>
#include <ostream>
#include <system_error>

namespace parasight::cli {

const std::string_view export_help = R"(usage: parasight-cli export astra-sim SCENARIO.yaml --out DIR
       parasight-cli export calculon SCENARIO.yaml --out DIR

A scenario's cluster as a peer tool's input files in DIR (made if absent; each file written atomically), and what the
peer will not model that ParaSight did, on standard output (docs/interop.md).

  astra-sim      DIR/network.yml, ASTRA-sim 2.0's analytical network (per-link bandwidth in its GB of 2^30 bytes,
                 latency in ns; a dimension's efficiency folded into its bandwidth), and DIR/system.json (the
                 collective implementation per dimension, preferred-dataset-splits, endpoint-delay, the roofline).
                 Imported back (parasight-cli import astra-sim), they give the same cluster.
  calculon       DIR/system.json, DIR/model.json and DIR/execution.json, where the scenario fits Calculon's model (a
                 transformer with a two-matrix MLP, each of tp, pp and dp inside one topology dimension, 1F1B or
                 interleaved, ZeRO 1 at most, no offload); every reason it does not is listed. Imported back
                 (parasight-cli import calculon), they give the same scenario.

exit status: 0 ok, 2 bad input, 1 a file could not be written
)";

namespace {

// Every file written or none: each to its temporary, committed only once all are whole.
int write_files(const std::filesystem::path& folder, const std::vector<std::pair<std::string, std::string>>& files,
                std::ostream& err) {
    std::vector<std::unique_ptr<AtomicOutput>> outputs;
    for (const auto& [name, text] : files) {
        auto output = AtomicOutput::open(folder / name);
        if (!output) {
            return usage_error(err, "export", "--out: cannot write " + quoted_path((folder / name).string()) + ": " +
                                                  output.error());
        }
        (*output)->stream() << text;
        outputs.push_back(std::move(output).value());
    }
    for (const auto& output : outputs) {
        if (auto error = output->commit()) {
            err << "parasight-cli export: writing " << quoted_path(output->target().string()) << " failed: " << *error
                << '\n';
            return exit_internal_error;
        }
    }
    return exit_ok;
}

}  // namespace

int run_export(const std::vector<std::string>& words, std::ostream& out, std::ostream& err) {
    const auto arguments = Arguments::parse(words, OptionSpec{{"out"}, {}, {}});
    if (!arguments) return usage_error(err, "export", arguments.error());
    const auto& positional = arguments->positional();
    const std::vector<std::string_view> tools{"astra-sim", "calculon"};
    if (positional.empty()) return usage_error(err, "export", "name the files' tool: astra-sim or calculon");
    const std::string& tool = positional.front();
    if (tool != "astra-sim" && tool != "calculon") {
        return usage_error(err, "export", "cannot export " + in_quotes(tool) + " files" +
                                              did_you_mean_suffix(tool, tools) + "; the tools are " +
                                              join_alternatives(tools));
    }
    if (positional.size() != 2) return usage_error(err, "export", tool + " takes one SCENARIO.yaml");
    const bool astra_sim = tool == "astra-sim";
    const std::vector<std::string> names = astra_sim ? std::vector<std::string>{"network.yml", "system.json"}
                                                     : std::vector<std::string>{"system.json", "model.json",
                                                                                "execution.json"};
    const auto folder_text = arguments->option("out");
    if (!folder_text) return usage_error(err, "export", "--out DIR is required: the folder the files go to");
    const std::filesystem::path folder(*folder_text);
    const std::string& scenario_path = positional[1];
    std::vector<CommandFile> outputs;
    for (const std::string& name : names) outputs.push_back({"--out", folder / name, false});
    if (const auto refused = refuse_path_clash(err, "export", outputs, scenario_inputs(scenario_path))) {
        return *refused;
    }
    const LoadResult loaded = load_scenario_file(scenario_path);
    if (!loaded.ok()) {
        for (const Diagnostic& diagnostic : loaded.diagnostics) err << diagnostic.to_string() << '\n';
        return exit_bad_input;
    }
    std::vector<std::string> texts;
    std::vector<std::string> not_modelled;
    if (astra_sim) {
        auto exported = export_astra_sim(loaded.scenario->value());
        if (!exported) {
            err << "parasight-cli export: " << quoted_path(scenario_path) << ": " << exported.error() << '\n';
            return exit_bad_input;
        }
        texts = {exported->network_yaml, exported->system_json};
        not_modelled = std::move(exported->not_modelled);
    } else {
        auto exported = export_calculon(loaded.scenario->value());
        if (!exported) {
            err << "parasight-cli export: " << quoted_path(scenario_path) << ": " << exported.error() << '\n';
            return exit_bad_input;
        }
        texts = {exported->system_json, exported->model_json, exported->execution_json};
        not_modelled = std::move(exported->not_modelled);
    }
    std::error_code error;
    std::filesystem::create_directories(folder, error);
    if (error || !std::filesystem::is_directory(folder)) {
        return usage_error(err, "export", "--out: " + quoted_path(folder.string()) + " is not a folder that can be made" +
                                              (error ? " (" + error.message() + ")" : std::string()));
    }
    std::vector<std::pair<std::string, std::string>> files;
    for (std::size_t i = 0; i < names.size(); ++i) files.emplace_back(names[i], texts[i]);
    if (const int status = write_files(folder, files, err); status != exit_ok) return status;
    out << "wrote";
    for (std::size_t i = 0; i < names.size(); ++i) {
        out << (i == 0 ? " " : i + 1 == names.size() ? " and " : ", ") << (folder / names[i]).string();
    }
    out << '\n' << (astra_sim ? "ASTRA-sim" : "Calculon") << " will not model:\n";
    for (const std::string& note : not_modelled) out << "  - " << note << '\n';
    return exit_ok;
}

}  // namespace parasight::cli
