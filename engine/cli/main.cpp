// The `kiln` command line: the same engine as Kiln Studio, without a window.

#include "commands.h"
#include "core/config_schema.h"
#include "core/error.h"
#include "distributed/launcher.h"
#include "system/hardware.h"
#include "train/trainer.h"

#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>

namespace {

// Ctrl-C asks the run to stop after its current step, with a checkpoint; a second Ctrl-C ends
// the process at once.
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

void add_config_source(CLI::App& command, kiln::cli::ConfigSource& source,
                       const kiln::config::CommandSchema& schema) {
    command
        .add_option("--config", source.file, "JSON file of settings; key=value pairs override it")
        ->check(CLI::ExistingFile);
    command.add_option("settings", source.overrides, "key=value settings (see below)");
    command.footer(kiln::config::describe_keys(schema));
}

} // namespace

int main(int argc, char** argv) {
    if (argc == 2 && std::strcmp(argv[1], kiln::distributed::kRankProcessArgument) == 0) {
        return kiln::train::rank_process_main();
    }
    CLI::App app{"Kiln: self-supervised pretraining and embedding of image datasets", "kiln"};
    app.set_version_flag("--version", "kiln " + kiln::system::library_versions().kiln);
    app.require_subcommand(1);

    int exit_code = 0;
    kiln::cli::ConfigSource train_source;
    kiln::cli::ConfigSource embed_source;
    kiln::cli::ConfigSource check_source;
    std::string check_file;
    std::string check_command = "train";

    CLI::App* info = app.add_subcommand("info", "versions, CPU cores, GPUs and resolved defaults");
    CLI::App* train = app.add_subcommand("train", "pretrain a backbone on unlabelled images");
    add_config_source(*train, train_source, kiln::config::train_schema());
    CLI::App* embed = app.add_subcommand("embed", "write embeddings of images with a checkpoint");
    add_config_source(*embed, embed_source, kiln::config::embed_schema());
    CLI::App* config = app.add_subcommand("config", "work with configuration files");
    config->require_subcommand(1);
    CLI::App* check =
        config->add_subcommand("check", "validate a configuration and print it fully resolved");
    check->add_option("file", check_file, "JSON configuration file")
        ->required()
        ->check(CLI::ExistingFile);
    check->add_option("--command", check_command, "the command the file configures")
        ->check(CLI::IsMember({"train", "embed"}))
        ->capture_default_str();
    check->add_option("settings", check_source.overrides, "key=value settings overriding the file");

    CLI::App* list_models = app.add_subcommand("list-models", "the backbones `model=` accepts");
    CLI::App* list_methods = app.add_subcommand("list-methods", "the methods `method=` accepts");

    kiln::cli::KnnArguments knn_arguments;
    CLI::App* evaluate = app.add_subcommand("eval", "evaluate a pretrained backbone");
    evaluate->require_subcommand(1);
    CLI::App* knn = evaluate->add_subcommand(
        "knn", "weighted kNN classification of labelled folders (<folder>/<class>/<image>)");
    knn->add_option("--checkpoint", knn_arguments.checkpoint, "last.ckpt or exported model")
        ->check(CLI::ExistingFile);
    knn->add_option("--train", knn_arguments.train, "labelled images the neighbours come from")
        ->check(CLI::ExistingDirectory);
    knn->add_option("--test", knn_arguments.test, "labelled images to classify")
        ->check(CLI::ExistingDirectory);
    knn->add_option("--train-embeddings", knn_arguments.train_embeddings,
                    "embeddings file of the labelled neighbours (instead of --checkpoint)")
        ->check(CLI::ExistingFile);
    knn->add_option("--test-embeddings", knn_arguments.test_embeddings,
                    "embeddings file of the images to classify")
        ->check(CLI::ExistingFile);
    knn->add_option("--image-size", knn_arguments.image_size, "side images are resized to")
        ->check(CLI::Range(1, 4096))
        ->capture_default_str();
    knn->add_option("--k", knn_arguments.k, "neighbours that vote")
        ->check(CLI::Range(1, 10000))
        ->capture_default_str();
    knn->add_option("--temperature", knn_arguments.temperature, "vote weight exp(similarity / T)")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    knn->add_option("--batch-size", knn_arguments.batch_size)
        ->check(CLI::Range(1, 65536))
        ->capture_default_str();
    knn->add_option("--workers", knn_arguments.num_workers, "loader threads (default: auto)")
        ->check(CLI::NonNegativeNumber);

    kiln::cli::CocoArguments coco_arguments;
    CLI::App* coco =
        evaluate->add_subcommand("coco", "COCO mAP of detections (pycocotools' numbers, faster)");
    coco->add_option("--gt", coco_arguments.ground_truth, "COCO annotation file (ground truth)")
        ->required()
        ->check(CLI::ExistingFile);
    coco->add_option("--dt", coco_arguments.results, "results file: a list of detections")
        ->required()
        ->check(CLI::ExistingFile);
    coco->add_option("--iou-type", coco_arguments.iou_type, "bbox or segm")
        ->check(CLI::IsMember({"bbox", "segm"}))
        ->capture_default_str();
    coco->add_option("--max-dets", coco_arguments.max_dets, "three detection limits per image")
        ->delimiter(',')
        ->expected(3)
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    coco->add_flag("--per-class", coco_arguments.per_class, "also print AP per category");
    coco->add_flag("--json", coco_arguments.json,
                   "print the 12 stats and per-class AP as JSON, full precision");
    coco->add_option("--threads", coco_arguments.threads, "threads (default: every usable core)")
        ->check(CLI::Range(1, 1024));
    evaluate->description("evaluate a pretrained backbone or detections");

    CLI::App* runs = app.add_subcommand("runs", "the runs recorded in run directories (run.db)");
    runs->require_subcommand(1);
    std::string runs_directory = ".";
    CLI::App* runs_list = runs->add_subcommand("list", "a table of every run under a folder");
    runs_list->add_option("dir", runs_directory, "a run directory or a folder of them")
        ->capture_default_str();
    kiln::cli::RunsArguments runs_arguments;
    CLI::App* runs_show = runs->add_subcommand("show", "one run: status, figures, advice, events");
    CLI::App* runs_export =
        runs->add_subcommand("export", "a run's metrics, one row per step, as csv or jsonl");
    for (CLI::App* command : {runs_show, runs_export}) {
        command->add_option("run", runs_arguments.run, "a run directory or its run.db")->required();
        command->add_option("--id", runs_arguments.id, "which run in it (default: the newest)")
            ->check(CLI::PositiveNumber);
    }
    runs_export->add_option("--format", runs_arguments.format, "csv or jsonl")
        ->check(CLI::IsMember({"csv", "jsonl"}))
        ->capture_default_str();
    runs_export->add_option("--out", runs_arguments.out, "write to this file (default: stdout)");

    kiln::cli::DedupArguments dedup_arguments;
    CLI::App* dedup = app.add_subcommand(
        "dedup", "list near-duplicate images from an embeddings file (kiln embed's output)");
    dedup
        ->add_option("embeddings", dedup_arguments.embeddings,
                     "csv, lightly_csv, torch or npy file")
        ->required()
        ->check(CLI::ExistingFile);
    dedup->add_option("--threshold", dedup_arguments.threshold, "cosine similarity at least")
        ->check(CLI::Range(-1.0, 1.0))
        ->capture_default_str();
    dedup->add_option("--limit", dedup_arguments.limit, "pairs to print")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();

    kiln::cli::ImportIdxArguments import_arguments;
    CLI::App* import_idx = app.add_subcommand(
        "import-idx", "write an IDX image set (e.g. Fashion-MNIST) as class subfolders of images");
    import_idx->add_option("--images", import_arguments.images, "IDX3 images file (.gz or plain)")
        ->required()
        ->check(CLI::ExistingFile);
    import_idx->add_option("--labels", import_arguments.labels, "IDX1 labels file (.gz or plain)")
        ->required()
        ->check(CLI::ExistingFile);
    import_idx
        ->add_option("--out", import_arguments.out, "folder to write <label>/<index>.<format> to")
        ->required();
    import_idx->add_option("--format", import_arguments.format, "image format")
        ->check(CLI::IsMember({"png", "jpg"}))
        ->capture_default_str();
    import_idx->add_option("--limit", import_arguments.limit, "import only the first N images")
        ->check(CLI::NonNegativeNumber);
    import_idx->footer("Example, Fashion-MNIST from the Debian package dataset-fashion-mnist:\n"
                       "  kiln import-idx --images /usr/share/datasets/fashion-mnist/"
                       "train-images-idx3-ubyte.gz \\\n"
                       "    --labels /usr/share/datasets/fashion-mnist/train-labels-idx1-ubyte.gz "
                       "--out fmnist/train");

    kiln::cli::OptimizeDatasetArguments optimize_arguments;
    CLI::App* optimize =
        app.add_subcommand("optimize-dataset", "convert slow-to-decode images (PNG) to JPEG or "
                                               "WebP and downscale them, for faster loading");
    optimize->add_option("source", optimize_arguments.source, "folder of images (never modified)")
        ->required()
        ->check(CLI::ExistingDirectory);
    optimize
        ->add_option("destination", optimize_arguments.destination,
                     "folder to write to, outside the source")
        ->required();
    optimize->add_option("--format", optimize_arguments.format, "output format")
        ->check(CLI::IsMember({"jpg", "webp"}))
        ->capture_default_str();
    optimize
        ->add_option("--max-size", optimize_arguments.max_size,
                     "shrink images whose longest side is larger (0: keep sizes)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    optimize->add_option("--quality", optimize_arguments.quality, "encoder quality")
        ->check(CLI::Range(1, 100))
        ->capture_default_str();
    optimize
        ->add_option("--workers", optimize_arguments.num_workers, "threads (0: one per CPU core)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        return app.exit(error);
    }

    std::signal(SIGINT, on_interrupt);
    std::signal(SIGTERM, on_interrupt);
    try {
        if (*info) {
            exit_code = kiln::cli::run_info(std::cout);
        } else if (*train) {
            exit_code = kiln::cli::run_train(train_source, interrupt_stop_token(), std::cout);
        } else if (*list_models) {
            exit_code = kiln::cli::run_list_models(std::cout);
        } else if (*list_methods) {
            exit_code = kiln::cli::run_list_methods(std::cout);
        } else if (*embed) {
            exit_code = kiln::cli::run_embed(embed_source, interrupt_stop_token(), std::cout);
        } else if (*knn) {
            exit_code = kiln::cli::run_eval_knn(knn_arguments, std::cout);
        } else if (*coco) {
            exit_code = kiln::cli::run_eval_coco(coco_arguments, std::cout);
        } else if (*runs_list) {
            exit_code = kiln::cli::run_runs_list(runs_directory, std::cout);
        } else if (*runs_show) {
            exit_code = kiln::cli::run_runs_show(runs_arguments, std::cout);
        } else if (*runs_export) {
            exit_code = kiln::cli::run_runs_export(runs_arguments, std::cout);
        } else if (*dedup) {
            exit_code = kiln::cli::run_dedup(dedup_arguments, std::cout);
        } else if (*import_idx) {
            exit_code = kiln::cli::run_import_idx(import_arguments, std::cout);
        } else if (*optimize) {
            exit_code = kiln::cli::run_optimize_dataset(optimize_arguments, std::cout);
        } else if (*check) {
            check_source.file = check_file;
            exit_code = kiln::cli::run_config_check(check_command, check_source, std::cout);
        }
    } catch (const kiln::Error& error) {
        std::cerr << "error: " << error.what() << "\n";
        return 1;
    } catch (const std::exception& error) {
        std::cerr << "error: unexpected failure: " << error.what() << "\n";
        return 1;
    }
    return exit_code;
}
