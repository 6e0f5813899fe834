#include "distributed/rank_environment.h"

#include "core/error.h"

#include <cstdlib>

namespace kiln::distributed {
namespace {

std::optional<std::string> environment_value(const char* name) {
    const char* value = std::getenv(name);
    if (value == nullptr || *value == '\0') {
        return std::nullopt;
    }
    return std::string(value);
}

int environment_integer(const char* name, int fallback, int lowest, int highest) {
    const std::optional<std::string> text = environment_value(name);
    if (!text) {
        return fallback;
    }
    char* end = nullptr;
    const long value = std::strtol(text->c_str(), &end, 10);
    if (*end != '\0' || value < lowest || value > highest) {
        throw Error(std::string(name) + "=\"" + *text + "\" is not a whole number from " +
                    std::to_string(lowest) + " to " + std::to_string(highest) +
                    "; fix or unset it");
    }
    return static_cast<int>(value);
}

constexpr int kDefaultMasterPort = 29500; // torchrun's
constexpr int kLargestRank = 1 << 20;

} // namespace

std::optional<RankEnvironment> RankEnvironment::from_process() {
    if (!environment_value("RANK")) {
        return std::nullopt;
    }
    RankEnvironment environment;
    environment.world_size = environment_integer("WORLD_SIZE", 1, 1, kLargestRank);
    environment.rank = environment_integer("RANK", 0, 0, environment.world_size - 1);
    environment.local_rank = environment_integer("LOCAL_RANK", environment.rank, 0, kLargestRank);
    environment.local_world_size =
        environment_integer("LOCAL_WORLD_SIZE", environment.world_size, 1, kLargestRank);
    environment.node_rank = environment_integer("NODE_RANK", 0, 0, kLargestRank);
    environment.master_addr = environment_value("MASTER_ADDR").value_or("127.0.0.1");
    environment.master_port = environment_integer("MASTER_PORT", kDefaultMasterPort, 1, 65535);
    return environment;
}

RankEnvironment RankEnvironment::for_node(int num_nodes, int devices_per_node) {
    RankEnvironment environment;
    environment.node_rank = environment_integer("NODE_RANK", 0, 0, num_nodes - 1);
    environment.world_size = num_nodes * devices_per_node;
    environment.local_world_size = devices_per_node;
    environment.rank = environment.node_rank * devices_per_node;
    const std::optional<std::string> master = environment_value("MASTER_ADDR");
    if (num_nodes > 1 && !master) {
        throw Error("num_nodes=" + std::to_string(num_nodes) +
                    " needs MASTER_ADDR: set it on every node to the address of node 0 (and "
                    "NODE_RANK to each node's number, MASTER_PORT to a free port)");
    }
    environment.master_addr = master.value_or("127.0.0.1");
    environment.master_port =
        environment_integer("MASTER_PORT", num_nodes > 1 ? kDefaultMasterPort : 0, 1, 65535);
    return environment;
}

bool writes_run_directory() {
    const std::optional<std::string> rank = environment_value("RANK");
    if (rank) {
        return *rank == "0";
    }
    const std::optional<std::string> node = environment_value("NODE_RANK");
    return !node || *node == "0";
}

std::chrono::milliseconds timeout_from_environment() {
    return std::chrono::seconds(environment_integer("KILN_DISTRIBUTED_TIMEOUT", 300, 1, 86400));
}

} // namespace kiln::distributed
