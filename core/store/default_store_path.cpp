#include "store/default_store_path.h"

#include <cstdlib>

namespace parasight {

std::optional<std::filesystem::path> default_store_path() {
    // The specification: a relative XDG_DATA_HOME is invalid and is ignored.
    if (const char* data_home = std::getenv("XDG_DATA_HOME"); data_home != nullptr && data_home[0] == '/') {
        return std::filesystem::path(data_home) / "parasight" / "results.db";
    }
    if (const char* home = std::getenv("HOME"); home != nullptr && home[0] == '/') {
        return std::filesystem::path(home) / ".local" / "share" / "parasight" / "results.db";
    }
    return std::nullopt;
}

}  // namespace parasight
