#include "io/bounded_file.h"

#include "common/message_text.h"
#include "io/file_kind.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace parasight {
namespace {

std::string size_text(std::uintmax_t bytes) {
    constexpr std::uintmax_t mebibyte = 1024U * 1024U;
    if (bytes >= mebibyte) return std::to_string(bytes / mebibyte) + " MiB";
    return count_phrase(static_cast<std::int64_t>(bytes), "byte");
}

// Closes the descriptor however the read ends.
struct Descriptor {
    int fd = -1;
    ~Descriptor() {
        if (fd >= 0) ::close(fd);
    }
};

}  // namespace

Expected<std::string> read_bounded_file(const std::filesystem::path& path, std::uintmax_t max_bytes,
                                        std::string_view what) {
    const std::string article(what);
    struct stat status{};
    if (::stat(path.c_str(), &status) != 0) {
        const int error = errno;
        if (error == ENOENT) {
            struct stat link{};
            if (::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
                return Error{"it is a symbolic link to a file that does not exist"};
            }
            return Error{"it does not exist"};
        }
        if (error == ELOOP) return Error{"it is a symbolic link that loops (it leads back to itself)"};
        return Error{"it cannot be read: " + std::string(std::strerror(error))};
    }
    if (!S_ISREG(status.st_mode)) return Error{"it is " + file_kind_text(status.st_mode) + ", not " + article};
    if (static_cast<std::uintmax_t>(status.st_size) > max_bytes) {
        return Error{"it is " + size_text(static_cast<std::uintmax_t>(status.st_size)) + "; " + article +
                     " may be at most " + size_text(max_bytes)};
    }
    // O_NONBLOCK: should the path have turned into a FIFO since stat(), opening it must not wait for a writer.
    Descriptor file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
    if (file.fd < 0) return Error{"it cannot be read: " + std::string(std::strerror(errno))};
    if (::fstat(file.fd, &status) != 0 || !S_ISREG(status.st_mode)) {
        return Error{"it is " + file_kind_text(status.st_mode) + ", not " + article};
    }
    // Read at most one byte past the limit: a file that grows while it is read is still bounded.
    std::string text;
    text.resize(static_cast<std::size_t>(std::min<std::uintmax_t>(static_cast<std::uintmax_t>(status.st_size), max_bytes) + 1));
    std::size_t filled = 0;
    while (true) {
        if (filled == text.size()) {
            if (text.size() > max_bytes) return Error{"it grew past " + size_text(max_bytes) + " while it was read"};
            text.resize(std::min<std::size_t>(text.size() * 2, static_cast<std::size_t>(max_bytes) + 1));
        }
        const ssize_t got = ::read(file.fd, text.data() + filled, text.size() - filled);
        if (got < 0) {
            if (errno == EINTR) continue;
            return Error{"it cannot be read: " + std::string(std::strerror(errno))};
        }
        if (got == 0) break;
        filled += static_cast<std::size_t>(got);
    }
    if (filled > max_bytes) return Error{"it grew past " + size_text(max_bytes) + " while it was read"};
    text.resize(filled);
    return text;
}

}  // namespace parasight
