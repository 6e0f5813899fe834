#include "config/run_config.h"

#include "config/command_settings.h"
#include "config/config_schema.h"
#include "config/logger_settings.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/json_text.h"
#include "core/paths.h"
#include "core/text.h"
#include "data/dataset_index.h"
#include "data/image_decode.h"
#include "data/view_transform.h"
#include "methods/method_names.h"
#include "models/backbone_names.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>

namespace kiln {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// Collects problems found while resolving, and knows which keys were already invalid so that
// no check reasons from a value the user never gave.
class Resolution {
public:
    Resolution(const config::CommandSchema& schema, const json& input)
        : normalized_(config::normalize(schema, input, issues_)) {
        for (const ConfigIssue& issue : issues_) {
            invalid_keys_.push_back(issue.path.substr(0, issue.path.find_first_of(".[")));
        }
    }

    const json& normalized() const { return normalized_; }

    bool valid(const std::string& key) const {
        return std::find(invalid_keys_.begin(), invalid_keys_.end(), key) == invalid_keys_.end();
    }
    template <class... Keys> bool valid(const std::string& key, const Keys&... keys) const {
        return valid(key) && valid(keys...);
    }

    void report(const std::string& key, const std::string& message) {
        issues_.push_back({key, message});
        invalid_keys_.push_back(key);
    }

    void throw_if_any() const {
        if (!issues_.empty()) {
            throw ConfigError(issues_);
        }
    }

private:
    std::vector<ConfigIssue> issues_;
    std::vector<std::string> invalid_keys_;
    json normalized_;
};

void resolve_accelerator(Accelerator& accelerator, const system::HardwareInfo& hardware,
                         Resolution& resolution) {
    if (accelerator == Accelerator::Auto) {
        accelerator = hardware.cuda_available() ? Accelerator::Cuda : Accelerator::Cpu;
    } else if (accelerator == Accelerator::Cuda && !hardware.cuda_available()) {
        resolution.report(
            "accelerator",
            std::string("cuda was requested but ") +
                (hardware.libtorch_has_cuda
                     ? "LibTorch sees no CUDA GPU (check the driver and CUDA_VISIBLE_DEVICES)"
                     : "this LibTorch is a CPU-only build") +
                "; use accelerator=cpu or accelerator=auto");
    }
}

// Devices per node: every GPU, or one process on cpu, unless the user chose a number or named
// the GPUs.
void resolve_devices(std::optional<int>& devices, const std::vector<int>& device_ids,
                     Accelerator accelerator, const system::HardwareInfo& hardware,
                     Resolution& resolution) {
    if (!device_ids.empty()) {
        const int available = static_cast<int>(hardware.gpus.size());
        if (accelerator != Accelerator::Cuda) {
            resolution.report("devices", "a list of devices names GPUs, but accelerator=" +
                                             to_string(accelerator) +
                                             "; use accelerator=cuda, or give a count");
        }
        for (const int index : device_ids) {
            if (accelerator == Accelerator::Cuda && index >= available) {
                resolution.report("devices", "GPU " + std::to_string(index) + " is not visible (" +
                                                 std::to_string(available) + " CUDA GPU(s): 0 to " +
                                                 std::to_string(available - 1) +
                                                 "); list visible GPUs only");
                break;
            }
        }
        return;
    }
    if (accelerator == Accelerator::Cuda) {
        const int available = static_cast<int>(hardware.gpus.size());
        if (!devices) {
            devices = std::max(available, 1);
        } else if (*devices > available) {
            resolution.report("devices", "devices=" + std::to_string(*devices) + " but only " +
                                             std::to_string(available) +
                                             " CUDA GPU(s) are visible; use devices=" +
                                             std::to_string(available) + " or devices=auto");
        }
    } else if (!devices) {
        devices = 1;
    } else if (*devices > hardware.cpu_cores) {
        resolution.report("devices", "devices=" + std::to_string(*devices) +
                                         " processes on cpu but only " +
                                         std::to_string(hardware.cpu_cores) +
                                         " CPU cores are available; use at most " +
                                         std::to_string(hardware.cpu_cores));
    }
}

void resolve_precision(Precision& precision, Accelerator accelerator, const std::vector<int>& gpus,
                       const system::HardwareInfo& hardware, Resolution& resolution) {
    const bool cuda = accelerator == Accelerator::Cuda;
    const system::GpuInfo* gpu_without_bf16 = nullptr;
    for (const int i : gpus) {
        if (cuda && i < static_cast<int>(hardware.gpus.size()) &&
            !hardware.gpus[i].supports_bf16() && gpu_without_bf16 == nullptr) {
            gpu_without_bf16 = &hardware.gpus[i];
        }
    }
    if (precision == Precision::Auto) {
        precision = cuda && gpu_without_bf16 == nullptr ? Precision::BF16Mixed : Precision::Full32;
        return;
    }
    if (!cuda && precision == Precision::FP16Mixed) {
        resolution.report("precision",
                          "16-mixed needs a CUDA GPU; on cpu use bf16-mixed (or 32-true)");
    } else if (!cuda && precision == Precision::FP16True) {
        resolution.report("precision",
                          "16-true needs a CUDA GPU; on cpu use bf16-true (or 32-true)");
    } else if (cuda && gpu_without_bf16 != nullptr &&
               (precision == Precision::BF16Mixed || precision == Precision::BF16True)) {
        resolution.report("precision", to_string(precision) +
                                           " needs compute capability 8.0 or newer, but " +
                                           gpu_without_bf16->name + " has " +
                                           std::to_string(gpu_without_bf16->compute_major) + "." +
                                           std::to_string(gpu_without_bf16->compute_minor) +
                                           "; use 16-mixed (or 32-true)");
    }
}

void check_data_exists(const std::vector<fs::path>& data, Resolution& resolution) {
    for (std::size_t i = 0; i < data.size(); ++i) {
        std::error_code error;
        if (!fs::exists(data[i], error)) {
            const std::string key = data.size() == 1 ? "data" : "data[" + std::to_string(i) + "]";
            resolution.report(key,
                              "\"" + data[i].string() +
                                  "\" does not exist; give a folder of images or an image file");
        }
    }
}

// The labelled splits a fine-tuning task reads: their folders and files must exist, so that
// `kiln config check` and Studio's form say so, not the start of training. Their contents are
// checked when the task loads them.
void check_labelled_data(TaskKind task, const json& data, Resolution& resolution) {
    const auto check = [&resolution](const std::string& key, const json& value, bool folder,
                                     const std::string& what) {
        std::error_code error;
        if (!value.is_string() || value.get<std::string>().empty()) {
            resolution.report(key, "missing; give " + what);
        } else if (folder ? !fs::is_directory(value.get<std::string>(), error)
                          : !fs::exists(value.get<std::string>(), error)) {
            resolution.report(key,
                              "\"" + value.get<std::string>() + "\" does not exist; give " + what);
        }
    };
    if (has_boxes(task) && data.is_string()) {
        std::error_code error;
        if (!fs::is_regular_file(data.get<std::string>(), error)) {
            resolution.report("data", "\"" + data.get<std::string>() +
                                          "\" is not a file; give a YOLO dataset's data.yaml, or "
                                          "the splits as data.train and data.val");
        }
        return;
    }
    if (!data.is_object()) {
        return; // normalize() said what it should be
    }
    if (has_boxes(task) && (data.contains("path") || data.contains("names"))) {
        check("data.path", data.value("path", json()), true, "the YOLO dataset's folder");
        return;
    }
    for (const char* split : {"train", "val"}) {
        const std::string key = std::string("data.") + split;
        const std::string which = std::string(split) == "train" ? "training" : "validation";
        const json entry = data.value(split, json());
        if (task == TaskKind::ImageClassification) {
            if (std::string(split) == "val" && data.contains("val_split")) {
                continue; // held out of the training images
            }
            check(key, entry, false,
                  "the " + which + " images: a folder of class folders or a CSV of image,label" +
                      (std::string(split) == "val"
                           ? ", or data.val_split=0.1 to hold out a tenth of the training images"
                           : ""));
            continue;
        }
        if (!entry.is_object()) {
            resolution.report(key, "expected a dictionary with images and " +
                                       std::string(has_boxes(task) ? "annotations" : "masks"));
            continue;
        }
        check(key + ".images", entry.value("images", json()), true,
              "the folder of the " + which + " images");
        if (has_boxes(task)) {
            check(key + ".annotations", entry.value("annotations", json()), false,
                  "the COCO annotation file of the " + which + " images");
        } else {
            check(key + ".masks", entry.value("masks", json()), true,
                  "the folder of the " + which + " masks");
        }
    }
}

void check_checkpoint_exists(const fs::path& checkpoint, Resolution& resolution) {
    std::error_code error;
    if (!fs::is_regular_file(checkpoint, error)) {
        resolution.report("checkpoint", "\"" + checkpoint.string() +
                                            "\" is not a file; give the path of a last.ckpt or an "
                                            "exported model");
    }
}

// Dot files (the lock a run took there, a desktop's .DS_Store) are not an earlier run's.
bool holds_visible_files(const fs::path& folder) {
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(folder, error)) {
        if (entry.path().filename().string().rfind('.', 0) != 0) {
            return true;
        }
    }
    return false;
}

void check_run_directory(const TrainConfig& config, Resolution& resolution) {
    if (config.overwrite && config.resume_interrupted) {
        resolution.report("resume_interrupted",
                          "cannot be combined with overwrite=true: choose one of them");
        return;
    }
    std::error_code error;
    if (!fs::exists(config.out, error)) {
        return;
    }
    if (!fs::is_directory(config.out, error)) {
        resolution.report("out", "\"" + config.out.string() +
                                     "\" exists and is not a folder; choose another out");
    } else if (holds_visible_files(config.out) && !config.overwrite && !config.resume_interrupted) {
        resolution.report("out", "\"" + config.out.string() +
                                     "\" is not empty; if it holds an earlier run, set "
                                     "overwrite=true to replace its files or "
                                     "resume_interrupted=true to continue it; else choose another "
                                     "out");
    }
}

// `out` of a command that writes a result (embeddings, predictions): nothing there is replaced
// without overwrite=true, and nothing it `reads` (files, or folders of images) ever:
// out=x.ckpt checkpoint=x.ckpt overwrite=true replaced the checkpoint with its own export, and
// an image-named out in a data folder replaced an image. `file_example` (when given) names the
// file a folder should have been.
void check_output(const fs::path& out, bool overwrite, const std::string& file_example,
                  const std::vector<fs::path>& reads, Resolution& resolution) {
    std::error_code error;
    for (const fs::path& input : reads) {
        const bool among_images = fs::is_directory(input, error) && is_within(out, input) &&
                                  data::has_image_extension(out.filename().string());
        if (among_images || (fs::exists(out, error) && fs::equivalent(out, input, error))) {
            resolution.report("out", "\"" + out.string() + "\" is " +
                                         (among_images ? "an image of the data folder \""
                                                       : "the file this command reads as \"") +
                                         input.string() + "\"; choose another out");
            return;
        }
    }
    const fs::path name = out.filename();
    const bool names_a_folder = name.empty() || name == "." || name == "..";
    if (!file_example.empty() && (names_a_folder || fs::is_directory(out, error))) {
        resolution.report("out", "\"" + out.string() + "\" is a folder; give a file name such as " +
                                     file_example);
    } else if (fs::exists(out, error) && !overwrite) {
        resolution.report("out", "\"" + out.string() + "\" exists" +
                                     (holds_only_unfinished_writes(out)
                                          ? " and holds only what an interrupted write left"
                                          : "") +
                                     "; set overwrite=true to replace it or choose another out");
    }
}

std::vector<fs::path> with_data(const std::vector<fs::path>& data, std::vector<fs::path> files) {
    files.insert(files.end(), data.begin(), data.end());
    return files;
}

void check_batch_split(const TrainConfig& config, Resolution& resolution) {
    const int world_size = config.world_size();
    if (config.batch_size % world_size != 0) {
        const int lower = std::max(world_size, config.batch_size / world_size * world_size);
        const int upper = (config.batch_size / world_size + 1) * world_size;
        resolution.report("batch_size", std::to_string(config.batch_size) +
                                            " is not divisible by num_nodes x devices = " +
                                            std::to_string(world_size) + "; use " +
                                            std::to_string(lower) + " or " + std::to_string(upper));
    }
}

void resolve_strategy(TrainConfig& config, Resolution& resolution) {
    if (config.strategy == "auto") {
        config.strategy = config.world_size() > 1 ? "ddp" : "single_device";
    } else if (config.strategy == "single_device" && config.world_size() > 1) {
        resolution.report("strategy", "single_device cannot run " +
                                          std::to_string(config.world_size()) +
                                          " processes; use ddp or auto");
    }
}

} // namespace

const std::vector<std::pair<Accelerator, std::string>>& accelerator_names() {
    static const std::vector<std::pair<Accelerator, std::string>> names = {
        {Accelerator::Auto, "auto"}, {Accelerator::Cpu, "cpu"}, {Accelerator::Cuda, "cuda"}};
    return names;
}

std::string to_string(Accelerator accelerator) {
    for (const auto& [entry, name] : accelerator_names()) {
        if (entry == accelerator) {
            return name;
        }
    }
    return "unknown";
}

std::vector<int> gpu_indices(const std::optional<int>& devices,
                             const std::vector<int>& device_ids) {
    if (!device_ids.empty()) {
        return device_ids;
    }
    std::vector<int> indices(static_cast<std::size_t>(devices.value_or(1)));
    for (std::size_t i = 0; i < indices.size(); ++i) {
        indices[i] = static_cast<int>(i);
    }
    return indices;
}

std::string to_string(Precision precision) {
    for (const auto& [entry, name] : precision_names()) {
        if (entry == precision) {
            return name;
        }
    }
    return "unknown";
}

namespace {

// A nested setting of a normalized dictionary, or `fallback` when it is not a number.
double number_in(const json& object, const char* key, double fallback) {
    return object.is_object() && object.contains(key) && object[key].is_number()
               ? object[key].get<double>()
               : fallback;
}

// A nested path setting of a normalized dictionary; empty when unset.
fs::path path_in(const json& object, const char* key) {
    return object.is_object() && object.contains(key) && object[key].is_string()
               ? fs::path(object[key].get<std::string>())
               : fs::path();
}

// optim_args over the defaults of the chosen optimizer.
OptimizerArgs optimizer_args(const TrainConfig& config) {
    OptimizerArgs parsed;
    const bool pretrained = !path_in(config.model_args, "backbone_weights").empty();
    parsed.chosen =
        optimizer_defaults(config.task, config.method, config.optim, config.model, pretrained);
    methods::OptimizerDefaults& chosen = parsed.chosen;
    const json& args = config.optim_args;
    chosen.base_lr = number_in(args, "lr", chosen.base_lr);
    chosen.weight_decay = number_in(args, "weight_decay", chosen.weight_decay);
    chosen.momentum = number_in(args, "momentum", chosen.momentum);
    chosen.warmup_epochs = number_in(args, "warmup_epochs", chosen.warmup_epochs);
    chosen.ema_decay = number_in(args, "ema_decay", chosen.ema_decay);
    chosen.gradient_clip = number_in(args, "gradient_clip_val", chosen.gradient_clip);
    if (args.is_object() && args.contains("betas") && args["betas"].is_array()) {
        parsed.beta1 = args["betas"][0].get<double>();
        parsed.beta2 = args["betas"][1].get<double>();
    }
    parsed.eps = number_in(args, "eps", parsed.eps);
    parsed.trust_coefficient = number_in(args, "trust_coefficient", parsed.trust_coefficient);
    chosen.backbone_lr_factor = number_in(args, "backbone_lr_factor", chosen.backbone_lr_factor);
    parsed.head_warmup_epochs = number_in(args, "head_warmup_epochs", parsed.head_warmup_epochs);
    parsed.layer_decay = number_in(args, "layer_decay", parsed.layer_decay);
    return parsed;
}

KnnMonitorSettings knn_monitor_settings(const json& args) {
    KnnMonitorSettings monitor;
    monitor.train = path_in(args, "train");
    monitor.val = path_in(args, "val");
    monitor.every_n_steps = static_cast<std::int64_t>(number_in(args, "every_n_steps", 0));
    monitor.k = static_cast<int>(number_in(args, "k", monitor.k));
    monitor.temperature = number_in(args, "temperature", monitor.temperature);
    const json whiten = args.is_object() ? args.value("whiten", json()) : json();
    monitor.whiten = whiten.is_boolean() && whiten.get<bool>();
    return monitor;
}

// The settings from normalize()'s output, the nested ones typed.
TrainConfig read_train_config(const json& normalized, TaskKind task) {
    TrainConfig config = config::train_settings(task).read(normalized);
    config.task = task;
    config.optimizer = optimizer_args(config);
    const json checkpoint =
        config.callbacks.is_object() ? config.callbacks.value("model_checkpoint", json()) : json();
    config.checkpoint_every_n_steps =
        static_cast<std::int64_t>(number_in(checkpoint, "every_n_steps", 0));
    const json map =
        config.metric_args.is_object() ? config.metric_args.value("map", json()) : json();
    config.map.synchronous = map.is_object() && map.value("mode", "async") == "sync";
    if (map.is_object() && map.contains("classwise") && map["classwise"].is_boolean()) {
        config.map.classwise = map["classwise"].get<bool>();
    }
    config.max_image_pixels = static_cast<std::int64_t>(
        number_in(config.loader_args, "max_image_pixels", double(data::kDefaultMaxImagePixels)));
    config.knn_monitor = knn_monitor_settings(config.knn_monitor_args);
    return config;
}

// `recorded`'s keys that `given` does not set, added to it: what the resumed run sets stays.
void fill_unset(json& given, const json& recorded) {
    if (!given.is_object()) {
        given = json::object();
    }
    if (recorded.is_object()) {
        for (const auto& [key, value] : recorded.items()) {
            given.emplace(key, value);
        }
    }
}

// What an interrupted run's views resolved to, for what the resumed run's `views` leaves
// unresolved: the image size, and the view counts of the method's recipe.
void carry_recorded_views(const std::string& method, const json& recorded, json& views) {
    if (!views.is_object() || !recorded.is_object()) {
        return;
    }
    if (views.value("image_size", json()) == "auto" &&
        recorded.value("image_size", json()).is_array()) {
        views["image_size"] = recorded["image_size"];
    }
    data::carry_recorded_view_counts(methods::view_recipe(method), recorded, views);
}

} // namespace

// The task a training config names with "task" (as to_json writes it), else `fallback`; the
// input without that key. With `strict`, a named task must be `fallback` (a command's own).
std::pair<TaskKind, json> split_task(const json& input, TaskKind fallback, bool strict) {
    if (!input.is_object() || !input.contains("task")) {
        return {fallback, input};
    }
    json rest = input;
    const json named = rest["task"];
    rest.erase("task");
    if (const std::optional<TaskKind> kind =
            named.is_string() ? task_named(named.get<std::string>()) : std::nullopt) {
        if (strict && *kind != fallback) {
            throw ConfigError({{"task", "these settings are for " + task_traits(*kind).command +
                                            ", not " + task_traits(fallback).command +
                                            "; run that command, or remove \"task\""}});
        }
        return {*kind, rest};
    }
    std::vector<std::string> known;
    for (const TaskTraits& entry : task_table()) {
        known.push_back(entry.name);
    }
    throw ConfigError(
        {{"task", "unknown task " + named.dump() + "; one of " + join_alternatives(known)}});
}

TaskKind recorded_task(const json& settings) {
    return split_task(settings, TaskKind::Pretraining, false).first;
}

TrainConfig parse_train_config(const json& input, TaskKind task) {
    const auto [kind, settings] = split_task(input, task, false);
    const Resolution resolution(config::train_schema(kind), settings);
    resolution.throw_if_any();
    return read_train_config(resolution.normalized(), kind);
}

EmbedConfig parse_embed_config(const json& input) {
    const Resolution resolution(config::embed_schema(), input);
    resolution.throw_if_any();
    return config::embed_settings().read(resolution.normalized());
}

json model_args_or_defaults(const TrainConfig& config) {
    json args = config::defaults_of(*config::train_schema(config.task).find("model_args"));
    if (config.model_args.is_object()) {
        args.update(config.model_args);
    }
    return args;
}

json to_json(const TrainConfig& config) {
    json settings = config::train_settings(config.task).write(config);
    settings["task"] = task_traits(config.task).name;
    return settings;
}

TrainConfig with_chosen_optimizer(TrainConfig config) {
    const methods::OptimizerDefaults& chosen = config.optimizer.chosen;
    config.optim = chosen.name;
    json& args = config.optim_args;
    if (!args.is_object()) {
        args = json::object();
    }
    args["lr"] = chosen.base_lr;
    args["weight_decay"] = chosen.weight_decay;
    if (chosen.name == "adamw") {
        args["betas"] = {config.optimizer.beta1, config.optimizer.beta2};
        args["eps"] = config.optimizer.eps;
    } else {
        args["momentum"] = chosen.momentum;
    }
    if (chosen.name == "lars") {
        args["trust_coefficient"] = config.optimizer.trust_coefficient;
    }
    args["warmup_epochs"] = chosen.warmup_epochs;
    args["ema_decay"] = chosen.ema_decay;
    args["gradient_clip_val"] = chosen.gradient_clip;
    if (config.task != TaskKind::Pretraining) {
        args["backbone_lr_factor"] = chosen.backbone_lr_factor;
        args["layer_decay"] = config.optimizer.layer_decay;
    }
    return config;
}

TrainConfig with_interrupted_runs_choices(const TrainConfig& given, const json& recorded) {
    if (!recorded.is_object()) {
        return given;
    }
    json settings = to_json(given);
    carry_recorded_views(given.method, recorded.value("transform_args", json()),
                         settings["transform_args"]);
    const json recorded_optim = recorded.value("optim", json());
    if ((given.optim.empty() || given.optim == "auto") && recorded_optim.is_string()) {
        settings["optim"] = recorded_optim;
        fill_unset(settings["optim_args"], recorded.value("optim_args", json()));
    }
    // The kNN monitor goes on validating, and picking best.ckpt, as it did (its k, temperature
    // and whitening too) without being named again; one given with its folders replaces it.
    if (const json monitor = recorded.value("knn_monitor", json());
        monitor.is_object() && !given.knn_monitor.enabled()) {
        settings["knn_monitor"] = monitor;
    }
    if (recorded.value("method", json()) == given.method) {
        const json teacher = setting_in_group(settings, "method_args", "teacher");
        fill_unset(settings["method_args"], recorded.value("method_args", json()));
        if (setting_in_group(settings, "method_args", "teacher") != teacher) { // from the record
            models::refuse_recorded_torchscript(
                settings, models::RecordedModels::BackboneAndTeacher, "the interrupted run",
                "name the teacher again: method_args.teacher=torchscript:FILE");
        }
    }
    return parse_train_config(settings, given.task);
}

json to_json(const PredictConfig& config) {
    return config::predict_settings().write(config);
}

json to_json(const ExportConfig& config) {
    return config::export_settings().write(config);
}

json to_json(const EmbedConfig& config) {
    return config::embed_settings().write(config);
}

namespace {

// Both of the monitor's folders, as folders, before anything is written.
void check_knn_monitor(const KnnMonitorSettings& monitor, Resolution& resolution) {
    if (!monitor.enabled()) {
        return;
    }
    const std::pair<const char*, const fs::path*> folders[] = {
        {"knn_monitor.train", &monitor.train}, {"knn_monitor.val", &monitor.val}};
    for (const auto& [key, folder] : folders) {
        std::error_code missing;
        if (folder->empty()) {
            resolution.report(key, "required with the other knn_monitor folder: a folder of class "
                                   "folders (<folder>/<class>/<image>), a few thousand images");
        } else if (!fs::is_directory(*folder, missing)) {
            resolution.report(key, "\"" + folder->string() +
                                       "\" is not a folder; give a folder of class folders");
        }
    }
    if (!monitor.train.empty() && !monitor.val.empty() &&
        resolved_place(monitor.train) == resolved_place(monitor.val)) {
        resolution.report("knn_monitor.val",
                          "\"" + monitor.val.string() +
                              "\" is knn_monitor.train too: each image would find itself as its "
                              "nearest neighbour, 100% whatever the model; give held-out images");
    }
}

// Where a run computes, which train and embed resolve alike: the accelerator, the devices and
// the precision those devices can run.
template <typename Config>
void resolve_placement(Config& config, const system::HardwareInfo& hardware,
                       Resolution& resolution) {
    resolve_accelerator(config.accelerator, hardware, resolution);
    if (resolution.valid("accelerator", "devices")) {
        resolve_devices(config.devices, config.device_ids, config.accelerator, hardware,
                        resolution);
    }
    if (resolution.valid("accelerator", "devices", "precision")) {
        resolve_precision(config.precision, config.accelerator, config.gpu_indices(), hardware,
                          resolution);
    }
}

} // namespace

namespace {

// Distillation cannot start without its teacher: said at resolution, before anything is
// written, rather than when the method is built.
void check_teacher(const TrainConfig& config, Resolution& resolution) {
    const json teacher =
        config.method_args.is_object() ? config.method_args.value("teacher", json()) : json();
    const std::string named = teacher.is_string() ? teacher.get<std::string>() : "";
    const std::string file =
        models::is_torchscript_model(named) ? models::torchscript_file(named) : named;
    std::error_code missing;
    if (file.empty()) {
        resolution.report("method_args.teacher",
                          "required for distillation: the teacher's exported model (a "
                          "pretraining run's exported_models/exported_last.pt) or "
                          "torchscript:FILE, a TorchScript module");
    } else if (!fs::is_regular_file(file, missing)) {
        resolution.report("method_args.teacher",
                          "\"" + file +
                              "\" is not a file; give an exported model or torchscript:FILE");
    }
}

// The views' settings, as the task will read them: so `config check` and Studio's form report a
// bad transform_args too, not only the start of training.
void check_views(const TrainConfig& config, TaskKind kind, Resolution& resolution) {
    try {
        task_training_transform(kind, config.method, config.transform_args);
    } catch (const ConfigError& error) {
        for (const ConfigIssue& issue : error.issues()) {
            resolution.report(issue.path, issue.message);
        }
    }
}

// Logger settings that would stop the run before it trains (W&B online, an MLflow store Kiln
// cannot write).
void check_loggers(const TrainConfig& config, Resolution& resolution) {
    const std::pair<const char*, std::function<void(const json&)>> loggers[] = {
        {"wandb", [](const json& settings) { config::wandb_settings(settings); }},
        {"mlflow", [](const json& settings) { config::mlflow_settings(settings); }}};
    for (const auto& [name, check] : loggers) {
        if (config.loggers.is_object() && config.loggers.contains(name) &&
            !config.loggers[name].is_null()) {
            try {
                check(config.loggers[name]);
            } catch (const Error& error) {
                resolution.report(std::string("loggers.") + name, error.what());
            }
        }
    }
}

} // namespace

TrainConfig resolve_train_config(const json& input, const ResolveContext& context, TaskKind task) {
    const auto [kind, settings] = split_task(input, task, true);
    Resolution resolution(config::train_schema(kind), settings);
    TrainConfig config = read_train_config(resolution.normalized(), kind);
    const system::HardwareInfo& hardware = context.hardware;

    resolve_placement(config, hardware, resolution);
    if (resolution.valid("devices", "num_nodes", "strategy")) {
        resolve_strategy(config, resolution);
    }
    if (resolution.valid("devices", "num_nodes", "batch_size")) {
        check_batch_split(config, resolution);
    }
    if (!config.num_workers) {
        config.num_workers = system::auto_num_workers(
            hardware.cpu_cores, config.devices.value_or(1), context.environment);
    }
    if (resolution.valid("data") && kind == TaskKind::Pretraining) {
        check_data_exists(config.data, resolution);
    }
    if (resolution.valid("data") && kind != TaskKind::Pretraining) {
        check_labelled_data(kind, config.labelled_data, resolution);
    }
    if (resolution.valid("watch_metric") && kind != TaskKind::Pretraining &&
        config.watch_metric.rfind("val_metric/", 0) != 0) {
        resolution.report("watch_metric", "\"" + config.watch_metric +
                                              "\" is not a validation metric; give a val_metric/ "
                                              "key such as " +
                                              task_traits(kind).watch_metric);
    }
    if (kind == TaskKind::Pretraining && resolution.valid("knn_monitor")) {
        check_knn_monitor(config.knn_monitor, resolution);
    }
    const methods::MethodEntry* method = methods::find_method(config.method);
    if (kind == TaskKind::Pretraining && method && resolution.valid("method_args", "model")) {
        for (const ConfigIssue& issue :
             methods::method_args_issues(config.method, config.model, config.method_args)) {
            resolution.report(issue.path, issue.message);
        }
        if (method->needs_teacher) {
            check_teacher(config, resolution);
        }
    }
    std::error_code missing;
    if (models::is_torchscript_model(config.model) &&
        !fs::is_regular_file(models::torchscript_file(config.model), missing)) {
        resolution.report("model", "\"" + models::torchscript_file(config.model) +
                                       "\" does not exist; give the path of a "
                                       "TorchScript module or one of " +
                                       join_alternatives(models::backbone_names()));
    }
    if (config.checkpoint && resolution.valid("checkpoint")) {
        check_checkpoint_exists(*config.checkpoint, resolution);
    }
    if (resolution.valid("transform_args", "method")) {
        check_views(config, kind, resolution);
    }
    if (resolution.valid("loggers")) {
        check_loggers(config, resolution);
    }
    if (context.writes_out && resolution.valid("out", "overwrite", "resume_interrupted")) {
        check_run_directory(config, resolution);
    }
    resolution.throw_if_any();
    return config;
}

EmbedConfig resolve_embed_config(const json& input, const ResolveContext& context) {
    Resolution resolution(config::embed_schema(), input);
    EmbedConfig config = config::embed_settings().read(resolution.normalized());
    const system::HardwareInfo& hardware = context.hardware;

    resolve_placement(config, hardware, resolution);
    if (!config.num_workers) {
        config.num_workers = system::auto_num_workers(
            hardware.cpu_cores, std::max(1, config.devices.value_or(1)), context.environment);
    }
    if (resolution.valid("data")) {
        check_data_exists(config.data, resolution);
    }
    if (resolution.valid("checkpoint")) {
        check_checkpoint_exists(config.checkpoint, resolution);
    }
    if (resolution.valid("out", "overwrite")) {
        check_output(config.out, config.overwrite, "embeddings.pt",
                     with_data(config.data, {config.checkpoint}), resolution);
    }
    if (config.patches && config.format == "lightly_csv" && resolution.valid("format")) {
        resolution.report("format", "lightly_csv holds one vector per image; with "
                                    "embedding=patch use torch, npy or csv");
    }
    resolution.throw_if_any();
    return config;
}

namespace {

// LightlyTrain's way of giving detection ground truth to predict, `data.images=DIR
// data.annotations=FILE`, as Kiln's `data=DIR annotations=FILE`.
json with_split_detection_data(const json& input) {
    if (!input.is_object() || !input.contains("data") || !input["data"].is_object()) {
        return input;
    }
    json result = input;
    const json data = input["data"];
    result.erase("data");
    for (const auto& [key, value] : data.items()) {
        if (key == "images") {
            result["data"] = value;
        } else if (key == "annotations") {
            result["annotations"] = value;
        } else {
            throw ConfigError(
                {{"data." + key, "unknown; predict's data is a folder or file of images, or "
                                 "data.images with data.annotations (a COCO file)"}});
        }
    }
    return result;
}

// Masks and drawn images are PNGs named as the images are: written among them, they would
// replace them (or join them, as images of the next run).
void refuse_writing_among_the_images(const PredictConfig& config, Resolution& resolution) {
    std::error_code error;
    // `out` is a folder of masks for segmentation (a CSV or JSON file beside images is harmless).
    const bool out_is_a_folder = fs::is_directory(config.out, error) || !config.out.has_extension();
    for (const fs::path& folder : config.data) {
        const auto refuse_within = [&](const std::string& key, const fs::path& written,
                                       const std::string& fix) {
            if (fs::is_directory(folder, error) && is_within(written, folder)) {
                resolution.report(key, "\"" + written.string() + "\" lies in data \"" +
                                           folder.string() +
                                           "\": PNGs written there would replace or join its "
                                           "images; " +
                                           fix);
            }
        };
        if (out_is_a_folder) {
            refuse_within("out", config.out,
                          "choose a folder of masks outside it, or a file name with its extension "
                          "(.csv, .json) for classes or detections");
        }
        if (config.draw) {
            refuse_within("draw", *config.draw, "choose a folder outside it");
        }
    }
}

} // namespace

PredictConfig resolve_predict_config(const json& input, const ResolveContext& context) {
    Resolution resolution(config::predict_schema(), with_split_detection_data(input));
    PredictConfig config = config::predict_settings().read(resolution.normalized());
    const system::HardwareInfo& hardware = context.hardware;

    resolve_placement(config, hardware, resolution);
    if (!config.num_workers) {
        config.num_workers = system::auto_num_workers(hardware.cpu_cores, 1, context.environment);
    }
    if (resolution.valid("data")) {
        check_data_exists(config.data, resolution);
    }
    if (resolution.valid("checkpoint")) {
        check_checkpoint_exists(config.checkpoint, resolution);
    }
    std::error_code error;
    if (config.annotations && resolution.valid("annotations") &&
        !fs::is_regular_file(*config.annotations, error)) {
        resolution.report("annotations", "\"" + config.annotations->string() +
                                             "\" is not a file; give a COCO annotation JSON");
    }
    if (resolution.valid("out", "overwrite")) { // a CSV file, a folder of masks, a JSON file
        std::vector<fs::path> reads = {config.checkpoint};
        if (config.annotations) {
            reads.push_back(*config.annotations);
        }
        check_output(config.out, config.overwrite, "", with_data(config.data, reads), resolution);
    }
    if (config.draw && resolution.valid("draw", "overwrite") && holds_visible_files(*config.draw) &&
        !config.overwrite) {
        resolution.report("draw", "\"" + config.draw->string() +
                                      "\" holds files; set overwrite=true to replace its drawn "
                                      "images or choose an empty folder");
    }
    if (config.draw && resolution.valid("draw", "out") && is_within(*config.draw, config.out)) {
        resolution.report("draw",
                          "\"" + config.draw->string() + "\" is out \"" + config.out.string() +
                              "\" or lies within it: the drawn images would be written among "
                              "the predictions; choose a folder apart from out");
    }
    if (resolution.valid("data")) {
        refuse_writing_among_the_images(config, resolution);
    }
    resolution.throw_if_any();
    return config;
}

namespace {

// Embeddings, or a checkpoint with the data it embeds first: one of them, and there.
void check_selection_source(const SelectConfig& config, Resolution& resolution) {
    std::error_code error;
    const bool embeddings = !config.embeddings.empty();
    if (embeddings == config.checkpoint.has_value()) {
        resolution.report("embeddings", embeddings ? "give embeddings or checkpoint, not both"
                                                   : "required: an embeddings file, or "
                                                     "checkpoint and data to embed first");
    } else if (embeddings && resolution.valid("embeddings") &&
               !fs::is_regular_file(config.embeddings, error)) {
        resolution.report("embeddings", "\"" + config.embeddings.string() +
                                            "\" is not a file; give the file kiln embed wrote");
    }
    if (config.checkpoint && resolution.valid("checkpoint")) {
        check_checkpoint_exists(*config.checkpoint, resolution);
        if (config.data.empty()) {
            resolution.report("data", "required with checkpoint: the images to embed");
        } else if (resolution.valid("data")) {
            check_data_exists(config.data, resolution);
        }
        if (resolution.valid("out", "overwrite")) {
            check_output(embedded_path(config), config.overwrite, "",
                         with_data(config.data, {*config.checkpoint}), resolution);
        }
    } else if (!config.data.empty() && resolution.valid("data")) {
        resolution.report("data", "only with checkpoint, which embeds it first");
    }
}

} // namespace

fs::path embedded_path(const SelectConfig& config) {
    return config.out.parent_path() / (config.out.stem().string() + ".embeddings.pt");
}

SelectConfig resolve_select_config(const json& input) {
    Resolution resolution(config::select_schema(), input);
    SelectConfig config = config::select_settings().read(resolution.normalized());
    check_selection_source(config, resolution);
    std::error_code error;
    if (config.already_labelled && resolution.valid("already_labelled") &&
        !fs::exists(*config.already_labelled, error)) {
        resolution.report("already_labelled",
                          "\"" + config.already_labelled->string() +
                              "\" does not exist; give a text file of names or a folder of images");
    }
    if (resolution.valid("n") && config.n > 1 && config.n != std::floor(config.n)) {
        resolution.report("n", "is a count above 1, so a whole number (a fraction is below 1)");
    }
    if (resolution.valid("out", "overwrite")) {
        std::vector<fs::path> reads = {config.embeddings};
        for (const std::optional<fs::path>& read : {config.checkpoint, config.already_labelled}) {
            if (read) {
                reads.push_back(*read);
            }
        }
        check_output(config.out, config.overwrite, "picks.txt", with_data(config.data, reads),
                     resolution);
    }
    resolution.throw_if_any();
    return config;
}

json to_json(const SelectConfig& config) {
    return config::select_settings().write(config);
}

MapConfig resolve_map_config(const json& input) {
    Resolution resolution(config::map_schema(), input);
    MapConfig config = config::map_settings().read(resolution.normalized());
    std::error_code error;
    if (resolution.valid("embeddings") && !fs::is_regular_file(config.embeddings, error)) {
        resolution.report("embeddings", "\"" + config.embeddings.string() +
                                            "\" is not a file; give the file kiln embed wrote");
    }
    if (resolution.valid("out", "overwrite")) {
        check_output(config.out, config.overwrite, "map.csv", {config.embeddings}, resolution);
    }
    resolution.throw_if_any();
    return config;
}

json to_json(const MapConfig& config) {
    return config::map_settings().write(config);
}

ExportConfig resolve_export_config(const json& input) {
    Resolution resolution(config::export_schema(), input);
    ExportConfig config = config::export_settings().read(resolution.normalized());
    if (resolution.valid("checkpoint")) {
        check_checkpoint_exists(config.checkpoint, resolution);
    }
    if (resolution.valid("out", "overwrite")) {
        check_output(config.out, config.overwrite, "model.onnx", {config.checkpoint}, resolution);
    }
    resolution.throw_if_any();
    return config;
}

data::TaskAugmentations task_augmentations(TaskKind task) {
    return {.detection = has_boxes(task), .batch_mixing = task == TaskKind::ImageClassification};
}

data::TransformArgs task_training_transform(TaskKind task, const std::string& method,
                                            const json& transform_args) {
    return task == TaskKind::Pretraining
               ? data::recipe_transform(methods::view_recipe(method), transform_args)
               : data::finetune_transform(transform_args, true, 0.08, task_augmentations(task));
}

methods::OptimizerDefaults optimizer_defaults(TaskKind task, const std::string& method,
                                              const std::string& optim, const std::string& model,
                                              bool pretrained) {
    const TaskTraits& traits = task_traits(task);
    methods::OptimizerDefaults own = traits.optimizer;
    const bool vit = traits.vit_optimizer && models::is_vit_model(model);
    if (vit) {
        own = *traits.vit_optimizer;
    }
    if (pretrained && traits.pretrained_optimizer) {
        const double backbone_lr_factor = traits.pretrained_optimizer->backbone_lr_factor;
        if (!vit) { // a pretrained ViT keeps its own rate (measured, task_names.h)
            own = *traits.pretrained_optimizer;
        }
        own.backbone_lr_factor = backbone_lr_factor;
    }
    const methods::MethodEntry* entry =
        task == TaskKind::Pretraining ? methods::find_method(method) : nullptr;
    if (entry) {
        own = entry->optimizer(models::backbone_family(model));
        // The method's recipe for another family when its optimizer is the one named: the
        // CNNs' before the ViTs' and the small CNN's.
        for (const methods::OptimizerDefaults* other :
             {&entry->cnn_optimizer, &entry->vit_optimizer,
              entry->small_cnn_optimizer ? &*entry->small_cnn_optimizer : nullptr}) {
            if (other != nullptr && optim == other->name && optim != own.name) {
                return *other;
            }
        }
    }
    if (optim == "auto" || optim.empty() || optim == own.name) {
        return own;
    }
    return {.name = optim,
            .base_lr = 0.1,
            .weight_decay = 1e-6,
            .momentum = own.momentum,
            .warmup_epochs = own.warmup_epochs,
            .ema_decay = own.ema_decay,
            .gradient_clip = own.gradient_clip,
            .backbone_lr_factor = own.backbone_lr_factor}; // a pretrained backbone's, whatever
                                                           // the optimizer
}

} // namespace kiln
