#pragma once

#include <optional>
#include <string>

namespace kiln::system {

// This process's resident memory now, in MiB.
double resident_mb();

// Memory this process can still take before the system must kill something, in MiB: the
// kernel's MemAvailable, or less where a cgroup limit (a container's, a systemd slice's)
// leaves less. nullopt where neither can be read.
std::optional<double> available_memory_mb();

// The parts of available_memory_mb(), from the files' texts: /proc/meminfo's MemAvailable, and
// a cgroup's limit (v2 memory.max, "max" for none; v1 memory.limit_in_bytes) less what its
// processes hold (memory.current or memory.usage_in_bytes, less the inactive file cache its
// memory.stat names, which the kernel reclaims before it kills).
std::optional<double> meminfo_available_mb(const std::string& meminfo);
std::optional<double> cgroup_headroom_mb(const std::string& limit, const std::string& usage,
                                         const std::string& stat);

} // namespace kiln::system
