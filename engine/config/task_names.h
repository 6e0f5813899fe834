#pragma once

#include "methods/method_names.h"

#include <optional>
#include <string>
#include <vector>

namespace kiln {

enum class TaskKind {
    Pretraining,
    ImageClassification,
    SemanticSegmentation,
    ObjectDetection,
    InstanceSegmentation,
};

// What the fine-tuning tasks train with unless they say otherwise: AdamW at 1e-3 per 256 images.
inline methods::OptimizerDefaults finetuning_optimizer() {
    return {.name = "adamw", .base_lr = 1e-3, .weight_decay = 0.01, .warmup_epochs = 1.0};
}

// What each task is and does: its `kiln` command (LightlyTrain's names), its name in a run's
// config.json, the metric that picks best.ckpt by default (higher is better), its default run
// length and batch, and what its labels hold. The one table that the settings, the CLI, the
// trainer and Studio read.
struct TaskTraits {
    TaskKind kind;
    std::string command;
    std::string name;
    std::string watch_metric; // empty: the task does not validate
    std::string description;  // one line, for help
    int default_epochs = 10;
    int default_batch_size = 64;
    bool boxes = false;          // labels are objects with boxes (COCO or YOLO)
    bool instance_masks = false; // ... and each object has a mask
    // What the task trains with when optim is auto (pretraining: the method's, in its table).
    methods::OptimizerDefaults optimizer = finetuning_optimizer();
    // ... from a pretrained backbone (model_args.backbone_weights), where it differs.
    std::optional<methods::OptimizerDefaults> pretrained_optimizer = std::nullopt;
    // ... for a ViT, where it differs from `optimizer` (pretrained, with the backbone's share of
    // pretrained_optimizer).
    std::optional<methods::OptimizerDefaults> vit_optimizer = std::nullopt;

    bool validates() const { return !watch_metric.empty(); }
};

// Detectors learn their neck and heads from scratch: ten times the fine-tuning rate (6e-4 at a
// batch of 16, what YOLOv8 trains small sets with) and YOLOv8's weight decay.
inline methods::OptimizerDefaults detection_optimizer() {
    return {.name = "adamw",
            .base_lr = 1e-2,
            .weight_decay = 5e-4,
            .warmup_epochs = 1.0,
            .ema_decay = 0.9999};
}

// A CNN classifier learns from scratch at ten times the fine-tuning rate (Fashion-MNIST at
// Kiln's default batch of 64, seed 0: smallcnn 79.2% top-1 against 76.9% with 600 labels, 84.3%
// against 82.8% with 6,000, 89.0% against 87.2% with 60,000; ResNet-18 78.9% against 77.3%
// with 600; README). ViTs keep the fine-tuning rate (the task's vit_optimizer), pretrained or
// not (below).
inline methods::OptimizerDefaults cnn_classification_optimizer() {
    methods::OptimizerDefaults recipe = finetuning_optimizer();
    recipe.base_lr *= 10;
    return recipe;
}

// A pretrained classifier's new head learns at that rate too, its backbone at 0.3 of it (600
// Fashion-MNIST labels from a SimCLR backbone, 3 seeds: 81.7% top-1 against 78.9% at one rate
// of 1e-3 for both and 81.0% with the backbone at 0.1; README). A pretrained ViT keeps its own
// rate with the backbone at 0.3 (vit_tiny, 600 labels, 3 seeds: 78.19% against 77.16% at 1e-2;
// README).
inline methods::OptimizerDefaults pretrained_classification_optimizer() {
    methods::OptimizerDefaults recipe = cnn_classification_optimizer();
    recipe.backbone_lr_factor = 0.3;
    return recipe;
}

inline const std::vector<TaskTraits>& task_table() {
    static const std::vector<TaskTraits> table = {
        {TaskKind::Pretraining, "train", "pretrain", "", "pretrain a backbone on unlabelled images",
         100, 128},
        {TaskKind::ImageClassification, "train-image-classification", "image_classification",
         "val_metric/top1_acc_micro",
         "fine-tune a classifier on labelled images (class folders or a CSV)", 10, 64, false, false,
         cnn_classification_optimizer(), pretrained_classification_optimizer(),
         finetuning_optimizer()},
        {TaskKind::SemanticSegmentation, "train-semantic-segmentation", "semantic_segmentation",
         "val_metric/miou", "fine-tune a segmentation model on images with masks of class ids"},
        {TaskKind::ObjectDetection, "train-object-detection", "object_detection", "val_metric/map",
         "fine-tune an object detector on COCO or YOLO boxes", 10, 64, true, false,
         detection_optimizer()},
        {TaskKind::InstanceSegmentation, "train-instance-segmentation", "instance_segmentation",
         "val_metric/map", "fine-tune an instance segmentation model on COCO or YOLO masks", 10, 64,
         true, true, detection_optimizer()},
    };
    return table;
}

inline const TaskTraits& task_traits(TaskKind kind) {
    for (const TaskTraits& entry : task_table()) {
        if (entry.kind == kind) {
            return entry;
        }
    }
    return task_table().front();
}

// The task a run's config.json names `name` ("image_classification"), if any.
inline std::optional<TaskKind> task_named(const std::string& name) {
    for (const TaskTraits& entry : task_table()) {
        if (entry.name == name) {
            return entry.kind;
        }
    }
    return std::nullopt;
}

// Object detection and instance segmentation: labels with boxes.
inline bool has_boxes(TaskKind kind) {
    return task_traits(kind).boxes;
}

} // namespace kiln
