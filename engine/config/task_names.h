#pragma once

#include <string>
#include <vector>

namespace kiln {

enum class TaskKind { Pretraining, ImageClassification, SemanticSegmentation };

// What each task is called: its `kiln` command (LightlyTrain's names), its name in a run's
// config.json, and the metric that picks best.ckpt by default (higher is better).
// The one table that the schema, the CLI, config parsing and Studio read.
struct TaskName {
    TaskKind kind;
    std::string command;
    std::string name;
    std::string watch_metric; // empty: the task does not validate
};

inline const std::vector<TaskName>& task_names() {
    static const std::vector<TaskName> names = {
        {TaskKind::Pretraining, "train", "pretrain", ""},
        {TaskKind::ImageClassification, "train-image-classification", "image_classification",
         "val_metric/top1_acc_micro"},
        {TaskKind::SemanticSegmentation, "train-semantic-segmentation", "semantic_segmentation",
         "val_metric/miou"},
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
