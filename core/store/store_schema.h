#pragma once
// The results database's schema, as the migrations that build it: migration k brings a database from schema version
// k to k + 1 (PRAGMA user_version), so that a database made by an older ParaSight is brought up to date step by step
// and a newer one is recognised and left alone. A migration, once released, never changes; the schema grows by new
// ones. docs/store.md describes every table.

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace parasight::store {

class Database;  // store/sqlite_database.h, internal to core/store

// PRAGMA application_id of every database ParaSight makes: "PSgt" (0x50536774), so that `file` and ParaSight itself
// tell it from other SQLite databases.
inline constexpr int application_id = 0x50536774;

// One step of a migration: SQL that changes the schema, or a conversion of what the database holds (rows, the sweep
// views) that the schema alone cannot say. The tables a version has are what its SQL steps make, in order
// (schema_check.h builds them so, without the conversions).
struct MigrationStep {
    std::string_view sql;
    std::optional<std::string> (*convert)(Database& database) = nullptr;
};
using Migration = std::span<const MigrationStep>;

// Each migration, in order; migrations()[k] takes version k to k + 1, in one transaction.
[[nodiscard]] std::span<const Migration> migrations() noexcept;

// The version this ParaSight writes: the number of migrations.
[[nodiscard]] int current_schema_version() noexcept;

// The columns of the runs table after its id, in the order a reader gets them (a run's warnings are rows of
// run_warnings); a migration that adds a column adds it at the table's end, where this order need not put it.
[[nodiscard]] std::span<const std::string_view> run_columns() noexcept;
// Those names joined with ", ", each after `prefix` (":" makes SQLite's named parameters).
[[nodiscard]] std::string run_column_list(std::string_view prefix = {});

}  // namespace parasight::store
