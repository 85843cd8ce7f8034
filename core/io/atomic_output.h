#pragma once
// A file written whole or not at all. The bytes go to a new temporary file in the target's folder, which replaces the
// target (rename(2): atomic within one file system) only when commit() succeeds; a failed, abandoned or killed write
// leaves the target exactly as it was, and an abandoned one removes its temporary file. A symbolic link is followed:
// the file it points to is replaced and the link kept. Only regular files are written: a directory, device, FIFO or
// socket is refused before anything runs, so no output can truncate, delete or corrupt what it was not meant for.
// Every front end's outputs use it: the command line's --trace and --csv, the GUI's exports. A process ended by a
// signal removes the temporary file too, once its front end has called remove_temporary_files_on_signals().

#include "common/expected.h"

#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>

namespace parasight {

class AtomicOutput {
public:
    // Checks the target and creates the temporary file; the error is a sentence without the path.
    [[nodiscard]] static Expected<std::unique_ptr<AtomicOutput>> open(const std::filesystem::path& target);

    AtomicOutput(const AtomicOutput&) = delete;
    AtomicOutput& operator=(const AtomicOutput&) = delete;
    ~AtomicOutput();  // removes the temporary file unless committed

    [[nodiscard]] std::ostream& stream() noexcept { return stream_; }
    [[nodiscard]] const std::filesystem::path& target() const noexcept { return target_; }
    // Flushes, syncs to disk and renames over the target; the error (a full disk, say) is a sentence.
    [[nodiscard]] std::optional<std::string> commit();

private:
    AtomicOutput(std::filesystem::path target, std::filesystem::path temporary);

    std::filesystem::path target_;     // the file that is replaced (a link's destination)
    std::filesystem::path temporary_;
    std::ofstream stream_;
    bool committed_ = false;
    bool listed_ = false;  // in io/temporary_files.h's list, for a signal to remove
};

// Whether two paths name the same file: the same existing file (hard links and symbolic links included), or the
// same path once normalised when either does not exist yet.
[[nodiscard]] bool same_file(const std::filesystem::path& a, const std::filesystem::path& b);

}  // namespace parasight
