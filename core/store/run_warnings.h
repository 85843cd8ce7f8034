#pragma once
// A run's warnings in the results database as codes and parameters, not sentences: one row of run_warnings per
// warning (docs/store.md), its code and the parameters its code has (the others NULL), so that a query can filter on
// them — `WHERE code = 'out_of_memory' AND npu = 3` — and a view words them when it shows them
// (export/warning_text.h). A run's `reason` row is why it has its status (a sweep's oom, an oom_estimated point);
// its `warning` rows are the report's warnings, in order. Internal to core/store.

#include "common/warning.h"
#include "store/sqlite_database.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parasight::store {

struct RunWarnings {
    std::optional<Warning> reason;
    std::vector<Warning> warnings;
};

// Stores `warning` as row `position` of run `run_id` in the role "reason" or "warning".
[[nodiscard]] std::optional<std::string> insert_run_warning(Database& database, std::int64_t run_id,
                                                            std::string_view role, std::int64_t position,
                                                            const Warning& warning);

// The warnings of the runs `run_filter` selects (SQL over run_warnings' column run_id, made by the caller from
// numbers, never from user text: "run_id = 7"), by run.
[[nodiscard]] Expected<std::map<std::int64_t, RunWarnings>> read_run_warnings(Database& database,
                                                                             const std::string& run_filter);

// The SQL of a column that lists a run's warning codes as a JSON array in order (`["in_flight_capped"]`), for the
// run aliased `run_alias`: what the sweep views and a run read back hold in their column `warnings`.
[[nodiscard]] std::string warning_codes_column(std::string_view run_alias);

}  // namespace parasight::store
