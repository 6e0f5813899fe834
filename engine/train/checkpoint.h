#pragma once

#include "config/run_config.h"
#include "core/error.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

namespace kiln::models {
class Archive;
}
namespace kiln::runtime {
class PrecisionPolicy;
}

namespace kiln::train {

class Optimizer;
class Task;

// Where a run stands; saved in every checkpoint.
struct Position {
    std::int64_t epoch = 0;          // the epoch in progress
    std::int64_t next_batch = 0;     // first batch of `epoch` not yet trained on
    std::int64_t optimizer_step = 0; // optimizer steps done
    // Fine-tuning: the best value of the watched validation metric so far, and its step.
    std::optional<double> best_value;
    std::int64_t best_step = 0;
    // Wall seconds the run has trained for (with max_time, what its budget has spent).
    double trained_seconds = 0.0;
    // The training images it was run on (0: a checkpoint from before they were counted).
    std::int64_t dataset_size = 0;
    // Their names' digest (Task::dataset_fingerprint; 0: from before it was recorded).
    std::uint64_t dataset_fingerprint = 0;
    // The steps validated whose metrics were still being computed in the background; their
    // weights wait in validated-step-N files, and a resumed run validates them again.
    std::vector<std::int64_t> pending_validations;
    // The last step whose validation completed (-1: none, or a checkpoint from before).
    std::int64_t validated_step = -1;
    // max_time: the total and warm-up steps of the schedule when saved (as last fitted to the
    // time): a resumed run goes on with them, not with the bound it starts from.
    std::vector<std::int64_t> fitted_steps;
};

class WeightAverage;

struct NonFiniteWeights : Error {
    using Error::Error;
};

// What a checkpoint holds besides the position and the settings.
struct TrainingState {
    Task& task;
    Optimizer& optimizer;
    runtime::PrecisionPolicy& precision; // the loss scaler's state, for 16-mixed
    WeightAverage* average = nullptr;    // optim_args.ema_decay: the weights predictions use
};

// Kiln's checkpoint (checkpoints/last.ckpt): the layout of models/checkpoint_file.h, a torch.save
// file with the position, the resolved settings, the CPU generator's state, the task's model,
// the optimizer and the loss scaler. Written atomically.
// Refuses (NonFiniteWeights, nothing written) when a weight or a floating-point buffer of the
// model or its average is NaN or infinite: a checkpoint is only ever one to continue from.
void save_checkpoint(const std::filesystem::path& path, const TrainingState& state,
                     const Position& position, const TrainConfig& config);
// Restores `state` in place (its tensors keep their devices) and the CPU generator; a damaged
// file, one of another model, or no checkpoint at all is a kiln::Error naming it.
Position load_checkpoint(const std::filesystem::path& path, const TrainingState& state);
// The same from a checkpoint already read (models::read_checkpoint_file).
Position load_checkpoint(const models::Archive& checkpoint, const TrainingState& state);

} // namespace kiln::train
