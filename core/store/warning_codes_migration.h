#pragma once
// The conversion of migration 3 (store_schema.cpp): the sentences a database of version 2 holds — each run's warnings
// (a JSON array in runs.warnings) and why a sweep's point ran out of memory (runs.reason of oom and oom_estimated
// runs) — read back into codes and parameters (warning_sentences.h) as rows of run_warnings; those reasons are then
// NULL. A sentence this version does not recognise stops the migration, which leaves the database as it was.
// Internal to core/store.

#include "store/sqlite_database.h"

#include <optional>
#include <string>

namespace parasight::store {

[[nodiscard]] std::optional<std::string> convert_warning_sentences(Database& database);

}  // namespace parasight::store
