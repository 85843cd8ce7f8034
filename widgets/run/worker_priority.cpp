#include "run/worker_priority.h"

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace parasight::gui {

namespace {

// How much a worker gives way: nice 10 weighs about a tenth of nice 0 in Linux's scheduler.
constexpr int worker_nice = 10;

}  // namespace

void give_way_to_gui_thread() {
#if defined(__linux__)
    thread_local bool niced = false;
    if (niced) return;
    niced = true;
    const auto thread = static_cast<id_t>(syscall(SYS_gettid));
    // Best effort: a process already niced further, or not allowed to change, keeps what it has.
    if (getpriority(PRIO_PROCESS, thread) < worker_nice) (void)setpriority(PRIO_PROCESS, thread, worker_nice);
#endif
}

}  // namespace parasight::gui
