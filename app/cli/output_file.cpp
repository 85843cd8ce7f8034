#include "output_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace parasight::cli {

OutputFile::~OutputFile() {
    if (!stream_.is_open() || committed_) return;
    stream_.close();
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
}

std::optional<std::string> OutputFile::open(const std::string& path) {
    path_ = path;
    if (path.empty()) return "needs a file name";
    std::error_code error;
    if (std::filesystem::is_directory(path, error)) return "cannot write '" + path + "': it is a directory";
    errno = 0;
    stream_.open(path, std::ios::binary | std::ios::trunc);
    if (!stream_) {
        const std::string reason = errno != 0 ? std::strerror(errno) : "it cannot be opened";
        return "cannot write '" + path + "': " + reason;
    }
    return std::nullopt;
}

std::optional<std::string> OutputFile::commit() {
    errno = 0;
    stream_.flush();
    const bool flushed = static_cast<bool>(stream_);
    stream_.close();
    committed_ = true;
    if (flushed && !stream_.fail()) return std::nullopt;
    const std::string reason = errno != 0 ? std::strerror(errno) : "the output stream failed";
    return "writing '" + path_ + "' failed: " + reason;
}

}  // namespace parasight::cli
