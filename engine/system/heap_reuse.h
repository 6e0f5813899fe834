#pragma once

namespace kiln::system {

// glibc's malloc hands a freed block of more than 128 KiB (up to 32 MiB as it adapts) back to
// the kernel, and the next training step faults the same memory in again, page by page: on a
// small model (smallcnn SimCLR at 32 px, 2 cores) that churn took a sixth of the CPU time, and
// a 100 MB tensor costs 70 ms to fault in on this kind of VM. While a scope lives, freed memory
// stays in the heap for the next step (malloc's thresholds raised, once per process: they stay);
// when the last open scope ends the heap is trimmed, so a long-lived process such as Studio gives
// back what a run used. No effect where the C library is not glibc.
class HeapReuseScope {
public:
    HeapReuseScope();
    ~HeapReuseScope();
    HeapReuseScope(const HeapReuseScope&) = delete;
    HeapReuseScope& operator=(const HeapReuseScope&) = delete;
};

} // namespace kiln::system
