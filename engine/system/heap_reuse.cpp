#include "system/heap_reuse.h"

#include <atomic>
#include <climits>
#include <cstdlib>
#include <mutex>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

// tcmalloc's C interface; null where the program does not link tcmalloc.
extern "C" void MallocExtension_ReleaseFreeMemory() __attribute__((weak));
extern "C" int MallocExtension_GetOwnership(const void* block) __attribute__((weak));

namespace kiln::system {
namespace {

// Scopes open in this process: a job inside another (the kNN monitor in a training run) leaves
// the release to the outer one.
std::atomic<int> open_scopes{0};

} // namespace

bool malloc_is_tcmalloc() {
    // Loaded is not enough: another allocator preloaded before it (a sanitizer's) serves malloc.
    static const bool serves_malloc = [] {
        if (MallocExtension_GetOwnership == nullptr ||
            MallocExtension_ReleaseFreeMemory == nullptr) {
            return false;
        }
        void* block = std::malloc(1);
        constexpr int kOwned = 1; // gperftools' MallocExtension::kOwned
        const bool owned = MallocExtension_GetOwnership(block) == kOwned;
        std::free(block);
        return owned;
    }();
    return serves_malloc;
}

HeapReuseScope::HeapReuseScope() {
    ++open_scopes;
#if defined(__GLIBC__)
    if (!malloc_is_tcmalloc()) {
        static std::once_flag raised;
        std::call_once(raised, [] {
            // The largest values mallopt takes: blocks are served from the heap rather than
            // mapped one by one, and the heap's free top is kept rather than returned after
            // each free.
            mallopt(M_MMAP_THRESHOLD, INT_MAX);
            mallopt(M_TRIM_THRESHOLD, INT_MAX);
        });
    }
#endif
}

HeapReuseScope::~HeapReuseScope() {
    if (--open_scopes == 0) {
        release_free_memory();
    }
}

void release_free_memory() {
    if (malloc_is_tcmalloc()) {
        MallocExtension_ReleaseFreeMemory();
        return;
    }
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

} // namespace kiln::system
