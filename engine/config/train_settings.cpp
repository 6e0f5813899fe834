// The settings of the training commands: `kiln train` and the fine-tuning tasks'.

#include "config/command_settings.h"
#include "config/run_config.h"
#include "config/task_names.h"
#include "core/text.h"
#include "data/detection_augment.h"
#include "data/image_decode.h"
#include "data/image_sizes.h"
#include "data/view_transform.h"
#include "methods/method_names.h"
#include "models/backbone_names.h"

#include <algorithm>

namespace kiln::config {
namespace {

using nlohmann::json;
using Train = Setting<TrainConfig>;

constexpr const char* kTorchScriptHelp =
    "torchscript:FILE, a TorchScript module (loading one runs its code: only files you trust)";

KeySpec object_key(const std::string& name, const std::string& help,
                   std::vector<std::string> allowed_keys = {}) {
    return {.name = name,
            .kind = ValueKind::Object,
            .default_value = json::object(),
            .allows_null = true,
            .choices = std::move(allowed_keys),
            .help = help};
}

std::string labelled_data_help(TaskKind task) {
    switch (task) {
    case TaskKind::SemanticSegmentation:
        return "data.train.images, data.train.masks, data.val.images, data.val.masks (PNG masks "
               "of class ids), data.classes, data.ignore_index";
    case TaskKind::ObjectDetection:
    case TaskKind::InstanceSegmentation:
        return "COCO: data.train.annotations, data.train.images, data.val.annotations, "
               "data.val.images; YOLO: data=PATH/data.yaml, or data.path, data.train, data.val, "
               "data.names";
    case TaskKind::ImageClassification:
    case TaskKind::Pretraining:
        break;
    }
    return "data.train and data.val: folders of class folders or CSVs of image,label (or "
           "data.val_split=0.1 instead of data.val: a tenth of each class held out, by seed); "
           "data.classes (optional)";
}

std::string model_args_help(TaskKind task) {
    switch (task) {
    case TaskKind::SemanticSegmentation:
        return "the model's settings: decoder_width=128 (the decoder's channels)";
    case TaskKind::ObjectDetection:
        return "the model's settings: width=64 (the detector's neck and heads' channels)";
    case TaskKind::InstanceSegmentation:
        return "the model's settings: width=64 (the neck and heads' channels), prototypes=32 "
               "(mask prototypes)";
    case TaskKind::ImageClassification:
    case TaskKind::Pretraining:
        break;
    }
    return "the model's settings: head=linear|mlp, freeze_backbone=true (linear probing), "
           "label_smoothing=0.1 (of the training loss)";
}

// The model: a backbone by name (TorchScript too where the task needs no feature maps).
Train model_setting(TaskKind task) {
    const bool pretraining = task == TaskKind::Pretraining;
    const bool torchscript = pretraining || task == TaskKind::ImageClassification;
    return bind(KeySpec{.name = "model",
                        .kind = ValueKind::Choice,
                        .required = true,
                        .choices = models::backbone_names(),
                        .help = pretraining ? "backbone to pretrain (kiln list-models)"
                                            : "backbone (kiln list-models); its weights from "
                                              "model_args.backbone_weights",
                        .also_accepts = torchscript ? models::is_torchscript_model
                                                    : std::function<bool(const std::string&)>(),
                        .also_accepts_help = torchscript ? kTorchScriptHelp : "",
                        .form = {FormSection::Main, KILN_FORM_LABEL("Model")}},
                &TrainConfig::model);
}

// `data`: image folders for pretraining; the labelled splits (or a YOLO data.yaml) for the
// fine-tuning tasks.
Train data_setting(TaskKind task) {
    if (task == TaskKind::Pretraining) {
        KeySpec key = data_key();
        key.form = {FormSection::Main, KILN_FORM_LABEL("Dataset")};
        return bind(std::move(key), &TrainConfig::data);
    }
    return bind(KeySpec{.name = "data",
                        .kind = has_boxes(task) ? ValueKind::ObjectOrPath : ValueKind::Object,
                        .required = true,
                        .help = labelled_data_help(task),
                        .form = {FormSection::Main, KILN_FORM_LABEL("Dataset")}},
                &TrainConfig::labelled_data);
}

// Pretraining's validation: kNN accuracy on labelled folders while it trains.
KeySpec knn_monitor_key() {
    const KnnMonitorSettings defaults;
    return {.name = "knn_monitor",
            .kind = ValueKind::Object,
            .default_value = json::object(),
            .allows_null = true,
            .help = "report val_metric/knn_top1 while pretraining: the exported backbone's "
                    "embeddings of knn_monitor.val classified by their k nearest in "
                    "knn_monitor.train (cosine, weighted votes); best.ckpt keeps its best",
            .children = {
                {.name = "train",
                 .kind = ValueKind::Path,
                 .help = "class folders (<folder>/<class>/<image>) the neighbours come from",
                 .form = {FormSection::Main, KILN_FORM_LABEL("kNN monitor: labelled")}},
                {.name = "val",
                 .kind = ValueKind::Path,
                 .help = "class folders classified against knn_monitor.train",
                 .form = {FormSection::Main, KILN_FORM_LABEL("kNN monitor: classified")}},
                {.name = "every_n_steps",
                 .kind = ValueKind::Integer,
                 .allows_null = true,
                 .minimum = 1,
                 .help = "monitor every N optimizer steps; null: after each epoch (with "
                         "max_time: a few times over the budget)"},
                {.name = "k",
                 .kind = ValueKind::Integer,
                 .default_value = defaults.k,
                 .minimum = 1,
                 .maximum = 10000,
                 .help = "neighbours that vote"},
                {.name = "temperature",
                 .kind = ValueKind::Number,
                 .default_value = defaults.temperature,
                 .minimum = 1e-4,
                 .maximum = 100.0,
                 .help = "a neighbour's vote is exp(similarity / temperature)"},
                {.name = "whiten",
                 .kind = ValueKind::Boolean,
                 .default_value = defaults.whiten,
                 .help = "PCA-whiten the embeddings first, fitted on knn_monitor.train "
                         "without its labels (as kiln eval knn --whiten)"},
            }};
}

// The teacher of the methods that need one, declared by the first of them; Studio's form has a
// field for it.
KeySpec teacher_key() {
    for (const methods::MethodEntry& method : methods::method_table()) {
        const auto teacher =
            std::find_if(method.args.begin(), method.args.end(),
                         [](const methods::MethodArg& arg) { return arg.name == "teacher"; });
        if (method.needs_teacher && teacher != method.args.end()) {
            KeySpec key = method_arg_key(*teacher);
            key.help = method.name + ": " + key.help;
            key.form = {FormSection::Main, KILN_FORM_LABEL("Teacher")};
            return key;
        }
    }
    throw Error("no method declares method_args.teacher");
}

std::vector<Train> pretraining_settings() {
    return {
        bind(KeySpec{.name = "method",
                     .kind = ValueKind::Choice,
                     .default_value = methods::default_method(),
                     .choices = methods::method_names(),
                     .help = "self-supervised method (distillation needs method_args.teacher)",
                     .form = {FormSection::Main, KILN_FORM_LABEL("Method")}},
             &TrainConfig::method),
        bind(KeySpec{.name = "method_args",
                     .kind = ValueKind::Object,
                     .default_value = json::object(),
                     .allows_null = true,
                     .help = "the method's settings (listed after these), e.g. "
                             "method_args.temperature=0.2",
                     .children = {teacher_key()},
                     .open = true},
             &TrainConfig::method_args),
        bind(knn_monitor_key(), &TrainConfig::knn_monitor_args),
    };
}

std::vector<Train> finetuning_settings(TaskKind task) {
    KeySpec backbone_weights{.name = "backbone_weights",
                             .kind = ValueKind::Path,
                             .help = "start from a pretraining run's backbone: its folder, a "
                                     "checkpoint or an exported model",
                             .form = {FormSection::Main, KILN_FORM_LABEL("Start from")}};
    std::vector<KeySpec> model_children = {backbone_weights};
    if (task == TaskKind::SemanticSegmentation) {
        model_children.push_back({.name = "decoder_width",
                                  .kind = ValueKind::Integer,
                                  .default_value = 128,
                                  .minimum = 8,
                                  .maximum = 1024,
                                  .help = "the decoder's channels"});
    }
    if (has_boxes(task)) {
        model_children.push_back({.name = "width",
                                  .kind = ValueKind::Integer,
                                  .default_value = 64,
                                  .minimum = 8,
                                  .maximum = 1024,
                                  .help = "the detector's neck and heads' channels"});
    }
    if (task == TaskKind::InstanceSegmentation) {
        model_children.push_back({.name = "prototypes",
                                  .kind = ValueKind::Integer,
                                  .default_value = 32,
                                  .minimum = 1,
                                  .maximum = 256,
                                  .help = "mask prototypes the instances' masks mix"});
    }
    if (task == TaskKind::ImageClassification) {
        model_children.push_back({.name = "head",
                                  .kind = ValueKind::Choice,
                                  .default_value = "mlp",
                                  .choices = {"linear", "mlp"},
                                  .help = "the classifier on the backbone's features: mlp (a "
                                          "hidden layer, batch norm, ReLU, then linear) or "
                                          "linear"});
        model_children.push_back(
            {.name = "freeze_backbone",
             .kind = ValueKind::Boolean,
             .default_value = false,
             .help = "train the head alone (with head=linear: linear probing)"});
        model_children.push_back(
            {.name = "label_smoothing",
             .kind = ValueKind::Number,
             .default_value = 0.0,
             .minimum = 0.0,
             .maximum = 0.99,
             .help = "the training loss's targets keep 1 - this, the rest spread over the "
                     "classes"});
    }
    std::vector<Train> settings = {
        bind(KeySpec{.name = "model_args",
                     .kind = ValueKind::Object,
                     .default_value = json::object(),
                     .allows_null = true,
                     .help = model_args_help(task),
                     .children = std::move(model_children)},
             &TrainConfig::model_args),
    };
    if (has_boxes(task)) {
        KeySpec map{.name = "map",
                    .kind = ValueKind::Object,
                    .default_value = json::object(),
                    .help = "COCO mAP of the validation split",
                    .children = {
                        {.name = "mode",
                         .kind = ValueKind::Choice,
                         .default_value = "async",
                         .choices = {"async", "sync"},
                         .help = "async: computed beside training; sync: in the loop"},
                        {.name = "classwise",
                         .kind = ValueKind::Boolean,
                         .default_value = json(),
                         .allows_null = true,
                         .help = "also log each class's AP (val_metric_per_class/map/NAME); "
                                 "unset: on for at most 100 classes"},
                        {.name = "backend",
                         .kind = ValueKind::Choice,
                         .default_value = "auto",
                         .choices = {"auto", "pycocotools", "faster_coco_eval"},
                         .help = "accepted for LightlyTrain's configs: Kiln's own evaluator gives "
                                 "pycocotools' numbers whichever is named"},
                    }};
        settings.push_back(bind(KeySpec{.name = "metric_args",
                                        .kind = ValueKind::Object,
                                        .default_value = json::object(),
                                        .allows_null = true,
                                        .help = "validation metrics' settings",
                                        .children = {map}},
                                &TrainConfig::metric_args));
    }
    return settings;
}

// How long the run trains, and how fine-tuning validates.
std::vector<Train> schedule_settings(TaskKind task) {
    const bool pretraining = task == TaskKind::Pretraining;
    std::vector<Train> settings = {
        bind(KeySpec{.name = "epochs",
                     .kind = ValueKind::Integer,
                     .default_value = task_traits(task).default_epochs,
                     .minimum = 1,
                     .help = pretraining ? "passes over the dataset"
                                         : "passes over the training split (unless steps is set)",
                     .form = {FormSection::Main, KILN_FORM_LABEL("Train for")}},
             &TrainConfig::epochs),
    };
    if (!pretraining) {
        settings.push_back(bind(KeySpec{.name = "steps",
                                        .kind = ValueKind::Integer,
                                        .allows_null = true,
                                        .minimum = 1,
                                        .help = "optimizer steps to train for, instead of epochs"},
                                &TrainConfig::steps));
        settings.push_back(
            bind(KeySpec{.name = "val_every_n_steps",
                         .kind = ValueKind::Integer,
                         .allows_null = true,
                         .minimum = 1,
                         .help = "validate every N optimizer steps; null: after each epoch"},
                 &TrainConfig::val_every_n_steps));
        settings.push_back(
            bind(KeySpec{.name = "watch_metric",
                         .kind = ValueKind::Text,
                         .default_value = task_traits(task).watch_metric,
                         .help = "the validation metric whose best value picks best.ckpt"},
                 &TrainConfig::watch_metric));
    }
    settings.push_back(bind(
        KeySpec{.name = "max_time",
                .kind = ValueKind::Duration,
                .allows_null = true,
                .minimum = 1,
                .maximum = 1e9,
                .help = "train for this long instead (seconds, or \"DD:HH:MM:SS\"): the "
                        "schedule is fitted from the measured speed so that it ends, validated "
                        "and saved, when the time is up"},
        &TrainConfig::max_time));
    settings.push_back(bind(batch_size_key(task_traits(task).default_batch_size,
                                           "global batch size, split over nodes x devices"),
                            &TrainConfig::batch_size));
    return settings;
}

// Where the run computes: devices, nodes, precision, loader threads.
std::vector<Train> placement_settings() {
    KeySpec workers = num_workers_key();
    workers.form = {FormSection::Main, KILN_FORM_LABEL("Loader workers")};
    KeySpec accelerator = accelerator_key();
    accelerator.form = {FormSection::Main, KILN_FORM_LABEL("Accelerator")};
    return {
        bind(std::move(workers), &TrainConfig::num_workers),
        devices_setting<TrainConfig>(
            {.name = "devices",
             .kind = ValueKind::Devices,
             .default_value = "auto",
             .allows_auto = true,
             .minimum = 1,
             .help = "devices per node, or the GPUs to use as a list ([0, 2]); auto: every GPU, "
                     "or 1 on cpu",
             .form = {FormSection::Main, KILN_FORM_LABEL("Devices")}}),
        bind(KeySpec{.name = "num_nodes",
                     .kind = ValueKind::Integer,
                     .default_value = 1,
                     .minimum = 1,
                     .help = "machines taking part in the run",
                     .form = {FormSection::Main, KILN_FORM_LABEL("Nodes")}},
             &TrainConfig::num_nodes),
        bind_enum(std::move(accelerator), &TrainConfig::accelerator, accelerator_names()),
        bind(KeySpec{.name = "strategy",
                     .kind = ValueKind::Choice,
                     .default_value = "auto",
                     .allows_auto = true,
                     .choices = {"ddp", "single_device"},
                     .help = "auto: ddp when more than one process"},
             &TrainConfig::strategy),
        bind(KeySpec{.name = "sync_batchnorm",
                     .kind = ValueKind::Boolean,
                     .default_value = false,
                     .help = "ddp: batch-norm statistics over the global batch (SyncBatchNorm)",
                     .form = {FormSection::Main, KILN_FORM_LABEL("Sync batch norm")}},
             &TrainConfig::sync_batchnorm),
        bind_enum(KeySpec{.name = "precision",
                          .kind = ValueKind::Choice,
                          .default_value = "auto",
                          .allows_auto = true,
                          .choices = precision_choices(),
                          .help = "auto: bf16-mixed on GPUs that support it, else 32-true",
                          .form = {FormSection::Main, KILN_FORM_LABEL("Precision")}},
                  &TrainConfig::precision, precision_names()),
        bind(KeySpec{.name = "seed",
                     .kind = ValueKind::Integer,
                     .default_value = 0,
                     .help = "seed for weights, shuffling and augmentations",
                     .form = {FormSection::Main, KILN_FORM_LABEL("Seed")}},
             &TrainConfig::seed),
    };
}

// The pretrained classifier's recipe as its help states it, from the recipe itself.
std::string pretrained_backbone_rate() {
    const methods::OptimizerDefaults recipe = pretrained_classification_optimizer();
    const methods::OptimizerDefaults vit =
        optimizer_defaults(TaskKind::ImageClassification, "", "auto", "vit_tiny", true);
    return number_text(recipe.backbone_lr_factor) + " (its lr then " + number_text(recipe.base_lr) +
           ", a ViT's " + number_text(vit.base_lr) + ")";
}

KeySpec optim_args_key(TaskKind task) {
    // Unset, not defaulted: a resumed run takes what the interrupted run recorded for them.
    const OptimizerArgs defaults;
    const auto number = [](const char* name, double minimum, double maximum, json fallback,
                           const std::string& help, FormPlace form = {}) {
        return KeySpec{.name = name,
                       .kind = ValueKind::Number,
                       .default_value = std::move(fallback),
                       .minimum = minimum,
                       .maximum = maximum,
                       .help = help,
                       .form = form};
    };
    KeySpec key = {
        .name = "optim_args",
        .kind = ValueKind::Object,
        .default_value = json::object(),
        .allows_null = true,
        .help = "optimizer settings; unset ones are the optimizer's defaults for the method "
                "or task (kiln train --help shows them)",
        .children = {
            number("lr", 0.0, 1e9, nullptr,
                   "learning rate for a global batch of 256, scaled linearly with the batch",
                   {FormSection::Advanced, KILN_FORM_LABEL("Learning rate")}),
            number("weight_decay", 0.0, 10.0, nullptr,
                   "not applied to biases and normalisation weights",
                   {FormSection::Advanced, KILN_FORM_LABEL("Weight decay")}),
            number("momentum", 0.0, 1.0, nullptr, "sgd and lars"),
            number("warmup_epochs", 0.0, 1e6, nullptr, "linear warm-up, at most a tenth of the run",
                   {FormSection::Advanced, KILN_FORM_LABEL("Warm-up epochs")}),
            {.name = "betas",
             .kind = ValueKind::Numbers,
             .maximum = 0.999999, // 1 divides by zero in Adam's bias correction
             .count = 2,
             .help = "adamw; unset: " + number_text(defaults.beta1) + ", " +
                     number_text(defaults.beta2)},
            // 0 divides by zero where a gradient's running square is 0 (a frozen layer's).
            number("eps", 1e-12, 1.0, nullptr, "adamw; unset: " + number_text(defaults.eps)),
            number("ema_decay", 0.0, 0.999999, nullptr,
                   "validate, save and export an exponential moving average of the weights with "
                   "this decay (ramped up over the first tenth of the run); 0: the weights as "
                   "trained. The detection tasks' default is 0.9999"),
            number("trust_coefficient", 0.0, 10.0, nullptr,
                   "lars; unset: " + number_text(defaults.trust_coefficient)),
            number("gradient_clip_val", 0.0, 1e9, nullptr,
                   "clip the gradients' total L2 norm to this before each step, as Lightning's "
                   "gradient_clip_val (Ultralytics clips at 10); 0: off; unset: off, except in "
                   "DINO's recipes (3)"),
        }};
    if (task != TaskKind::Pretraining) {
        key.children.push_back(number(
            "backbone_lr_factor", 0.0, 10.0, nullptr,
            "the backbone learns at this share of the learning rate (the head at all of it), "
            "so that a pretrained backbone keeps what it learned; unset: 1, and for a "
            "classifier from backbone_weights " +
                pretrained_backbone_rate(),
            {FormSection::Advanced, KILN_FORM_LABEL("Backbone learning rate factor")}));
        key.children.push_back(number(
            "layer_decay", 0.01, 1.0, OptimizerArgs().layer_decay,
            "layer-wise learning-rate decay: each backbone layer (block) learns at this share "
            "of the rate of the layer above it, the last at backbone_lr_factor's; 1: off. "
            "Pretrained ViTs are commonly fine-tuned at 0.65-0.75. The layers: a ViT's embeddings, "
            "each block and its last norm; a ResNet's stem and each residual block; the small "
            "CNNs' 4 blocks; the CSP backbones' stem and 4 stages; a TorchScript module is one "
            "(no decay)",
            {FormSection::Advanced, KILN_FORM_LABEL("Layer-wise rate decay")}));
        key.children.push_back(
            number("head_warmup_epochs", 0.0, 1e6, OptimizerArgs().head_warmup_epochs,
                   "the first epochs train the head alone, the backbone's weights held as they "
                   "started (its batch-norm statistics follow the new data)",
                   {FormSection::Advanced, KILN_FORM_LABEL("Head-only epochs")}));
    }
    return key;
}

KeySpec share_key(const std::string& name, double default_value, double maximum,
                  const std::string& help) {
    return {.name = name,
            .kind = ValueKind::Number,
            .default_value = default_value,
            .minimum = 0.0,
            .maximum = maximum,
            .help = help};
}

KeySpec alpha_key(double default_value, const std::string& help) {
    KeySpec key = share_key("alpha", default_value, data::BatchMixing::kMaxAlpha, help);
    key.minimum = data::BatchMixing::kMinAlpha;
    return key;
}

KeySpec group_key(const std::string& name, std::vector<KeySpec> children) {
    return {.name = name,
            .kind = ValueKind::Object,
            .default_value = json::object(),
            .help = name + " augmentation",
            .children = std::move(children)};
}

// transform_args' declared keys: the image size, and the detection tasks' recipe (Ultralytics'
// names in brackets in the help).
std::vector<KeySpec> transform_children(TaskKind task, KeySpec image_size) {
    std::vector<KeySpec> children = {std::move(image_size)};
    if (task == TaskKind::ImageClassification) {
        constexpr data::BatchMixing kMixing;
        children.push_back(group_key(
            "mixup", {share_key("prob", kMixing.mixup_prob, 1.0,
                                "chance of blending each training batch with itself reversed, "
                                "labels in the same shares (mixup)"),
                      alpha_key(kMixing.mixup_alpha, "the blend's share ~ Beta(alpha, alpha)")}));
        children.push_back(group_key(
            "cutmix",
            {share_key("prob", kMixing.cutmix_prob, 1.0,
                       "chance of pasting a box of each image into its partner's, "
                       "labels by area (cutmix; before mixup)"),
             alpha_key(kMixing.cutmix_alpha, "the box's area share ~ Beta(alpha, alpha)")}));
    }
    if (!has_boxes(task)) {
        return children;
    }
    constexpr data::DetectionAugmentation kDefault = data::kTrainingDetectionAugmentation;
    children.push_back(group_key(
        "mosaic",
        {share_key("prob", kDefault.mosaic_prob, 1.0, "chance of a 4-image mosaic (mosaic)"),
         share_key("close_fraction", kDefault.close_mosaic_fraction, 1.0,
                   "the last share of the run trains without mosaic (close_mosaic)")}));
    children.push_back(
        group_key("mixup", {share_key("prob", kDefault.mixup_prob, 1.0,
                                      "chance of blending a second mosaic in (mixup)")}));
    if (task_traits(task).instance_masks) {
        children.push_back(group_key(
            "copy_paste", {share_key("prob", kDefault.copy_paste_prob, 1.0,
                                     "chance of pasting each object's mirror image where it "
                                     "covers no other object (copy_paste)")}));
    }
    children.push_back(group_key(
        "random_affine",
        {share_key("scale", kDefault.scale, 0.99, "mosaic scale jitter, +- this share (scale)"),
         share_key("translate", kDefault.translate, 0.5,
                   "mosaic shift, up to this share of the view (translate)")}));
    return children;
}

std::vector<Train> optimization_settings(TaskKind task) {
    const bool pretraining = task == TaskKind::Pretraining;
    // Every task trains at the data's own size unless told; pretraining at most at the
    // method's 224 px views.
    KeySpec image_size{.name = "image_size",
                       .kind = ValueKind::ImageSize,
                       .default_value = "auto",
                       .allows_auto = true,
                       .minimum = data::kMinImageSide,
                       .maximum = data::kMaxImageSide,
                       .help = pretraining
                                   ? "side length, or [height, width], of the training views; "
                                     "auto: square views of the images' median shorter side in "
                                     "multiples of 32, at most the method's 224"
                                   : "side length, or [height, width], of the training views; "
                                     "auto: the training images' median size in multiples of "
                                     "32, at most 640",
                       .form = {FormSection::Main, KILN_FORM_LABEL("Image size")}};
    return {
        bind(KeySpec{.name = "optim",
                     .kind = ValueKind::Choice,
                     .default_value = "auto",
                     .allows_auto = true,
                     .choices = {"sgd", "adamw", "lars"},
                     .help = pretraining ? "optimizer; auto picks the method's default"
                                         : "optimizer; auto: adamw",
                     .form = {FormSection::Advanced, KILN_FORM_LABEL("Optimizer")}},
             &TrainConfig::optim),
        bind(optim_args_key(task), &TrainConfig::optim_args),
        bind(KeySpec{.name = "transform_args",
                     .kind = ValueKind::Object,
                     .default_value = json::object(),
                     .allows_null = true,
                     .help = "augmentation settings, e.g. transform_args.image_size=96",
                     .children = transform_children(task, std::move(image_size)),
                     .open = true},
             &TrainConfig::transform_args),
        bind(KeySpec{.name = "gradient_accumulation_steps",
                     .kind = ValueKind::Integer,
                     .default_value = 1,
                     .minimum = 1,
                     .help = "batches whose gradients are summed before each optimizer step",
                     .form = {FormSection::Advanced, KILN_FORM_LABEL("Gradient accumulation")}},
             &TrainConfig::gradient_accumulation_steps),
    };
}

// What the run writes, and where it starts from.
std::vector<Train> run_files_settings() {
    KeySpec model_checkpoint{
        .name = "model_checkpoint",
        .kind = ValueKind::Object,
        .default_value = json::object(),
        .help = "checkpoints besides the one after each epoch",
        .children = {{.name = "every_n_steps",
                      .kind = ValueKind::Integer,
                      .default_value = 0,
                      .help = "also write last.ckpt every N optimizer steps (0: only after each "
                              "epoch and on stop)",
                      .form = {FormSection::Advanced, KILN_FORM_LABEL("Checkpoint every")}}}};
    return {
        bind(KeySpec{.name = "loader_args",
                     .kind = ValueKind::Object,
                     .default_value = json::object(),
                     .allows_null = true,
                     .help = "data loader settings",
                     .children = {{.name = "max_image_pixels",
                                   .kind = ValueKind::Integer,
                                   .default_value = data::kDefaultMaxImagePixels,
                                   .minimum = 1,
                                   .help = "images with more pixels (by their header) are "
                                           "skipped and counted like unreadable ones, so one "
                                           "huge file cannot exhaust memory"}}},
             &TrainConfig::loader_args),
        bind(object_key("loggers",
                        "loggers.tensorboard, loggers.mlflow, loggers.wandb, loggers.jsonl (null "
                        "disables)",
                        {"jsonl", "tensorboard", "mlflow", "wandb"}),
             &TrainConfig::loggers),
        bind(KeySpec{.name = "callbacks",
                     .kind = ValueKind::Object,
                     .default_value = json::object(),
                     .allows_null = true,
                     .help = "callbacks.model_checkpoint.every_n_steps=N also checkpoints every N "
                             "steps",
                     .children = {model_checkpoint}},
             &TrainConfig::callbacks),
        bind(KeySpec{.name = "resume_interrupted",
                     .kind = ValueKind::Boolean,
                     .default_value = false,
                     .help = "continue an interrupted run in `out` from its last checkpoint"},
             &TrainConfig::resume_interrupted),
        bind(KeySpec{.name = "checkpoint",
                     .kind = ValueKind::Path,
                     .allows_null = true,
                     .help = "start from these weights (weights only)"},
             &TrainConfig::checkpoint),
        bind(overwrite_key("replace what an earlier run left in `out`"), &TrainConfig::overwrite),
    };
}

CommandSettings<TrainConfig> make_train_settings(TaskKind task) {
    std::vector<Train> settings = {
        bind(KeySpec{.name = "out",
                     .kind = ValueKind::Path,
                     .required = true,
                     .help = "run directory: config, logs, metrics, checkpoints, exported model",
                     .form = {FormSection::Main, KILN_FORM_LABEL("Output folder")}},
             &TrainConfig::out),
        data_setting(task),
        model_setting(task),
    };
    const auto add = [&settings](std::vector<Train> more) {
        settings.insert(settings.end(), more.begin(), more.end());
    };
    add(task == TaskKind::Pretraining ? pretraining_settings() : finetuning_settings(task));
    add(schedule_settings(task));
    add(placement_settings());
    add(optimization_settings(task));
    add(run_files_settings());
    return {task_traits(task).command, std::move(settings)};
}

} // namespace

const CommandSettings<TrainConfig>& train_settings(TaskKind task) {
    static const std::vector<CommandSettings<TrainConfig>> all = [] {
        std::vector<CommandSettings<TrainConfig>> made;
        for (const TaskTraits& entry : task_table()) {
            made.push_back(make_train_settings(entry.kind));
        }
        return made;
    }();
    for (std::size_t i = 0; i < task_table().size(); ++i) {
        if (task_table()[i].kind == task) {
            return all[i];
        }
    }
    return all.front();
}

KeySpec method_arg_key(const methods::MethodArg& arg) {
    using Kind = methods::MethodArg::Kind;
    const bool ranged = arg.kind == Kind::Number || arg.kind == Kind::Integer;
    return {.name = arg.name,
            .kind = arg.kind == Kind::Number    ? ValueKind::Number
                    : arg.kind == Kind::Integer ? ValueKind::Integer
                    : arg.kind == Kind::Boolean ? ValueKind::Boolean
                                                : ValueKind::Text,
            .default_value = arg.fallback == "" ? json() : arg.fallback, // "": none
            .minimum = ranged ? arg.minimum : 0.0,
            .maximum = ranged ? arg.maximum : KeySpec().maximum,
            .help = arg.at_least.empty() ? arg.help
                                         : arg.help + ", at least method_args." + arg.at_least};
}

std::string describe_method_args() {
    std::string text;
    for (const methods::MethodEntry& method : methods::method_table()) {
        std::vector<KeySpec> keys;
        for (const methods::MethodArg& arg : method.args) {
            keys.push_back(method_arg_key(arg));
        }
        text += method.name + "'s settings:\n" + describe_keys(keys, "method_args.");
    }
    return text;
}

} // namespace kiln::config
