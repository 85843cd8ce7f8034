#pragma once
// A table of measured operation times that replaces the roofline for the operations it names (DistSim's idea:
// profile each distinct operation once, reuse it everywhere it recurs). CSV with a header line:
//
//     operation,pass,time
//     qkv,forward,0.98 ms
//     qkv,backward,1.96 ms
//
// `operation` is one of the names in measured_operation_names, `pass` forward or backward (the optimizer step is
// `optimizer,forward`), `time` a duration with a unit. Blank lines and lines starting with # are ignored.

#include "diagnostics/diagnostic.h"

#include <array>
#include <map>
#include <string>
#include <string_view>

namespace parasight {

enum class Pass { forward, backward };

// Every operation the simulator times.
extern const std::array<std::string_view, 13> measured_operation_names;

// "qkv/forward": the key of an operation and pass in a measured table.
[[nodiscard]] std::string measured_key(std::string_view operation, Pass pass);

// Parses `text` (named `file` in messages). Problems are appended to `diagnostics` with FILE:LINE:COL.
[[nodiscard]] std::map<std::string, double> parse_measured_operations(std::string_view text, const std::string& file,
                                                                      Diagnostics& diagnostics);

}  // namespace parasight
