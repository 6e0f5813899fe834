#pragma once

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

// What each task is called: its `kiln` command (LightlyTrain's names), its name in a run's
// config.json, and the metric that picks best.ckpt by default (higher is better).
// The one table that the schema, the CLI, config parsing and Studio read.
struct TaskName {
    TaskKind kind;
    std::string command;
    std::string name;
    std::string watch_metric; // empty: the task does not validate
    std::string description;  // one line, for help
};

inline const std::vector<TaskName>& task_names() {
    static const std::vector<TaskName> names = {
        {TaskKind::Pretraining, "train", "pretrain", "",
         "pretrain a backbone on unlabelled images"},
        {TaskKind::ImageClassification, "train-image-classification", "image_classification",
         "val_metric/top1_acc_micro",
         "fine-tune a classifier on labelled images (class folders or a CSV)"},
        {TaskKind::SemanticSegmentation, "train-semantic-segmentation", "semantic_segmentation",
         "val_metric/miou", "fine-tune a segmentation model on images with masks of class ids"},
        {TaskKind::ObjectDetection, "train-object-detection", "object_detection", "val_metric/map",
         "fine-tune an object detector on COCO or YOLO boxes"},
        {TaskKind::InstanceSegmentation, "train-instance-segmentation", "instance_segmentation",
         "val_metric/map", "fine-tune an instance segmentation model on COCO or YOLO masks"},
    };
    return names;
}

inline const TaskName& task_name(TaskKind kind) {
    for (const TaskName& entry : task_names()) {
        if (entry.kind == kind) {
            return entry;
        }
    }
    return task_names().front();
}

} // namespace kiln
