// keep_freed_memory_for_reuse() (core/common/memory_reuse.h) with glibc's allocator: a block of 1 MiB — past glibc's
// first threshold of 128 KiB, which would map it from the system — comes from the heap, and freeing it leaves the heap
// as large as it was (glibc would hand back the freed top past 128 KiB). Without the call both comparisons fail: the
// block is counted among the mapped ones, and the heap shrinks.

#include "common/memory_reuse.h"

#include <QtTest>

#include <cstdlib>

#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
#include <malloc.h>
#define PARASIGHT_GLIBC_ALLOCATOR 1
#endif

class TestMemoryReuse : public QObject {
    Q_OBJECT
private slots:
    void aMegabyteIsKeptInTheHeap();
};

void TestMemoryReuse::aMegabyteIsKeptInTheHeap() {
#if defined(PARASIGHT_GLIBC_ALLOCATOR)
    parasight::keep_freed_memory_for_reuse();
    const struct mallinfo2 before = mallinfo2();
    void* block = std::malloc(std::size_t{1} << 20);
    QVERIFY(block != nullptr);
    const struct mallinfo2 holding = mallinfo2();
    std::free(block);
    const struct mallinfo2 after = mallinfo2();
    QCOMPARE(holding.hblks, before.hblks);  // not mapped from the system
    QVERIFY(holding.arena >= before.arena + (std::size_t{1} << 20));
    QCOMPARE(after.arena, holding.arena);  // kept for the next allocation
#else
    QSKIP("glibc's own allocator only (not under AddressSanitizer, which brings its own)");
#endif
}

QTEST_GUILESS_MAIN(TestMemoryReuse)
#include "test_memory_reuse.moc"
