#include "io/temporary_files.h"

#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>

namespace parasight {
namespace {

std::array<std::atomic<const char*>, 64> listed{};

extern "C" void remove_and_end(int number) {
    remove_listed_temporary_files();
    ::signal(number, SIG_DFL);
    ::raise(number);
}

}  // namespace

bool list_temporary_file(const char* path) noexcept {
    for (std::atomic<const char*>& slot : listed) {
        const char* empty = nullptr;
        if (slot.compare_exchange_strong(empty, path)) return true;
    }
    return false;
}

void unlist_temporary_file(const char* path) noexcept {
    for (std::atomic<const char*>& slot : listed) {
        const char* expected = path;
        if (slot.compare_exchange_strong(expected, nullptr)) return;
    }
}

void remove_listed_temporary_files() noexcept {
    for (std::atomic<const char*>& slot : listed) {
        if (const char* path = slot.load(); path != nullptr) ::unlink(path);
    }
}

void remove_temporary_files_on_signals() noexcept {
    struct sigaction action {};
    action.sa_handler = remove_and_end;
    sigemptyset(&action.sa_mask);
    for (const int number : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(number, &action, nullptr);
}

}  // namespace parasight
