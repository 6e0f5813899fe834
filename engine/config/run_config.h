#pragma once

#include "config/precision.h"
#include "config/task_names.h"
#include "eval/knn_settings.h"
#include "methods/method_names.h"
#include "system/hardware.h"
#include "system/num_workers.h"

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kiln::data {
struct TaskAugmentations;
struct TransformArgs;
} // namespace kiln::data

namespace kiln {

enum class Accelerator { Auto, Cpu, Cuda };
// Their names, as `accelerator=` takes them.
const std::vector<std::pair<Accelerator, std::string>>& accelerator_names();

// LightlyTrain's spelling: "cpu", "32-true", ...
std::string to_string(Accelerator accelerator);
std::string to_string(Precision precision);

// optim_args over the optimizer's defaults (optimizer_defaults()): all the optimizer and its
// schedule take.
struct OptimizerArgs {
    methods::OptimizerDefaults chosen; // name, lr per 256 images, weight decay, warm-up
    double beta1 = 0.9;
    double beta2 = 0.999;
    double eps = 1e-8;
    double trust_coefficient = 0.001;
    // Fine-tuning: the first epochs train only the head.
    double head_warmup_epochs = 0.0;
    // Fine-tuning: each backbone layer learns at this share of the rate of the layer above.
    double layer_decay = 1.0;
};

// metric_args.map of the detection tasks: COCO mAP beside training (async) or in the loop
// (sync), and per-class AP (unset: logged for datasets of at most kClasswiseClasses classes).
struct MapSettings {
    static constexpr std::size_t kClasswiseClasses = 100;
    bool synchronous = false;
    std::optional<bool> classwise;
    bool classwise_for(std::size_t classes) const {
        return classwise.value_or(classes <= kClasswiseClasses);
    }
};

// knn_monitor: pretraining validated by weighted kNN classification (cosine, DINO's vote) of
// labelled folders embedded with the weights being trained; off while `train` is empty.
struct KnnMonitorSettings {
    std::filesystem::path train;    // class folders: the neighbours that vote
    std::filesystem::path val;      // class folders: the images classified
    std::int64_t every_n_steps = 0; // 0: after each epoch (with max_time: paced by the budget)
    int k = eval::kKnnNeighbours;
    double temperature = eval::kKnnTemperature;
    bool whiten = false; // eval::fit_whitening on the train folder's embeddings first

    bool enabled() const { return !train.empty() || !val.empty(); }
};

// The CUDA device index of each local rank: `device_ids` when given, else 0 .. devices - 1.
std::vector<int> gpu_indices(const std::optional<int>& devices, const std::vector<int>& device_ids);

// Settings of a training run (pretraining or fine-tuning: `task`), with LightlyTrain's names.
// Before resolution, `num_workers`, `devices` and `optim` may be unset and `accelerator`,
// `strategy`, `precision` may be "auto"; after resolve_train_config() nothing is left on auto
// except `optim` (chosen by the method or task: `optimizer`; with_chosen_optimizer writes it in).
struct TrainConfig {
    TaskKind task = TaskKind::Pretraining;
    std::filesystem::path out;
    std::vector<std::filesystem::path> data; // pretraining: image folders and files
    nlohmann::json labelled_data;            // fine-tuning: `data` (splits, classes)
    std::string model;
    std::string method; // pretraining
    nlohmann::json method_args;
    nlohmann::json knn_monitor_args; // pretraining: knn_monitor
    nlohmann::json model_args;       // fine-tuning: backbone weights, head
    nlohmann::json metric_args;      // detection: metric_args.map (mode, classwise, backend)
    int epochs = 0;
    std::optional<int> steps;             // fine-tuning: instead of epochs
    std::optional<double> max_time;       // seconds: the run's length instead of epochs or steps
    std::optional<int> val_every_n_steps; // fine-tuning; unset: after each epoch
    std::string watch_metric;             // fine-tuning: picks best.ckpt
    int batch_size = 0;                   // global: split over num_nodes x devices
    std::optional<int> num_workers;
    std::optional<int> devices;
    std::vector<int> device_ids; // the GPUs of devices=[...]; empty: the first `devices`
    int num_nodes = 0;
    Accelerator accelerator = Accelerator::Auto;
    std::string strategy;
    bool sync_batchnorm = false; // ddp: batch statistics over every rank's batch
    Precision precision = Precision::Auto;
    int seed = 0;
    std::string optim;
    nlohmann::json optim_args;
    nlohmann::json transform_args;
    nlohmann::json loader_args;
    nlohmann::json loggers;
    nlohmann::json callbacks;
    bool resume_interrupted = false;
    // The nested settings, typed, from the dictionaries above (read with the rest).
    OptimizerArgs optimizer;                   // optim_args over the optimizer's defaults
    std::int64_t checkpoint_every_n_steps = 0; // callbacks.model_checkpoint.every_n_steps
    MapSettings map;                           // metric_args.map
    std::int64_t max_image_pixels = 0;         // loader_args.max_image_pixels
    KnnMonitorSettings knn_monitor;            // knn_monitor
    std::optional<std::filesystem::path> checkpoint;
    bool overwrite = false;
    int gradient_accumulation_steps = 0;

    int world_size() const { return num_nodes * devices.value_or(1); }
    // The CUDA device index of each local rank: device_ids, else 0 .. devices - 1.
    std::vector<int> gpu_indices() const { return kiln::gpu_indices(devices, device_ids); }
};

// Settings of an embedding run, with LightlyTrain's names.
struct EmbedConfig {
    std::filesystem::path out; // the embeddings file
    std::vector<std::filesystem::path> data;
    std::filesystem::path checkpoint;
    std::string format;
    bool patches = false; // embedding=patch: a feature vector per location of the last map
    int image_height = 0; // 0 x 0: auto, the size the checkpoint was trained at
    int image_width = 0;
    int batch_size = 0;
    std::optional<int> num_workers;
    Accelerator accelerator = Accelerator::Auto;
    std::optional<int> devices;  // each embeds a share of the images
    std::vector<int> device_ids; // the GPUs of devices=[...]
    Precision precision = Precision::Auto;
    bool overwrite = false;

    std::vector<int> gpu_indices() const { return kiln::gpu_indices(devices, device_ids); }
};

// Settings of a prediction run: a fine-tuned model over images, on one device.
struct PredictConfig {
    std::filesystem::path out;
    std::vector<std::filesystem::path> data;
    std::filesystem::path checkpoint;
    // Detection: a COCO annotation file whose images (file_names relative to data) and ids the
    // results use.
    std::optional<std::filesystem::path> annotations;
    // Detection: a folder for the images with their detections drawn.
    std::optional<std::filesystem::path> draw;
    int image_height = 0; // 0 x 0: auto, the size the checkpoint was trained at
    int image_width = 0;
    int batch_size = 0;
    std::optional<int> num_workers;
    Accelerator accelerator = Accelerator::Auto;
    std::optional<int> devices = 1; // one device: the first GPU, or the CPU
    std::vector<int> device_ids;
    Precision precision = Precision::Full32;
    bool overwrite = false;

    std::vector<int> gpu_indices() const { return kiln::gpu_indices(devices, device_ids); }
};

// Settings of `kiln select`: which images to label first, from their embeddings.
struct SelectConfig {
    std::filesystem::path out; // the names, one a line; a CSV beside it (<stem>.csv) has scores
    std::filesystem::path embeddings; // empty when `checkpoint` embeds `data` first
    // Instead of `embeddings`: `data` embedded first with `checkpoint` as kiln embed does, into
    // embedded_path() beside `out`.
    std::optional<std::filesystem::path> checkpoint;
    std::vector<std::filesystem::path> data;
    double n = 0; // at least 1: a count; below 1: that fraction of the images that may be picked
    std::string strategy;
    std::optional<std::filesystem::path> already_labelled; // a list of names, or a folder
    bool exclude_duplicates = false;
    double duplicate_threshold = 0.95; // cosine similarity
    bool whiten = false;               // pick in PCA-whitened space (SelectionOptions::whiten)
    int seed = 0;
    bool overwrite = false;
};
SelectConfig resolve_select_config(const nlohmann::json& input);
nlohmann::json to_json(const SelectConfig& config);
// Where `kiln select checkpoint=... data=...` writes the embeddings it picks from:
// picks.txt -> picks.embeddings.pt.
std::filesystem::path embedded_path(const SelectConfig& config);

// Settings of `kiln embed-map`: a 2-D map (PCA, t-SNE or UMAP) of an embeddings file.
struct MapConfig {
    std::filesystem::path out; // a CSV filename,x,y
    std::filesystem::path embeddings;
    std::string projection;
    int seed = 0;
    double perplexity = 30.0; // t-SNE
    int n_neighbors = 15;     // UMAP
    double min_dist = 0.1;    // UMAP
    bool overwrite = false;
};
MapConfig resolve_map_config(const nlohmann::json& input);
nlohmann::json to_json(const MapConfig& config);

// JSON to config: checks keys, types and ranges, fills in defaults; "auto" stays auto.
// Throws ConfigError listing every problem. A training config's "task" key (as to_json writes
// it) picks the task's schema; without it the input is checked against `task`'s.
TrainConfig parse_train_config(const nlohmann::json& input, TaskKind task = TaskKind::Pretraining);
EmbedConfig parse_embed_config(const nlohmann::json& input);

// A fine-tuning task's model_args as parsing leaves them (checked, defaults filled in); what a
// config built in code leaves out takes the declared default.
nlohmann::json model_args_or_defaults(const TrainConfig& config);

nlohmann::json to_json(const TrainConfig& config);
// `config` with the optimizer that `optim` and optim_args resolved to written in as settings, so
// that config.json, run.db and the checkpoints record what the run trained with (and a run
// resumed from them keeps it when a newer Kiln's defaults differ).
TrainConfig with_chosen_optimizer(TrainConfig config);
// A resumed run's settings: what `given` leaves on auto (transform_args.image_size; optim with
// the optim_args it does not set) takes what the interrupted run `recorded` (its checkpoint's
// settings), so that it goes on as it started even where a newer Kiln would choose otherwise.
// The result is checked as any settings are.
TrainConfig with_interrupted_runs_choices(const TrainConfig& given, const nlohmann::json& recorded);
nlohmann::json to_json(const EmbedConfig& config);

struct ResolveContext {
    system::HardwareInfo hardware;
    system::WorkerEnvironment environment;
    // False for the ranks of a distributed run other than the first: they never write `out`,
    // and must not judge it while rank 0 fills it.
    bool writes_out = true;
};

// parse_*_config() followed by resolution of every "auto" against the hardware and the checks
// that need it (accelerator, devices, precision, batch split, paths on disk). Throws
// ConfigError listing every problem found, in the input and in its resolution. A training
// input's "task", when given, must be `task`.
TrainConfig resolve_train_config(const nlohmann::json& input, const ResolveContext& context,
                                 TaskKind task = TaskKind::Pretraining);
// The task that recorded settings (a run.db record, a config.json) name with "task", else
// pretraining: what resuming a run resolves them for. An unknown name is a ConfigError.
TaskKind recorded_task(const nlohmann::json& settings);
EmbedConfig resolve_embed_config(const nlohmann::json& input, const ResolveContext& context);
PredictConfig resolve_predict_config(const nlohmann::json& input, const ResolveContext& context);

// The optimizer a run trains with, for what optim_args leaves unset: `optim` (auto: the task's
// own, for pretraining the method's recipe for `model`'s family (CNN, small CNN or ViT), and AdamW
// for fine-tuning) with its learning rate per 256 images, weight decay, warm-up epochs and gradient
// clip. Another optimizer gets the method's recipe for another family when that uses it, else
// lr 0.1 and weight decay 1e-6. The trainer uses it; Studio's form shows it.
// A fine-tuning task's recipe for a ViT where it has one (TaskTraits::vit_optimizer); with
// `pretrained` (model_args.backbone_weights given), its recipe for a pretrained backbone where it
// has one (TaskTraits::pretrained_optimizer), a ViT keeping its own rate and taking only the
// backbone's share.
methods::OptimizerDefaults optimizer_defaults(TaskKind task, const std::string& method,
                                              const std::string& optim = "auto",
                                              const std::string& model = "resnet18",
                                              bool pretrained = false);

// The augmentation keys of `task`'s transform_args besides the views' (data::finetune_transform).
data::TaskAugmentations task_augmentations(TaskKind task);

// A training sample's views as `task` reads transform_args (pretraining: the method's recipe),
// for checking the settings and estimating a step: the task's views and keys, though not its
// crop scale. Throws ConfigError naming a bad key.
data::TransformArgs task_training_transform(TaskKind task, const std::string& method,
                                            const nlohmann::json& transform_args);

// Settings of `kiln export`.
struct ExportConfig {
    std::filesystem::path out;
    std::filesystem::path checkpoint;
    std::string format = "onnx";
    bool half_precision = false; // fp16 weights, input and outputs
    int batch = 0;               // 0: dynamic
    int image_height = 0;        // 0 x 0: auto, the size the checkpoint was trained at
    int image_width = 0;
    int max_detections = 100;
    bool overwrite = false;
};
ExportConfig resolve_export_config(const nlohmann::json& input);
nlohmann::json to_json(const ExportConfig& config);
nlohmann::json to_json(const PredictConfig& config);

} // namespace kiln
