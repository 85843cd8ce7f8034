#include "common/memory_reuse.h"

#include <cstdlib>  // defines __GLIBC__ where the C library is glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace parasight {

void keep_freed_memory_for_reuse() noexcept {
#if defined(__GLIBC__)
    // Setting either turns off glibc's own adjustment of both: each is set. (The trim threshold alone leaves blocks
    // of more than 128 KiB to the system at every allocation: five times the faults.)
    constexpr int heap_block_limit_bytes = 32 * 1024 * 1024;
    constexpr int kept_free_bytes = 64 * 1024 * 1024;
    mallopt(M_MMAP_THRESHOLD, heap_block_limit_bytes);
    mallopt(M_TRIM_THRESHOLD, kept_free_bytes);
#endif
}

}  // namespace parasight
