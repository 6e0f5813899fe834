#pragma once

#include "config/run_config.h"
#include "core/stop_token.h"
#include "runtime/step_timer.h"
#include "system/system_sampler.h"
#include "train/advice_window.h"
#include "train/checkpoint.h"
#include "train/events.h"
#include "train/task.h"

#include <chrono>
#include <deque>
#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

namespace kiln::runtime {
class PrecisionPolicy;
}

namespace kiln::train {

class Optimizer;
class Strategy;
class WeightAverage;

struct Schedule {
    double peak_lr = 0.0;
    std::int64_t warmup_steps = 0;
    std::int64_t total_steps = 0;
    std::int64_t epochs = 0; // enough to hold total_steps; the last may end early
    // Fine-tuning: validate every this many steps; 0: after each epoch.
    std::int64_t validate_every_n_steps = 0;
    // max_time: the run's length in wall seconds; total_steps is then refitted as it trains.
    std::optional<double> time_budget;
    std::int64_t steps_per_epoch = 1;
    double warmup_epochs = 0.0;
    // Fine-tuning: the pretrained backbone's share of the learning rate, and the first steps
    // in which only the new head learns.
    double backbone_lr_factor = 1.0;
    double layer_decay = 1.0; // each backbone layer's rate against the one above it
    std::int64_t head_warmup_steps = 0;
};

// The backbone's learning-rate scale at `step`: 0 during head warm-up, then its factor.
double backbone_lr_scale(const Schedule& schedule, std::int64_t step);

// With a time budget: the total steps that end the run when `budget` seconds are spent, after
// `steps` steps took `seconds_per_step` each and `spent` seconds in all, keeping `reserve`
// seconds for the final validation and checkpoint. Never fewer than `steps`.
std::int64_t steps_within(double budget, double spent, double seconds_per_step, double reserve,
                          std::int64_t steps);

// The parameters of `module` that train (requires_grad).
std::vector<at::Tensor> trainable_parameters(torch::nn::Module& module);
// optim_args.gradient_clip_val: the gradients scaled to a total L2 norm of at most `max_norm`
// (nothing when it is 0).
void clip_gradients(const std::vector<at::Tensor>& parameters, double max_norm);

// The loop over epochs and optimizer steps, as Lightning's fit loop: one step runs a task's
// loss over `gradient_accumulation_steps` batches under the precision policy, has the strategy
// average the gradients, and steps the optimizer; epochs end with on_epoch_end and a
// checkpoint, as do stops and every callbacks.model_checkpoint.every_n_steps steps.
//
// Each step's metrics are reported once its timing events are complete: at once on the CPU
// (wall-clock events), a few steps late on CUDA (the loss is read then too), at most
// kMaxPendingSteps behind, so the device is synchronised only at epoch ends, checkpoints and
// the end. Strategies whose ranks must agree on every step report each step as it ends.
//
// A task that validates is validated every schedule.validate_every_n_steps steps (or after each
// epoch; with a time budget after the epoch that ends each twentieth of it) and at the end; when
// its watched metric (config.watch_metric, higher is better) improves, checkpoints/best.ckpt and
// exported_models/exported_best.pt are written. Metrics a task computes in the background (COCO
// mAP) are reported, against the step they belong to, when they are ready; the weights that were
// validated wait in validated-step-N files for them, so best.ckpt holds those weights. The run
// waits for them only at its end or a stop.
class FitLoop {
public:
    static constexpr std::size_t kMaxPendingSteps = 8;
    // With max_time, the schedule is fitted every this many steps, from the first such steps.
    static constexpr std::int64_t kStepsBeforeTimeFit = 10;
    // With max_time and no val_every_n_steps: at most this many validations in the budget.
    static constexpr double kValidationsPerBudget = 20.0;

    FitLoop(const TrainConfig& config, Task& task, Strategy& strategy,
            runtime::PrecisionPolicy& precision, Optimizer& optimizer, data::Loader& loader,
            TrainObserver& observer, StopToken stop, Schedule schedule,
            std::shared_ptr<runtime::EventSource> events,
            data::LoaderOptions validation_loader = {}, WeightAverage* average = nullptr);

    // Trains from `position` to the end, or until a stop; returns how it ended.
    RunSummary::Status run(Position& position);

    std::optional<double> last_loss() const { return last_loss_; }
    std::optional<system::Advice> advice() const { return advice_.advise(); }
    // The best value of the watched validation metric so far, and its step.
    std::optional<double> best_value() const { return best_value_; }
    std::int64_t best_step() const { return best_step_; }

private:
    RunSummary::Status fit(Position& position);
    std::string what_is_kept() const;
    // A step whose metrics wait for its timing events.
    struct PendingStep {
        StepMetrics metrics;
        at::Tensor loss;
        runtime::StepTimer::Cycle cycle;
        std::int64_t images = 0;
        bool stop_requested = false;
    };

    std::optional<bool> step(Position& position);
    bool report(bool all);
    bool report(PendingStep& pending);
    void save(Position& position);
    void validate(Position& position);
    // Whether there were any (the checkpoint then still lists them).
    bool redo_pending_validations(Position& position);
    std::optional<models::Archive> pending_weights(std::int64_t step,
                                                   const Position& position) const;
    void go_on_with_fitted_schedule(const Position& position);
    void set_total_steps(std::int64_t total); // and the epochs that hold them
    // Reports the validations whose metrics are complete, in order; with `wait`, all of them.
    // Returns whether any was reported.
    bool finish_validations(Position& position, bool wait);

    // A validation reported once its background metrics are in.
    struct PendingValidation {
        ValidationMetrics metrics;
        std::future<LaterMetrics> later;
        bool snapshot = false; // its weights wait in validated-step-N files
    };
    void conclude(PendingValidation& validation, Position& position);

    const TrainConfig& config_;
    Task& task_;
    Strategy& strategy_;
    runtime::PrecisionPolicy& precision_;
    Optimizer& optimizer_;
    WeightAverage* average_; // validated, saved and exported in the weights' place; may be null
    data::Loader& loader_;
    TrainObserver& observer_;
    StopToken stop_;
    Schedule schedule_;
    std::filesystem::path checkpoint_;
    std::optional<std::int64_t> saved_step_; // of the last checkpoint_ written (or resumed)
    std::int64_t every_n_steps_;
    std::vector<at::Tensor> trainable_;
    std::vector<std::vector<at::Tensor>> backbone_; // task_.backbone_layers()
    std::optional<double> backbone_scale_;          // as last given to the optimizer
    Placement placement_;
    runtime::StepTimer timer_;
    system::SystemSampler sampler_;
    AdviceWindow advice_;
    std::deque<PendingStep> pending_;
    std::deque<PendingValidation> validations_;
    data::LoaderOptions validation_loader_;
    std::int64_t validated_step_ = -1;
    std::optional<std::int64_t> cut_short_; // the step whose validation a stop cut short
    std::optional<double> best_value_;
    std::int64_t best_step_ = 0;
    std::optional<double> last_loss_;
    double epoch_loss_ = 0.0;
    std::int64_t epoch_steps_ = 0;
    // max_time: when this process started training, from which step, and what the run had
    // spent before (a resumed run); how long the last validation and checkpoint took.
    std::chrono::steady_clock::time_point started_;
    std::int64_t first_step_ = 0;
    double spent_before_ = 0.0;
    double validation_seconds_ = 0.0;
    double last_validation_at_ = 0.0; // spent_seconds() when the last validation began
    bool validation_due() const;
    double save_seconds_ = 0.0;
    double spent_seconds() const;
    void fit_schedule_to_time(const Position& position);
    void end_if_budget_spent(const Position& position);
};

} // namespace kiln::train
