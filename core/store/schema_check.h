#pragma once
// Whether a results database of the current schema version really has that schema: a file whose user_version says
// "current" but whose tables were altered or dropped (by hand, by another tool, by damage that SQLite's checks do not
// see) is refused before anything is written to it, rather than failing half-way through a sweep. Internal to
// core/store.

#include "store/sqlite_database.h"

#include <optional>
#include <string>

namespace parasight::store {

// What differs from the tables the migrations make (a table missing, a column missing, added or of another type),
// as a phrase ("its table runs has no column mfu"); nothing when every table matches.
[[nodiscard]] std::optional<std::string> schema_mismatch(Database& database);

}  // namespace parasight::store
