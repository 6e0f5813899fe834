#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::system {

struct GpuInfo {
    int index = 0;
    std::string name;
    std::int64_t memory_total_mb = 0;
    int compute_major = 0;
    int compute_minor = 0;
    std::string pci_bus_id; // "0000:3b:00.0": how NVML finds the same GPU

    // Native bfloat16 arithmetic arrived with compute capability 8.0 (Ampere).
    bool supports_bf16() const { return compute_major >= 8; }
};

struct HardwareInfo {
    int cpu_cores = 1;              // cores this process may run on (affinity mask)
    std::vector<GpuInfo> gpus;      // CUDA devices LibTorch can use
    bool libtorch_has_cuda = false; // LibTorch was built with CUDA (it may still see no GPU)

    bool cuda_available() const { return !gpus.empty(); }
};

// Cores this process may run on (its affinity mask: taskset and container CPU sets count).
int usable_cpu_cores();

// Whether a /proc/cpuinfo text's flags name bfloat16 instructions (avx512_bf16 or amx_bf16),
// which make bf16-mixed fast on a CPU; without them LibTorch emulates bfloat16.
bool cpuinfo_has_bf16(const std::string& cpuinfo);

// This machine's CPU has bfloat16 instructions (read once; false without /proc/cpuinfo).
bool cpu_has_bf16();

// Asks the operating system and LibTorch what this process can use.
HardwareInfo probe_hardware();

struct LibraryVersions {
    std::string kiln;
    std::string libtorch;
    std::string opencv;
    std::string sqlite;
};

LibraryVersions library_versions();

} // namespace kiln::system
