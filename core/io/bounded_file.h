#pragma once
// Reading an input file whole, safely: only a regular file (a directory, FIFO, device, socket or a symbolic link that
// loops is refused with what it is), never more than a limit checked before reading (so /dev/zero or a 4 GB file
// cannot exhaust memory, and a FIFO cannot block), and the system's reason when it cannot be read.

#include "common/expected.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace parasight {

// Scenario files and measured-operation tables (docs/scenario-reference.md): far past any real one.
inline constexpr std::uintmax_t max_input_file_bytes = 16U * 1024U * 1024U;

// The file's bytes, or why not, as a sentence about `what` ("a scenario file", "a measured operations table")
// without the path (the caller says where).
[[nodiscard]] Expected<std::string> read_bounded_file(const std::filesystem::path& path, std::uintmax_t max_bytes,
                                                      std::string_view what);

}  // namespace parasight
