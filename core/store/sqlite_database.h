#pragma once
// A thin RAII layer over the SQLite C library for the results store: a connection, prepared statements with typed
// binds and reads, and every failure as a sentence (SQLite's own words after ours). Internal to core/store.

#include "common/expected.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

struct sqlite3;
struct sqlite3_stmt;

namespace parasight {
// A value read back: NULL, an integer, a real or text, as SQLite stored it.
using StoredValue = std::variant<std::monostate, std::int64_t, double, std::string>;
}  // namespace parasight

namespace parasight::store {

class Statement;

// How a reader opens a database (as a SQLite URI) so that it works in a folder or mount it cannot write and leaves
// no -wal or -shm file behind (a read-only connection to a WAL database makes both and cannot remove them):
// - a file and folder it may write: opened for writing (never creating) and only read; the last connection to
//   close then removes SQLite's companion files, as a writer's does;
// - otherwise, when a write-ahead log with changes lies beside it: read-only, so that SQLite reads those changes;
// - otherwise immutable (no locks, no companion files): nothing can be writing it, since a writer keeps its log
//   there. A write that another user starts while it is being read may then be reported as damage; reading again
//   succeeds.
[[nodiscard]] std::string reader_uri(const std::filesystem::path& path);

class Database {
public:
    // read_only: through reader_uri(), with PRAGMA query_only on.
    enum class Mode { read_only, read_write, read_write_create };

    // Opens `path`; the error names what failed. A busy database is waited on for `busy_timeout_ms` before a
    // statement gives up with "locked".
    [[nodiscard]] static Expected<Database> open(const std::filesystem::path& path, Mode mode,
                                                 int busy_timeout_ms = 5000);

    Database(Database&& other) noexcept;
    Database& operator=(Database&& other) noexcept;
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;
    ~Database();

    // Runs statements that return nothing of interest (schema, pragmas, BEGIN / COMMIT).
    [[nodiscard]] std::optional<std::string> execute(std::string_view sql);
    [[nodiscard]] Expected<Statement> prepare(std::string_view sql);
    // `sql` prepared once for this connection and kept: handed out reset, with its bindings cleared, each time (a
    // sweep inserts every point's rows with the same few statements; preparing the runs INSERT alone cost a third
    // of storing a point). It stays the connection's: valid until the connection closes, and not to be held while
    // the same SQL is asked for again.
    [[nodiscard]] Expected<Statement*> reused(std::string_view sql);
    // The first column of the first row of `sql` as an integer (a pragma, a count).
    [[nodiscard]] Expected<std::int64_t> integer(std::string_view sql);
    [[nodiscard]] std::int64_t last_insert_rowid() const noexcept;
    [[nodiscard]] sqlite3* handle() const noexcept { return handle_; }

private:
    struct ReusedStatements;
    explicit Database(sqlite3* handle) noexcept;
    void close() noexcept;
    sqlite3* handle_ = nullptr;
    std::unique_ptr<ReusedStatements> reused_;  // finalized before the connection closes
};

// A prepared statement: bind (1-based, as SQLite counts), then step through rows.
class Statement {
public:
    Statement(Statement&& other) noexcept;
    Statement& operator=(Statement&& other) noexcept;
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    ~Statement();

    Statement& bind(int index, std::int64_t value);
    Statement& bind(int index, double value);
    Statement& bind(int index, std::string_view text);
    // NULL binds nothing (the parameter stays NULL).
    Statement& bind(int index, const StoredValue& value);
    // By name (`:name` in the SQL); a name the statement does not have is a programming error and is ignored.
    template <class Value>
    Statement& bind(std::string_view name, const Value& value) {
        return bind(parameter_index(name), value);
    }

    // True with a row to read, false when done; the error is SQLite's sentence.
    [[nodiscard]] Expected<bool> step();
    // Calls `read(*this)` for every row; the error is SQLite's sentence.
    template <class Read>
    [[nodiscard]] std::optional<std::string> each_row(Read&& read) {
        for (;;) {
            Expected<bool> row = step();
            if (!row) return row.error();
            if (!row.value()) return std::nullopt;
            read(*this);
        }
    }
    // Steps to the end (an INSERT or UPDATE); then resets the statement for another use with new binds.
    [[nodiscard]] std::optional<std::string> run();
    void reset();

    [[nodiscard]] int column_count() const;
    [[nodiscard]] std::string column_name(int column) const;
    [[nodiscard]] bool is_null(int column) const;
    // SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_BLOB or SQLITE_NULL.
    [[nodiscard]] int column_type(int column) const;
    // The column's value as SQLite stored it: NULL, an integer, a real or text.
    [[nodiscard]] StoredValue value(int column) const;
    [[nodiscard]] std::int64_t integer(int column) const;
    [[nodiscard]] double real(int column) const;
    [[nodiscard]] std::string text(int column) const;

private:
    friend class Database;
    [[nodiscard]] int parameter_index(std::string_view name) const;
    Statement(sqlite3* database, sqlite3_stmt* statement) noexcept : database_(database), statement_(statement) {}
    sqlite3* database_ = nullptr;
    sqlite3_stmt* statement_ = nullptr;
};

// Runs `body` inside BEGIN IMMEDIATE … COMMIT, rolling back when it returns an error.
template <class Body>
[[nodiscard]] std::optional<std::string> in_transaction(Database& database, Body&& body) {
    if (auto error = database.execute("BEGIN IMMEDIATE")) return error;
    if (std::optional<std::string> error = body()) {
        (void)database.execute("ROLLBACK");
        return error;
    }
    if (auto error = database.execute("COMMIT")) {
        (void)database.execute("ROLLBACK");
        return error;
    }
    return std::nullopt;
}

}  // namespace parasight::store
