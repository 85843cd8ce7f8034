#pragma once
// The files a command reads and writes, checked against each other before anything is written (io/path_clash.h):
// an output that is an input, the results database or one of its companion files, or another output is refused
// with exit status 2.

#include "io/path_clash.h"
#include "scenario/scenario.h"

#include <iosfwd>
#include <optional>
#include <string_view>
#include <vector>

namespace parasight::cli {

// The files a scenario file makes a command read: the file itself and, once it is loaded, the measured operations
// table it names (relative to the file's folder).
[[nodiscard]] std::vector<CommandFile> scenario_inputs(const std::filesystem::path& scenario_file,
                                                       const Scenario* loaded = nullptr);

// When an output clashes: "parasight-cli COMMAND: <why>" on err and exit_bad_input; nothing otherwise.
[[nodiscard]] std::optional<int> refuse_path_clash(std::ostream& err, std::string_view command,
                                                   const std::vector<CommandFile>& outputs,
                                                   const std::vector<CommandFile>& inputs);

}  // namespace parasight::cli
