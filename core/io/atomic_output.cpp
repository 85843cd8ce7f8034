#include "io/atomic_output.h"

#include "common/message_text.h"

#include "io/file_kind.h"
#include "io/temporary_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <random>
#include <string_view>
#include <vector>

namespace parasight {
namespace {

std::string system_reason() { return std::strerror(errno); }

// The permissions a new file gets from the process's umask, as open(2) would give it.
mode_t default_mode() {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return static_cast<mode_t>(0666 & ~mask);
}

// Six letters or digits, as mkstemp(3) would choose them.
std::string random_suffix() {
    static constexpr std::string_view letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    thread_local std::mt19937_64 generator{std::random_device{}()};
    std::uniform_int_distribution<std::size_t> pick(0, letters.size() - 1);
    std::string suffix(6, ' ');
    for (char& letter : suffix) letter = letters[pick(generator)];
    return suffix;
}

}  // namespace

AtomicOutput::AtomicOutput(std::filesystem::path target, std::filesystem::path temporary)
    : target_(std::move(target)), temporary_(std::move(temporary)) {}

Expected<std::unique_ptr<AtomicOutput>> AtomicOutput::open(const std::filesystem::path& requested) {
    if (requested.empty()) return Error{"it needs a file name"};
    std::filesystem::path target = requested;
    mode_t mode = default_mode();
    struct stat status{};
    if (::stat(requested.c_str(), &status) == 0) {
        if (!S_ISREG(status.st_mode)) return Error{"it is " + file_kind_text(status.st_mode) + ", not a regular file"};
        // Replace what a link points to, not the link; keep the file's permissions.
        std::error_code error;
        target = std::filesystem::canonical(requested, error);
        if (error) return Error{"it cannot be resolved: " + error.message()};
        mode = status.st_mode & 07777;
    } else if (errno == ELOOP) {
        return Error{"it is a symbolic link that loops (it leads back to itself)"};
    } else if (errno != ENOENT) {
        return Error{"it cannot be written: " + system_reason()};
    } else {
        struct stat link{};
        if (::lstat(requested.c_str(), &link) == 0) return Error{"it is a symbolic link to a file that does not exist"};
    }
    const std::filesystem::path folder = target.has_parent_path() ? target.parent_path() : ".";
    struct stat folder_status{};
    if (::stat(folder.c_str(), &folder_status) != 0) {
        return Error{"its folder " + quoted_path(folder.string()) + " cannot be used: " + system_reason()};
    }
    if (!S_ISDIR(folder_status.st_mode)) return Error{quoted_path(folder.string()) + " is not a folder"};
    // The temporary file sits beside the target, hidden, so that the rename stays within one file system. Its name
    // is listed before the file is created (a signal between mkstemp(3) and listing would leave it behind; unlinking
    // a listed name not yet created is harmless), so it is chosen here and created with O_EXCL.
    const std::string prefix = (folder / ("." + target.filename().string() + ".parasight-")).string();
    for (int attempt = 0; attempt < 100; ++attempt) {
        const std::string candidate = prefix + random_suffix();
        const bool listed = list_temporary_file(candidate.c_str());
        const int fd = ::open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
        if (fd < 0) {
            const int reason = errno;
            if (listed) unlist_temporary_file(candidate.c_str());
            if (reason == EEXIST) continue;
            return Error{"it cannot be written: " + std::string(std::strerror(reason))};
        }
        ::fchmod(fd, mode);
        ::close(fd);
        std::unique_ptr<AtomicOutput> output(new AtomicOutput(target, candidate));
        // The output's own copy of the name is listed before the candidate's is unlisted: never a moment unlisted.
        output->listed_ = list_temporary_file(output->temporary_.c_str());
        if (listed) unlist_temporary_file(candidate.c_str());
        output->stream_.open(output->temporary_, std::ios::binary | std::ios::trunc);
        if (!output->stream_) return Error{"it cannot be written: " + system_reason()};
        return output;
    }
    return Error{"it cannot be written: no free temporary name beside it after 100 tries"};
}

AtomicOutput::~AtomicOutput() {
    if (!committed_) {
        stream_.close();
        ::unlink(temporary_.c_str());
    }
    if (listed_) unlist_temporary_file(temporary_.c_str());
}

std::optional<std::string> AtomicOutput::commit() {
    errno = 0;
    stream_.flush();
    const bool written = static_cast<bool>(stream_);
    stream_.close();
    if (!written || stream_.fail()) return errno != 0 ? system_reason() : "the output stream failed";
    // What was written reaches the disk before the name points at it, so a crash cannot leave an empty target.
    const int fd = ::open(temporary_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 || ::fsync(fd) != 0) {
        const std::string reason = system_reason();
        if (fd >= 0) ::close(fd);
        return reason;
    }
    ::close(fd);
    if (::rename(temporary_.c_str(), target_.c_str()) != 0) return system_reason();
    committed_ = true;
    // Renamed: the name now belongs to the target, which a signal must not remove.
    if (listed_) unlist_temporary_file(temporary_.c_str());
    listed_ = false;
    return std::nullopt;
}

bool same_file(const std::filesystem::path& a, const std::filesystem::path& b) {
    std::error_code error;
    if (std::filesystem::exists(a, error) && std::filesystem::exists(b, error)) {
        return std::filesystem::equivalent(a, b, error);
    }
    const auto normal = [](const std::filesystem::path& path) {
        std::error_code ignored;
        return std::filesystem::weakly_canonical(std::filesystem::absolute(path, ignored), ignored);
    };
    return normal(a) == normal(b);
}

}  // namespace parasight
