#pragma once

#include <sys/resource.h>

namespace kiln::test {

// This process's peak resident memory so far, in KiB (Linux's ru_maxrss): a step that must not
// allocate much is checked by how far it moves the peak.
inline long peak_resident_kilobytes() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

} // namespace kiln::test
