#include "config/config_schema.h"

#include "config/precision.h"
#include "core/text.h"
#include "methods/method_names.h"
#include "models/backbone_names.h"

#include <algorithm>
#include <limits>
#include <sstream>

namespace kiln::config {
namespace {

constexpr const char* kTorchScriptHelp =
    "torchscript:FILE, a TorchScript module (loading one runs its code: only files you trust)";

using nlohmann::json;

constexpr long long kMaxInteger = std::numeric_limits<int>::max();

const std::vector<std::string> kAccelerators = {"cpu", "cuda", "gpu"};
// Every precision but "auto", which the keys that allow it accept anyway.
std::vector<std::string> precision_choices() {
    std::vector<std::string> choices;
    for (const auto& [precision, name] : precision_names()) {
        if (precision != Precision::Auto) {
            choices.push_back(name);
        }
    }
    return choices;
}

// Keys that `train` and `embed` share, with the same meaning and defaults.
KeySpec data_key() {
    return {.name = "data",
            .kind = ValueKind::PathList,
            .required = true,
            .help = "image folder, or a list of folders and image files"};
}
KeySpec batch_size_key(const std::string& help) {
    return {.name = "batch_size",
            .kind = ValueKind::Integer,
            .default_value = 128,
            .minimum = 1,
            .help = help};
}
KeySpec num_workers_key() {
    return {.name = "num_workers",
            .kind = ValueKind::Integer,
            .default_value = "auto",
            .allows_auto = true,
            .help = "loader threads per device; auto: min(cores per device - 1, 8)"};
}
KeySpec accelerator_key() {
    return {.name = "accelerator",
            .kind = ValueKind::Choice,
            .default_value = "auto",
            .allows_auto = true,
            .choices = kAccelerators,
            .help = "auto picks cuda when LibTorch sees a GPU, else cpu"};
}
// The precision of commands that only run the model forward (embed, predict).
KeySpec forward_precision_key() {
    return {.name = "precision",
            .kind = ValueKind::Choice,
            .default_value = "32-true",
            .allows_auto = true,
            .choices = precision_choices(),
            .help = "numeric precision of the forward pass"};
}
KeySpec overwrite_key(const std::string& help) {
    return {.name = "overwrite", .kind = ValueKind::Boolean, .default_value = false, .help = help};
}
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
    return "data.train and data.val: folders of class folders or CSVs of image,label; "
           "data.classes (optional)";
}

std::string model_args_help(TaskKind task) {
    switch (task) {
    case TaskKind::SemanticSegmentation:
        return "model_args.backbone_weights=RUN_OR_FILE, model_args.decoder_width=128";
    case TaskKind::ObjectDetection:
        return "model_args.backbone_weights=RUN_OR_FILE, model_args.decoder_width=128";
    case TaskKind::InstanceSegmentation:
        return "model_args.backbone_weights=RUN_OR_FILE, model_args.decoder_width=128, "
               "model_args.prototypes=16";
    case TaskKind::ImageClassification:
    case TaskKind::Pretraining:
        break;
    }
    return "model_args.backbone_weights=RUN_OR_FILE, model_args.head=linear|mlp, "
           "model_args.freeze_backbone=true (linear probing)";
}

// The keys every training task shares, in the order help lists them, around the task's own:
// `data`, `model` and the task's settings come after `out`.
CommandSchema make_train_schema(TaskKind task) {
    const bool pretraining = task == TaskKind::Pretraining;
    std::vector<KeySpec> keys = {
        {.name = "out",
         .kind = ValueKind::Path,
         .required = true,
         .help = "run directory: config, logs, metrics, checkpoints, exported model"},
    };
    if (pretraining) {
        keys.push_back(data_key());
        keys.push_back({.name = "model",
                        .kind = ValueKind::Choice,
                        .required = true,
                        .choices = models::backbone_names(),
                        .help = "backbone to pretrain (kiln list-models)",
                        .also_accepts = models::is_torchscript_model,
                        .also_accepts_help = kTorchScriptHelp});
        keys.push_back({.name = "method",
                        .kind = ValueKind::Choice,
                        .default_value = "simclr",
                        .choices = methods::method_names(),
                        .help = "self-supervised method (distillation needs method_args.teacher)"});
        keys.push_back(
            object_key("method_args", "method settings, e.g. method_args.temperature=0.2"));
    } else {
        const bool classification = task == TaskKind::ImageClassification;
        const bool detection =
            task == TaskKind::ObjectDetection || task == TaskKind::InstanceSegmentation;
        keys.push_back({.name = "data",
                        .kind = detection ? ValueKind::ObjectOrPath : ValueKind::Object,
                        .required = true,
                        .help = labelled_data_help(task)});
        keys.push_back({.name = "model",
                        .kind = ValueKind::Choice,
                        .required = true,
                        .choices = models::backbone_names(),
                        .help = "backbone (kiln list-models); its weights from "
                                "model_args.backbone_weights",
                        .also_accepts = classification ? models::is_torchscript_model
                                                       : std::function<bool(const std::string&)>(),
                        .also_accepts_help = classification ? kTorchScriptHelp : ""});
        keys.push_back(object_key("model_args", model_args_help(task)));
        if (detection) {
            keys.push_back(object_key(
                "metric_args",
                "metric_args.map.mode=async|sync, metric_args.map.classwise=true (per-class AP)",
                {"map"}));
        }
    }
    keys.push_back({.name = "epochs",
                    .kind = ValueKind::Integer,
                    .default_value = pretraining ? 100 : 10,
                    .minimum = 1,
                    .help = pretraining ? "passes over the dataset"
                                        : "passes over the training split (unless steps is set)"});
    if (!pretraining) {
        keys.push_back({.name = "steps",
                        .kind = ValueKind::Integer,
                        .allows_null = true,
                        .minimum = 1,
                        .help = "optimizer steps to train for, instead of epochs"});
        keys.push_back({.name = "val_every_n_steps",
                        .kind = ValueKind::Integer,
                        .allows_null = true,
                        .minimum = 1,
                        .help = "validate every N optimizer steps; null: after each epoch"});
        keys.push_back({.name = "watch_metric",
                        .kind = ValueKind::Text,
                        .default_value = task_name(task).watch_metric,
                        .help = "the validation metric whose best value picks best.ckpt"});
    }
    keys.push_back(batch_size_key("global batch size, split over nodes x devices"));
    if (!pretraining) {
        keys.back().default_value = 64;
    }
    const std::vector<KeySpec> shared = {
        num_workers_key(),
        {.name = "devices",
         .kind = ValueKind::Devices,
         .default_value = "auto",
         .allows_auto = true,
         .minimum = 1,
         .help = "devices per node, or the GPUs to use as a list ([0, 2]); auto: every GPU, or 1 "
                 "on cpu"},
        {.name = "num_nodes",
         .kind = ValueKind::Integer,
         .default_value = 1,
         .minimum = 1,
         .help = "machines taking part in the run"},
        accelerator_key(),
        {.name = "strategy",
         .kind = ValueKind::Choice,
         .default_value = "auto",
         .allows_auto = true,
         .choices = {"ddp", "single_device"},
         .help = "auto: ddp when more than one process"},
        {.name = "sync_batchnorm",
         .kind = ValueKind::Boolean,
         .default_value = false,
         .help = "ddp: batch-norm statistics over the global batch (SyncBatchNorm)"},
        {.name = "precision",
         .kind = ValueKind::Choice,
         .default_value = "auto",
         .allows_auto = true,
         .choices = precision_choices(),
         .help = "auto: bf16-mixed on GPUs that support it, else 32-true"},
        {.name = "seed",
         .kind = ValueKind::Integer,
         .default_value = 0,
         .help = "seed for weights, shuffling and augmentations"},
        {.name = "optim",
         .kind = ValueKind::Choice,
         .default_value = "auto",
         .allows_auto = true,
         .choices = {"sgd", "adamw", "lars"},
         .help =
             pretraining ? "optimizer; auto picks the method's default" : "optimizer; auto: adamw"},
        object_key("optim_args", "optimizer settings, e.g. optim_args.lr=0.1"),
        object_key("transform_args", "augmentation settings, e.g. transform_args.image_size=96"),
        object_key("loader_args", "data loader settings"),
        object_key("loggers",
                   "loggers.tensorboard, loggers.mlflow, loggers.wandb, loggers.jsonl (null "
                   "disables)",
                   {"jsonl", "tensorboard", "mlflow", "wandb"}),
        object_key("callbacks",
                   "callbacks.model_checkpoint.every_n_steps=N also checkpoints every N steps",
                   {"model_checkpoint"}),
        {.name = "resume_interrupted",
         .kind = ValueKind::Boolean,
         .default_value = false,
         .help = "continue an interrupted run in `out` from its last checkpoint"},
        {.name = "checkpoint",
         .kind = ValueKind::Path,
         .allows_null = true,
         .help = "start from these weights (weights only)"},
        overwrite_key("replace what an earlier run left in `out`"),
        {.name = "gradient_accumulation_steps",
         .kind = ValueKind::Integer,
         .default_value = 1,
         .minimum = 1,
         .help = "batches whose gradients are summed before each optimizer step"},
    };
    keys.insert(keys.end(), shared.begin(), shared.end());
    return {task_name(task).command, std::move(keys)};
}

CommandSchema make_embed_schema() {
    return {"embed",
            {
                {.name = "out",
                 .kind = ValueKind::Path,
                 .required = true,
                 .help = "embeddings file to write, e.g. embeddings.csv"},
                data_key(),
                {.name = "checkpoint",
                 .kind = ValueKind::Path,
                 .required = true,
                 .help = "a Kiln checkpoint (last.ckpt) or exported model"},
                {.name = "format",
                 .kind = ValueKind::Choice,
                 .default_value = "torch",
                 .choices = {"csv", "lightly_csv", "torch", "npy"},
                 .help = "file format of the embeddings"},
                {.name = "image_size",
                 .kind = ValueKind::ImageSize,
                 .default_value = "auto",
                 .allows_auto = true,
                 .minimum = 1,
                 .help = "side length, or [height, width], images are resized to; auto: the "
                         "size the checkpoint was trained at (224 when it does not say)"},
                batch_size_key("images per batch"),
                num_workers_key(),
                accelerator_key(),
                {.name = "devices",
                 .kind = ValueKind::Devices,
                 .default_value = 1,
                 .allows_auto = true,
                 .minimum = 1,
                 .help = "devices that each embed a share of the images, or the GPUs as a list "
                         "([0, 2]); auto: every GPU, or 1 on cpu"},
                forward_precision_key(),
                overwrite_key("replace `out` when it exists"),
            }};
}

CommandSchema make_predict_schema() {
    return {"predict",
            {
                {.name = "out",
                 .kind = ValueKind::Path,
                 .required = true,
                 .help = "classification: a CSV file (filename,class,score); semantic "
                         "segmentation: a folder of PNG masks; detection and instance "
                         "segmentation: a COCO results JSON"},
                data_key(),
                {.name = "checkpoint",
                 .kind = ValueKind::Path,
                 .required = true,
                 .help = "a fine-tuning run's checkpoints/best.ckpt or last.ckpt"},
                {.name = "annotations",
                 .kind = ValueKind::Path,
                 .allows_null = true,
                 .help = "detection: a COCO annotation file; the results use its image ids and "
                         "its images (file_names relative to data)"},
                {.name = "draw",
                 .kind = ValueKind::Path,
                 .allows_null = true,
                 .help = "detection: also write each image with its boxes, classes and masks "
                         "(scores of 0.3 or more) drawn, as PNGs into this folder"},
                batch_size_key("images per batch"),
                num_workers_key(),
                accelerator_key(),
                forward_precision_key(),
                overwrite_key("replace `out` when it exists"),
            }};
}

CommandSchema make_export_schema() {
    return {"export",
            {
                {.name = "out",
                 .kind = ValueKind::Path,
                 .required = true,
                 .help = "the file to write, e.g. model.onnx"},
                {.name = "checkpoint",
                 .kind = ValueKind::Path,
                 .required = true,
                 .help = "a pretraining checkpoint or exported backbone (the backbone's "
                         "features), or a fine-tuning run's best.ckpt or last.ckpt (the whole "
                         "task model)"},
                {.name = "format",
                 .kind = ValueKind::Choice,
                 .default_value = "onnx",
                 .choices = {"onnx"},
                 .help = "file format: ONNX (opset 17), for ONNX Runtime and TensorRT"},
                {.name = "precision",
                 .kind = ValueKind::Choice,
                 .default_value = "fp32",
                 .choices = {"fp32", "fp16"},
                 .help = "the weights', input's and outputs' floating-point type"},
                {.name = "batch",
                 .kind = ValueKind::IntegerOrChoice,
                 .default_value = "dynamic",
                 .minimum = 1,
                 .choices = {"dynamic"},
                 .help = "images per call: fixed, or dynamic (any number)"},
                {.name = "image_size",
                 .kind = ValueKind::ImageSize,
                 .default_value = "auto",
                 .allows_auto = true,
                 .minimum = 1,
                 .help = "side length, or [height, width], of the input; auto: the size the "
                         "checkpoint was trained at"},
                {.name = "max_detections",
                 .kind = ValueKind::Integer,
                 .default_value = 100,
                 .minimum = 1,
                 .help = "detection: objects per image in the outputs, best first"},
                overwrite_key("replace `out` when it exists"),
            }};
}

std::string type_name(const json& value) {
    switch (value.type()) {
    case json::value_t::null:
        return "null";
    case json::value_t::boolean:
        return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
        return "an integer";
    case json::value_t::number_float:
        return "a number with a fraction";
    case json::value_t::string:
        return "a string";
    case json::value_t::array:
        return "a list";
    case json::value_t::object:
        return "a dictionary";
    default:
        return "an unsupported value";
    }
}

std::string expected_type(const KeySpec& spec) {
    std::string text;
    switch (spec.kind) {
    case ValueKind::Text:
        text = "text";
        break;
    case ValueKind::Path:
        text = "path";
        break;
    case ValueKind::PathList:
        text = "path or list of paths";
        break;
    case ValueKind::Integer:
        text = "integer >= " + std::to_string(spec.minimum);
        break;
    case ValueKind::IntegerOrChoice:
        text =
            "integer >= " + std::to_string(spec.minimum) + " or " + join_alternatives(spec.choices);
        break;
    case ValueKind::Devices:
        text = "integer >= " + std::to_string(spec.minimum) + " or a list of GPU indices";
        break;
    case ValueKind::Boolean:
        text = "true or false";
        break;
    case ValueKind::Choice:
        text = join_alternatives(spec.choices) +
               (spec.also_accepts_help.empty() ? "" : ", or " + spec.also_accepts_help);
        break;
    case ValueKind::ImageSize:
        text = "integer or [height, width]";
        break;
    case ValueKind::Object:
        text = "dictionary";
        break;
    case ValueKind::ObjectOrPath:
        text = "dictionary or a path";
        break;
    }
    if (spec.allows_auto) {
        text += ", or auto";
    }
    if (spec.allows_null) {
        text += ", or null";
    }
    return text;
}

bool is_integer(const json& value) {
    return value.is_number_integer() || value.is_number_unsigned();
}

void report_unknown_key(const std::string& path, const std::string& key,
                        const std::vector<std::string>& known, std::vector<ConfigIssue>& issues) {
    issues.push_back({path, unknown_key_message(key, known)});
}

class Checker {
public:
    Checker(const KeySpec& spec, std::vector<ConfigIssue>& issues) : spec_(spec), issues_(issues) {}

    // Returns the canonical form of `value`, or null after reporting why it is not valid.
    json check(const json& value) const {
        if (value.is_null() && spec_.allows_null) {
            return value;
        }
        if (spec_.allows_auto && value == "auto") {
            return value;
        }
        switch (spec_.kind) {
        case ValueKind::Text:
        case ValueKind::Path:
            return check_text(spec_.name, value);
        case ValueKind::PathList:
            return check_path_list(value);
        case ValueKind::Integer:
            return check_integer(spec_.name, value);
        case ValueKind::IntegerOrChoice:
            return is_integer(value) ? check_integer(spec_.name, value) : check_choice(value);
        case ValueKind::Devices:
            return value.is_array() ? check_device_list(value) : check_integer(spec_.name, value);
        case ValueKind::Boolean:
            return value.is_boolean() ? value : reject(spec_.name, value, "true or false");
        case ValueKind::Choice:
            return check_choice(value);
        case ValueKind::ImageSize:
            return check_image_size(value);
        case ValueKind::Object:
            return check_object(value);
        case ValueKind::ObjectOrPath:
            return value.is_string() ? check_text(spec_.name, value) : check_object(value);
        }
        return nullptr;
    }

private:
    json reject(const std::string& path, const json& value, const std::string& expected) const {
        issues_.push_back({path, "expected " + expected + ", got " + type_name(value) +
                                     (value.is_primitive() ? " (" + value.dump() + ")" : "")});
        return nullptr;
    }

    json check_text(const std::string& path, const json& value) const {
        if (!value.is_string()) {
            return reject(path, value, spec_.kind == ValueKind::Path ? "a path" : "a string");
        }
        if (value.get_ref<const std::string&>().empty()) {
            issues_.push_back({path, "must not be empty"});
            return nullptr;
        }
        return value;
    }

    json check_path_list(const json& value) const {
        if (value.is_string()) {
            return check_text(spec_.name, value).is_null() ? json() : json::array({value});
        }
        if (!value.is_array()) {
            return reject(spec_.name, value, "a path or a list of paths");
        }
        if (value.empty()) {
            issues_.push_back({spec_.name, "the list is empty; give at least one folder or image"});
            return nullptr;
        }
        bool valid = true;
        for (std::size_t i = 0; i < value.size(); ++i) {
            valid = !check_text(spec_.name + "[" + std::to_string(i) + "]", value[i]).is_null() &&
                    valid;
        }
        return valid ? value : json();
    }

    json check_integer(const std::string& path, const json& value) const {
        if (!is_integer(value)) {
            return reject(path, value, expected_type(spec_));
        }
        const bool too_large = value.is_number_unsigned()
                                   ? value.get<unsigned long long>() > kMaxInteger
                                   : value.get<long long>() > kMaxInteger;
        if (too_large) {
            issues_.push_back(
                {path, "must be at most " + std::to_string(kMaxInteger) + ", got " + value.dump()});
            return nullptr;
        }
        if (value.get<long long>() < spec_.minimum) {
            issues_.push_back({path, "must be at least " + std::to_string(spec_.minimum) +
                                         ", got " + value.dump()});
            return nullptr;
        }
        return value;
    }

    json check_device_list(const json& value) const {
        if (value.empty()) {
            issues_.push_back({spec_.name, "the list of devices is empty; give GPU indices, a "
                                           "count, or auto"});
            return nullptr;
        }
        std::vector<long long> seen;
        for (std::size_t i = 0; i < value.size(); ++i) {
            const std::string path = spec_.name + "[" + std::to_string(i) + "]";
            if (!is_integer(value[i]) || value[i].get<long long>() < 0) {
                issues_.push_back(
                    {path, "must be a GPU index (0, 1, ...), got " + value[i].dump()});
                return nullptr;
            }
            const long long index = value[i].get<long long>();
            if (std::find(seen.begin(), seen.end(), index) != seen.end()) {
                issues_.push_back({path, "GPU " + std::to_string(index) +
                                             " is listed twice; list each GPU once"});
                return nullptr;
            }
            seen.push_back(index);
        }
        return value;
    }

    json check_choice(const json& value) const {
        if (!value.is_string()) {
            return reject(spec_.name, value, expected_type(spec_));
        }
        const std::string& text = value.get_ref<const std::string&>();
        if (spec_.also_accepts && spec_.also_accepts(text)) {
            return value;
        }
        for (const std::string& choice : spec_.choices) {
            if (text == choice) {
                // "gpu" is Lightning's name for the CUDA accelerator.
                return spec_.name == "accelerator" && text == "gpu" ? json("cuda") : value;
            }
        }
        std::string message = "unknown value \"" + text + "\"";
        const std::string suggestion = closest_match(text, spec_.choices);
        if (!suggestion.empty()) {
            message += "; did you mean \"" + suggestion + "\"?";
        }
        issues_.push_back({spec_.name, message + " (expected " + expected_type(spec_) + ")"});
        return nullptr;
    }

    json check_image_size(const json& value) const {
        if (is_integer(value)) {
            json side = check_integer(spec_.name, value);
            return side.is_null() ? side : json::array({side, side});
        }
        if (!value.is_array() || value.size() != 2) {
            return reject(spec_.name, value, expected_type(spec_));
        }
        const bool valid = !check_integer(spec_.name + "[0]", value[0]).is_null() &
                           !check_integer(spec_.name + "[1]", value[1]).is_null();
        return valid ? value : json();
    }

    json check_object(const json& value) const {
        if (!value.is_object()) {
            return reject(spec_.name, value, "a dictionary");
        }
        if (spec_.choices.empty()) {
            return value;
        }
        bool valid = true;
        json canonical = value;
        for (const auto& [key, entry] : value.items()) {
            if (std::find(spec_.choices.begin(), spec_.choices.end(), key) == spec_.choices.end()) {
                report_unknown_key(spec_.name + "." + key, key, spec_.choices, issues_);
                valid = false;
            } else if (entry.is_boolean()) { // true: default settings; false: disabled
                canonical[key] = entry.get<bool>() ? json::object() : json();
            } else if (!entry.is_object() && !entry.is_null()) {
                reject(spec_.name + "." + key, entry,
                       "a dictionary of settings, true for the defaults, or null or false to "
                       "disable");
                valid = false;
            }
        }
        return valid ? canonical : json();
    }

private:
    const KeySpec& spec_;
    std::vector<ConfigIssue>& issues_;
};

} // namespace

const KeySpec* CommandSchema::find(const std::string& name) const {
    for (const KeySpec& key : keys) {
        if (key.name == name) {
            return &key;
        }
    }
    return nullptr;
}

std::vector<std::string> CommandSchema::key_names() const {
    std::vector<std::string> names;
    for (const KeySpec& key : keys) {
        names.push_back(key.name);
    }
    return names;
}

const CommandSchema& train_schema(TaskKind task) {
    static const std::vector<CommandSchema> schemas = [] {
        std::vector<CommandSchema> all;
        for (const TaskName& entry : task_names()) {
            all.push_back(make_train_schema(entry.kind));
        }
        return all;
    }();
    for (std::size_t i = 0; i < task_names().size(); ++i) {
        if (task_names()[i].kind == task) {
            return schemas[i];
        }
    }
    return schemas.front();
}

const CommandSchema& export_schema() {
    static const CommandSchema schema = make_export_schema();
    return schema;
}

const CommandSchema& predict_schema() {
    static const CommandSchema schema = make_predict_schema();
    return schema;
}

const CommandSchema& embed_schema() {
    static const CommandSchema schema = make_embed_schema();
    return schema;
}

json normalize(const CommandSchema& schema, const json& input, std::vector<ConfigIssue>& issues) {
    if (!input.is_object()) {
        issues.push_back(
            {"(top level)", "expected a dictionary of settings, got " + type_name(input)});
        return json::object();
    }
    for (const auto& [key, value] : input.items()) {
        if (schema.find(key) == nullptr) {
            report_unknown_key(key, key, schema.key_names(), issues);
        }
    }
    json normalized = json::object();
    for (const KeySpec& spec : schema.keys) {
        const auto given = input.find(spec.name);
        if (given == input.end()) {
            if (spec.required) {
                issues.push_back({spec.name, "missing; set it, e.g. " + spec.name + "=..."});
            }
            normalized[spec.name] = spec.default_value;
            continue;
        }
        // An invalid value is reported and replaced by the default, so that later checks
        // still see a complete configuration and can report their own problems too.
        const std::size_t issues_before = issues.size();
        json value = Checker(spec, issues).check(*given);
        normalized[spec.name] =
            issues.size() == issues_before ? std::move(value) : spec.default_value;
    }
    return normalized;
}

std::string describe_keys(const CommandSchema& schema) {
    std::ostringstream text;
    text << "Settings (key=value; dots reach nested keys, e.g. method_args.temperature=0.2):\n";
    for (const KeySpec& spec : schema.keys) {
        text << "  " << spec.name << " (" << expected_type(spec) << ")";
        if (spec.required) {
            text << ", required";
        } else {
            text << ", default " << spec.default_value.dump();
        }
        text << "\n      " << spec.help << "\n";
    }
    return text.str();
}

} // namespace kiln::config
