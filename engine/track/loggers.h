#pragma once

#include "core/log.h"
#include "track/run_events.h"

#include <memory>
#include <vector>

namespace kiln::track {

// The loggers a run's configuration asks for, besides train.log, metrics.jsonl and run.db:
// TensorBoard unless `loggers.tensorboard` is null, MLflow when `loggers.mlflow` is set, a
// Weights & Biases offline run when `loggers.wandb` is set (and WANDB_MODE is not disabled).
// Throws kiln::Error when one cannot start (an unreachable MLflow server).
std::vector<std::unique_ptr<TrainObserver>> make_loggers(const TrainConfig& config);

// Everything that records a run in its folder, in order: train.log and metrics.jsonl, run.db,
// the loggers, and last the front end's own observer (the CLI's progress bar, Studio's plots).
// Opened by the rank that writes, after the run folder is prepared; `earlier` are the lines
// logged before (train.log begins with them).
class RunTracking {
public:
    RunTracking(const TrainConfig& config, TrainObserver& front_end,
                const std::vector<log::Line>& earlier = {});
    ~RunTracking();
    RunTracking(const RunTracking&) = delete;
    RunTracking& operator=(const RunTracking&) = delete;

    // One observer that passes every event on to all of them.
    TrainObserver& observer();

private:
    std::vector<std::unique_ptr<TrainObserver>> owned_;
    std::unique_ptr<TrainObserver> fan_out_;
};

} // namespace kiln::track
