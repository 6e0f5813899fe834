#include "commands.h"

#include "core/config_overrides.h"
#include "core/config_schema.h"
#include "core/error.h"
#include "core/run_config.h"
#include "data/dataset_optimizer.h"
#include "data/idx_import.h"
#include "distributed/rank_environment.h"
#include "embed/embedder.h"
#include "embed/explorer.h"
#include "embed/writers.h"
#include "eval/knn.h"
#include "methods/method.h"
#include "models/backbone.h"
#include "progress.h"
#include "system/hardware.h"
#include "system/num_workers.h"
#include "train/trainer.h"

#include <chrono>
#include <cstdio>
#include <memory>

namespace kiln::cli {
namespace {

using nlohmann::json;

ResolveContext current_context() {
    return {system::probe_hardware(), system::WorkerEnvironment::from_process(),
            distributed::writes_run_directory()};
}

json load_settings(const config::CommandSchema& schema, const ConfigSource& source) {
    json base = source.file.empty() ? json::object() : config::read_config_file(source.file);
    return config::apply_overrides(std::move(base), source.overrides, schema);
}

json resolved_settings(const std::string& command, const ConfigSource& source) {
    const ResolveContext context = current_context();
    if (command == "embed") {
        return to_json(
            resolve_embed_config(load_settings(config::embed_schema(), source), context));
    }
    return to_json(resolve_train_config(load_settings(config::train_schema(), source), context));
}

// The terminal view of a run: a progress bar per epoch with loss, data_wait, images/s and ETA.
class ProgressObserver : public train::TrainObserver {
public:
    explicit ProgressObserver(std::ostream& out) : out_(out) {}

    void on_start(const TrainConfig& config, std::int64_t dataset_size,
                  std::int64_t total_steps) override {
        out_ << "training " << config.model << " with " << config.method << " on " << dataset_size
             << " images: " << config.epochs << " epochs, " << total_steps << " steps, batch "
             << config.batch_size << ", " << to_string(config.accelerator) << ", "
             << to_string(config.precision) << ", " << config.num_workers.value_or(0)
             << " loader workers" << std::endl;
        started_ = std::chrono::steady_clock::now();
    }

    void on_step(const train::StepMetrics& metrics) override {
        if (!line_ || metrics.epoch != epoch_) {
            if (line_) {
                line_->finish();
            }
            epoch_ = metrics.epoch;
            line_ = std::make_unique<ProgressLine>(out_,
                                                   "epoch " + std::to_string(metrics.epoch + 1) +
                                                       "/" + std::to_string(metrics.epochs),
                                                   is_terminal(out_));
        }
        if (first_step_ < 0) {
            first_step_ = metrics.step - 1; // a resumed run starts late
        }
        const double elapsed =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
        const double per_step =
            elapsed / double(std::max<std::int64_t>(1, metrics.step - first_step_));
        char detail[160];
        std::snprintf(detail, sizeof detail, "loss %.4f  data_wait %3.0f%%  %.0f img/s  ETA %s",
                      metrics.loss, 100.0 * metrics.data_wait, metrics.images_per_second,
                      clock_text(per_step * double(metrics.total_steps - metrics.step)).c_str());
        line_->update(metrics.batch_in_epoch, metrics.batches_per_epoch, detail);
    }

    void on_end(const train::RunSummary& summary) override {
        if (line_) {
            line_->finish();
        }
        out_ << (summary.status == train::RunSummary::Status::Finished ? "finished" : "stopped")
             << " after " << summary.steps << " steps in " << clock_text(summary.seconds)
             << ", last loss " << summary.last_loss << "\n"
             << "checkpoint: " << summary.checkpoint.string() << "\n";
        if (!summary.exported_model.empty()) {
            out_ << "exported model: " << summary.exported_model.string() << "\n";
        }
        if (summary.skipped_images > 0) {
            out_ << "skipped " << summary.skipped_images << " unreadable image(s)\n";
        }
        if (summary.advice) {
            out_ << "bottleneck: " << summary.advice->diagnosis << "\n";
            for (const std::string& step : summary.advice->advice) {
                out_ << "  - " << step << "\n";
            }
        }
    }

private:
    std::ostream& out_;
    std::unique_ptr<ProgressLine> line_;
    std::int64_t epoch_ = -1;
    std::int64_t first_step_ = -1;
    std::chrono::steady_clock::time_point started_;
};

} // namespace

int run_info(std::ostream& out) {
    const system::LibraryVersions versions = system::library_versions();
    const system::HardwareInfo hardware = system::probe_hardware();
    const system::WorkerEnvironment environment = system::WorkerEnvironment::from_process();

    out << "Kiln " << versions.kiln << "\n"
        << "LibTorch " << versions.libtorch
        << (hardware.libtorch_has_cuda ? " (CUDA build)" : " (CPU build)") << "\n"
        << "OpenCV " << versions.opencv << "\n"
        << "SQLite " << versions.sqlite << "\n"
        << "CPU cores: " << hardware.cpu_cores << "\n";
    if (hardware.cuda_available()) {
        out << "CUDA: available, " << hardware.gpus.size() << " GPU(s)\n";
        for (const system::GpuInfo& gpu : hardware.gpus) {
            out << "  cuda:" << gpu.index << " " << gpu.name;
            if (gpu.memory_total_mb > 0) {
                out << ", " << gpu.memory_total_mb << " MiB, compute " << gpu.compute_major << "."
                    << gpu.compute_minor << (gpu.supports_bf16() ? ", bf16" : "");
            }
            out << "\n";
        }
    } else {
        out << "CUDA: not available"
            << (hardware.libtorch_has_cuda ? " (no GPU visible)" : " (CPU-only LibTorch)") << "\n";
    }
    const int devices = hardware.cuda_available() ? static_cast<int>(hardware.gpus.size()) : 1;
    out << "Default accelerator: " << (hardware.cuda_available() ? "cuda" : "cpu") << ", "
        << devices << " device(s)\n"
        << "num_workers (auto): "
        << system::auto_num_workers(hardware.cpu_cores, devices, environment) << " per device\n";
    return 0;
}

int run_config_check(const std::string& command, const ConfigSource& source, std::ostream& out) {
    out << resolved_settings(command, source).dump(2) << "\n";
    return 0;
}

int run_train(const ConfigSource& source, const StopToken& stop, std::ostream& out) {
    const TrainConfig config =
        resolve_train_config(load_settings(config::train_schema(), source), current_context());
    ProgressObserver observer(out);
    const bool reports = distributed::writes_run_directory();
    if (!reports) { // another node's rank 0 draws the progress and writes `out`
        out << "training as a rank of a distributed run; the first node reports progress and "
               "writes "
            << config.out.string() << std::endl;
    }
    const train::RunSummary summary = train::train(config, observer, stop);
    if (!reports) {
        out << (summary.status == train::RunSummary::Status::Finished ? "finished" : "stopped")
            << " after " << summary.steps << " steps" << std::endl;
    }
    return summary.status == train::RunSummary::Status::Finished ? 0 : 130;
}

int run_list_models(std::ostream& out) {
    for (const std::string& name : models::backbone_names()) {
        out << name << "\n";
    }
    return 0;
}

int run_list_methods(std::ostream& out) {
    for (const std::string& name : methods::method_names()) {
        out << name << "\n";
    }
    return 0;
}

int run_embed(const ConfigSource& source, const StopToken& stop, std::ostream& out) {
    const EmbedConfig config =
        resolve_embed_config(load_settings(config::embed_schema(), source), current_context());
    ProgressLine progress(out, "embed", is_terminal(out));
    const embed::EmbedSummary summary = embed::run_embedding(
        config, [&](std::int64_t done, std::int64_t total) { progress.update(done, total); }, stop);
    progress.finish();
    out << "wrote " << summary.images << " embeddings of dimension " << summary.dimension << " ("
        << summary.model << ") to " << config.out.string() << " in " << clock_text(summary.seconds)
        << "\n";
    if (summary.skipped > 0) {
        out << "skipped " << summary.skipped << " unreadable image(s)\n";
    }
    return 0;
}

int run_eval_knn(const KnnArguments& arguments, std::ostream& out) {
    char text[200];
    if (!arguments.train_embeddings.empty() || !arguments.test_embeddings.empty()) {
        if (arguments.train_embeddings.empty() || arguments.test_embeddings.empty() ||
            !arguments.checkpoint.empty()) {
            throw Error("give --train-embeddings and --test-embeddings together, without "
                        "--checkpoint");
        }
        const eval::KnnAccuracy accuracy =
            eval::knn_accuracy_on_files(arguments.train_embeddings, arguments.test_embeddings,
                                        arguments.k, arguments.temperature);
        std::snprintf(text, sizeof text, "kNN (k=%d, T=%g): top-1 %.2f%%, top-5 %.2f%%\n",
                      arguments.k, arguments.temperature, 100.0 * accuracy.top1,
                      100.0 * accuracy.top5);
        out << text;
        return 0;
    }
    if (arguments.checkpoint.empty() || arguments.train.empty() || arguments.test.empty()) {
        throw Error("give --checkpoint with --train and --test folders, or --train-embeddings "
                    "and --test-embeddings");
    }
    std::string model;
    const models::Backbone backbone = models::load_backbone(arguments.checkpoint, &model);
    eval::FolderKnnOptions options;
    options.image_size = arguments.image_size;
    options.k = arguments.k;
    options.temperature = arguments.temperature;
    options.batch_size = arguments.batch_size;
    const system::HardwareInfo hardware = system::probe_hardware();
    options.num_workers = arguments.num_workers >= 0
                              ? arguments.num_workers
                              : system::auto_num_workers(hardware.cpu_cores, 1,
                                                         system::WorkerEnvironment::from_process());
    const eval::KnnAccuracy accuracy =
        eval::knn_accuracy_on_folders(*backbone, arguments.train, arguments.test, options);
    std::snprintf(text, sizeof text, "kNN (k=%d, T=%g) with %s: top-1 %.2f%%, top-5 %.2f%%\n",
                  arguments.k, arguments.temperature, model.c_str(), 100.0 * accuracy.top1,
                  100.0 * accuracy.top5);
    out << text;
    return 0;
}

int run_dedup(const DedupArguments& arguments, std::ostream& out) {
    const embed::EmbeddingFile file = embed::read_embeddings(arguments.embeddings);
    const std::vector<embed::DuplicatePair> pairs =
        embed::near_duplicates(file.embeddings, arguments.threshold);
    char line[64];
    std::snprintf(line, sizeof line, "%zu pair(s) with cosine similarity >= %g", pairs.size(),
                  arguments.threshold);
    out << line << " among " << file.filenames.size() << " images\n";
    for (std::size_t i = 0; i < pairs.size() && int(i) < arguments.limit; ++i) {
        std::snprintf(line, sizeof line, "%.4f", pairs[i].similarity);
        out << line << "  " << file.filenames[static_cast<std::size_t>(pairs[i].first)] << "  "
            << file.filenames[static_cast<std::size_t>(pairs[i].second)] << "\n";
    }
    if (pairs.size() > static_cast<std::size_t>(arguments.limit)) {
        out << "(" << pairs.size() - arguments.limit << " more; raise --limit to list them)\n";
    }
    return 0;
}

int run_import_idx(const ImportIdxArguments& arguments, std::ostream& out) {
    data::IdxImportOptions options;
    options.images = arguments.images;
    options.labels = arguments.labels;
    options.out = arguments.out;
    options.format = arguments.format;
    if (arguments.limit >= 0) {
        options.limit = arguments.limit;
    }
    ProgressLine progress(out, "import", is_terminal(out));
    const data::IdxImportResult result = data::import_idx(
        options, [&](std::int64_t done, std::int64_t total) { progress.update(done, total); });
    progress.finish();
    out << "wrote " << result.images << " images of " << result.height << "x" << result.width
        << " in " << result.per_label.size() << " class folders under " << arguments.out << "\n";
    return 0;
}

int run_optimize_dataset(const OptimizeDatasetArguments& arguments, std::ostream& out) {
    data::OptimizeOptions options;
    options.source = arguments.source;
    options.destination = arguments.destination;
    options.format = arguments.format;
    options.max_size = arguments.max_size;
    options.quality = arguments.quality;
    options.num_workers =
        arguments.num_workers > 0 ? arguments.num_workers : system::probe_hardware().cpu_cores;
    ProgressLine progress(out, "optimize", is_terminal(out));
    const data::OptimizeResult result = data::optimize_dataset(
        options, [&](std::int64_t done, std::int64_t total) { progress.update(done, total); });
    progress.finish();
    char sizes[160];
    std::snprintf(sizes, sizeof sizes, "%.1f MiB read, %.1f MiB written",
                  result.bytes_read / 1048576.0, result.bytes_written / 1048576.0);
    out << "wrote " << result.written << " images to " << arguments.destination << " (" << sizes
        << ")";
    if (!result.skipped.empty()) {
        out << "; skipped " << result.skipped.size() << " unreadable file(s):\n";
        for (const std::string& reason : result.skipped) {
            out << "  " << reason << "\n";
        }
    } else {
        out << "\n";
    }
    return result.skipped.empty() ? 0 : 2;
}

} // namespace kiln::cli
