#include "train/task.h"

#include "core/error.h"
#include "models/checkpoint_file.h"
#include "train/classification_task.h"
#include "train/detection_task.h"
#include "train/pretraining_task.h"
#include "train/segmentation_task.h"

namespace kiln::train {

std::unique_ptr<Task> make_task(const TrainConfig& config) {
    switch (config.task) {
    case TaskKind::ImageClassification:
        return std::make_unique<ClassificationTask>(config);
    case TaskKind::SemanticSegmentation:
        return std::make_unique<SegmentationTask>(config);
    case TaskKind::ObjectDetection:
        return std::make_unique<DetectionTask>(config, false);
    case TaskKind::InstanceSegmentation:
        return std::make_unique<DetectionTask>(config, true);
    case TaskKind::Pretraining:
        break;
    }
    return std::make_unique<PretrainingTask>(config);
}

namespace {

namespace fs = std::filesystem;

// `checkpoint` holds a checkpoint.
TrainConfig checkpoint_config(const models::WeightsFile& checkpoint) {
    const nlohmann::json settings = checkpoint.settings();
    if (!settings.is_object()) {
        throw checkpoint.checkpoint()->problem(models::checkpoint_key::kConfig,
                                               "holds no settings");
    }
    TrainConfig config;
    try {
        config = parse_train_config(settings);
    } catch (const Error& error) { // a damaged or hand-edited file: say which
        throw Error("\"" + checkpoint.path().string() +
                    "\" records settings Kiln cannot use: " + error.what());
    }
    if (config.task == TaskKind::Pretraining) {
        throw Error("checkpoint \"" + checkpoint.path().string() +
                    "\" is a pretraining checkpoint: it has a backbone but no task model; "
                    "`kiln embed` writes its embeddings, or fine-tune it with "
                    "train-image-classification");
    }
    return config;
}

} // namespace

std::unique_ptr<FinetuningTask> load_finetuning_task(const fs::path& checkpoint,
                                                     TrainConfig* trained) {
    return load_finetuning_task(models::WeightsFile::read(checkpoint), trained);
}

std::unique_ptr<FinetuningTask> load_finetuning_task(const models::WeightsFile& checkpoint,
                                                     TrainConfig* trained) {
    const std::optional<models::Archive>& archive = checkpoint.checkpoint();
    if (!archive) {
        throw Error("\"" + checkpoint.path().string() +
                    "\" is not a Kiln checkpoint; give a fine-tuning run's checkpoints/best.ckpt "
                    "or last.ckpt");
    }
    const TrainConfig config = checkpoint_config(checkpoint);
    if (trained != nullptr) {
        *trained = config;
    }
    const models::Archive model = archive->child(models::checkpoint_key::kModel);
    FinetuningTask::Labels labels = FinetuningTask::archived_labels(model);
    std::unique_ptr<FinetuningTask> task;
    switch (config.task) {
    case TaskKind::ImageClassification:
        task = std::make_unique<ClassificationTask>(config, std::move(labels));
        break;
    case TaskKind::ObjectDetection:
    case TaskKind::InstanceSegmentation:
        task = std::make_unique<DetectionTask>(
            config, config.task == TaskKind::InstanceSegmentation, std::move(labels));
        break;
    case TaskKind::SemanticSegmentation:
    case TaskKind::Pretraining:
        task = std::make_unique<SegmentationTask>(config, std::move(labels));
        break;
    }
    task->load(model);
    return task;
}

} // namespace kiln::train
