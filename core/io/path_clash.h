#pragma once
// Refusing an output that would overwrite what a command reads or keeps: `simulate S.yaml --db R.db --csv R.db` must
// not replace the results database with a CSV. Every output a command writes is compared with every file it reads
// and with every other output, as files (after symbolic links and hard links), before anything is written. A SQLite
// database is more than its file: its write-ahead log (-wal), shared-memory index (-shm) and rollback journal
// (-journal) beside it are part of it, so an output named like one of them clashes with the database too.

#include <filesystem>
#include <optional>
#include <span>
#include <string>

namespace parasight {

// A file a command names: how messages call it (an option, "--csv", or a noun, "the scenario file") and whether it
// is a SQLite database, whose companion files count as part of it.
struct CommandFile {
    std::string role;
    std::filesystem::path path;
    bool database = false;
};

// The first clash as a sentence that starts with the output ("--csv 'R.db' is the results database 'R.db' itself;
// …"), or nothing. Outputs are compared with each input and with each other; inputs are not compared with each other
// (reading one file twice loses nothing).
[[nodiscard]] std::optional<std::string> find_path_clash(std::span<const CommandFile> outputs,
                                                         std::span<const CommandFile> inputs);

}  // namespace parasight
