// parasight-cli: the ParaSight core without a window, for scripts and clusters.

#include "commands.h"

#include "common/did_you_mean.h"
#include "common/memory_reuse.h"
#include "common/message_text.h"
#include "io/temporary_files.h"

#include <array>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <exception>
#include <iostream>

namespace parasight::cli {
namespace {

const std::array<Command, 13> commands{{
    {"simulate", "simulate one training iteration and report time, throughput, breakdown and memory", simulate_help,
     run_simulate},
    {"validate", "check scenario files and print every problem as FILE:LINE:COL", validate_help, run_validate},
    {"presets", "list or show the bundled devices, models, clusters and scenarios", presets_help, run_presets},
    {"collective", "time one collective on a scenario's cluster topology", collective_help, run_collective},
    {"memory-transfer", "time a load from host memory, NVMe or a memory pool", memory_transfer_help,
     run_memory_transfer},
    {"sweep", "simulate every combination of axis values and store the results in a database", sweep_help,
     run_sweep},
    {"merge", "join results databases (the shards of a sweep) into one", merge_help, run_merge},
    {"runs", "list, show, export or compare what a results database holds", runs_help, run_runs},
    {"oracle", "ParaDL's closed forms for a CNN: time and memory per strategy and PE count, and their limits",
     oracle_help, run_oracle},
    {"whatif", "iteration time against a delay added to chosen communications, and how much of it overlap hides",
     whatif_help, run_whatif},
    {"lesson", "check a lesson file: every step simulated, every number its text states compared", lesson_help,
     run_lesson},
    {"import", "ASTRA-sim's or Calculon's input files as a ParaSight scenario", import_help, run_import},
    {"export", "a scenario as ASTRA-sim's or Calculon's input files", export_help, run_export},
}};

void print_overview(std::ostream& out) {
    out << "usage: parasight-cli COMMAND [ARGS]\n\n"
           "ParaSight explores the design space of distributed deep-learning training.\n\ncommands:\n";
    for (const Command& command : commands) {
        std::string name(command.name);
        name.resize(17, ' ');
        out << "  " << name << command.summary << '\n';
    }
    out << "\n'parasight-cli COMMAND --help' describes a command. Exit status: 0 ok, 2 bad input, 1 internal error.\n";
}

// A report that did not reach standard output (a full disk, a closed pipe) is a failed command, not a quiet success.
int checked_standard_output(std::string_view command, int status) {
    errno = 0;
    std::cout.flush();
    if (std::cout) return status;
    std::cerr << "parasight-cli " << command << ": cannot write to standard output: "
              << (errno != 0 ? std::strerror(errno) : "the stream failed") << '\n';
    return exit_internal_error;
}

}  // namespace

int usage_error(std::ostream& err, std::string_view command, std::string_view message) {
    err << "parasight-cli " << command << ": " << message << "\nsee 'parasight-cli " << command << " --help'\n";
    return exit_bad_input;
}

}  // namespace parasight::cli

int main(int argc, char** argv) {
    using namespace parasight::cli;
    // A reader that goes away (`| head -c1`) makes a write fail with EPIPE, reported as any failed write is (exit
    // status 1 and the reason), instead of killing the process without a word.
    std::signal(SIGPIPE, SIG_IGN);
    // Ctrl-C, SIGTERM or a closed terminal leaves no temporary file beside an output.
    parasight::remove_temporary_files_on_signals();
    // A sweep's points reuse the memory the points before them freed.
    parasight::keep_freed_memory_for_reuse();
    const std::vector<std::string> words(argv + 1, argv + argc);
    if (words.empty()) {
        print_overview(std::cerr);
        return exit_bad_input;
    }
    if (words[0] == "--help" || words[0] == "-h" || words[0] == "help") {
        print_overview(std::cout);
        return checked_standard_output("--help", exit_ok);
    }
    if (words[0] == "--version") {
        std::cout << "parasight-cli " << PARASIGHT_VERSION << '\n';
        return checked_standard_output("--version", exit_ok);
    }
    for (const Command& command : commands) {
        if (words[0] != command.name) continue;
        const std::vector<std::string> rest(words.begin() + 1, words.end());
        for (const std::string& word : rest) {
            if (word == "--help" || word == "-h") {
                std::cout << command.help;
                return checked_standard_output(command.name, exit_ok);
            }
        }
        int status = exit_ok;
        try {
            status = command.run(rest, std::cout, std::cerr);
        } catch (const std::exception& error) {
            std::cerr << "parasight-cli " << command.name << ": internal error: " << error.what() << '\n';
            return exit_internal_error;
        }
        return checked_standard_output(command.name, status);
    }
    std::vector<std::string_view> names;
    for (const Command& command : commands) names.push_back(command.name);
    std::cerr << "parasight-cli: unknown command " << parasight::in_quotes(words[0])
              << parasight::did_you_mean_suffix(words[0], names) << "\n\n";
    print_overview(std::cerr);
    return exit_bad_input;
}
