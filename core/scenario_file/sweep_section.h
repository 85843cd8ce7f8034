#pragma once
// The `sweep:` section of a scenario file, read for its shape with every entry's place in the file: what
// `parasight-cli sweep FILE` runs without --axis options. The scenario loader skips the section (a file with one
// simulates as its base scenario); the sweep layer gives the values their meaning (sweep/sweep_definition.h).
//
//   sweep:
//     axes:
//       - parallelism.tp: [1, 2, 4, 8]                     # a list
//       - parallelism.pp: 1..64 x2                         # or a range, as on the command line
//       - {parallelism.recompute: [full, selective],       # several paths in one entry: zipped
//          parallelism.sequence_parallel: [false, true]}
//     strategies: all                                      # optional: all | degrees

#include "diagnostics/diagnostic.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parasight {

struct SweepSectionAxis {
    std::string path;
    std::vector<std::string> values;  // a YAML list's items as written; empty when `text` is given instead
    std::string text;                 // a scalar: values as --axis writes them ("1..64 x2", "1,2,4")
    bool zipped_with_previous = false;
    SourceLocation location;          // of the value
};

struct SweepSection {
    std::vector<SweepSectionAxis> axes;
    std::string strategies;           // "" when absent
    SourceLocation strategies_location;
};

struct SweepSectionRead {
    std::optional<SweepSection> section;  // none when the file has no sweep section
    Diagnostics diagnostics;              // FILE:LINE:COL problems of the section's shape
    // The section as YAML (`sweep:` and what it holds, as yaml-cpp writes it back), empty when there is none: what an
    // editor appends to the scenario it saves (write_scenario_yaml writes no sweep section), so that saving a file
    // keeps its sweep.
    std::string yaml;
};

[[nodiscard]] SweepSectionRead read_sweep_section(std::string_view text, const std::string& file_name);
// The section as a scenario file writes it (`sweep:` first, an entry per axis, zipped axes in one entry, each list in
// flow style with its items as written); read_sweep_section reads it back to the same axes.
[[nodiscard]] std::string write_sweep_section_yaml(const SweepSection& section);
[[nodiscard]] SweepSectionRead read_sweep_section_file(const std::filesystem::path& path);

}  // namespace parasight
