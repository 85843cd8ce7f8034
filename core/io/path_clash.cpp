#include "io/path_clash.h"

#include "common/message_text.h"
#include "io/atomic_output.h"

#include <array>
#include <string_view>
#include <vector>

namespace parasight {
namespace {

// SQLite's companion files of a database, named after its path.
constexpr std::array<std::pair<std::string_view, std::string_view>, 3> companions{{
    {"-wal", "write-ahead log"},
    {"-shm", "shared-memory index"},
    {"-journal", "rollback journal"},
}};

struct Part {
    std::filesystem::path path;
    std::string_view companion;  // empty: the file itself
};

// The file and, for a database, its companions: named after the path as given and after the file it resolves to
// (SQLite names them after the real file when the database is reached through a link).
std::vector<Part> parts_of(const CommandFile& file) {
    std::vector<Part> parts{{file.path, {}}};
    if (!file.database) return parts;
    std::error_code ignored;
    const std::filesystem::path resolved =
        std::filesystem::weakly_canonical(std::filesystem::absolute(file.path, ignored), ignored);
    for (const auto& [suffix, name] : companions) {
        parts.push_back({file.path.string() + std::string(suffix), name});
        if (!resolved.empty()) parts.push_back({resolved.string() + std::string(suffix), name});
    }
    return parts;
}

std::string named(const CommandFile& file) { return file.role + " " + quoted_path(file.path.string()); }

std::string clash_sentence(const CommandFile& output, const Part& mine, const CommandFile& other, const Part& theirs,
                           bool other_is_output) {
    if (!mine.companion.empty()) {
        // The output is a database whose companion file would be the other file.
        return named(output) + " would keep its " + std::string(mine.companion) + " in " +
               quoted_path(mine.path.string()) + ", which is " + named(other) + "; choose another database";
    }
    if (!theirs.companion.empty()) {
        return named(output) + " is the " + std::string(theirs.companion) + " of " + named(other) +
               "; writing it would damage that database: name another file";
    }
    if (other_is_output) {
        if (other.path == output.path) {
            return output.role + " and " + other.role + " name the same file " + quoted_path(output.path.string()) +
                   "; give each its own file";
        }
        return named(output) + " and " + named(other) + " are the same file; give each its own file";
    }
    return named(output) + " is " + (other.path == output.path ? other.role : named(other)) +
           " itself; name another file";
}

std::optional<std::string> clash_between(const CommandFile& output, const CommandFile& other, bool other_is_output) {
    for (const Part& mine : parts_of(output)) {
        for (const Part& theirs : parts_of(other)) {
            // One database's log against another's is no clash of the files themselves.
            if (!mine.companion.empty() && !theirs.companion.empty()) continue;
            if (same_file(mine.path, theirs.path)) return clash_sentence(output, mine, other, theirs, other_is_output);
        }
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> find_path_clash(std::span<const CommandFile> outputs, std::span<const CommandFile> inputs) {
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        for (const CommandFile& input : inputs) {
            if (auto clash = clash_between(outputs[i], input, false)) return clash;
        }
        for (std::size_t j = i + 1; j < outputs.size(); ++j) {
            if (auto clash = clash_between(outputs[i], outputs[j], true)) return clash;
        }
    }
    return std::nullopt;
}

}  // namespace parasight
