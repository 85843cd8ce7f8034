#pragma once
// The window's worker threads give way to its GUI thread. On Linux the calling thread is niced (setpriority(2) on
// its thread id, which Linux applies to that thread alone): where there are fewer cores than busy threads, the GUI
// thread, woken by input or a timer, then preempts a running simulation instead of waiting its turn. The worker
// still gets the cores the GUI thread does not use; nothing else changes. Elsewhere it does nothing.

namespace parasight::gui {

// Call on a worker thread; calling again on the same thread does nothing more.
void give_way_to_gui_thread();

}  // namespace parasight::gui
