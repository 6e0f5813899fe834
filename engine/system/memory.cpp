#include "system/memory.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <unistd.h>
#include <utility>
#include <vector>

namespace kiln::system {
namespace {

constexpr double kBytesPerMiB = 1024.0 * 1024.0;

std::string file_text(const std::string& path) {
    std::ifstream file(path);
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

// The value in kB of a "Name:   1234 kB" line of a /proc file, in MiB.
std::optional<double> kilobytes_field_mb(const std::string& text, const std::string& name) {
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind(name + ":", 0) == 0) {
            std::istringstream value(line.substr(name.size() + 1));
            double kilobytes = 0;
            if (value >> kilobytes) {
                return kilobytes / 1024.0;
            }
        }
    }
    return std::nullopt;
}

// Where a cgroup hierarchy keeps its files, and what it names them (v2, then v1).
struct CgroupLayout {
    std::string controller; // the /proc/self/cgroup line's controller field
    std::string mount;
    std::string limit, usage;
};
const CgroupLayout kCgroupLayouts[] = {
    {"", "/sys/fs/cgroup", "memory.max", "memory.current"},
    {"memory", "/sys/fs/cgroup/memory", "memory.limit_in_bytes", "memory.usage_in_bytes"},
};

// The directories of the memory cgroups this process is in and of their ancestors: a limit on
// any of them bounds it. Inside a container the mount's root is its own group.
std::vector<std::pair<const CgroupLayout*, std::string>> own_memory_cgroups() {
    std::vector<std::pair<const CgroupLayout*, std::string>> groups;
    std::istringstream lines(file_text("/proc/self/cgroup"));
    for (std::string line; std::getline(lines, line);) {
        const std::size_t first = line.find(':');
        const std::size_t second = line.find(':', first + 1);
        if (first == std::string::npos || second == std::string::npos) {
            continue;
        }
        const std::string controller = line.substr(first + 1, second - first - 1);
        for (const CgroupLayout& layout : kCgroupLayouts) {
            if (controller != layout.controller) {
                continue;
            }
            for (std::string path = line.substr(second + 1); !path.empty() && path != "/";
                 path = path.substr(0, path.rfind('/'))) {
                groups.emplace_back(&layout, layout.mount + path);
            }
            groups.emplace_back(&layout, layout.mount);
        }
    }
    return groups;
}

} // namespace

double resident_mb() {
    std::ifstream statm("/proc/self/statm");
    unsigned long long size = 0, resident = 0;
    statm >> size >> resident;
    return double(resident) * double(::sysconf(_SC_PAGESIZE)) / kBytesPerMiB;
}

std::optional<double> meminfo_available_mb(const std::string& meminfo) {
    return kilobytes_field_mb(meminfo, "MemAvailable");
}

std::optional<double> cgroup_headroom_mb(const std::string& limit, const std::string& usage,
                                         const std::string& stat) {
    double limit_bytes = 0;
    double usage_bytes = 0;
    if (!(std::istringstream(limit) >> limit_bytes) ||
        !(std::istringstream(usage) >> usage_bytes)) {
        return std::nullopt; // "max", or no memory controller there
    }
    double reclaimable = 0; // v2's inactive_file, v1's total_inactive_file
    std::istringstream lines(stat);
    for (std::string name; lines >> name;) {
        double bytes = 0;
        if (lines >> bytes && (name == "inactive_file" || name == "total_inactive_file")) {
            reclaimable = bytes;
        }
    }
    return std::max(0.0, limit_bytes - std::max(0.0, usage_bytes - reclaimable)) / kBytesPerMiB;
}

std::optional<double> available_memory_mb() {
    std::optional<double> available = meminfo_available_mb(file_text("/proc/meminfo"));
    for (const auto& [layout, directory] : own_memory_cgroups()) {
        const std::optional<double> headroom = cgroup_headroom_mb(
            file_text(directory + "/" + layout->limit), file_text(directory + "/" + layout->usage),
            file_text(directory + "/memory.stat"));
        if (headroom) { // the tightest limit counts
            available = available ? std::min(*available, *headroom) : *headroom;
        }
    }
    return available;
}

} // namespace kiln::system
