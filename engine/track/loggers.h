#pragma once

#include "train/trainer.h"

#include <memory>
#include <vector>

namespace kiln::track {

// The loggers a run's configuration asks for, besides train.log, metrics.jsonl and run.db:
// TensorBoard unless `loggers.tensorboard` is null, MLflow when `loggers.mlflow` is set.
// Throws kiln::Error when one cannot start (an unreachable MLflow server).
std::vector<std::unique_ptr<train::TrainObserver>> make_loggers(const TrainConfig& config);

} // namespace kiln::track
