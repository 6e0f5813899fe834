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

// What the self-check compares: a value of the graph's mirror and the model's own.
struct Comparison {
    std::string what;
    at::Tensor mirror, model;
};

// The graph's named outputs, and the comparisons that show the graph computes the model.
struct GraphOutputs {
    std::vector<std::pair<std::string, onnx::Value>> outputs;
    std::vector<Comparison> compared;
};

// Each image's detections in one order whatever order exact ties of score were found in: by
// score, best first, then by box. The places [B, K] in that order.
at::Tensor tie_free_order(const at::Tensor& scores, const at::Tensor& boxes) {
    at::Tensor order = at::arange(scores.size(1)).expand_as(scores).contiguous();
    const auto stable_sort_by = [&](const at::Tensor& key, bool descending) {
        const at::Tensor indices = std::get<1>(key.gather(1, order).sort(true, 1, descending));
        order = order.gather(1, indices);
    };
    for (std::int64_t corner = 3; corner >= 0; --corner) {
        stable_sort_by(boxes.select(2, corner), false);
    }
    stable_sort_by(scores, true);
    return order;
}

// `detections` [B, K, ...] in `order` [B, K].
at::Tensor in_order(const at::Tensor& detections, const at::Tensor& order) {
    std::vector<std::int64_t> shape = order.sizes().vec();
    shape.resize(std::size_t(detections.dim()), 1);
    return detections.gather(1, order.view(shape).expand_as(detections));
}

// The network is compared with the model's forward pass, and the decoding nodes with Kiln's
// decoding of the mirror's own predictions: near-tied scores, which a barely trained model has
// many of, may fall in another order after batch norm folding, and exact ties in any order.
GraphOutputs detection_outputs(onnx::Graph& graph, const onnx::Value& input,
                               const at::Tensor& images, models::DetectorImpl& detector,
                               const ExportConfig& config) {
    const std::int64_t height = images.size(2), width = images.size(3);
    models::DecodeOptions decoding;
    decoding.limit = config.max_detections;
    const models::OnnxDetections found = detector.to_onnx(graph, input, decoding);
    const std::vector<models::ImageDetections> decoded = models::decode_detections(
        detector.split(found.predictions, height, width), height, width, decoding);
    // Kiln's detections padded as the graph pads them.
    const models::PaddedDetections padded =
        models::padded_detections(decoded, found.scores.example.size(1), height, width);
    GraphOutputs result;
    result.outputs = {{"scores", found.scores}, {"classes", found.classes}, {"boxes", found.boxes}};
    const at::Tensor graph_order = tie_free_order(found.scores.example, found.boxes.example);
    const at::Tensor kiln_order = tie_free_order(padded.scores, padded.boxes);
    const auto compare_in_order = [&](const std::string& name, const at::Tensor& mirror,
                                      const at::Tensor& model) {
        result.compared.push_back(
            {name, in_order(mirror, graph_order), in_order(model, kiln_order)});
    };
    result.compared.push_back({"predictions", found.predictions, detector.forward(images)});
    result.compared.push_back({"scores", found.scores.example, padded.scores});
    compare_in_order("boxes", found.boxes.example, padded.boxes);
    compare_in_order("classes", found.classes.example, padded.classes);
    if (!found.masks.name.empty()) {
        result.outputs.emplace_back("masks", found.masks);
        compare_in_order("masks", found.masks.example, padded.masks);
    }
    return result;
}

GraphOutputs graph_outputs(onnx::Graph& graph, const onnx::Value& input, const at::Tensor& images,
                           TaskKind task, const ExportedModel& model, const ExportConfig& config) {
    torch::nn::Module& module = model.module();
    const models::Backbone& backbone = model.backbone;
    GraphOutputs result;
    const auto output = [&](const std::string& name, const onnx::Value& value,
                            const at::Tensor& reference) {
        result.outputs.emplace_back(name, value);
        result.compared.push_back({name, value.example, reference});
    };
    switch (task) {
    case TaskKind::Pretraining:
        output("features", backbone->onnx_features(graph, input, ""), backbone->forward(images));
        break;
    case TaskKind::ImageClassification: {
        auto& classifier = *module.as<models::ClassifierImpl>();
        output("logits", classifier.to_onnx(graph, input), classifier.forward(images));
        break;
    }
    case TaskKind::SemanticSegmentation: {
        auto& segmenter = *module.as<models::SegmenterImpl>();
        output("logits", segmenter.to_onnx(graph, input), segmenter.forward(images));
        break;
    }
    case TaskKind::ObjectDetection:
    case TaskKind::InstanceSegmentation:
        result =
            detection_outputs(graph, input, images, *module.as<models::DetectorImpl>(), config);
        break;
    }
    return result;
}

// The mirror of the graph must give the model's outputs; a difference is Kiln's bug.
void check_against_the_model(const GraphOutputs& graph, const ExportConfig& config,
                             ExportSummary& summary) {
    for (const Comparison& comparison : graph.compared) {
        const double difference = relative_difference(comparison.mirror, comparison.model);
        summary.self_check_difference = std::max(summary.self_check_difference, difference);
        if (difference > 1e-3) {
            throw Error("ONNX export of \"" + config.checkpoint.string() +
                        "\" does not reproduce the model's " + comparison.what +
                        " (relative difference " + std::to_string(difference) +
                        "); this is a bug in Kiln, please report it");
        }
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
    check_against_the_model(outputs, config, summary);
    for (const auto& [name, value] : outputs.outputs) {
        graph.output(value, name);
        summary.outputs.push_back(name + " " + shape_text(value, config.batch));
    }
    write_metadata(graph, input, model, config, summary);
    graph.save(config.out, KILN_VERSION);
    return summary;
}

} // namespace kiln::deploy
