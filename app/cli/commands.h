#pragma once
// parasight-cli's subcommands. Each returns the process exit code: 0 ok, 2 bad input, 1 internal error.

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace parasight::cli {

inline constexpr int exit_ok = 0;
inline constexpr int exit_internal_error = 1;
inline constexpr int exit_bad_input = 2;
inline constexpr int exit_out_of_memory = 3;  // simulate: the run finished, but a device does not fit in memory

struct Command {
    std::string_view name;
    std::string_view summary;
    std::string_view help;  // full --help text
    int (*run)(const std::vector<std::string>& words, std::ostream& out, std::ostream& err);
};

extern const std::string_view validate_help;
extern const std::string_view presets_help;
extern const std::string_view collective_help;
extern const std::string_view memory_transfer_help;
extern const std::string_view simulate_help;
extern const std::string_view sweep_help;
extern const std::string_view merge_help;
extern const std::string_view runs_help;
extern const std::string_view oracle_help;
extern const std::string_view whatif_help;
extern const std::string_view lesson_help;
extern const std::string_view import_help;
extern const std::string_view export_help;

int run_validate(const std::vector<std::string>& words, std::ostream& out, std::ostream& err);
int run_presets(const std::vector<std::string>& words, std::ostream& out, std::ostream& err);
int run_simulate(const std::vector<std::string>& words, std::ostream& out, std::ostream& err);
int run_collective(const std::vector<std::string>& words, std::ostream& out, std::ostream& err);
int run_memory_transfer(const std::vector<std::string>& words, std::ostream& out, std::ostream& err);
int run_sweep(const std::vector<std::string>& words, std::ostream& out, std::ostream& err);
int run_merge(const std::vector<std::string>& words, std::ostream& out, std::ostream& err);
int run_runs(const std::vector<std::string>& words, std::ostream& out, std::ostream& err);
int run_oracle(const std::vector<std::string>& words, std::ostream& out, std::ostream& err);
int run_whatif(const std::vector<std::string>& words, std::ostream& out, std::ostream& err);
int run_lesson(const std::vector<std::string>& words, std::ostream& out, std::ostream& err);
int run_import(const std::vector<std::string>& words, std::ostream& out, std::ostream& err);
int run_export(const std::vector<std::string>& words, std::ostream& out, std::ostream& err);

// "parasight-cli NAME: message\nsee 'parasight-cli NAME --help'" on err; returns exit_bad_input.
int usage_error(std::ostream& err, std::string_view command, std::string_view message);

}  // namespace parasight::cli
