#pragma once

#include "core/run_config.h"
#include "core/stop_token.h"
#include "system/bottleneck_advisor.h"
#include "system/nvml.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kiln::train {

// One optimizer step, timed as LightlyTrain times it: batch_time is forward + backward +
// optimizer step, data_time the rest of the cycle (waiting for the loader),
// data_wait = data_time / (batch_time + data_time).
struct StepMetrics {
    std::int64_t step = 0; // optimizer steps done, 1-based
    std::int64_t total_steps = 0;
    std::int64_t epoch = 0; // 0-based
    std::int64_t epochs = 0;
    std::int64_t batch_in_epoch = 0; // 1-based
    std::int64_t batches_per_epoch = 0;
    double loss = 0.0;
    double lr = 0.0;
    double batch_time = 0.0; // seconds
    double data_time = 0.0;  // seconds
    double data_wait = 0.0;  // fraction
    double images_per_second = 0.0;
    double cpu_util = 0.0;         // system, all cores, [0, 1]
    double process_cpu_util = 0.0; // this process, [0, 1] of all cores
    double rss_mb = 0.0;
    std::optional<double> allreduce_time; // seconds averaging gradients; distributed runs only
    std::vector<system::GpuSample> gpus;  // the run's GPUs; values NVML cannot give are absent
};

struct RunSummary {
    enum class Status { Finished, Cancelled };
    Status status = Status::Finished;
    std::int64_t steps = 0;
    double last_loss = 0.0;
    double seconds = 0.0;
    std::int64_t skipped_images = 0;
    std::filesystem::path checkpoint;
    std::filesystem::path exported_model; // empty when cancelled
    std::optional<system::Advice> advice; // where the time went (the last steps), if any ran
};

// Receives a run's events on the training thread; keep the work short.
class TrainObserver {
public:
    virtual ~TrainObserver() = default;
    virtual void on_start(const TrainConfig& config, std::int64_t dataset_size,
                          std::int64_t total_steps) {
        (void)config, (void)dataset_size, (void)total_steps;
    }
    virtual void on_step(const StepMetrics& metrics) { (void)metrics; }
    virtual void on_epoch_end(std::int64_t epoch, double mean_loss) {
        (void)epoch, (void)mean_loss;
    }
    virtual void on_end(const RunSummary& summary) { (void)summary; }
    // Just before a checkpoint is written: what observers keep must cover every step in it,
    // or a resumed run would leave a gap.
    virtual void before_checkpoint(const std::filesystem::path& path) { (void)path; }
    // Before on_start when the run continues from a checkpoint made after `step` steps.
    virtual void on_resume(std::int64_t step) { (void)step; }
    // The run stopped with an error (instead of on_end); the error is rethrown afterwards.
    virtual void on_failure(const std::string& message) { (void)message; }
};

// Pretrains config.model with config.method on config.data, writing into config.out:
// config.json, checkpoints/last.ckpt (every epoch, and every
// callbacks.model_checkpoint.every_n_steps steps), exported_models/exported_last.pt.
// `config` must be resolved (resolve_train_config). A stop request ends the run after the
// current step with a checkpoint; a non-finite loss is a kiln::Error that keeps the last good
// checkpoint. With num_nodes x devices > 1 it trains with distributed data parallel: it starts
// this node's other ranks and runs the first itself (or, under an external launcher such as
// torchrun, runs the rank the environment names); only rank 0 writes and reports.
// Runs on CPU; other accelerators are refused with a kiln::Error for now.
RunSummary train(const TrainConfig& config, TrainObserver& observer, StopToken stop = {});

// The whole of a rank process Kiln started (main() with distributed::kRankProcessArgument):
// reads the resolved config as JSON from stdin and trains as the rank the environment names.
// Ctrl-C is left to the launcher, which stops every rank after the same step. Errors go to
// stderr as "error: ..." lines, which the launcher reports. Returns the exit code: 0 finished,
// 130 stopped, 1 failed.
int rank_process_main();

// The backbone weights in out/exported_models/exported_last.pt, readable by Python's torch.load.
std::filesystem::path exported_model_path(const std::filesystem::path& out);
std::filesystem::path last_checkpoint_path(const std::filesystem::path& out);

} // namespace kiln::train
