#pragma once

#include "models/archive.h"

#include <cstdint>
#include <exception>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kiln::models {

// The layout of Kiln's checkpoint files (checkpoints/last.ckpt, best.ckpt, validated weights),
// its keys in one place. Format 2 is a torch.save file (torch.load(path, weights_only=True)
// reads it in Python); format 1, Kiln's first, was a LibTorch TorchScript archive and is still
// read, as data, by the same reader, which runs nothing.
namespace checkpoint_key {
inline constexpr const char* kFormat = "kiln/format";
inline constexpr const char* kEpoch = "kiln/epoch";
inline constexpr const char* kNextBatch = "kiln/next_batch";
inline constexpr const char* kOptimizerStep = "kiln/optimizer_step";
inline constexpr const char* kBestValue = "kiln/best_value";
inline constexpr const char* kBestStep = "kiln/best_step";
inline constexpr const char* kTrainedSeconds = "kiln/trained_seconds";
inline constexpr const char* kDatasetSize = "kiln/dataset_size"; // the images it trained on
inline constexpr const char* kDatasetFingerprint = "kiln/dataset_fingerprint"; // their names'
// The steps whose validation metrics were still being computed (validated-step-N files).
inline constexpr const char* kPendingValidations = "kiln/pending_validations";
inline constexpr const char* kValidatedStep = "kiln/validated_step"; // the last one validated
// With max_time: the schedule as fitted to the time so far (total and warm-up steps).
inline constexpr const char* kFittedSteps = "kiln/fitted_steps";
inline constexpr const char* kConfig = "kiln/config"; // the resolved settings, as JSON text
inline constexpr const char* kRng = "kiln/rng";       // the CPU generator's state
inline constexpr const char* kModel = "model"; // the task's module and its labels, as it predicts
// With a weight average, "model" holds the average and this the weights as they trained.
inline constexpr const char* kTrainingModel = "training_model";
inline constexpr const char* kOptimizer = "optimizer";
inline constexpr const char* kPrecision = "precision"; // the loss scaler, for 16-mixed
// Inside "model":
inline constexpr const char* kBackbone = "backbone";
// DINO's EMA teacher, beside the student in "backbone": the backbone such a run hands back
// (exported, embedded, monitored), as the DINO paper and LightlyTrain evaluate and export it.
inline constexpr const char* kTeacherBackbone = "teacher_backbone";
inline constexpr const char* kClasses = "kiln/classes";
inline constexpr const char* kMultilabel = "kiln/multilabel";
inline constexpr const char* kCategoryIds = "kiln/category_ids";
} // namespace checkpoint_key

inline constexpr std::int64_t kCheckpointFormat = 2;

// The checkpoint a torch.save file holds, or nullopt when it holds something else (an exported
// state_dict). A damaged file, or a checkpoint of a newer Kiln, is a kiln::Error naming it.
std::optional<Archive> checkpoint_in(const c10::IValue& content, const std::filesystem::path& path);
// The same, read from `path`.
std::optional<Archive> read_checkpoint_file(const std::filesystem::path& path);

// Inside a catch block: rethrows the exception in flight as a kiln::Error that names `path` as
// damaged, keeping the cause (LibTorch's message without its backtrace); a kiln::Error as is.
// Files from others may be malformed in ways no reader check foresees: the user still learns
// which file and why, never "unexpected failure".
[[noreturn]] void rethrow_naming(const std::filesystem::path& path);

// The resolved settings a checkpoint stores (its run's config.json); null when it holds none.
// A kiln::Error naming the file when they are damaged (not a JSON object), and when its `model`
// is a TorchScript module: a file never decides that code runs, TorchScript loads only where the
// user names it.
nlohmann::json settings_of(const Archive& checkpoint);

// A model file read once: a Kiln checkpoint (its settings, its task's model) or a torch.save
// state_dict (Kiln's exported model, LightlyTrain's, torchvision's). Commands that need several
// things of one file (export: the task, the backbone, the trained size) ask one reading, so a
// large file is read and parsed once. Nothing in it runs.
class WeightsFile {
public:
    // A missing or damaged file is a kiln::Error naming it.
    static WeightsFile read(const std::filesystem::path& path);

    const std::filesystem::path& path() const { return path_; }
    // The checkpoint, when the file is one; nullopt otherwise.
    const std::optional<Archive>& checkpoint() const { return checkpoint_; }
    // The tensors of a state_dict (empty for a checkpoint); a file that is neither is a
    // kiln::Error naming it, raised here, so that a caller that wants a checkpoint says so.
    const std::vector<std::pair<std::string, at::Tensor>>& state_dict() const;
    // The checkpoint's resolved settings (settings_of, whose refusals it raises); null for a
    // state_dict. Weights alone are taken from any checkpoint without asking this.
    nlohmann::json settings() const;

private:
    std::filesystem::path path_;
    std::optional<Archive> checkpoint_;
    std::vector<std::pair<std::string, at::Tensor>> state_dict_;
    std::exception_ptr not_a_state_dict_; // why the file holds no state_dict, if it does not
};

} // namespace kiln::models
