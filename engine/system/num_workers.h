#pragma once

#include <optional>

namespace kiln::system {

// The parts of the process environment that change the automatic `num_workers`.
struct WorkerEnvironment {
    std::optional<int> slurm_cpus_per_task; // SLURM_CPUS_PER_TASK: CPUs of one task (= one device)
    std::optional<int> max_workers_auto;    // KILN_MAX_NUM_WORKERS_AUTO: replaces the cap of 8

    // Reads the variables above; a value that is not a whole number >= 0 is a kiln::Error.
    static WorkerEnvironment from_process();
};

constexpr int kDefaultMaxWorkersAuto = 8;

// LightlyTrain's policy for num_workers="auto", per device: leave one core per device for the
// process that drives it, give the rest of that device's share of cores to loader threads,
// and cap the result (8 unless KILN_MAX_NUM_WORKERS_AUTO says otherwise).
// Under SLURM, a device's share is SLURM_CPUS_PER_TASK, since SLURM runs one task per device.
int auto_num_workers(int cpu_cores, int devices_per_node, const WorkerEnvironment& environment);

} // namespace kiln::system
