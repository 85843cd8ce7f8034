#pragma once
// The view sweep_<id> of each sweep (docs/store.md): each point's axis values beside its run's columns, its warning
// codes and its scenario's name, for any SQLite client. Internal to core/store.

#include "store/sqlite_database.h"

#include <cstdint>
#include <optional>
#include <string>

namespace parasight::store {

// Makes the view of sweep `sweep_id` unless it exists.
[[nodiscard]] std::optional<std::string> create_sweep_view(Database& database, std::int64_t sweep_id);
// Drops every sweep view; makes one for every sweep (migrations change the tables under them between the two).
[[nodiscard]] std::optional<std::string> drop_sweep_views(Database& database);
[[nodiscard]] std::optional<std::string> create_sweep_views(Database& database);

}  // namespace parasight::store
