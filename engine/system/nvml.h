#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kiln::system {

// One GPU at one moment. A value NVML cannot give (not supported, an error) is absent rather
// than 0, so plots and loggers can say "unknown" instead of showing a false zero.
struct GpuSample {
    int index = 0; // position among the GPUs the run uses
    std::string name;
    std::optional<double> util_percent;
    std::optional<double> memory_used_mb;
    std::optional<double> memory_total_mb;
};

// NVIDIA's management library, loaded at run time with dlopen: Kiln has no link-time
// dependency on the driver, and without one (or without a GPU) there are simply no GPUs to
// sample, with no message beyond a debug line. KILN_NVML_LIBRARY selects another library file
// (the tests use a scripted fake).
class Nvml {
public:
    // nullptr when the library is absent or nvmlInit fails.
    static std::unique_ptr<Nvml> load();
    ~Nvml();
    Nvml(const Nvml&) = delete;
    Nvml& operator=(const Nvml&) = delete;

    struct Device {
        void* handle = nullptr;
        std::string name;
        std::string pci_bus_id;
    };

    // Every GPU NVML sees, in its order.
    std::vector<Device> devices();
    // The GPU at a PCI bus id as CUDA reports it ("0000:3b:00.0"): how CUDA device numbers,
    // which CUDA_VISIBLE_DEVICES renumbers, are matched to NVML's.
    std::optional<Device> device_by_pci_bus_id(const std::string& bus_id);

    // Utilisation and memory now. Errors other than "not supported" are logged once per kind.
    GpuSample sample(const Device& device, int index);

private:
    struct Api;
    Nvml(void* library, std::unique_ptr<Api> api);
    void warn_once(const std::string& what, int code);

    void* library_;
    std::unique_ptr<Api> api_;
    std::vector<std::string> warned_;
};

} // namespace kiln::system
