#include "system/heap_reuse.h"

#include <atomic>
#include <climits>
#include <mutex>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace kiln::system {
namespace {

// Scopes open in this process: a job inside another (the kNN monitor in a training run) leaves
// the trim to the outer one.
std::atomic<int> open_scopes{0};

} // namespace

HeapReuseScope::HeapReuseScope() {
    ++open_scopes;
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
    if (--open_scopes > 0) {
        return;
    }
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

} // namespace kiln::system
