#include "train/checkpoint.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "train/optimizer.h"
#include "train/precision.h"
#include "train/task.h"

#include <ATen/CPUGeneratorImpl.h>
#include <sstream>
#include <torch/serialize.h>

namespace kiln::train {
namespace {

constexpr std::int64_t kCheckpointFormat = 1;

} // namespace

void save_checkpoint(const std::filesystem::path& path, const TrainingState& state,
                     const Position& position, const TrainConfig& config) {
    torch::serialize::OutputArchive archive;
    archive.write("kiln/format", torch::tensor(kCheckpointFormat));
    archive.write("kiln/epoch", torch::tensor(position.epoch));
    archive.write("kiln/next_batch", torch::tensor(position.next_batch));
    archive.write("kiln/optimizer_step", torch::tensor(position.optimizer_step));
    if (position.best_value) {
        archive.write("kiln/best_value", torch::tensor(*position.best_value, torch::kFloat64));
        archive.write("kiln/best_step", torch::tensor(position.best_step));
    }
    archive.write("kiln/config", c10::IValue(to_json(config).dump()));
    archive.write("kiln/rng", at::detail::getDefaultCPUGenerator().get_state());
    torch::serialize::OutputArchive model;
    state.task.save(model);
    archive.write("model", model);
    torch::serialize::OutputArchive optimizer;
    state.optimizer.save(optimizer);
    archive.write("optimizer", optimizer);
    torch::serialize::OutputArchive precision;
    state.precision.save(precision);
    archive.write("precision", precision);
    std::ostringstream bytes;
    archive.save_to(bytes);
    write_file_atomically(path, bytes.str());
}

Position load_checkpoint(const std::filesystem::path& path, const TrainingState& state,
                         const c10::Device& device) {
    torch::serialize::InputArchive archive;
    try {
        archive.load_from(path.string(), device);
    } catch (const c10::Error& error) {
        throw Error("checkpoint \"" + path.string() + "\" cannot be read (" +
                    error.what_without_backtrace() + "); it may be damaged");
    }
    const auto read_int = [&](const std::string& key) {
        torch::Tensor value;
        archive.read(key, value);
        return value.item<std::int64_t>();
    };
    if (read_int("kiln/format") != kCheckpointFormat) {
        throw Error("checkpoint \"" + path.string() + "\" was written by another version of Kiln");
    }
    Position position;
    position.epoch = read_int("kiln/epoch");
    position.next_batch = read_int("kiln/next_batch");
    position.optimizer_step = read_int("kiln/optimizer_step");
    torch::Tensor best;
    if (archive.try_read("kiln/best_value", best)) {
        position.best_value = best.item<double>();
        position.best_step = read_int("kiln/best_step");
    }
    torch::Tensor rng;
    archive.read("kiln/rng", rng);
    at::Generator generator = at::detail::getDefaultCPUGenerator();
    generator.set_state(rng.cpu());
    torch::serialize::InputArchive model;
    archive.read("model", model);
    state.task.load(model);
    torch::serialize::InputArchive optimizer;
    archive.read("optimizer", optimizer);
    state.optimizer.load(optimizer);
    torch::serialize::InputArchive precision;
    // Checkpoints from before 16-mixed have no "precision" entry; they were never scaled.
    if (archive.try_read("precision", precision)) {
        state.precision.load(precision);
    }
    return position;
}

} // namespace kiln::train
