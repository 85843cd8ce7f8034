#pragma once
// What the commands that use the results database share: where it is, how its errors are told, and a sweep's best
// points printed as a table.

#include "common/expected.h"
#include "export/json_writer.h"
#include "store/stored_table.h"
#include "sweep/sweep_ranking.h"

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parasight::cli {

// --db when given, otherwise the user's default results database (store/default_store_path.h).
[[nodiscard]] Expected<std::filesystem::path> store_location(const std::optional<std::string>& db_option);

// "parasight-cli COMMAND: 'DB' MESSAGE" on err; returns exit_internal_error.
int database_error(std::ostream& err, std::string_view command, const std::filesystem::path& database,
                   const std::string& message);

// "  ok 9 oom 1 oom_estimated 2 invalid 4 failed 0": the points a sweep has stored, by status.
void print_status_counts(std::ostream& out, const SweepSummary& sweep);

// "by_status": {"ok": 9, "oom": 1, …} into a JSON object.
void write_status_counts(JsonWriter& json, const SweepSummary& sweep);

// "best K by METRIC (why):", then the best points as an aligned table: rank, point, each axis, the metric, iteration
// time, MFU, memory.
void print_best_points(std::ostream& out, const StoredTable& best, const std::vector<std::string>& axis_paths,
                       const DefaultRanking& ranking);

// Rows of cells as aligned columns, two spaces apart: the first column left-aligned (names), the others right-aligned
// (numbers), widths counted in characters.
void print_aligned(std::ostream& out, const std::vector<std::vector<std::string>>& cells);

}  // namespace parasight::cli
