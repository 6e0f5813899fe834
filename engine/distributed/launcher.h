#pragma once

#include "distributed/rank_environment.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>

namespace kiln::distributed {

// The first argument that makes a Kiln executable (the `kiln` command or Kiln Studio) run one
// rank of a run it launched: the resolved training config arrives as JSON on stdin, the rank
// in torchrun's environment variables.
inline constexpr const char* kRankProcessArgument = "--kiln-rank-process";

// The other ranks of this node, started by the process that runs the node's first rank (as
// Lightning's launcher does): this executable again with kRankProcessArgument. Their stderr
// is passed on line by line, prefixed with the rank. They die with the thread that started
// them, and the destructor ends any that still run (SIGTERM, then SIGKILL after 5 s).
class LocalRanks {
public:
    // Starts local ranks 1 .. node.local_world_size - 1, joining `master_port`.
    LocalRanks(const std::string& config_json, const RankEnvironment& node, int master_port);
    ~LocalRanks();
    LocalRanks(const LocalRanks&) = delete;
    LocalRanks& operator=(const LocalRanks&) = delete;

    // The first rank that ended with an error or a signal, as "rank N failed: <its error>";
    // waits up to `wait` for one to end.
    std::optional<std::string> failure(std::chrono::milliseconds wait = {}) const;
    // After the run: waits for every rank to exit; one that failed is a kiln::Error.
    void wait_for_exit(std::chrono::milliseconds timeout);

private:
    class Monitor;
    std::unique_ptr<Monitor> monitor_;
};

} // namespace kiln::distributed
