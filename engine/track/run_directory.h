#pragma once

#include "core/atomic_file.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kiln::track {

// Every path inside a run folder (`out`), the same from the CLI and Studio:
//   .kiln.lock  config.json  train.log  metrics.jsonl  run.db  events.out.tfevents.*  mlruns/
//   wandb/offline-run-*/run-<id>.wandb
//   checkpoints/last.ckpt  checkpoints/best.ckpt
//   exported_models/exported_last.pt  exported_models/exported_best.pt
//   checkpoints/validated-step-N.ckpt, exported_models/validated-step-N.pt: the weights of a
//   validation whose metrics are still being computed, until they become best or are removed
class RunDirectory {
public:
    explicit RunDirectory(std::filesystem::path root) : root_(std::move(root)) {}

    // The run folder a model file belongs to, when it lies where a run puts its models
    // (checkpoints/ or exported_models/ of a folder with a run.db).
    static std::optional<RunDirectory> of_model(const std::filesystem::path& model);

    const std::filesystem::path& root() const { return root_; }
    std::filesystem::path config() const { return root_ / "config.json"; }
    std::filesystem::path train_log() const { return root_ / "train.log"; }
    std::filesystem::path metrics_jsonl() const { return root_ / "metrics.jsonl"; }
    std::filesystem::path run_db() const { return root_ / "run.db"; }
    // Held (flock) by the run writing here; see RunLock. Not a file of the run's.
    std::filesystem::path lock() const { return root_ / ".kiln.lock"; }
    std::filesystem::path mlruns() const { return root_ / "mlruns"; }
    // Weights & Biases' folder, as `wandb.init(dir=out)` makes it: offline runs to `wandb sync`.
    std::filesystem::path wandb() const { return root_ / "wandb"; }
    std::filesystem::path checkpoints() const { return root_ / "checkpoints"; }
    std::filesystem::path last_checkpoint() const { return checkpoints() / "last.ckpt"; }
    std::filesystem::path best_checkpoint() const { return checkpoints() / "best.ckpt"; }
    std::filesystem::path exported_models() const { return root_ / "exported_models"; }
    // The backbone's state_dict, readable by Python's torch.load.
    std::filesystem::path exported_last() const { return exported_models() / "exported_last.pt"; }
    std::filesystem::path exported_best() const { return exported_models() / "exported_best.pt"; }
    // Where a fine-tuning or a distillation takes a pretraining run's model from: its exported
    // backbone, else (a run stopped before exporting) its last checkpoint; empty when neither
    // is there.
    std::filesystem::path pretrained_model() const {
        std::error_code error;
        for (const std::filesystem::path& candidate : {exported_last(), last_checkpoint()}) {
            if (std::filesystem::is_regular_file(candidate, error)) {
                return candidate;
            }
        }
        return {};
    }
    static constexpr const char* kValidatedPrefix = "validated-step-";
    std::filesystem::path validated_checkpoint(std::int64_t step) const {
        return checkpoints() / (kValidatedPrefix + std::to_string(step) + ".ckpt");
    }
    std::filesystem::path validated_export(std::int64_t step) const {
        return exported_models() / (kValidatedPrefix + std::to_string(step) + ".pt");
    }
    // Whether a run writes an entry of this name into its folder (its files and folders above,
    // SQLite's beside run.db, TensorBoard's events). Dot files are neither a run's nor a user's
    // work: they are kept, and do not count as foreign.
    static bool is_run_entry(const std::string& name) {
        static const std::vector<std::string> kNames = {
            "config.json", "train.log",       "metrics.jsonl", "run.db",
            "run.db-wal",  "run.db-shm",      "mlruns",        "wandb",
            "checkpoints", "exported_models", "run.db-journal"};
        return std::find(kNames.begin(), kNames.end(), name) != kNames.end() ||
               name.rfind("events.out.tfevents.", 0) == 0;
    }
    // The entries of the folder that no run wrote (a user's own files): overwrite=true must
    // never delete them.
    std::vector<std::filesystem::path> foreign_entries() const {
        std::vector<std::filesystem::path> foreign;
        std::error_code error;
        for (const auto& entry : std::filesystem::directory_iterator(root_, error)) {
            const std::string name = entry.path().filename().string();
            if (name.rfind('.', 0) != 0 && !is_run_entry(name)) {
                foreign.push_back(entry.path());
            }
        }
        std::sort(foreign.begin(), foreign.end());
        return foreign;
    }

    // Removes the run's entries (is_run_entry), keeping everything else in its folder: a run
    // may have been written into a folder of the user's own. False when one could not be
    // removed. Only while no run holds the folder's lock.
    bool remove_run_entries() const {
        std::error_code error;
        bool removed = true;
        for (const auto& entry : std::filesystem::directory_iterator(root_, error)) {
            std::error_code failed;
            if (is_run_entry(entry.path().filename().string())) {
                std::filesystem::remove_all(entry.path(), failed);
                removed = removed && !failed;
            }
        }
        return removed && !error;
    }

    // Removes what a run that died left behind: validated-step-N files of evaluations it did
    // not finish (but those of `pending`, which the checkpoint it resumes from still waits
    // for), and the temporary files of writes it did not finish (.NAME.kiln-XXXXXX, see
    // write_file_atomically), however new. Only for the run holding the folder's lock.
    void remove_leftovers(const std::vector<std::int64_t>& pending = {}) const {
        std::error_code error;
        for (const std::filesystem::path& folder : {root_, checkpoints(), exported_models()}) {
            for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
                const std::string name = entry.path().filename().string();
                const bool validated = name.rfind(kValidatedPrefix, 0) == 0 && folder != root_ &&
                                       !is_pending(entry.path(), pending);
                const bool unfinished = names_unfinished_write(name) && entry.is_regular_file();
                if (validated || unfinished) {
                    std::filesystem::remove(entry.path(), error);
                }
            }
        }
    }

private:
    bool is_pending(const std::filesystem::path& file,
                    const std::vector<std::int64_t>& pending) const {
        return std::any_of(pending.begin(), pending.end(), [&](std::int64_t step) {
            return file == validated_checkpoint(step) || file == validated_export(step);
        });
    }

    std::filesystem::path root_;
};

inline std::optional<RunDirectory> RunDirectory::of_model(const std::filesystem::path& model) {
    std::error_code error;
    const std::filesystem::path absolute = std::filesystem::absolute(model, error);
    if (error) {
        return std::nullopt;
    }
    RunDirectory run(absolute.parent_path().parent_path());
    if (!std::filesystem::exists(run.run_db(), error)) {
        return std::nullopt;
    }
    return run;
}

} // namespace kiln::track
