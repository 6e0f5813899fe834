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
    struct Entry {
        CLI::App* command;
        CommandRun run;
        bool stoppable; // Ctrl-C and SIGTERM ask it to stop, rather than end the process
    };

    // A command that Ctrl-C or SIGTERM ends where it is (the signals' default).
    void add(CLI::App* command, std::function<int(std::ostream& out)> run) {
        commands_.push_back(
            {command,
             [run = std::move(run)](const StopToken&, std::ostream& out) { return run(out); },
             false});
    }
    // A command that checks `stop`: Ctrl-C or SIGTERM asks it to stop at its next check (a
    // run after its step, with a checkpoint); a second signal ends the process.
    void add_stoppable(CLI::App* command, CommandRun run) {
        commands_.push_back({command, std::move(run), true});
    }
    // The command on the command line; null when none was given.
    const Entry* parsed() const {
        for (const Entry& entry : commands_) {
            if (entry.command->parsed()) {
                return &entry;
            }
        }
        return nullptr;
    }

private:
    std::vector<Entry> commands_;
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
