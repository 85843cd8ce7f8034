#pragma once
// Where results go when no database is named: results.db in ParaSight's folder of the user's data directory, as the
// XDG Base Directory specification places it — $XDG_DATA_HOME/parasight/results.db when XDG_DATA_HOME is an absolute
// path, otherwise $HOME/.local/share/parasight/results.db. Nothing when neither variable gives a place.

#include <filesystem>
#include <optional>

namespace parasight {

[[nodiscard]] std::optional<std::filesystem::path> default_store_path();

}  // namespace parasight
