#pragma once
// A file named on the command line (--trace, --csv) that a command writes once its work is done. It is opened before
// the work starts, so a path that cannot be written is reported at once; it is removed again when the command fails
// before committing it; committing flushes it and reports any write that failed (a full disk, say).

#include <fstream>
#include <optional>
#include <string>

namespace parasight::cli {

class OutputFile {
public:
    OutputFile() = default;
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;
    ~OutputFile();

    // "cannot write 'PATH': REASON", or nullopt once the file is open.
    [[nodiscard]] std::optional<std::string> open(const std::string& path);
    [[nodiscard]] bool is_open() const noexcept { return stream_.is_open(); }
    [[nodiscard]] std::ostream& stream() noexcept { return stream_; }
    // Flushes and closes the file; "writing 'PATH' failed: REASON" when any write did not reach it.
    [[nodiscard]] std::optional<std::string> commit();

private:
    std::string path_;
    std::ofstream stream_;
    bool committed_ = false;
};

}  // namespace parasight::cli
