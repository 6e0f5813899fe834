// The `kiln` command line: the same engine as Kiln Studio, without a window.

#include "command.h"
#include "core/error.h"
#include "core/log.h"
#include "distributed/launcher.h"
#include "distributed/nccl_backend.h"
#include "system/hardware.h"
#include "train/trainer.h"

#include <c10/util/Exception.h>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <new>

namespace {

// Ctrl-C (or SIGTERM, as a scheduler sends it) asks a stoppable command to stop: a run after its
// current step, with a checkpoint; a second signal ends the process at once. Other commands keep
// the signals' default and end at once.
kiln::StopToken& interrupt_stop_token() {
    static kiln::StopToken token;
    return token;
}

void on_interrupt(int) {
    if (interrupt_stop_token().stop_requested()) {
        std::_Exit(130);
    }
    interrupt_stop_token().request_stop();
}

constexpr const char* kOutOfMemory =
    "error: out of memory: the command needed more memory than this machine could give it; "
    "lower the batch size (batch_size=, --batch-size) or the image size (image_size=, "
    "--image-size) where it has them, give a smaller embeddings file where it reads one, or "
    "close other programs";

// The parsed command's exit status; errors are printed here, once.
int run_parsed(const kiln::cli::Commands::Entry* parsed) {
    try {
        return parsed ? parsed->run(interrupt_stop_token(), std::cout) : 0;
    } catch (const kiln::Error& error) {
        std::cerr << "error: " << error.what() << "\n";
        // Stopped by Ctrl-C or SIGTERM: the status a shell gives a command a signal ended, as a
        // stopped run's.
        return interrupt_stop_token().stop_requested() ? 130 : 1;
    } catch (const c10::OutOfMemoryError& error) { // a GPU's memory
        std::cerr << kOutOfMemory << " (" << error.what_without_backtrace() << ")\n";
        return 1;
    } catch (const c10::Error& error) {
        const std::string cause = error.what_without_backtrace();
        if (cause.find("can't allocate memory") != std::string::npos) {
            std::cerr << kOutOfMemory << " (" << cause << ")\n";
            return 1;
        }
        std::cerr << "error: unexpected failure in LibTorch: " << cause << "\n";
        return 1;
    } catch (const std::bad_alloc&) {
        std::cerr << kOutOfMemory << "\n";
        return 1;
    } catch (const std::exception& error) {
        const std::string cause = error.what();
        std::cerr << "error: unexpected failure: " << (cause.empty() ? "(no message)" : cause)
                  << "\n";
        return 1;
    }
}

} // namespace

int main(int argc, char** argv) {
    if (argc == 2 && std::strcmp(argv[1], kiln::distributed::kRankProcessArgument) == 0) {
        return kiln::distributed::end_process(kiln::train::rank_process_main());
    }
    CLI::App app{"Kiln: pretrain, fine-tune and embed computer vision models on CPUs and GPUs",
                 "kiln"};
    app.set_version_flag("--version", "kiln " + kiln::system::library_versions().kiln);
    app.require_subcommand(1);
    // Wide enough for the longest command name, train-instance-segmentation.
    app.get_formatter()->column_width(31);

    kiln::cli::Commands commands;
    kiln::cli::add_pretraining_commands(app, commands);
    CLI::App* evaluate = app.add_subcommand("eval", "evaluate a pretrained backbone or detections");
    evaluate->require_subcommand(1);
    kiln::cli::add_knn_command(*evaluate, commands);
    kiln::cli::add_coco_command(*evaluate, commands);
    kiln::cli::add_runs_commands(app, commands);
    kiln::cli::add_dataset_commands(app, commands);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        // --help and --version end well; a bad argument is an error like any other (CLI11's own
        // codes, 104 to 109, read as something else).
        return app.exit(error) == 0 ? 0 : 1;
    }

    const kiln::cli::Commands::Entry* parsed = commands.parsed();
    if (parsed != nullptr && parsed->stoppable) {
        std::signal(SIGINT, on_interrupt);
        std::signal(SIGTERM, on_interrupt);
    }
    // Warnings reach the terminal besides train.log; errors are printed once, by run_parsed.
    const kiln::log::ScopedSink terminal([](kiln::log::Level level, const std::string& message) {
        if (level == kiln::log::Level::Warning) {
            std::cerr << "\nwarning: " << message << "\n";
        }
    });
    return kiln::distributed::end_process(run_parsed(parsed));
}
