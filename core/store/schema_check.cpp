#include "store/schema_check.h"

#include "store/store_schema.h"

#include <map>
#include <vector>

namespace parasight::store {
namespace {

struct Column {
    std::string name;
    std::string type;
    bool operator==(const Column&) const = default;
};

using Tables = std::map<std::string, std::vector<Column>>;

// Every table with its columns in order; views (each sweep adds one) and SQLite's own tables left out.
Expected<Tables> tables_of(Database& database) {
    Expected<Statement> names =
        database.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
    if (!names) return Error{names.error()};
    Tables tables;
    if (auto problem = names.value().each_row([&](const Statement& row) { tables[row.text(0)]; })) {
        return Error{*problem};
    }
    Expected<Statement> columns = database.prepare("SELECT name, type FROM pragma_table_info(?) ORDER BY cid");
    if (!columns) return Error{columns.error()};
    for (auto& table : tables) {
        columns.value().bind(1, std::string_view(table.first));
        auto problem = columns.value().each_row(
            [&](const Statement& row) { table.second.push_back(Column{row.text(0), row.text(1)}); });
        columns.value().reset();
        if (problem) return Error{*problem};
    }
    return tables;
}

// The tables the migrations make, in a database of their own in memory.
Expected<Tables> expected_tables() {
    Expected<Database> reference = Database::open(":memory:", Database::Mode::read_write_create);
    if (!reference) return Error{reference.error()};
    for (const Migration migration : migrations()) {
        for (const MigrationStep& step : migration) {
            if (step.convert != nullptr) continue;  // rows and views: the tables are the SQL's
            if (auto problem = reference.value().execute(step.sql)) return Error{*problem};
        }
    }
    return tables_of(reference.value());
}

}  // namespace

std::optional<std::string> schema_mismatch(Database& database) {
    const Expected<Tables> expected = expected_tables();
    if (!expected) return "its expected tables could not be made: " + expected.error();
    const Expected<Tables> found = tables_of(database);
    if (!found) return found.error();
    for (const auto& [table, columns] : expected.value()) {
        const auto it = found.value().find(table);
        if (it == found.value().end()) return "it has no table " + table;
        for (const Column& column : columns) {
            bool present = false;
            for (const Column& other : it->second) {
                if (other.name != column.name) continue;
                if (other.type != column.type) {
                    return "its table " + table + " has column " + column.name + " of type " + other.type +
                           " instead of " + column.type;
                }
                present = true;
            }
            if (!present) return "its table " + table + " has no column " + column.name;
        }
        if (it->second.size() != columns.size()) {
            for (const Column& other : it->second) {
                bool known = false;
                for (const Column& column : columns) known = known || column.name == other.name;
                if (!known) return "its table " + table + " has a column " + other.name + " this version does not make";
            }
        }
    }
    return std::nullopt;
}

}  // namespace parasight::store
