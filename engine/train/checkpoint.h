#pragma once

#include "config/run_config.h"

#include <c10/core/Device.h>
#include <cstdint>
#include <filesystem>
#include <optional>

namespace kiln::train {

class Optimizer;
class PrecisionPolicy;
class Task;

// Where a run stands; saved in every checkpoint.
struct Position {
    std::int64_t epoch = 0;          // the epoch in progress
    std::int64_t next_batch = 0;     // first batch of `epoch` not yet trained on
    std::int64_t optimizer_step = 0; // optimizer steps done
    // Fine-tuning: the best value of the watched validation metric so far, and its step.
    std::optional<double> best_value;
    std::int64_t best_step = 0;
};

// What a checkpoint holds besides the position and the settings.
struct TrainingState {
    Task& task;
    Optimizer& optimizer;
    PrecisionPolicy& precision; // the loss scaler's state, for 16-mixed
};

// Kiln's checkpoint (checkpoints/last.ckpt): a LibTorch archive with "kiln/format",
// "kiln/epoch", "kiln/next_batch", "kiln/optimizer_step", "kiln/config" (the resolved settings
// as JSON), "kiln/rng" (the CPU generator), "model" (the task's module), "optimizer" and
// "precision". Written atomically; models::load_backbone reads the "model" entry too.
void save_checkpoint(const std::filesystem::path& path, const TrainingState& state,
                     const Position& position, const TrainConfig& config);
// Restores `state` (its tensors onto `device`) and the CPU generator; a damaged file or one
// from another format is a kiln::Error naming it.
Position load_checkpoint(const std::filesystem::path& path, const TrainingState& state,
                         const c10::Device& device);

} // namespace kiln::train
