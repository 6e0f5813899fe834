#include "deploy/onnx_export.h"

#include "config/task_names.h"
#include "core/error.h"
#include "data/view_transform.h"
#include "embed/embedder.h"
#include "kiln_version.h"
#include "models/backbone.h"
#include "models/checkpoint_file.h"
#include "models/classifier.h"
#include "models/detector.h"
#include "models/segmenter.h"
#include "onnx/graph.h"
#include "train/finetuning_task.h"

#include <ATen/CPUGeneratorImpl.h>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <torch/types.h>
#include <torch/utils.h>
#include <utility>

namespace kiln::deploy {
namespace {

namespace fs = std::filesystem;

// The task a Kiln checkpoint was trained for; pretraining for an exported backbone.
TaskKind checkpoint_task(const models::WeightsFile& checkpoint) {
    const nlohmann::json settings = checkpoint.settings();
    if (!settings.is_object() || !settings.contains("task") || !settings["task"].is_string()) {
        return TaskKind::Pretraining;
    }
    return task_named(settings["task"].get<std::string>()).value_or(TaskKind::Pretraining);
}

std::string shape_text(const onnx::Value& value, std::int64_t batch) {
    std::string text = "[" + (batch == 0 ? std::string("batch") : std::to_string(batch));
    for (std::int64_t d = 1; d < value.example.dim(); ++d) {
        text += ", " + std::to_string(value.example.size(d));
    }
    return text + "]";
}

// How far the graph's mirror is from the model's own output, relative to the output's scale.
double relative_difference(const at::Tensor& mirror, const at::Tensor& reference) {
    const double scale = std::max(1.0, reference.abs().max().item<double>());
    return (mirror.to(torch::kFloat32) - reference.to(torch::kFloat32)).abs().max().item<double>() /
           scale;
}

} // namespace

namespace {

// The checkpoint's model (a backbone, or a fine-tuned task's model), the size it was trained at
// and how its input is prepared.
struct ExportedModel {
    models::Backbone backbone;
    std::unique_ptr<train::FinetuningTask> finetuning;
    data::TransformArgs transform;
    std::pair<int, int> trained_size{224, 224};

    torch::nn::Module& module() const {
        return finetuning ? finetuning->module() : static_cast<torch::nn::Module&>(*backbone);
    }
};

// `size`: the input size given, else the one the model trained at.
ExportedModel load_exported(const models::WeightsFile& checkpoint, TaskKind task,
                            std::optional<std::pair<int, int>> size, ExportSummary& summary) {
    ExportedModel model;
    if (task == TaskKind::Pretraining) {
        model.backbone = models::load_backbone(checkpoint, &summary.model);
        const train::EmbedOptions trained =
            embed::trained_view_options(checkpoint, *model.backbone, size);
        model.trained_size = {trained.height, trained.width};
        model.transform = data::embed_transform(trained.height, trained.width);
        model.transform.num_channels = trained.num_channels;
        model.transform.mean = trained.mean;
        model.transform.std = trained.std;
    } else {
        TrainConfig trained;
        model.finetuning = train::load_finetuning_task(checkpoint, &trained);
        summary.model = trained.model;
        model.transform = data::finetune_transform(trained.transform_args, false, 0.08,
                                                   task_augmentations(trained.task));
        model.trained_size = {model.transform.views.front().height,
                              model.transform.views.front().width};
    }
    return model;
}

// The graph's named outputs, with the model's own outputs for the ones the self-check compares
// (all but detection's classes and masks), in the same order.
struct GraphOutputs {
    std::vector<std::pair<std::string, onnx::Value>> outputs;
    std::vector<at::Tensor> references;
};

GraphOutputs graph_outputs(onnx::Graph& graph, const onnx::Value& input, const at::Tensor& images,
                           TaskKind task, const ExportedModel& model, const ExportConfig& config) {
    const std::int64_t height = images.size(2), width = images.size(3);
    torch::nn::Module& module = model.module();
    const models::Backbone& backbone = model.backbone;
    std::vector<std::pair<std::string, onnx::Value>> outputs;
    std::vector<at::Tensor> references; // the model's own outputs, in the same order
    switch (task) {
    case TaskKind::Pretraining:
        outputs.emplace_back("features", backbone->onnx_features(graph, input, ""));
        references.push_back(backbone->forward(images));
        break;
    case TaskKind::ImageClassification: {
        auto& classifier = *module.as<models::ClassifierImpl>();
        outputs.emplace_back("logits", classifier.to_onnx(graph, input));
        references.push_back(classifier.forward(images));
        break;
    }
    case TaskKind::SemanticSegmentation: {
        auto& segmenter = *module.as<models::SegmenterImpl>();
        outputs.emplace_back("logits", segmenter.to_onnx(graph, input));
        references.push_back(segmenter.forward(images));
        break;
    }
    case TaskKind::ObjectDetection:
    case TaskKind::InstanceSegmentation: {
        auto& detector = *module.as<models::DetectorImpl>();
        models::DecodeOptions decoding;
        decoding.limit = config.max_detections;
        const models::OnnxDetections found = detector.to_onnx(graph, input, decoding);
        const std::vector<models::ImageDetections> decoded = models::decode_detections(
            detector.split(detector.forward(images), height, width), height, width, decoding);
        // The model's detections padded as the graph pads them: score 0, box 0.
        const models::PaddedDetections padded =
            models::padded_detections(decoded, found.scores.example.size(1));
        outputs.emplace_back("scores", found.scores);
        references.push_back(padded.scores);
        outputs.emplace_back("classes", found.classes);
        outputs.emplace_back("boxes", found.boxes);
        references.push_back(padded.boxes);
        if (!found.masks.name.empty()) {
            outputs.emplace_back("masks", found.masks);
        }
        break;
    }
    }
    return {outputs, references};
}

// The mirror of the graph must give the model's outputs; a difference is Kiln's bug.
void check_against_the_model(const GraphOutputs& graph, TaskKind task, const ExportConfig& config,
                             ExportSummary& summary) {
    const auto& [outputs, references] = graph;
    const auto compared = [&](const std::string& name) {
        for (const auto& [output, value] : outputs) {
            if (output == name) {
                return value.example;
            }
        }
        return at::Tensor();
    };
    const std::vector<std::string> checked = has_boxes(task)
                                                 ? std::vector<std::string>{"scores", "boxes"}
                                                 : std::vector<std::string>{outputs.front().first};
    for (std::size_t i = 0; i < checked.size(); ++i) {
        summary.self_check_difference =
            std::max(summary.self_check_difference,
                     relative_difference(compared(checked[i]), references[i]));
    }
    if (summary.self_check_difference > 1e-3) {
        throw Error("ONNX export of \"" + config.checkpoint.string() +
                    "\" does not reproduce the model (relative difference " +
                    std::to_string(summary.self_check_difference) +
                    "); this is a bug in Kiln, please report it");
    }
}

void write_metadata(onnx::Graph& graph, const onnx::Value& input, const ExportedModel& model,
                    const ExportConfig& config, const ExportSummary& summary) {
    const data::TransformArgs& transform = model.transform;
    const int height = summary.image_height, width = summary.image_width;
    // The float constants as the decimals they were written as, not their binary neighbours.
    const auto decimals = [](const std::array<float, 3>& values) {
        nlohmann::json list = nlohmann::json::array();
        for (const float value : values) {
            list.push_back(std::round(double(value) * 1e6) / 1e6);
        }
        return list;
    };
    nlohmann::json preprocessing = {
        {"input", "images " + shape_text(input, config.batch)},
        {"channels", transform.num_channels == 1 ? "grey" : "RGB"},
        {"resize", "the whole image to " + std::to_string(height) + "x" + std::to_string(width) +
                       " (height x width), bilinear"},
        {"scale", "pixel values / 255"},
        {"mean", decimals(transform.mean)},
        {"std", decimals(transform.std)},
    };
    graph.metadata("kiln.task", summary.what);
    graph.metadata("kiln.model", summary.model);
    graph.metadata("kiln.preprocessing", preprocessing.dump());
    graph.metadata("kiln.image_size", nlohmann::json({height, width}).dump());
    graph.metadata("kiln.precision", config.half_precision ? "fp16" : "fp32");
    if (model.finetuning) {
        graph.metadata("kiln.class_names", nlohmann::json(model.finetuning->classes()).dump());
    }
    graph.metadata("kiln.outputs", nlohmann::json(summary.outputs).dump());
}

} // namespace

ExportSummary export_onnx(const ExportConfig& config) {
    const models::WeightsFile checkpoint = models::WeightsFile::read(config.checkpoint);
    const TaskKind task = checkpoint_task(checkpoint);
    ExportSummary summary;
    summary.what = task == TaskKind::Pretraining ? "backbone" : task_traits(task).name;
    const auto given = config.image_height > 0
                           ? std::optional(std::pair{config.image_height, config.image_width})
                           : std::nullopt;
    const ExportedModel model = load_exported(checkpoint, task, given, summary);
    const auto [height, width] = given.value_or(model.trained_size);
    summary.image_height = height;
    summary.image_width = width;

    torch::NoGradGuard no_grad;
    model.module().eval();
    // The example batch: 2 images for a dynamic batch, so no node can silently fix it at 1.
    const std::int64_t example_batch = config.batch == 0 ? 2 : config.batch;
    const onnx::Precision precision =
        config.half_precision ? onnx::Precision::Float16 : onnx::Precision::Float32;
    const at::Tensor images =
        at::randn({example_batch, model.transform.num_channels, height, width},
                  at::detail::createCPUGenerator(0)); // the process's generator is not ours

    onnx::Graph graph(precision);
    const onnx::Value input = graph.input("images", images, config.batch);
    const GraphOutputs outputs = graph_outputs(graph, input, images, task, model, config);
    check_against_the_model(outputs, task, config, summary);
    for (const auto& [name, value] : outputs.outputs) {
        graph.output(value, name);
        summary.outputs.push_back(name + " " + shape_text(value, config.batch));
    }
    write_metadata(graph, input, model, config, summary);
    graph.save(config.out, KILN_VERSION);
    return summary;
}

} // namespace kiln::deploy
