#include "system/hardware.h"

#include "kiln_version.h"
#include "system/nvml.h"

#include <cstdio>
#include <fstream>
#include <opencv2/core/version.hpp>
#include <sched.h>
#include <sqlite3.h>
#include <sstream>
#include <thread>
#include <torch/cuda.h>
#include <torch/version.h>

#ifdef KILN_WITH_CUDA
#include <ATen/cuda/CUDAContext.h>
#endif

namespace kiln::system {
namespace {

// CUDA's total leaves out what the driver keeps (616 of an H200's 143,771 MiB); NVML's is the
// one nvidia-smi shows, which users know their GPU by. Only a little above CUDA's, though: a
// MIG slice has its parent's bus id, and NVML would give the whole GPU's memory.
void use_nvml_memory_totals(std::vector<GpuInfo>& gpus) {
    const std::unique_ptr<Nvml> nvml = gpus.empty() ? nullptr : Nvml::load();
    if (!nvml) {
        return;
    }
    for (GpuInfo& gpu : gpus) {
        if (const std::optional<Nvml::Device> device = nvml->device_by_pci_bus_id(gpu.pci_bus_id)) {
            const std::optional<double> total = nvml->sample(*device, gpu.index).memory_total_mb;
            const auto cuda_total = static_cast<double>(gpu.memory_total_mb);
            if (total && *total >= cuda_total && *total <= cuda_total * 1.02) {
                gpu.memory_total_mb = static_cast<std::int64_t>(*total);
            }
        }
    }
}

std::vector<GpuInfo> usable_gpus() {
    std::vector<GpuInfo> gpus;
    if (!torch::cuda::is_available()) {
        return gpus;
    }
    const auto count = static_cast<int>(torch::cuda::device_count());
    for (int index = 0; index < count; ++index) {
        GpuInfo gpu;
        gpu.index = index;
#ifdef KILN_WITH_CUDA
        const cudaDeviceProp* properties = at::cuda::getDeviceProperties(index);
        gpu.name = properties->name;
        gpu.memory_total_mb = static_cast<std::int64_t>(properties->totalGlobalMem >> 20);
        gpu.compute_major = properties->major;
        gpu.compute_minor = properties->minor;
        char bus_id[32];
        std::snprintf(bus_id, sizeof bus_id, "%04x:%02x:%02x.0", properties->pciDomainID,
                      properties->pciBusID, properties->pciDeviceID);
        gpu.pci_bus_id = bus_id;
#else
        gpu.name = "CUDA device " + std::to_string(index);
#endif
        gpus.push_back(gpu);
    }
    use_nvml_memory_totals(gpus);
    return gpus;
}

} // namespace

int usable_cpu_cores() {
    cpu_set_t mask;
    if (sched_getaffinity(0, sizeof(mask), &mask) == 0) {
        return std::max(1, CPU_COUNT(&mask));
    }
    return std::max(1u, std::thread::hardware_concurrency());
}

bool cpuinfo_has_bf16(const std::string& cpuinfo) {
    std::istringstream lines(cpuinfo);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("flags", 0) != 0) {
            continue;
        }
        std::istringstream flags(line.substr(line.find(':') + 1));
        for (std::string flag; flags >> flag;) {
            if (flag == "avx512_bf16" || flag == "amx_bf16") {
                return true;
            }
        }
    }
    return false;
}

bool cpu_has_bf16() {
    static const bool has = [] {
        std::ifstream file("/proc/cpuinfo");
        std::ostringstream text;
        text << file.rdbuf();
        return cpuinfo_has_bf16(text.str());
    }();
    return has;
}

HardwareInfo probe_hardware() {
    HardwareInfo info;
    info.cpu_cores = usable_cpu_cores();
    info.gpus = usable_gpus();
#ifdef KILN_WITH_CUDA
    info.libtorch_has_cuda = true;
#endif
    return info;
}

LibraryVersions library_versions() {
    LibraryVersions versions;
    versions.kiln = KILN_VERSION;
    versions.libtorch = TORCH_VERSION;
    versions.opencv = CV_VERSION;
    versions.sqlite = sqlite3_libversion();
    return versions;
}

} // namespace kiln::system
