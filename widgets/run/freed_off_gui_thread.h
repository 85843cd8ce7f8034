#pragma once
// Large results freed where they cannot stall the window. A simulation's timeline and its level-of-detail index hold
// millions of events: giving their memory back takes tens to hundreds of milliseconds (munmap of each large block),
// and the last view to let go of an old result is usually the GUI thread, showing the new one. A pointer made here
// hands what it owns to a pool thread when its last copy goes, wherever that happens.

#include <memory>

namespace parasight::gui {

// On the GUI thread, hands `owned` to the background pool (run/background_pool.h) to be dropped there; elsewhere, or
// without an application, drops it at once.
void release_on_pool(std::shared_ptr<const void> owned);

// A pointer to what `owned` points to whose last release calls release_on_pool(owned).
template <class T>
[[nodiscard]] std::shared_ptr<const T> freed_off_gui_thread(std::shared_ptr<const T> owned) {
    if (!owned) return owned;
    const T* pointee = owned.get();
    return std::shared_ptr<const T>(pointee, [owner = std::shared_ptr<const void>(std::move(owned))](const T*) mutable {
        release_on_pool(std::move(owner));
    });
}

}  // namespace parasight::gui
