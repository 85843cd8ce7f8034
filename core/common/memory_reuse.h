#pragma once
// How the process hands memory back to the system. A simulation allocates its graph and run (megabytes) and frees
// them when it ends; a sweep does that once a point, on every worker. By default the C library (glibc) returns the
// freed top of each thread's heap to the system once it passes 128 KiB, and serves blocks of more than 128 KiB — its
// threshold then rising with what it freed, so each thread pays again — straight from the system: every point's
// memory is then faulted in and zeroed anew. Keeping freed memory for reuse halves the page faults of the 128-point
// GPT-3 sweep (docs/performance.md).

namespace parasight {

// Blocks of up to 32 MiB come from the heap, and up to 64 MiB of freed memory stays with each heap for the next
// allocation; larger blocks (an every-device run's arrays) still go back to the system when freed. Called once, at
// the start of main(); nothing where the C library is not glibc.
void keep_freed_memory_for_reuse() noexcept;

}  // namespace parasight
