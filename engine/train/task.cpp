#include "train/task.h"

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

} // namespace kiln::train
