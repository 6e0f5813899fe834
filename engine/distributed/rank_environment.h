#pragma once

#include <chrono>
#include <optional>
#include <string>

namespace kiln::distributed {

// Where this process stands in a distributed run, with torchrun's variable names: RANK,
// LOCAL_RANK, WORLD_SIZE, LOCAL_WORLD_SIZE, NODE_RANK, MASTER_ADDR, MASTER_PORT.
struct RankEnvironment {
    int rank = 0;
    int local_rank = 0;
    int world_size = 1;
    int local_world_size = 1;
    int node_rank = 0;
    std::string master_addr = "127.0.0.1";
    int master_port = 0; // 0: any free port (a single node that Kiln launches itself)

    // Set by an external launcher (torchrun, SLURM scripts) or by Kiln for the processes it
    // starts: RANK and WORLD_SIZE are in the environment. A malformed value is a kiln::Error.
    static std::optional<RankEnvironment> from_process();
    // For the processes Kiln starts on this node: NODE_RANK, MASTER_ADDR and MASTER_PORT from
    // the environment where set. Several nodes need MASTER_ADDR (a kiln::Error otherwise).
    static RankEnvironment for_node(int num_nodes, int devices_per_node);
};

// Whether this process may write the run directory: only the first rank does, so the others
// must not check or touch `out` either (it may be filled by rank 0 while they start).
bool writes_run_directory();

// How long joining and each collective may take before the run fails: 300 s, or
// KILN_DISTRIBUTED_TIMEOUT seconds.
std::chrono::milliseconds timeout_from_environment();

} // namespace kiln::distributed
