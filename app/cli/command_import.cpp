#include "commands.h"

#include "cli_arguments.h"
#include "common/did_you_mean.h"
#include "common/message_text.h"
#include "interop/astra_sim_import.h"
#include "interop/calculon_import.h"
#include "io/atomic_output.h"
#include "io/bounded_file.h"
#include "path_checks.h"
#include "presets/preset_library.h"

#include <memory>
#include <ostream>

namespace parasight::cli {

const std::string_view import_help =
    R"(usage: parasight-cli import astra-sim NETWORK.yml [SYSTEM.json] [--device PRESET] [--model PRESET] [--out FILE]
       parasight-cli import calculon SYSTEM.json MODEL.json EXECUTION.json [--out FILE]

A peer tool's input files as a ParaSight scenario (docs/interop.md), written to standard output or to --out FILE
(atomically). Every conversion is commented in the YAML written; what ParaSight cannot express is refused with
FILE:LINE:COL and the key.

  astra-sim      ASTRA-sim 2.0's analytical network file (topology, npus_count, bandwidth in GB/s of 2^30 bytes
                 per link, latency in ns per link) and optionally its system file (the collective implementation
                 per dimension, preferred-dataset-splits, endpoint-delay, the roofline's peak-perf and local-mem-bw)
  calculon       Calculon's system (processor, memories, networks), model and execution files; the assumptions
                 where Calculon's model and ParaSight's differ are listed at the end of the scenario
  --device ID    astra-sim: the device preset of every NPU (default a100-80gb); ASTRA-sim's roofline, when
                 enabled, sets its peak and memory bandwidth
  --model ID     astra-sim: the model preset that completes the scenario (default gpt2-small), as ASTRA-sim's
                 files describe no model

exit status: 0 ok, 2 bad input, 1 the output could not be written
)";

namespace {

// The preset named by option `name`, checked: nullopt, with the usage error written, when there is none.
std::optional<std::string> preset_option(const Arguments& arguments, std::string_view name, PresetKind kind,
                                         std::string fallback, std::ostream& err, int& status) {
    const std::string id = arguments.option(name).value_or(std::move(fallback));
    if (find_preset(kind, id) != nullptr) return id;
    const std::vector<std::string_view> ids = preset_ids(kind);
    status = usage_error(err, "import", "--" + std::string(name) + ": " + in_quotes(id) + " is not a " +
                                            std::string(name_of(kind, preset_kind_names)) + " preset" +
                                            did_you_mean_suffix(id, ids) + "; the presets are " + join_alternatives(ids));
    return std::nullopt;
}

std::optional<PeerFile> read_peer_file(const std::string& path, std::string_view what, std::ostream& err) {
    auto text = read_bounded_file(path, max_input_file_bytes, what);
    if (!text) {
        err << "parasight-cli import: " << quoted_path(path) << ": " << text.error() << '\n';
        return std::nullopt;
    }
    return PeerFile{path, std::move(text).value()};
}

}  // namespace

int run_import(const std::vector<std::string>& words, std::ostream& out, std::ostream& err) {
    const auto arguments = Arguments::parse(words, OptionSpec{{"device", "model", "out"}, {}, {}});
    if (!arguments) return usage_error(err, "import", arguments.error());
    const auto& positional = arguments->positional();
    const std::vector<std::string_view> tools{"astra-sim", "calculon"};
    if (positional.empty()) return usage_error(err, "import", "name the files' tool: astra-sim or calculon");
    const std::string& tool = positional.front();
    if (tool != "astra-sim" && tool != "calculon") {
        return usage_error(err, "import", "cannot import " + in_quotes(tool) + " files" +
                                              did_you_mean_suffix(tool, tools) + "; the tools are " +
                                              join_alternatives(tools));
    }
    const bool astra_sim = tool == "astra-sim";
    if (astra_sim && (positional.size() < 2 || positional.size() > 3)) {
        return usage_error(err, "import", "astra-sim takes NETWORK.yml and, optionally, SYSTEM.json");
    }
    if (!astra_sim && positional.size() != 4) {
        return usage_error(err, "import", "calculon takes SYSTEM.json MODEL.json EXECUTION.json");
    }
    if (!astra_sim && (arguments->option("device") || arguments->option("model"))) {
        return usage_error(err, "import", "--device and --model are astra-sim's: Calculon's files name both");
    }
    int status = exit_ok;
    const auto device = preset_option(*arguments, "device", PresetKind::device, "a100-80gb", err, status);
    if (!device) return status;
    const auto model = preset_option(*arguments, "model", PresetKind::model, "gpt2-small", err, status);
    if (!model) return status;

    const std::vector<std::string> roles =
        astra_sim ? std::vector<std::string>{"the network file", "the system file"}
                  : std::vector<std::string>{"the system file", "the model file", "the execution file"};
    std::vector<CommandFile> inputs;
    for (std::size_t i = 1; i < positional.size(); ++i) inputs.push_back({roles[i - 1], positional[i], false});
    const auto out_path = arguments->option("out");
    if (out_path) {
        if (const auto refused = refuse_path_clash(err, "import", {{"--out", *out_path, false}}, inputs)) {
            return *refused;
        }
    }
    std::vector<PeerFile> files;
    for (std::size_t i = 1; i < positional.size(); ++i) {
        auto file = read_peer_file(positional[i], (astra_sim ? "an ASTRA-sim" : "a Calculon") + roles[i - 1].substr(3),
                                   err);
        if (!file) return exit_bad_input;
        files.push_back(std::move(*file));
    }
    const auto scenario =
        astra_sim ? import_astra_sim(files[0], files.size() > 1 ? std::optional<PeerFile>(files[1]) : std::nullopt,
                                     PeerImportOptions{*device, *model})
                  : import_calculon(files[0], files[1], files[2]);
    if (!scenario) {
        for (const Diagnostic& diagnostic : scenario.error()) err << diagnostic.to_string() << '\n';
        return exit_bad_input;
    }
    if (!out_path) {
        out << scenario->yaml;
        return exit_ok;
    }
    auto file = AtomicOutput::open(*out_path);
    if (!file) return usage_error(err, "import", "--out: cannot write " + quoted_path(*out_path) + ": " + file.error());
    (*file)->stream() << scenario->yaml;
    if (auto error = (*file)->commit()) {
        err << "parasight-cli import: writing " << quoted_path(*out_path) << " failed: " << *error << '\n';
        return exit_internal_error;
    }
    out << "wrote " << *out_path << '\n';
    return exit_ok;
}

}  // namespace parasight::cli
