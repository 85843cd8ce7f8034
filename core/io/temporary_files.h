#pragma once
// Temporary files that must not outlive their process: an AtomicOutput's file beside its target exists only until it
// is committed or abandoned, but a process stopped by a signal runs no destructor. While one exists it is listed
// here, and the handlers that remove_temporary_files_on_signals() installs remove every listed file before the
// process ends as the signal would have ended it (so a shell still sees 130 or 143).
//
// This is process-wide state by nature (a signal handler has no other way to find the files); it holds only
// pointers to paths that their owners keep alive while listed, and every operation is lock-free.

namespace parasight {

// Lists `path` (a NUL-terminated string that stays valid and unchanged until unlisted); false when the list is full
// (64 files at once), in which case a signal may leave that one file behind.
bool list_temporary_file(const char* path) noexcept;
void unlist_temporary_file(const char* path) noexcept;

// Removes every listed file; async-signal-safe.
void remove_listed_temporary_files() noexcept;

// For SIGINT, SIGTERM and SIGHUP: remove the listed files, then end by the signal. A front end calls this once at
// start; a command that handles a signal itself (a sweep stopping gracefully) installs its own handler over it and
// restores this one afterwards.
void remove_temporary_files_on_signals() noexcept;

}  // namespace parasight
