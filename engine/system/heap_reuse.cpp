#include "system/heap_reuse.h"

#include <climits>
#include <mutex>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace kiln::system {

HeapReuseScope::HeapReuseScope() {
#if defined(__GLIBC__)
    static std::once_flag raised;
    std::call_once(raised, [] {
        // The largest values mallopt takes: blocks are served from the heap rather than mapped
        // one by one, and the heap's free top is kept rather than returned after each free.
        mallopt(M_MMAP_THRESHOLD, INT_MAX);
        mallopt(M_TRIM_THRESHOLD, INT_MAX);
    });
#endif
}

HeapReuseScope::~HeapReuseScope() {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

} // namespace kiln::system
