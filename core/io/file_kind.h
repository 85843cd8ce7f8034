#pragma once
// What a file that is not a regular file is, in words, for messages that refuse it: "a directory", "a FIFO (named
// pipe)", "a character device", …

#include <sys/types.h>

#include <string>

namespace parasight {

[[nodiscard]] std::string file_kind_text(mode_t mode);

}  // namespace parasight
