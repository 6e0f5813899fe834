#pragma once

// The real peers of Kiln's COCO evaluator on the same files, in the same run: runs
// coco_peers.py with the build's Python (pycocotools and faster-coco-eval, each where
// installed) and prints each one's time and whether its twelve stats equal Kiln's bit for bit.

#include "eval/coco/coco_eval.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace kiln::bench {

inline void print_coco_peers(const std::filesystem::path& truth,
                             const std::filesystem::path& results, coco::IouType type,
                             const std::array<double, coco::kStatCount>& kiln_stats) {
    if (std::string(KILN_BENCHMARK_PYTHON).empty()) {
        std::printf("  (no Python environment in this build: peers not run)\n");
        return;
    }
    const std::string command = std::string(KILN_BENCHMARK_PYTHON) + " " + KILN_BENCHMARK_DIR +
                                "/coco_peers.py " + truth.string() + " " + results.string() +
                                (type == coco::IouType::Mask ? " segm" : " bbox");
    FILE* pipe = ::popen(command.c_str(), "r");
    char line[4096];
    int peers = 0;
    while (pipe != nullptr && std::fgets(line, sizeof line, pipe) != nullptr) {
        const nlohmann::json peer = nlohmann::json::parse(line);
        double largest = 0;
        for (std::size_t i = 0; i < kiln_stats.size(); ++i) {
            largest = std::max(largest, std::abs(peer["stats"][i].get<double>() - kiln_stats[i]));
        }
        char difference[64];
        std::snprintf(difference, sizeof difference, "differ from Kiln's by up to %.3g", largest);
        std::printf("  %-18s %8.2f s  stats %s\n", peer["name"].get<std::string>().c_str(),
                    peer["seconds"].get<double>(),
                    largest == 0 ? "equal to Kiln's bit for bit" : difference);
        ++peers;
    }
    if (pipe != nullptr) {
        ::pclose(pipe);
    }
    if (peers == 0) {
        std::printf("  (neither pycocotools nor faster-coco-eval in %s)\n", KILN_BENCHMARK_PYTHON);
    }
}

} // namespace kiln::bench
