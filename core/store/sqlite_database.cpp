#include "store/sqlite_database.h"

#include <sqlite3.h>
#include <unistd.h>

#include <map>
#include <utility>

namespace parasight::store {
namespace {

// "locked" in words a user acts on; SQLite's own message otherwise.
std::string describe(sqlite3* handle, int code) {
    const int primary = code & 0xff;
    if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED) {
        return "the database is locked by another process (still after waiting); try again when it has finished";
    }
    if (primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB) {
        return std::string("the database is damaged or is not a SQLite database (") +
               (handle != nullptr ? sqlite3_errmsg(handle) : sqlite3_errstr(code)) + ")";
    }
    if (primary == SQLITE_FULL) return "the disk is full";
    return handle != nullptr ? sqlite3_errmsg(handle) : sqlite3_errstr(code);
}

// `path` as a SQLite URI (file:…?query), with the characters a URI gives meaning to escaped.
std::string uri_of(const std::filesystem::path& path, std::string_view query) {
    std::string uri = "file:";
    for (const char c : std::filesystem::absolute(path).string()) {
        if (c == '%' || c == '?' || c == '#') {
            static constexpr char digits[] = "0123456789ABCDEF";
            const auto byte = static_cast<unsigned char>(c);
            uri += '%';
            uri += digits[byte >> 4];
            uri += digits[byte & 0xf];
        } else {
            uri += c;
        }
    }
    return uri + "?" + std::string(query);
}

bool writable(const std::filesystem::path& path) { return ::access(path.c_str(), W_OK) == 0; }

}  // namespace

std::string reader_uri(const std::filesystem::path& path) {
    std::error_code ignored;
    const std::filesystem::path absolute = std::filesystem::absolute(path, ignored);
    if (writable(absolute) && writable(absolute.parent_path())) return uri_of(path, "mode=rw");
    const std::filesystem::path log = absolute.string() + "-wal";
    if (std::filesystem::file_size(log, ignored) > 0 && !ignored) return uri_of(path, "mode=ro");
    return uri_of(path, "mode=ro&immutable=1");
}

Expected<Database> Database::open(const std::filesystem::path& path, Mode mode, int busy_timeout_ms) {
    int flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI;
    // With URIs allowed, a relative path that starts with "file:" would be read as one.
    std::string name = path.string();
    if (name.rfind("file:", 0) == 0) name = "./" + name;
    switch (mode) {
        case Mode::read_only:
            // The URI's mode narrows these flags.
            flags |= SQLITE_OPEN_READWRITE;
            name = reader_uri(path);
            break;
        case Mode::read_write: flags |= SQLITE_OPEN_READWRITE; break;
        case Mode::read_write_create: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE; break;
    }
    sqlite3* handle = nullptr;
    const int code = sqlite3_open_v2(name.c_str(), &handle, flags, nullptr);
    Database database(handle);
    if (code != SQLITE_OK) return Error{describe(handle, code)};
    sqlite3_extended_result_codes(handle, 1);
    sqlite3_busy_timeout(handle, busy_timeout_ms);
    if (mode == Mode::read_only) {
        if (auto problem = database.execute("PRAGMA query_only = ON")) return Error{*problem};
    }
    return database;
}

struct Database::ReusedStatements {
    std::map<std::string, Statement, std::less<>> by_sql;
};

Database::Database(sqlite3* handle) noexcept : handle_(handle) {}

Database::Database(Database&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)), reused_(std::move(other.reused_)) {}

Database& Database::operator=(Database&& other) noexcept {
    if (this != &other) {
        close();
        handle_ = std::exchange(other.handle_, nullptr);
        reused_ = std::move(other.reused_);
    }
    return *this;
}

Database::~Database() { close(); }

void Database::close() noexcept {
    reused_.reset();
    sqlite3_close_v2(handle_);
}

std::optional<std::string> Database::execute(std::string_view sql) {
    const std::string text(sql);
    char* message = nullptr;
    const int code = sqlite3_exec(handle_, text.c_str(), nullptr, nullptr, &message);
    sqlite3_free(message);
    if (code != SQLITE_OK) return describe(handle_, code);
    return std::nullopt;
}

Expected<Statement> Database::prepare(std::string_view sql) {
    sqlite3_stmt* statement = nullptr;
    const int code = sqlite3_prepare_v2(handle_, sql.data(), static_cast<int>(sql.size()), &statement, nullptr);
    if (code != SQLITE_OK) {
        sqlite3_finalize(statement);
        return Error{describe(handle_, code)};
    }
    return Statement(handle_, statement);
}

Expected<Statement*> Database::reused(std::string_view sql) {
    if (!reused_) reused_ = std::make_unique<ReusedStatements>();
    auto found = reused_->by_sql.find(sql);
    if (found == reused_->by_sql.end()) {
        Expected<Statement> prepared = prepare(sql);
        if (!prepared) return Error{prepared.error()};
        found = reused_->by_sql.emplace(std::string(sql), std::move(prepared).value()).first;
    } else {
        found->second.reset();
    }
    return &found->second;
}

Expected<std::int64_t> Database::integer(std::string_view sql) {
    Expected<Statement> statement = prepare(sql);
    if (!statement) return Error{statement.error()};
    Expected<bool> row = statement.value().step();
    if (!row) return Error{row.error()};
    if (!row.value()) return Error{"no row from " + std::string(sql)};
    return statement.value().integer(0);
}

std::int64_t Database::last_insert_rowid() const noexcept { return sqlite3_last_insert_rowid(handle_); }

Statement::Statement(Statement&& other) noexcept
    : database_(other.database_), statement_(std::exchange(other.statement_, nullptr)) {}

Statement& Statement::operator=(Statement&& other) noexcept {
    if (this != &other) {
        sqlite3_finalize(statement_);
        database_ = other.database_;
        statement_ = std::exchange(other.statement_, nullptr);
    }
    return *this;
}

Statement::~Statement() { sqlite3_finalize(statement_); }

Statement& Statement::bind(int index, std::int64_t value) {
    sqlite3_bind_int64(statement_, index, value);
    return *this;
}

Statement& Statement::bind(int index, double value) {
    sqlite3_bind_double(statement_, index, value);
    return *this;
}

Statement& Statement::bind(int index, std::string_view text) {
    sqlite3_bind_text64(statement_, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
    return *this;
}

Statement& Statement::bind(int index, const StoredValue& value) {
    if (const auto* integer = std::get_if<std::int64_t>(&value)) return bind(index, *integer);
    if (const auto* real = std::get_if<double>(&value)) return bind(index, *real);
    if (const auto* text = std::get_if<std::string>(&value)) return bind(index, std::string_view(*text));
    return *this;
}

StoredValue Statement::value(int column) const {
    switch (column_type(column)) {
        case SQLITE_INTEGER: return integer(column);
        case SQLITE_FLOAT: return real(column);
        case SQLITE_NULL: return std::monostate{};
        default: return text(column);
    }
}

int Statement::parameter_index(std::string_view name) const {
    const std::string text = ":" + std::string(name);
    return sqlite3_bind_parameter_index(statement_, text.c_str());
}

Expected<bool> Statement::step() {
    const int code = sqlite3_step(statement_);
    if (code == SQLITE_ROW) return true;
    if (code == SQLITE_DONE) return false;
    return Error{describe(database_, code)};
}

std::optional<std::string> Statement::run() {
    for (;;) {
        Expected<bool> row = step();
        if (!row) {
            reset();
            return row.error();
        }
        if (!row.value()) break;
    }
    reset();
    return std::nullopt;
}

void Statement::reset() {
    sqlite3_reset(statement_);
    sqlite3_clear_bindings(statement_);
}

int Statement::column_count() const { return sqlite3_column_count(statement_); }

std::string Statement::column_name(int column) const { return sqlite3_column_name(statement_, column); }

bool Statement::is_null(int column) const { return sqlite3_column_type(statement_, column) == SQLITE_NULL; }

int Statement::column_type(int column) const { return sqlite3_column_type(statement_, column); }

std::int64_t Statement::integer(int column) const { return sqlite3_column_int64(statement_, column); }

double Statement::real(int column) const { return sqlite3_column_double(statement_, column); }

std::string Statement::text(int column) const {
    const auto* bytes = sqlite3_column_text(statement_, column);
    if (bytes == nullptr) return {};
    return {reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(sqlite3_column_bytes(statement_, column))};
}

}  // namespace parasight::store
