#pragma once
// A problem found in an input, with where it is: `FILE:LINE:COL: message` for a file, and the scenario path of the
// value (`parallelism.pp`, `strategy_tree[1].layers`) for a scenario checked in memory. Made where the input is read
// or checked, and carried to the user unchanged.

#include <string>
#include <vector>

namespace parasight {

struct SourceLocation {
    std::string file;
    int line = 0;    // 1-based; 0 when unknown
    int column = 0;  // 1-based; 0 when unknown

    friend bool operator==(const SourceLocation&, const SourceLocation&) = default;
};

struct Diagnostic {
    SourceLocation location;
    std::string message;
    std::string path;  // the scenario value it is about, when known: "parallelism.pp"; empty for file-level problems

    // "file:line:col: message" ("file: message" without a position; "path: message" without a file, or just the
    // message when it starts with the path).
    [[nodiscard]] std::string to_string() const;

    friend bool operator==(const Diagnostic&, const Diagnostic&) = default;
};

using Diagnostics = std::vector<Diagnostic>;

}  // namespace parasight
