#include "command.h"
#include "config/command_settings.h"
#include "config/config_overrides.h"
#include "config/config_schema.h"
#include "config/run_config.h"
#include "core/error.h"
#include "core/json_text.h"
#include "core/text.h"
#include "data/dataset_optimizer.h"
#include "data/idx_import.h"
#include "data/scene_generator.h"
#include "deploy/onnx_export.h"
#include "distributed/rank_environment.h"
#include "embed/embedder.h"
#include "embed/embedding_map.h"
#include "embed/explorer.h"
#include "embed/knn.h"
#include "embed/select_job.h"
#include "embed/writers.h"
#include "methods/method.h"
#include "methods/method_names.h"
#include "models/backbone.h"
#include "models/backbone_names.h"
#include "models/checkpoint_file.h"
#include "predict/predictor.h"
#include "progress.h"
#include "system/hardware.h"
#include "system/heap_reuse.h"
#include "system/memory.h"
#include "system/num_workers.h"
#include "train/trainer.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kiln::cli {
namespace {

// The bottleneck advisor's diagnosis and what to do, as training and embedding end with it.
void print_advice(std::ostream& out, const system::Advice& advice) {
    out << "bottleneck: " << advice.diagnosis << "\n";
    for (const std::string& step : advice.advice) {
        out << "  - " << step << "\n";
    }
    if (!advice.changes.empty()) {
        out << "  to try:";
        for (const system::SettingChange& change : advice.changes) {
            out << " " << change.key << "=" << change.value;
        }
        out << "\n";
    }
}

using nlohmann::json;

// Where a command's settings come from: an optional JSON file, then key=value overrides.
struct ConfigSource {
    std::string file;
    std::vector<std::string> overrides;
};

struct KnnArguments {
    std::string checkpoint; // with train and test folders, or:
    std::string train;
    std::string test;
    std::string train_embeddings; // two embedding files
    std::string test_embeddings;
    int image_size = 0; // 0: the size the checkpoint was trained at
    int k = eval::kKnnNeighbours;
    double temperature = eval::kKnnTemperature;
    int batch_size = 128;
    int num_workers = -1; // -1: the automatic policy
    bool whiten = false;
};

struct DedupArguments {
    std::string embeddings;
    double threshold = 0.95;
    int limit = 100;
};

struct ImportIdxArguments {
    std::string images;
    std::string labels;
    std::string out;
    std::string format = "png";
    long long limit = -1; // all
    std::vector<std::string> class_names;
};

struct OptimizeDatasetArguments {
    std::string source;
    std::string destination;
    std::string format = "jpg";
    int max_size = 0;
    int quality = 90;
    int num_workers = 0; // 0: one per core
};

ResolveContext current_context() {
    return {system::probe_hardware(), system::WorkerEnvironment::from_process(),
            distributed::writes_run_directory()};
}

// A config file may come from someone else: a TorchScript module it names (which runs code when
// loaded) is loaded only when the command line names it again.
void refuse_torchscript_from_file(const json& file, const json& given, const ConfigSource& source) {
    json from_file = file;
    if (given.contains("model")) {
        from_file.erase("model");
    }
    if (!setting_in_group(given, "method_args", "teacher").is_null()) {
        from_file.erase("method_args");
        from_file.erase("method_args.teacher");
    }
    models::refuse_recorded_torchscript(from_file, models::RecordedModels::BackboneAndTeacher,
                                        "config file \"" + terminal_text(source.file) + "\"",
                                        "name it on the command line (model=torchscript:FILE, "
                                        "method_args.teacher=torchscript:FILE) if you trust it");
}

json load_settings(const config::CommandSchema& schema, const ConfigSource& source) {
    if (source.file.empty()) {
        return config::apply_overrides(json::object(), source.overrides, schema);
    }
    json file = config::read_config_file(source.file);
    refuse_torchscript_from_file(
        file, config::apply_overrides(json::object(), source.overrides, schema), source);
    return config::apply_overrides(std::move(file), source.overrides, schema);
}

json resolved_settings(const std::string& command, const ConfigSource& source) {
    const ResolveContext context = current_context();
    if (command == "embed") {
        return to_json(
            resolve_embed_config(load_settings(config::embed_schema(), source), context));
    }
    if (command == "export") {
        return to_json(resolve_export_config(load_settings(config::export_schema(), source)));
    }
    if (command == "select") {
        return to_json(resolve_select_config(load_settings(config::select_schema(), source)));
    }
    if (command == "embed-map") {
        return to_json(resolve_map_config(load_settings(config::map_schema(), source)));
    }
    if (command == "predict") {
        return to_json(
            resolve_predict_config(load_settings(config::predict_schema(), source), context));
    }
    for (const TaskTraits& task : task_table()) {
        if (task.command == command) {
            return to_json(resolve_train_config(
                load_settings(config::train_schema(task.kind), source), context, task.kind));
        }
    }
    throw Error("config check: unknown command \"" + command + "\"");
}

// The numbers a validation line or summary shows: the top-level metrics, not per class.
std::string metric_text(const std::vector<std::pair<std::string, double>>& values) {
    std::string text;
    char number[32];
    for (const auto& [key, value] : values) {
        if (key.find("per_class") == std::string::npos) {
            std::snprintf(number, sizeof number, "%.4f", value);
            text += (text.empty() ? "" : "  ") + key.substr(key.find('/') + 1) + " " + number;
        }
    }
    return text;
}

// "32x32 views, " as the run resolved image_size; empty when it is the methods' default.
std::string views_text(const TrainConfig& config) {
    const nlohmann::json size = config.transform_args.is_object()
                                    ? config.transform_args.value("image_size", nlohmann::json())
                                    : nlohmann::json();
    if (size.is_array() && size.size() == 2) {
        return size[0].dump() + "x" + size[1].dump() + " views, ";
    }
    return size.is_number_integer() ? size.dump() + "x" + size.dump() + " views, " : "";
}

// The terminal view of a run: a progress bar per epoch with loss, data_wait, images/s and ETA.
class ProgressObserver : public train::TrainObserver {
public:
    explicit ProgressObserver(std::ostream& out) : out_(out) {}

    void on_start(const TrainConfig& config, std::int64_t dataset_size,
                  std::int64_t total_steps) override {
        out_ << "training " << config.model << " "
             << (config.task == TaskKind::Pretraining ? "with " + config.method
                                                      : "for " + task_traits(config.task).name)
             << " on " << dataset_size << " images: " << total_steps << " steps, batch "
             << config.batch_size << ", " << views_text(config) << config.optimizer.chosen.name
             << ", " << to_string(config.accelerator) << ", " << to_string(config.precision) << ", "
             << config.num_workers.value_or(0) << " loader workers" << std::endl;
        remaining_.start();
    }

    void on_validation(const train::ValidationMetrics& metrics) override {
        if (line_) {
            line_->finish();
            line_.reset();
        }
        out_ << "validation after step " << metrics.step << ": " << metric_text(metrics.values)
             << (metrics.best ? "  (best so far)" : "") << std::endl;
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
        char detail[160];
        std::snprintf(detail, sizeof detail, "loss %.4f  data_wait %3.0f%%  %.0f img/s  ETA %s",
                      metrics.loss, 100.0 * metrics.data_wait, metrics.images_per_second,
                      clock_text(remaining_.after_step(metrics)).c_str());
        line_->update(metrics.batch_in_epoch, metrics.batches_per_epoch, detail);
    }

    void on_end(const train::RunSummary& summary) override {
        if (line_) {
            line_->finish();
        }
        out_ << (summary.status == train::RunSummary::Status::Finished ? "finished" : "stopped")
             << " after " << summary.steps << " steps in " << clock_text(summary.seconds);
        if (summary.last_loss) {
            out_ << ", last loss " << *summary.last_loss << "\n";
        } else if (summary.status == train::RunSummary::Status::Finished) {
            out_ << ": no step was left to train\n";
        } else {
            out_ << ", before a step finished\n";
        }
        out_ << "checkpoint: " << summary.checkpoint.string() << "\n";
        if (!summary.exported_model.empty()) {
            out_ << "exported model: " << summary.exported_model.string() << "\n";
        }
        if (summary.best_value) {
            out_ << "best " << summary.watch_metric << ": " << *summary.best_value << " at step "
                 << summary.best_step << " (checkpoints/best.ckpt)\n";
        }
        if (summary.skipped_images > 0) {
            out_ << "skipped " << summary.skipped_images << " unreadable image(s)\n";
        }
        if (summary.advice) {
            print_advice(out_, *summary.advice);
        }
    }

private:
    std::ostream& out_;
    std::unique_ptr<ProgressLine> line_;
    std::int64_t epoch_ = -1;
    track::RemainingTime remaining_;
};

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
    // What a CPU run's memory check compares with, and the allocator its range was measured on.
    char free_memory[32] = "unknown";
    if (const std::optional<double> free_mb = system::available_memory_mb()) {
        std::snprintf(free_memory, sizeof free_memory, "%.1f GB", *free_mb / 1024.0);
    }
    out << "Memory free: " << free_memory
        << ", malloc: " << (system::malloc_is_tcmalloc() ? "tcmalloc" : "the C library's") << "\n";
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

int run_train(TaskKind task, const ConfigSource& source, const StopToken& stop, std::ostream& out) {
    const TrainConfig config = resolve_train_config(
        load_settings(config::train_schema(task), source), current_context(), task);
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
        config,
        [&](const train::EmbedProgressInfo& info) {
            char detail[64];
            std::snprintf(detail, sizeof detail, "%.0f img/s  data_wait %3.0f%%",
                          info.images_per_second(), 100.0 * info.data_wait());
            progress.update(info.done, info.total, detail);
        },
        stop);
    progress.finish();
    out << "wrote " << summary.images << " embeddings of dimension " << summary.dimension
        << (config.patches ? " per location of " + std::to_string(summary.rows) + "x" +
                                 std::to_string(summary.columns)
                           : std::string())
        << " (" << summary.model << ", images at " << summary.image_height << "x"
        << summary.image_width
        << (config.image_height > 0      ? ""
            : summary.size_from_training ? ", the size it was trained at"
                                         : ", the default: the model's run does not say")
        << ") to " << config.out.string() << " in " << clock_text(summary.seconds);
    char rate[96];
    std::snprintf(rate, sizeof rate, " (%.0f images/s, data_wait %.0f%%)\n",
                  summary.images_per_second, 100.0 * summary.data_wait);
    out << rate;
    if (summary.skipped > 0) {
        out << "skipped " << summary.skipped << " unreadable image(s)\n";
    }
    if (summary.advice) {
        print_advice(out, *summary.advice);
    }
    return 0;
}

int run_predict(const ConfigSource& source, const StopToken& stop, std::ostream& out) {
    const PredictConfig config =
        resolve_predict_config(load_settings(config::predict_schema(), source), current_context());
    ProgressLine progress(out, "predict", is_terminal(out));
    const predict::PredictSummary summary = predict::run_prediction(
        config, [&](std::int64_t done, std::int64_t total) { progress.update(done, total); }, stop);
    progress.finish();
    out << "predicted " << summary.images << " images (" << summary.task << ") into "
        << config.out.string() << " in " << clock_text(summary.seconds) << "\n";
    if (summary.skipped > 0) {
        out << "skipped " << summary.skipped << " unreadable image(s)\n";
    }
    return 0;
}

int run_export(const ConfigSource& source, std::ostream& out) {
    const ExportConfig config =
        resolve_export_config(load_settings(config::export_schema(), source));
    const deploy::ExportSummary summary = deploy::export_onnx(config);
    out << "exported the " << summary.what << " (" << summary.model << ", " << summary.image_height
        << "x" << summary.image_width << ", " << (config.half_precision ? "fp16" : "fp32")
        << ") to " << config.out.string() << "\n";
    for (const std::string& output : summary.outputs) {
        out << "  output " << output << "\n";
    }
    out << "preprocessing and class names are in the model's metadata (kiln.preprocessing, "
           "kiln.class_names)\n";
    return 0;
}

int run_eval_knn(const KnnArguments& arguments, std::ostream& out) {
    if (std::isnan(arguments.temperature)) { // no range holds nan, so CLI11's passes it
        throw Error("--temperature nan is not a number; give one from 0.0001 to 100");
    }
    char text[200];
    if (!arguments.train_embeddings.empty() || !arguments.test_embeddings.empty()) {
        if (arguments.train_embeddings.empty() || arguments.test_embeddings.empty() ||
            !arguments.checkpoint.empty() || !arguments.train.empty() || !arguments.test.empty()) {
            throw Error("give --train-embeddings and --test-embeddings together, without "
                        "--checkpoint, --train or --test (the embeddings' names carry the "
                        "classes)");
        }
        const eval::KnnAccuracy accuracy =
            embed::knn_accuracy_on_files(arguments.train_embeddings, arguments.test_embeddings,
                                         arguments.k, arguments.temperature, arguments.whiten);
        std::snprintf(text, sizeof text, "kNN (k=%d, T=%g%s): top-1 %.2f%%, top-5 %.2f%%\n",
                      arguments.k, arguments.temperature, arguments.whiten ? ", whitened" : "",
                      100.0 * accuracy.top1, 100.0 * accuracy.top5);
        out << text;
        return 0;
    }
    if (arguments.checkpoint.empty() || arguments.train.empty() || arguments.test.empty()) {
        throw Error("give --checkpoint with --train and --test folders, or --train-embeddings "
                    "and --test-embeddings");
    }
    std::string model;
    embed::FolderKnnOptions options;
    const models::Backbone backbone = [&] { // the file's other contents go before embedding
        const models::WeightsFile weights = models::WeightsFile::read(arguments.checkpoint);
        models::Backbone loaded = models::load_backbone(weights, &model);
        options.views = embed::trained_view_options(
            weights, *loaded,
            arguments.image_size > 0
                ? std::optional(std::pair{arguments.image_size, arguments.image_size})
                : std::nullopt);
        return loaded;
    }();
    options.k = arguments.k;
    options.temperature = arguments.temperature;
    options.whiten = arguments.whiten;
    options.views.batch_size = arguments.batch_size;
    options.views.size_setting = "--image-size";
    const system::HardwareInfo hardware = system::probe_hardware();
    options.views.num_workers =
        arguments.num_workers >= 0
            ? arguments.num_workers
            : system::auto_num_workers(hardware.cpu_cores, 1,
                                       system::WorkerEnvironment::from_process());
    const eval::KnnAccuracy accuracy =
        embed::knn_accuracy_on_folders(*backbone, arguments.train, arguments.test, options);
    std::snprintf(
        text, sizeof text, "kNN (k=%d, T=%g%s) with %s at %dx%d px: top-1 %.2f%%, top-5 %.2f%%\n",
        arguments.k, arguments.temperature, arguments.whiten ? ", whitened" : "", model.c_str(),
        options.views.height, options.views.width, 100.0 * accuracy.top1, 100.0 * accuracy.top5);
    out << text;
    return 0;
}

int run_select(const ConfigSource& source, const StopToken& stop, std::ostream& out) {
    const SelectConfig config =
        resolve_select_config(load_settings(config::select_schema(), source));
    const embed::SelectSummary summary = embed::select_for_labelling(config, &stop);
    out << "picked " << summary.picked << " of " << summary.images << " images (" << config.strategy
        << (summary.labelled > 0 ? ", around " + std::to_string(summary.labelled) + " labelled"
                                 : std::string())
        << (config.exclude_duplicates
                ? ", " + std::to_string(summary.duplicates) + " near-duplicates left out"
                : std::string())
        << "): names in " << summary.names.string() << ", ranks and scores in "
        << summary.table.string() << "\n";
    if (config.checkpoint) {
        out << "embeddings (for kiln embed-map, or another pick): "
            << embedded_path(config).string() << "\n";
    }
    return 0;
}

int run_map(const ConfigSource& source, const StopToken& stop, std::ostream& out) {
    const MapConfig config = resolve_map_config(load_settings(config::map_schema(), source));
    const embed::MapSummary summary = embed::write_embedding_map(config, &stop);
    char text[160];
    std::snprintf(text, sizeof text, "mapped %lld embeddings of %lld dimensions by %s in %.1f s: ",
                  static_cast<long long>(summary.points),
                  static_cast<long long>(summary.dimensions), config.projection.c_str(),
                  summary.seconds);
    out << text << config.out.string() << "\n";
    return 0;
}

int run_dedup(const DedupArguments& arguments, std::ostream& out) {
    if (std::isnan(arguments.threshold)) { // passes a range check, and matched nothing
        throw Error("--threshold nan is not a number; give a cosine similarity from -1 to 1");
    }
    const embed::EmbeddingFile file = embed::read_embeddings(arguments.embeddings);
    embed::refuse_repeated_names(file, arguments.embeddings);
    const std::vector<embed::Duplicate> duplicates =
        embed::near_duplicates(file.embeddings, arguments.threshold);
    char line[96];
    std::snprintf(line, sizeof line,
                  "%zu of %zu images are near-duplicates (cosine similarity >= %g)",
                  duplicates.size(), file.filenames.size(), arguments.threshold);
    out << line << " of an earlier image that is kept\n";
    const auto name = [&](std::int64_t row) {
        return terminal_text(file.filenames[static_cast<std::size_t>(row)]);
    };
    for (std::size_t i = 0; i < duplicates.size() && int(i) < arguments.limit; ++i) {
        std::snprintf(line, sizeof line, "%.4f", duplicates[i].similarity);
        out << line << "  " << name(duplicates[i].kept) << "  " << name(duplicates[i].row) << "\n";
    }
    if (duplicates.size() > static_cast<std::size_t>(arguments.limit)) {
        out << "(" << duplicates.size() - arguments.limit << " more; raise --limit to list them)\n";
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
    options.class_names = arguments.class_names;
    ProgressLine progress(out, "import", is_terminal(out));
    const data::IdxImportResult result = data::import_idx(
        options, [&](std::int64_t done, std::int64_t total) { progress.update(done, total); });
    progress.finish();
    out << "wrote " << result.images << " images of " << result.height << "x" << result.width
        << " in " << result.per_label.size() << " class folders under " << arguments.out << "\n";
    return 0;
}

int run_generate_scenes(const data::SceneOptions& options, std::ostream& out) {
    ProgressLine progress(out, "generate", is_terminal(out));
    const data::SceneResult result = data::generate_scenes(
        options, [&](std::int64_t done, std::int64_t total) { progress.update(done, total); });
    progress.finish();
    out << "wrote " << result.scenes << " scenes with " << result.objects << " visible garments ("
        << result.classes << " classes with background) to " << options.out.string()
        << ": images/, masks/, classes.json, annotations.json (COCO), labels/ and data.yaml "
           "(YOLO)\n";
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
    // What the copy will weigh, before anything is written, as Studio's dialog says it.
    const data::OptimizeEstimate estimate = data::estimate_optimized_size(options);
    if (estimate.sampled > 0) {
        char text[200];
        std::snprintf(text, sizeof text,
                      "estimated: %lld images, %.1f MiB now, about %.1f MiB as %s (from %lld "
                      "sampled)\n",
                      static_cast<long long>(estimate.images), estimate.bytes / 1048576.0,
                      estimate.estimated_bytes / 1048576.0, options.format.c_str(),
                      static_cast<long long>(estimate.sampled));
        out << text;
        if (estimate.larger()) {
            out << "warning: the copy will be larger than the dataset: its images are already "
                   "small or well compressed; a lower --quality or --max-size makes it smaller, "
                   "or keep the dataset as it is\n";
        }
    }
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

void add_config_source(CLI::App& command, ConfigSource& source,
                       const config::CommandSchema& schema) {
    command
        .add_option("--config", source.file, "JSON file of settings; key=value pairs override it")
        ->check(CLI::ExistingFile);
    command.add_option("settings", source.overrides, "key=value settings (see below)");
    command.footer(config::describe_keys(schema));
}

} // namespace

void add_pretraining_commands(CLI::App& app, Commands& commands) {
    commands.add(
        app.add_subcommand("info", "versions, CPU cores, free memory, GPUs and resolved defaults"),
        [](std::ostream& out) { return run_info(out); });

    for (const TaskTraits& task : task_table()) {
        auto source = std::make_shared<ConfigSource>();
        CLI::App* train = app.add_subcommand(task.command, task.description);
        add_config_source(*train, *source, config::train_schema(task.kind));
        if (task.kind == TaskKind::Pretraining) {
            train->footer(config::describe_keys(config::train_schema(task.kind)) + "\n" +
                          config::describe_method_args() + "\n" + methods::describe_recipes());
        }
        commands.add_stoppable(
            train, [kind = task.kind, source](const StopToken& stop, std::ostream& out) {
                return run_train(kind, *source, stop, out);
            });
    }

    auto predict_source = std::make_shared<ConfigSource>();
    CLI::App* predict =
        app.add_subcommand("predict", "run a fine-tuned model over images: classes as CSV, masks "
                                      "as PNGs, detections as COCO JSON");
    add_config_source(*predict, *predict_source, config::predict_schema());
    commands.add_stoppable(predict, [predict_source](const StopToken& stop, std::ostream& out) {
        return run_predict(*predict_source, stop, out);
    });

    auto export_source = std::make_shared<ConfigSource>();
    CLI::App* export_command = app.add_subcommand(
        "export", "write a backbone or a fine-tuned model as ONNX, for ONNX Runtime and TensorRT");
    add_config_source(*export_command, *export_source, config::export_schema());
    commands.add(export_command,
                 [export_source](std::ostream& out) { return run_export(*export_source, out); });

    auto embed_source = std::make_shared<ConfigSource>();
    CLI::App* embed = app.add_subcommand("embed", "write embeddings of images with a checkpoint");
    add_config_source(*embed, *embed_source, config::embed_schema());
    commands.add_stoppable(embed, [embed_source](const StopToken& stop, std::ostream& out) {
        return run_embed(*embed_source, stop, out);
    });

    auto select_source = std::make_shared<ConfigSource>();
    CLI::App* select =
        app.add_subcommand("select", "choose which images to label first, from an embeddings file");
    add_config_source(*select, *select_source, config::select_schema());
    commands.add_stoppable(select, [select_source](const StopToken& stop, std::ostream& out) {
        return run_select(*select_source, stop, out);
    });

    auto map_source = std::make_shared<ConfigSource>();
    CLI::App* map = app.add_subcommand(
        "embed-map", "a 2-D map (UMAP, t-SNE or PCA) of an embeddings file, as a CSV");
    add_config_source(*map, *map_source, config::map_schema());
    commands.add_stoppable(map, [map_source](const StopToken& stop, std::ostream& out) {
        return run_map(*map_source, stop, out);
    });

    CLI::App* config = app.add_subcommand("config", "work with configuration files");
    config->require_subcommand(1);
    CLI::App* check =
        config->add_subcommand("check", "validate a configuration and print it fully resolved");
    auto check_source = std::make_shared<ConfigSource>();
    auto check_command = std::make_shared<std::string>("train");
    check->add_option("file", check_source->file, "JSON configuration file")
        ->required()
        ->check(CLI::ExistingFile);
    std::vector<std::string> configurable = {"embed", "predict", "export", "select", "embed-map"};
    for (const TaskTraits& task : task_table()) {
        configurable.push_back(task.command);
    }
    check->add_option("--command", *check_command, "the command the file configures")
        ->check(CLI::IsMember(configurable))
        ->capture_default_str();
    check->add_option("settings", check_source->overrides,
                      "key=value settings overriding the file");
    commands.add(check, [check_source, check_command](std::ostream& out) {
        return run_config_check(*check_command, *check_source, out);
    });

    commands.add(app.add_subcommand("list-models", "the backbones `model=` accepts"),
                 [](std::ostream& out) { return run_list_models(out); });
    commands.add(app.add_subcommand("list-methods", "the methods `method=` accepts"),
                 [](std::ostream& out) { return run_list_methods(out); });
}

void add_knn_command(CLI::App& evaluate, Commands& commands) {
    auto knn_arguments = std::make_shared<KnnArguments>();
    KnnArguments& arguments = *knn_arguments;
    CLI::App* knn = evaluate.add_subcommand(
        "knn", "weighted kNN classification of labelled folders (<folder>/<class>/<image>)");
    knn->add_option("--checkpoint", arguments.checkpoint, "last.ckpt or exported model")
        ->check(CLI::ExistingFile);
    knn->add_option("--train", arguments.train, "labelled images the neighbours come from")
        ->check(CLI::ExistingDirectory);
    knn->add_option("--test", arguments.test, "labelled images to classify")
        ->check(CLI::ExistingDirectory);
    knn->add_option("--train-embeddings", arguments.train_embeddings,
                    "embeddings file of the labelled neighbours (instead of --checkpoint)")
        ->check(CLI::ExistingFile);
    knn->add_option("--test-embeddings", arguments.test_embeddings,
                    "embeddings file of the images to classify")
        ->check(CLI::ExistingFile);
    knn->add_option("--image-size", arguments.image_size,
                    "side images are resized to (default: the size the checkpoint was trained "
                    "at, else 224)")
        ->check(CLI::Range(1, 4096));
    knn->add_option("--k", arguments.k, "neighbours that vote")
        ->check(CLI::Range(1, 10000))
        ->capture_default_str();
    knn->add_option("--temperature", arguments.temperature, "vote weight exp(similarity / T)")
        ->check(CLI::Range(1e-4, 100.0))
        ->capture_default_str();
    knn->add_option("--batch-size", arguments.batch_size)
        ->check(CLI::Range(1, 65536))
        ->capture_default_str();
    knn->add_option("--workers", arguments.num_workers, "loader threads (default: auto)")
        ->check(CLI::Range(0, 256));
    knn->add_flag("--whiten", arguments.whiten,
                  "PCA-whiten the embeddings first, fitted on the training set without its labels "
                  "(every direction the embeddings vary in weighs alike)");
    commands.add(knn,
                 [knn_arguments](std::ostream& out) { return run_eval_knn(*knn_arguments, out); });
}

namespace {

void add_dedup_command(CLI::App& app, Commands& commands) {
    auto dedup_arguments = std::make_shared<DedupArguments>();
    CLI::App* dedup = app.add_subcommand(
        "dedup", "list near-duplicate images from an embeddings file (kiln embed's output)");
    dedup
        ->add_option("embeddings", dedup_arguments->embeddings,
                     "csv, lightly_csv, torch or npy file")
        ->required()
        ->check(CLI::ExistingFile);
    dedup->add_option("--threshold", dedup_arguments->threshold, "cosine similarity at least")
        ->check(CLI::Range(-1.0, 1.0))
        ->capture_default_str();
    dedup->add_option("--limit", dedup_arguments->limit, "duplicates to print, most similar first")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    commands.add(dedup,
                 [dedup_arguments](std::ostream& out) { return run_dedup(*dedup_arguments, out); });
}

void add_import_idx_command(CLI::App& app, Commands& commands) {
    auto import_arguments = std::make_shared<ImportIdxArguments>();
    CLI::App* import_idx = app.add_subcommand(
        "import-idx", "write an IDX image set (e.g. Fashion-MNIST) as class subfolders of images");
    import_idx->add_option("--images", import_arguments->images, "IDX3 images file (.gz or plain)")
        ->required()
        ->check(CLI::ExistingFile);
    import_idx->add_option("--labels", import_arguments->labels, "IDX1 labels file (.gz or plain)")
        ->required()
        ->check(CLI::ExistingFile);
    import_idx
        ->add_option("--out", import_arguments->out, "folder to write <label>/<index>.<format> to")
        ->required();
    import_idx->add_option("--format", import_arguments->format, "image format")
        ->check(CLI::IsMember({"png", "jpg"}))
        ->capture_default_str();
    import_idx->add_option("--limit", import_arguments->limit, "import only the first N images")
        ->check(CLI::NonNegativeNumber);
    import_idx
        ->add_option("--class-names", import_arguments->class_names,
                     "the class folders' names by label, comma-separated (default: the labels' "
                     "numbers)")
        ->delimiter(',');
    import_idx->footer(
        "Example, Fashion-MNIST from the Debian package dataset-fashion-mnist:\n"
        "  kiln import-idx --images /usr/share/datasets/fashion-mnist/"
        "train-images-idx3-ubyte.gz \\\n"
        "    --labels /usr/share/datasets/fashion-mnist/train-labels-idx1-ubyte.gz "
        "--out fmnist/train \\\n"
        "    --class-names \"T-shirt or top,Trouser,Pullover,Dress,Coat,Sandal,Shirt,"
        "Sneaker,Bag,Ankle boot\"");
    commands.add(import_idx, [import_arguments](std::ostream& out) {
        return run_import_idx(*import_arguments, out);
    });
}

void add_generate_scenes_command(CLI::App& app, Commands& commands) {
    auto scene_options = std::make_shared<data::SceneOptions>();
    CLI::App* scenes = app.add_subcommand(
        "generate-scenes",
        "make a seeded set of garment scenes from an IDX set (Fashion-MNIST): semantic masks, "
        "COCO instances, YOLO segments");
    scenes->add_option("--images", scene_options->images, "IDX3 images file (.gz or plain)")
        ->required()
        ->check(CLI::ExistingFile);
    scenes->add_option("--labels", scene_options->labels, "IDX1 labels file (.gz or plain)")
        ->required()
        ->check(CLI::ExistingFile);
    scenes->add_option("--out", scene_options->out, "folder for images/, masks/, classes.json")
        ->required();
    scenes->add_option("--scenes", scene_options->scenes, "how many images")
        ->check(CLI::Range(1, 10000000))
        ->capture_default_str();
    scenes->add_option("--size", scene_options->size, "canvas side in pixels")
        ->check(CLI::Range(8, 4096))
        ->capture_default_str();
    scenes->add_option("--max-objects", scene_options->max_objects, "garments per scene, at most")
        ->check(CLI::Range(1, 100))
        ->capture_default_str();
    scenes->add_option("--seed", scene_options->seed)->capture_default_str();
    commands.add(scenes, [scene_options](std::ostream& out) {
        return run_generate_scenes(*scene_options, out);
    });
}

void add_optimize_dataset_command(CLI::App& app, Commands& commands) {
    auto optimize_arguments = std::make_shared<OptimizeDatasetArguments>();
    CLI::App* optimize =
        app.add_subcommand("optimize-dataset", "convert slow-to-decode images (PNG) to JPEG or "
                                               "WebP and downscale them, for faster loading");
    optimize->add_option("source", optimize_arguments->source, "folder of images (never modified)")
        ->required()
        ->check(CLI::ExistingDirectory);
    optimize
        ->add_option("destination", optimize_arguments->destination,
                     "folder to write to, outside the source")
        ->required();
    optimize->add_option("--format", optimize_arguments->format, "output format")
        ->check(CLI::IsMember({"jpg", "webp"}))
        ->capture_default_str();
    optimize
        ->add_option("--max-size", optimize_arguments->max_size,
                     "shrink images whose longest side is larger (0: keep sizes)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    optimize->add_option("--quality", optimize_arguments->quality, "encoder quality")
        ->check(CLI::Range(1, 100))
        ->capture_default_str();
    optimize
        ->add_option("--workers", optimize_arguments->num_workers, "threads (0: one per CPU core)")
        ->check(CLI::Range(0, 256))
        ->capture_default_str();
    commands.add(optimize, [optimize_arguments](std::ostream& out) {
        return run_optimize_dataset(*optimize_arguments, out);
    });
}

} // namespace

void add_dataset_commands(CLI::App& app, Commands& commands) {
    add_dedup_command(app, commands);
    add_import_idx_command(app, commands);
    add_generate_scenes_command(app, commands);
    add_optimize_dataset_command(app, commands);
}

} // namespace kiln::cli
