#include "commands.h"

#include "cli_arguments.h"
#include "common/did_you_mean.h"
#include "common/message_text.h"
#include "interop/astra_sim_export.h"
#include "io/atomic_output.h"
#include "path_checks.h"
#include "scenario_file/scenario_loader.h"

#include <filesystem>
#include <memory>
#include <ostream>
#include <system_error>

namespace parasight::cli {

const std::string_view export_help = R"(usage: parasight-cli export astra-sim SCENARIO.yaml --out DIR

A scenario's cluster as a peer tool's input files in DIR (made if absent; each file written atomically), and what the
peer will not model that ParaSight did, on standard output (docs/interop.md).

  astra-sim      DIR/network.yml, ASTRA-sim 2.0's analytical network (per-link bandwidth in its GB of 2^30 bytes,
                 latency in ns; a dimension's efficiency folded into its bandwidth), and DIR/system.json (the
                 collective implementation per dimension, preferred-dataset-splits, endpoint-delay, the roofline).
                 Imported back (parasight-cli import astra-sim), they give the same cluster.

exit status: 0 ok, 2 bad input, 1 a file could not be written
)";

namespace {

// Both files written or neither: each to its temporary, committed only once both are whole.
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
    if (positional.empty()) return usage_error(err, "export", "name the files' tool: astra-sim");
    if (positional.front() != "astra-sim") {
        const std::vector<std::string_view> tools{"astra-sim"};
        return usage_error(err, "export", "cannot export " + in_quotes(positional.front()) + " files" +
                                              did_you_mean_suffix(positional.front(), tools) +
                                              "; this ParaSight exports astra-sim");
    }
    if (positional.size() != 2) return usage_error(err, "export", "astra-sim takes one SCENARIO.yaml");
    const auto folder_text = arguments->option("out");
    if (!folder_text) return usage_error(err, "export", "--out DIR is required: the folder the files go to");
    const std::filesystem::path folder(*folder_text);
    const std::string& scenario_path = positional[1];
    if (const auto refused =
            refuse_path_clash(err, "export", {{"--out", folder / "network.yml", false}, {"--out", folder / "system.json", false}},
                              scenario_inputs(scenario_path))) {
        return *refused;
    }
    const LoadResult loaded = load_scenario_file(scenario_path);
    if (!loaded.ok()) {
        for (const Diagnostic& diagnostic : loaded.diagnostics) err << diagnostic.to_string() << '\n';
        return exit_bad_input;
    }
    const auto exported = export_astra_sim(loaded.scenario->value());
    if (!exported) {
        err << "parasight-cli export: " << quoted_path(scenario_path) << ": " << exported.error() << '\n';
        return exit_bad_input;
    }
    std::error_code error;
    std::filesystem::create_directories(folder, error);
    if (error || !std::filesystem::is_directory(folder)) {
        return usage_error(err, "export", "--out: " + quoted_path(folder.string()) + " is not a folder that can be made" +
                                              (error ? " (" + error.message() + ")" : std::string()));
    }
    if (const int status = write_files(folder, {{"network.yml", exported->network_yaml},
                                                {"system.json", exported->system_json}}, err);
        status != exit_ok) {
        return status;
    }
    out << "wrote " << (folder / "network.yml").string() << " and " << (folder / "system.json").string() << '\n';
    out << "ASTRA-sim will not model:\n";
    for (const std::string& note : exported->not_modelled) out << "  - " << note << '\n';
    return exit_ok;
}

}  // namespace parasight::cli
