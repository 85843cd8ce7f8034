#pragma once
// A problem found in an input, with where it is: `FILE:LINE:COL: message`. Made where the input is read and carried
// to the user unchanged.

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

    // "file:line:col: message" (or "file: message" without a position).
    [[nodiscard]] std::string to_string() const;

    friend bool operator==(const Diagnostic&, const Diagnostic&) = default;
};

using Diagnostics = std::vector<Diagnostic>;

}  // namespace parasight
