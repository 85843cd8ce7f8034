#include "commands.h"

#include "cli_arguments.h"
#include "common/did_you_mean.h"
#include "common/message_text.h"
#include "interop/astra_sim_import.h"
#include "io/atomic_output.h"
#include "io/bounded_file.h"
#include "path_checks.h"
#include "presets/preset_library.h"

#include <memory>
#include <ostream>

namespace parasight::cli {

const std::string_view import_help =
    R"(usage: parasight-cli import astra-sim NETWORK.yml [SYSTEM.json] [--device PRESET] [--model PRESET] [--out FILE]

A peer tool's input files as a ParaSight scenario (docs/interop.md), written to standard output or to --out FILE
(atomically). Every conversion is commented in the YAML written; what ParaSight cannot express is refused with
FILE:LINE:COL and the key.

  astra-sim      ASTRA-sim 2.0's analytical network file (topology, npus_count, bandwidth in GB/s of 2^30 bytes
                 per link, latency in ns per link) and optionally its system file (the collective implementation
                 per dimension, preferred-dataset-splits, endpoint-delay, the roofline's peak-perf and local-mem-bw)
  --device ID    the device preset of every NPU (default a100-80gb); ASTRA-sim's roofline, when enabled, sets its
                 peak and memory bandwidth
  --model ID     the model preset that completes the scenario (default gpt2-small): ASTRA-sim's files describe no
                 model

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
    if (positional.empty()) return usage_error(err, "import", "name the files' tool: astra-sim");
    if (positional.front() != "astra-sim") {
        const std::vector<std::string_view> tools{"astra-sim"};
        return usage_error(err, "import", "cannot import " + in_quotes(positional.front()) + " files" +
                                              did_you_mean_suffix(positional.front(), tools) +
                                              "; this ParaSight imports astra-sim");
    }
    if (positional.size() < 2 || positional.size() > 3) {
        return usage_error(err, "import", "astra-sim takes NETWORK.yml and, optionally, SYSTEM.json");
    }
    int status = exit_ok;
    const auto device = preset_option(*arguments, "device", PresetKind::device, "a100-80gb", err, status);
    if (!device) return status;
    const auto model = preset_option(*arguments, "model", PresetKind::model, "gpt2-small", err, status);
    if (!model) return status;

    std::vector<CommandFile> inputs{{"the network file", positional[1], false}};
    if (positional.size() == 3) inputs.push_back({"the system file", positional[2], false});
    const auto out_path = arguments->option("out");
    if (out_path) {
        if (const auto refused = refuse_path_clash(err, "import", {{"--out", *out_path, false}}, inputs)) {
            return *refused;
        }
    }
    const auto network = read_peer_file(positional[1], "an ASTRA-sim network file", err);
    if (!network) return exit_bad_input;
    std::optional<PeerFile> system;
    if (positional.size() == 3) {
        system = read_peer_file(positional[2], "an ASTRA-sim system file", err);
        if (!system) return exit_bad_input;
    }
    const auto scenario = import_astra_sim(*network, system, PeerImportOptions{*device, *model});
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
