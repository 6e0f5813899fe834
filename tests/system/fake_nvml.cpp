// A stand-in for libnvidia-ml.so.1 that answers as the environment variable KILN_FAKE_NVML
// scripts it, so that Kiln's NVML code is tested without a GPU. Settings, separated by ';':
//   init=CODE          what nvmlInit_v2 returns (default SUCCESS)
//   count=N            the number of GPUs (default 1)
//   util=V,V,...       each GPU's utilisation in %, or an error code name
//   used=MB,MB,...     memory used, MiB, or an error code name (for both memory queries)
//   total=MB,MB,...    memory total, MiB
//   v2=missing         no nvmlDeviceGetMemoryInfo_v2 answer (FUNCTION_NOT_FOUND), as old drivers
// GPU i sits at PCI bus 00000000:0{i+1}:00.0 and is named "Fake GPU i".
// nvmlDeviceGetMemoryInfo_v2 checks the struct version as the real library does.

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

struct Utilization {
    unsigned int gpu;
    unsigned int memory;
};
struct Memory {
    unsigned long long total, free, used;
};
struct MemoryV2 {
    unsigned int version;
    unsigned long long total, reserved, free, used;
};
struct PciInfo {
    char busIdLegacy[16];
    unsigned int domain, bus, device, pciDeviceId, pciSubSystemId;
    char busId[32];
};

constexpr int kSuccess = 0;
constexpr int kInvalidArgument = 2;
constexpr int kNotFound = 6;
constexpr int kFunctionNotFound = 13;
constexpr int kArgumentVersionMismatch = 25;

const std::map<std::string, int> kCodes = {
    {"SUCCESS", 0},       {"UNINITIALIZED", 1},     {"INVALID_ARGUMENT", 2}, {"NOT_SUPPORTED", 3},
    {"NO_PERMISSION", 4}, {"DRIVER_NOT_LOADED", 9}, {"GPU_IS_LOST", 15},     {"UNKNOWN", 999},
};

struct Gpu {
    int index;
};
Gpu gpus[8] = {{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}};

std::string setting(const char* key, const char* fallback) {
    const char* script = std::getenv("KILN_FAKE_NVML");
    const std::string text = script != nullptr ? script : "";
    const std::string prefix = std::string(key) + "=";
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find(';', start), text.size());
        const std::string item = text.substr(start, end - start);
        if (item.compare(0, prefix.size(), prefix) == 0) {
            return item.substr(prefix.size());
        }
        start = end + 1;
    }
    return fallback;
}

// Entry `index` of a comma-separated setting: a number, or an error code by name (code > 0).
int entry(const char* key, int index, const char* fallback, unsigned long long& value) {
    const std::string list = setting(key, fallback);
    std::size_t start = 0;
    for (int i = 0; i < index && start != std::string::npos; ++i) {
        start = list.find(',', start);
        start = start == std::string::npos ? start : start + 1;
    }
    const std::string item =
        start == std::string::npos ? fallback : list.substr(start, list.find(',', start) - start);
    const auto code = kCodes.find(item);
    if (code != kCodes.end()) {
        return code->second;
    }
    value = std::strtoull(item.c_str(), nullptr, 10);
    return kSuccess;
}

int count() {
    return std::atoi(setting("count", "1").c_str());
}

int index_of(void* device) {
    for (int i = 0; i < count(); ++i) {
        if (device == &gpus[i]) {
            return i;
        }
    }
    return -1;
}

int memory(void* device, unsigned long long& total, unsigned long long& used) {
    const int i = index_of(device);
    if (i < 0) {
        return kInvalidArgument;
    }
    const int used_code = entry("used", i, "1024", used);
    if (used_code != kSuccess) {
        return used_code;
    }
    entry("total", i, "8192", total);
    used <<= 20;
    total <<= 20;
    return kSuccess;
}

} // namespace

extern "C" {

int nvmlInit_v2() {
    unsigned long long unused = 0;
    return entry("init", 0, "SUCCESS", unused);
}

int nvmlShutdown() {
    return kSuccess;
}

const char* nvmlErrorString(int code) {
    for (const auto& [name, value] : kCodes) {
        if (value == code) {
            return name.c_str();
        }
    }
    return "Unknown Error";
}

int nvmlDeviceGetCount_v2(unsigned int* device_count) {
    *device_count = static_cast<unsigned int>(count());
    return kSuccess;
}

int nvmlDeviceGetHandleByIndex_v2(unsigned int index, void** device) {
    if (static_cast<int>(index) >= count()) {
        return kInvalidArgument;
    }
    *device = &gpus[index];
    return kSuccess;
}

int nvmlDeviceGetHandleByPciBusId_v2(const char* bus_id, void** device) {
    unsigned int domain = 0, bus = 0, slot = 0, function = 0;
    if (std::sscanf(bus_id, "%x:%x:%x.%x", &domain, &bus, &slot, &function) != 4) {
        return kInvalidArgument;
    }
    if (domain != 0 || slot != 0 || bus < 1 || static_cast<int>(bus) > count()) {
        return kNotFound;
    }
    *device = &gpus[bus - 1];
    return kSuccess;
}

int nvmlDeviceGetName(void* device, char* name, unsigned int length) {
    const int i = index_of(device);
    if (i < 0) {
        return kInvalidArgument;
    }
    std::snprintf(name, length, "Fake GPU %d", i);
    return kSuccess;
}

int nvmlDeviceGetPciInfo_v3(void* device, PciInfo* pci) {
    const int i = index_of(device);
    if (i < 0) {
        return kInvalidArgument;
    }
    std::memset(pci, 0, sizeof *pci);
    std::snprintf(pci->busId, sizeof pci->busId, "00000000:%02x:00.0", i + 1);
    pci->bus = static_cast<unsigned int>(i + 1);
    return kSuccess;
}

int nvmlDeviceGetUtilizationRates(void* device, Utilization* utilization) {
    const int i = index_of(device);
    if (i < 0) {
        return kInvalidArgument;
    }
    unsigned long long value = 0;
    const int code = entry("util", i, "50", value);
    if (code == kSuccess) {
        utilization->gpu = static_cast<unsigned int>(value);
        utilization->memory = 0;
    }
    return code;
}

int nvmlDeviceGetMemoryInfo(void* device, Memory* result) {
    unsigned long long total = 0, used = 0;
    const int code = memory(device, total, used);
    if (code == kSuccess) {
        *result = {total, total - used, used};
    }
    return code;
}

int nvmlDeviceGetMemoryInfo_v2(void* device, MemoryV2* result) {
    if (setting("v2", "") == "missing") {
        return kFunctionNotFound;
    }
    if (result->version != (static_cast<unsigned int>(sizeof(MemoryV2)) | (2u << 24))) {
        return kArgumentVersionMismatch;
    }
    unsigned long long total = 0, used = 0;
    const int code = memory(device, total, used);
    if (code == kSuccess) {
        result->total = total;
        result->reserved = 0;
        result->used = used;
        result->free = total - used;
    }
    return code;
}

} // extern "C"
