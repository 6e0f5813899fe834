#pragma once

#include "core/stop_token.h"

#include <CLI/CLI.hpp>
#include <functional>
#include <ostream>
#include <utility>
#include <vector>

namespace kiln::cli {

// What a command does once its options are parsed: returns the process exit code; a user's
// mistake is thrown as a kiln::Error.
using CommandRun = std::function<int(const StopToken& stop, std::ostream& out)>;

// The commands of `kiln`. Each source file declares its commands' options beside their
// handlers and registers the pair here; main() parses and runs the one that was given.
class Commands {
public:
    void add(CLI::App* command, CommandRun run) { commands_.emplace_back(command, std::move(run)); }
    // The run of the command on the command line; null when none was given.
    const CommandRun* parsed() const {
        for (const auto& [command, run] : commands_) {
            if (command->parsed()) {
                return &run;
            }
        }
        return nullptr;
    }

private:
    std::vector<std::pair<CLI::App*, CommandRun>> commands_;
};

// commands.cpp: info, train and the fine-tuning commands (one per task), predict, embed,
// config check, list-models, list-methods, dedup, import-idx, optimize-dataset; and `eval knn`
// under `evaluate`.
void add_pretraining_commands(CLI::App& app, Commands& commands);
void add_dataset_commands(CLI::App& app, Commands& commands);
void add_knn_command(CLI::App& evaluate, Commands& commands);
// coco_command.cpp: `eval coco`.
void add_coco_command(CLI::App& evaluate, Commands& commands);
// runs_command.cpp: `runs list|show|export`.
void add_runs_commands(CLI::App& app, Commands& commands);

} // namespace kiln::cli
