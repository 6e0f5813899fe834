#include "system/cpu_sampler.h"

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
    // Fields after the command name (which may hold spaces) start behind its closing ')'.
    std::istringstream fields(line.substr(line.rfind(')') + 2));
    std::string field;
    for (int index = 3; index <= 15 && fields >> field; ++index) {
        if (index == 14 || index == 15) { // utime, stime
            ticks.process += std::stoull(field);
        }
    }
    return ticks;
}

double resident_mb() {
    std::ifstream statm("/proc/self/statm");
    unsigned long long size = 0, resident = 0;
    statm >> size >> resident;
    return double(resident) * double(::sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

} // namespace

CpuSampler::CpuSampler(std::chrono::milliseconds interval)
    : interval_(interval), thread_(&CpuSampler::run, this) {}

CpuSampler::~CpuSampler() {
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

CpuSample CpuSampler::latest() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return latest_;
}

void CpuSampler::run() {
    const long cores = std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN));
    Ticks previous = read_ticks();
    std::unique_lock<std::mutex> lock(mutex_);
    // A first, shorter interval, so that even a short run has a measurement.
    auto wait = std::min(interval_, std::chrono::milliseconds(50));
    while (!wake_.wait_for(lock, wait, [this] { return stopping_; })) {
        wait = interval_;
        lock.unlock();
        const Ticks now = read_ticks();
        CpuSample sample;
        const double total = double(now.total - previous.total);
        if (total > 0) {
            sample.system_util = double(now.busy - previous.busy) / total;
            // /proc/stat counts every core's ticks; a process's ticks are per core too.
            sample.process_util =
                std::min(1.0, double(now.process - previous.process) * cores / total);
        }
        sample.rss_mb = resident_mb();
        sample.measured = true;
        previous = now;
        lock.lock();
        latest_ = sample;
    }
}

} // namespace kiln::system
