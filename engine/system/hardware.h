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
