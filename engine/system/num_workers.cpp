#include "system/num_workers.h"

#include "core/error.h"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace kiln::system {
namespace {

std::optional<int> read_count(const char* variable, int minimum) {
    const char* text = std::getenv(variable);
    if (text == nullptr || *text == '\0') {
        return std::nullopt;
    }
    char* end = nullptr;
    const long value = std::strtol(text, &end, 10);
    if (*end != '\0' || value < minimum || value > 1'000'000) {
        throw Error("environment variable " + std::string(variable) + "=\"" + text +
                    "\" is not a whole number >= " + std::to_string(minimum) +
                    "; set it to one or unset it");
    }
    return static_cast<int>(value);
}

} // namespace

WorkerEnvironment WorkerEnvironment::from_process() {
    WorkerEnvironment environment;
    environment.slurm_cpus_per_task = read_count("SLURM_CPUS_PER_TASK", 1);
    environment.max_workers_auto = read_count("KILN_MAX_NUM_WORKERS_AUTO", 0);
    return environment;
}

int auto_num_workers(int cpu_cores, int devices_per_node, const WorkerEnvironment& environment) {
    const int devices = std::max(1, devices_per_node);
    const int cores_per_device = environment.slurm_cpus_per_task.value_or(cpu_cores / devices);
    const int workers = std::max(0, cores_per_device - 1);
    return std::min(workers, environment.max_workers_auto.value_or(kDefaultMaxWorkersAuto));
}

} // namespace kiln::system
