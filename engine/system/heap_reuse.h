#pragma once

namespace kiln::system {

// Kiln's programs link tcmalloc where it is packaged (Debian's libtcmalloc-minimal4): it reuses
// freed memory for the next step and returns it to the kernel gradually, and at ResNet-18 224 px
// the peak is 0.5-0.7 of glibc's (SimCLR at batch 128: 6.8 GB against 13.4 GB) at the same
// speed. True where tcmalloc serves this process's malloc.
bool malloc_is_tcmalloc();

// Gives the heap's free pages back to the kernel: after a one-off job (a memory probe) whose
// blocks a run's steps, of other sizes, might not reuse.
void release_free_memory();

// Freed memory kept for the next step while a job runs, given back when the last open scope
// ends, so that a long-lived process such as Studio returns what a run used.
// Under glibc's malloc, a freed block of more than 128 KiB (up to 32 MiB as it adapts) goes back
// to the kernel, and the next step faults the same memory in again, page by page: on a small
// model (smallcnn SimCLR at 32 px, 2 cores) that churn took a sixth of the CPU time. There the
// scope raises malloc's thresholds (once per process: they stay) and trims the heap at its end.
// tcmalloc needs no thresholds raised; the end releases its free pages.
class HeapReuseScope {
public:
    HeapReuseScope();
    ~HeapReuseScope();
    HeapReuseScope(const HeapReuseScope&) = delete;
    HeapReuseScope& operator=(const HeapReuseScope&) = delete;
};

} // namespace kiln::system
