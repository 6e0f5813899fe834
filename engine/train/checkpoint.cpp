#include "train/checkpoint.h"

#include "core/error.h"
#include "models/checkpoint_file.h"
#include "runtime/precision.h"
#include "train/optimizer.h"
#include "train/task.h"
#include "train/weight_average.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/ops/stack.h>
#include <bit>

namespace kiln::train {

namespace key = models::checkpoint_key;

bool weights_are_finite(torch::nn::Module& module) {
    std::vector<at::Tensor> finite;
    for (const at::Tensor& tensor : module.parameters()) {
        finite.push_back(tensor.detach().isfinite().all());
    }
    for (const at::Tensor& tensor : module.buffers()) {
        if (tensor.is_floating_point()) {
            finite.push_back(tensor.isfinite().all());
        }
    }
    return finite.empty() || at::stack(finite).all().item<bool>(); // one copy to the host
}

void save_checkpoint(const std::filesystem::path& path, const TrainingState& state,
                     const Position& position, const TrainConfig& config) {
    bool finite = weights_are_finite(state.task.module());
    if (state.average != nullptr) {
        const WeightAverage::Scope averaged(state.average);
        finite = finite && weights_are_finite(state.task.module());
    }
    if (!finite) {
        throw NonFiniteWeights("the weights became NaN or infinite by step " +
                               std::to_string(position.optimizer_step) + "; \"" + path.string() +
                               "\" was not written");
    }
    models::Archive archive(path);
    archive.write(key::kFormat, c10::IValue(models::kCheckpointFormat));
    archive.write(key::kEpoch, c10::IValue(position.epoch));
    archive.write(key::kNextBatch, c10::IValue(position.next_batch));
    archive.write(key::kOptimizerStep, c10::IValue(position.optimizer_step));
    archive.write(key::kTrainedSeconds, c10::IValue(position.trained_seconds));
    archive.write(key::kDatasetSize, c10::IValue(position.dataset_size));
    archive.write(key::kDatasetFingerprint,
                  c10::IValue(std::bit_cast<std::int64_t>(position.dataset_fingerprint)));
    if (position.best_value) {
        archive.write(key::kBestValue, c10::IValue(*position.best_value));
        archive.write(key::kBestStep, c10::IValue(position.best_step));
    }
    if (!position.pending_validations.empty()) {
        archive.write(key::kPendingValidations,
                      c10::IValue(c10::List<std::int64_t>(position.pending_validations)));
    }
    archive.write(key::kValidatedStep, c10::IValue(position.validated_step));
    if (!position.fitted_steps.empty()) {
        archive.write(key::kFittedSteps,
                      c10::IValue(c10::List<std::int64_t>(position.fitted_steps)));
    }
    archive.write(key::kConfig, c10::IValue(to_json(config).dump()));
    archive.write(key::kRng, at::detail::getDefaultCPUGenerator().get_state());
    models::Archive model(path);
    if (state.average != nullptr) {
        models::Archive training(path);
        state.task.save(training);
        archive.write(key::kTrainingModel, training);
        const WeightAverage::Scope averaged(state.average);
        state.task.save(model);
    } else {
        state.task.save(model);
    }
    archive.write(key::kModel, model);
    models::Archive optimizer(path);
    state.optimizer.save(optimizer);
    archive.write(key::kOptimizer, optimizer);
    models::Archive precision(path);
    state.precision.save(precision);
    archive.write(key::kPrecision, precision);
    models::write_archive(path, archive);
}

Position load_checkpoint(const std::filesystem::path& path, const TrainingState& state) {
    const std::optional<models::Archive> archive = models::read_checkpoint_file(path);
    if (!archive) {
        throw Error("\"" + path.string() +
                    "\" is not a Kiln checkpoint (it may be an exported model); resume from a "
                    "run's checkpoints/last.ckpt");
    }
    return load_checkpoint(*archive, state);
}

Position load_checkpoint(const models::Archive& checkpoint, const TrainingState& state) {
    Position position;
    position.epoch = checkpoint.integer(key::kEpoch);
    position.next_batch = checkpoint.integer(key::kNextBatch);
    position.optimizer_step = checkpoint.integer(key::kOptimizerStep);
    if (checkpoint.contains(key::kTrainedSeconds)) { // absent before max_time
        position.trained_seconds = checkpoint.real(key::kTrainedSeconds);
    }
    if (checkpoint.contains(key::kDatasetSize)) {
        position.dataset_size = checkpoint.integer(key::kDatasetSize);
    }
    if (checkpoint.contains(key::kDatasetFingerprint)) {
        position.dataset_fingerprint =
            std::bit_cast<std::uint64_t>(checkpoint.integer(key::kDatasetFingerprint));
    }
    if (checkpoint.contains(key::kBestValue)) {
        position.best_value = checkpoint.real(key::kBestValue);
        position.best_step = checkpoint.integer(key::kBestStep);
    }
    if (checkpoint.contains(key::kPendingValidations)) {
        position.pending_validations = checkpoint.integers(key::kPendingValidations);
    }
    if (checkpoint.contains(key::kValidatedStep)) {
        position.validated_step = checkpoint.integer(key::kValidatedStep);
    }
    if (checkpoint.contains(key::kFittedSteps)) {
        position.fitted_steps = checkpoint.integers(key::kFittedSteps);
        if (position.fitted_steps.size() != 2 || position.fitted_steps[0] < 1 ||
            position.fitted_steps[1] < 0) {
            throw checkpoint.problem(key::kFittedSteps, "is not a total and a warm-up step count");
        }
    }
    const at::Tensor rng = checkpoint.tensor(key::kRng);
    at::Generator generator = at::detail::getDefaultCPUGenerator();
    try {
        generator.set_state(rng.contiguous());
    } catch (const c10::Error&) {
        throw checkpoint.problem(key::kRng, "is not a random generator's state");
    }
    if (state.average != nullptr && checkpoint.contains(key::kTrainingModel)) {
        {
            const WeightAverage::Scope averaged(state.average);
            state.task.load(checkpoint.child(key::kModel));
        }
        state.task.load(checkpoint.child(key::kTrainingModel));
    } else {
        state.task.load(checkpoint.child(key::kModel));
    }
    state.optimizer.load(checkpoint.child(key::kOptimizer));
    // Checkpoints from before 16-mixed have no "precision" entry; they were never scaled.
    if (const auto precision = checkpoint.find_child(key::kPrecision)) {
        state.precision.load(*precision);
    }
    return position;
}

} // namespace kiln::train
