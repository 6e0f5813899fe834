#include "system/nvml.h"

#include "core/log.h"

#include <algorithm>
#include <cstdlib>
#include <dlfcn.h>

namespace kiln::system {
namespace {

// The few NVML declarations Kiln uses, as nvml.h defines them.
using nvmlReturn_t = int;
using nvmlDevice_t = void*;
constexpr nvmlReturn_t kSuccess = 0;
constexpr nvmlReturn_t kNotSupported = 3;
constexpr nvmlReturn_t kFunctionNotFound = 13;

struct nvmlUtilization_t {
    unsigned int gpu;
    unsigned int memory;
};
struct nvmlMemory_t {
    unsigned long long total;
    unsigned long long free;
    unsigned long long used;
};
struct nvmlMemory_v2_t {
    unsigned int version;
    unsigned long long total;
    unsigned long long reserved;
    unsigned long long free;
    unsigned long long used;
};
// NVML_STRUCT_VERSION(Memory, 2): the struct's size with the version in the top byte.
constexpr unsigned int kMemoryV2Version =
    static_cast<unsigned int>(sizeof(nvmlMemory_v2_t)) | (2u << 24);
struct nvmlPciInfo_t {
    char busIdLegacy[16];
    unsigned int domain;
    unsigned int bus;
    unsigned int device;
    unsigned int pciDeviceId;
    unsigned int pciSubSystemId;
    char busId[32];
};

constexpr double kMegabyte = 1024.0 * 1024.0;

template <class Function> Function symbol(void* library, const char* name) {
    return reinterpret_cast<Function>(dlsym(library, name));
}

} // namespace

struct Nvml::Api {
    nvmlReturn_t (*init)() = nullptr;
    nvmlReturn_t (*shutdown)() = nullptr;
    const char* (*error_string)(nvmlReturn_t) = nullptr;
    nvmlReturn_t (*device_count)(unsigned int*) = nullptr;
    nvmlReturn_t (*handle_by_index)(unsigned int, nvmlDevice_t*) = nullptr;
    nvmlReturn_t (*handle_by_pci_bus_id)(const char*, nvmlDevice_t*) = nullptr;
    nvmlReturn_t (*name)(nvmlDevice_t, char*, unsigned int) = nullptr;
    nvmlReturn_t (*pci_info)(nvmlDevice_t, nvmlPciInfo_t*) = nullptr;
    nvmlReturn_t (*utilization)(nvmlDevice_t, nvmlUtilization_t*) = nullptr;
    nvmlReturn_t (*memory)(nvmlDevice_t, nvmlMemory_t*) = nullptr;
    nvmlReturn_t (*memory_v2)(nvmlDevice_t, nvmlMemory_v2_t*) = nullptr;
};

std::unique_ptr<Nvml> Nvml::load() {
    const char* override_path = std::getenv("KILN_NVML_LIBRARY");
    const std::string path = override_path != nullptr ? override_path : "libnvidia-ml.so.1";
    void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
        log::debug("no GPU monitoring: " + path + " is not available");
        return nullptr;
    }
    auto api = std::make_unique<Api>();
    api->init = symbol<decltype(api->init)>(library, "nvmlInit_v2");
    api->shutdown = symbol<decltype(api->shutdown)>(library, "nvmlShutdown");
    api->error_string = symbol<decltype(api->error_string)>(library, "nvmlErrorString");
    api->device_count = symbol<decltype(api->device_count)>(library, "nvmlDeviceGetCount_v2");
    api->handle_by_index =
        symbol<decltype(api->handle_by_index)>(library, "nvmlDeviceGetHandleByIndex_v2");
    api->handle_by_pci_bus_id =
        symbol<decltype(api->handle_by_pci_bus_id)>(library, "nvmlDeviceGetHandleByPciBusId_v2");
    api->name = symbol<decltype(api->name)>(library, "nvmlDeviceGetName");
    api->pci_info = symbol<decltype(api->pci_info)>(library, "nvmlDeviceGetPciInfo_v3");
    api->utilization = symbol<decltype(api->utilization)>(library, "nvmlDeviceGetUtilizationRates");
    api->memory = symbol<decltype(api->memory)>(library, "nvmlDeviceGetMemoryInfo");
    api->memory_v2 = symbol<decltype(api->memory_v2)>(library, "nvmlDeviceGetMemoryInfo_v2");
    if (api->init == nullptr || api->shutdown == nullptr || api->device_count == nullptr ||
        api->handle_by_index == nullptr) {
        log::debug("no GPU monitoring: " + path + " lacks the NVML functions Kiln needs");
        dlclose(library);
        return nullptr;
    }
    const nvmlReturn_t result = api->init();
    if (result != kSuccess) {
        log::debug("no GPU monitoring: nvmlInit failed with code " + std::to_string(result));
        dlclose(library);
        return nullptr;
    }
    return std::unique_ptr<Nvml>(new Nvml(library, std::move(api)));
}

Nvml::Nvml(void* library, std::unique_ptr<Api> api) : library_(library), api_(std::move(api)) {}

Nvml::~Nvml() {
    api_->shutdown();
    dlclose(library_);
}

void Nvml::warn_once(const std::string& what, int code) {
    if (std::find(warned_.begin(), warned_.end(), what) != warned_.end()) {
        return;
    }
    warned_.push_back(what);
    const char* reason = api_->error_string != nullptr ? api_->error_string(code) : nullptr;
    log::warning("GPU monitoring: " + what + " failed (" +
                 (reason != nullptr ? std::string(reason) : "code " + std::to_string(code)) +
                 "); that value is left out");
}

std::vector<Nvml::Device> Nvml::devices() {
    std::vector<Device> devices;
    unsigned int count = 0;
    const nvmlReturn_t result = api_->device_count(&count);
    if (result != kSuccess) {
        warn_once("counting GPUs", result);
        return devices;
    }
    for (unsigned int i = 0; i < count; ++i) {
        nvmlDevice_t handle = nullptr;
        const nvmlReturn_t found = api_->handle_by_index(i, &handle);
        if (found != kSuccess) {
            warn_once("opening GPU " + std::to_string(i), found);
            continue;
        }
        Device device;
        device.handle = handle;
        char name[96] = {};
        if (api_->name != nullptr && api_->name(handle, name, sizeof name) == kSuccess) {
            device.name = name;
        }
        nvmlPciInfo_t pci{};
        if (api_->pci_info != nullptr && api_->pci_info(handle, &pci) == kSuccess) {
            device.pci_bus_id = pci.busId;
        }
        devices.push_back(device);
    }
    return devices;
}

std::optional<Nvml::Device> Nvml::device_by_pci_bus_id(const std::string& bus_id) {
    if (api_->handle_by_pci_bus_id == nullptr) {
        return std::nullopt;
    }
    nvmlDevice_t handle = nullptr;
    const nvmlReturn_t result = api_->handle_by_pci_bus_id(bus_id.c_str(), &handle);
    if (result != kSuccess) {
        warn_once("finding the GPU at PCI bus " + bus_id, result);
        return std::nullopt;
    }
    for (const Device& device : devices()) {
        if (device.handle == handle) {
            return device;
        }
    }
    return Device{handle, "", bus_id};
}

GpuSample Nvml::sample(const Device& device, int index) {
    GpuSample sample;
    sample.index = index;
    sample.name = device.name;
    if (api_->utilization != nullptr) {
        nvmlUtilization_t utilization{};
        const nvmlReturn_t result = api_->utilization(device.handle, &utilization);
        if (result == kSuccess) {
            sample.util_percent = utilization.gpu;
        } else if (result != kNotSupported) {
            warn_once("reading the utilisation of GPU " + std::to_string(index), result);
        }
    }
    // The v2 query counts memory the driver reserves as neither used nor free; fall back to v1
    // on drivers without it.
    nvmlReturn_t result = kFunctionNotFound;
    if (api_->memory_v2 != nullptr) {
        nvmlMemory_v2_t memory{};
        memory.version = kMemoryV2Version;
        result = api_->memory_v2(device.handle, &memory);
        if (result == kSuccess) {
            sample.memory_used_mb = double(memory.used) / kMegabyte;
            sample.memory_total_mb = double(memory.total) / kMegabyte;
        }
    }
    if (result != kSuccess && result != kNotSupported && api_->memory != nullptr) {
        nvmlMemory_t memory{};
        result = api_->memory(device.handle, &memory);
        if (result == kSuccess) {
            sample.memory_used_mb = double(memory.used) / kMegabyte;
            sample.memory_total_mb = double(memory.total) / kMegabyte;
        }
    }
    if (result != kSuccess && result != kNotSupported) {
        warn_once("reading the memory of GPU " + std::to_string(index), result);
    }
    return sample;
}

} // namespace kiln::system
