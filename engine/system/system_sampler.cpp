#include "system/system_sampler.h"

#include "core/log.h"
#include "system/memory.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace kiln::system {
namespace {

struct Ticks {
    unsigned long long busy = 0;
    unsigned long long total = 0;
    unsigned long long process = 0; // utime + stime of this process
};

Ticks read_ticks() {
    Ticks ticks;
    std::ifstream stat("/proc/stat");
    std::string cpu;
    unsigned long long user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0,
                       steal = 0;
    stat >> cpu >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal;
    ticks.busy = user + nice + system + irq + softirq + steal;
    ticks.total = ticks.busy + idle + iowait;
    std::ifstream self("/proc/self/stat");
    std::string line;
    std::getline(self, line);
    // Fields after the command name (which may hold spaces) start behind its closing ')'. On
    // the sampler's thread a line of another shape must not throw: its ticks count as none.
    const std::size_t name_end = line.rfind(')');
    if (name_end == std::string::npos) {
        return ticks;
    }
    std::istringstream fields(line.substr(name_end + 1));
    long long value = 0; // tpgid is -1 without a terminal
    std::string state;
    fields >> state;
    for (int index = 4; index <= 15 && fields >> value; ++index) {
        if (index == 14 || index == 15) { // utime, stime
            ticks.process += static_cast<unsigned long long>(std::max(0LL, value));
        }
    }
    return ticks;
}

} // namespace

GpuSet gpus_at(const std::vector<std::string>& pci_bus_ids) {
    GpuSet set;
    if (pci_bus_ids.empty()) {
        return set;
    }
    set.nvml = Nvml::load();
    if (!set.nvml) {
        return set;
    }
    for (const std::string& bus_id : pci_bus_ids) {
        if (std::optional<Nvml::Device> device = set.nvml->device_by_pci_bus_id(bus_id)) {
            set.devices.push_back(*device);
        }
    }
    return set;
}

SystemSampler::SystemSampler(GpuSet gpus, std::chrono::milliseconds interval)
    : gpus_(std::move(gpus)), interval_(interval), thread_(log::for_this_job([this] { run(); })) {}

SystemSampler::~SystemSampler() {
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

SystemSample SystemSampler::latest() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return latest_;
}

void SystemSampler::run() {
    const long cores = std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN));
    Ticks previous = read_ticks();
    std::unique_lock<std::mutex> lock(mutex_);
    // A first, shorter interval, so that even a short run has a measurement.
    auto wait = std::min(interval_, std::chrono::milliseconds(50));
    while (!wake_.wait_for(lock, wait, [this] { return stopping_; })) {
        wait = interval_;
        lock.unlock();
        const Ticks now = read_ticks();
        SystemSample sample;
        const double total = double(now.total - previous.total);
        if (total > 0) {
            sample.system_util = double(now.busy - previous.busy) / total;
            // /proc/stat counts every core's ticks; a process's ticks are per core too.
            sample.process_util =
                std::min(1.0, double(now.process - previous.process) * cores / total);
        }
        sample.rss_mb = resident_mb();
        for (std::size_t i = 0; i < gpus_.devices.size(); ++i) {
            sample.gpus.push_back(gpus_.nvml->sample(gpus_.devices[i], static_cast<int>(i)));
        }
        sample.measured = true;
        previous = now;
        lock.lock();
        latest_ = sample;
    }
}

} // namespace kiln::system
