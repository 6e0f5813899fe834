#include "train/fit_loop.h"

#include "config/precision.h"
#include "core/error.h"
#include "core/log.h"
#include "models/checkpoint_file.h"
#include "runtime/precision.h"
#include "system/hardware.h"
#include "track/run_directory.h"
#include "train/optimizer.h"
#include "train/strategy.h"
#include "train/weight_average.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <torch/nn/module.h>
#include <torch/types.h>
#include <torch/utils.h>
#include <utility>

namespace kiln::train {
namespace {

// The PCI bus ids of the GPUs a run uses, for NVML; none on the CPU.
std::vector<std::string> monitored_gpus(const TrainConfig& config) {
    std::vector<std::string> bus_ids;
    if (config.accelerator != Accelerator::Cuda) {
        return bus_ids;
    }
    const std::vector<int> used = config.gpu_indices();
    for (const system::GpuInfo& gpu : system::probe_hardware().gpus) {
        if (std::find(used.begin(), used.end(), gpu.index) != used.end() &&
            !gpu.pci_bus_id.empty()) {
            bus_ids.push_back(gpu.pci_bus_id);
        }
    }
    return bus_ids;
}

// What the run is set to, so that the bottleneck advice can name values to try.
system::AdvisedSettings advised_settings(const TrainConfig& config, Precision precision) {
    system::AdvisedSettings settings;
    for (const auto& [value, name] : precision_names()) {
        if (value == precision) {
            settings.precision = name;
        }
    }
    settings.batch_size = config.batch_size;
    settings.num_workers = config.num_workers.value_or(-1);
    settings.cpu_cores = system::usable_cpu_cores();
    settings.cpu_bf16 = system::cpu_has_bf16();
    return settings;
}

// A run resumed after its data shrank (or its batches grew) can stand past the last batch of its
// epoch in progress: it goes on from the next epoch, where it would otherwise loop forever without
// a batch.
void skip_an_epoch_without_batches_left(Position& position, std::int64_t batches_per_epoch) {
    if (position.next_batch < batches_per_epoch) {
        return;
    }
    log::warning(
        "resuming at batch " + std::to_string(position.next_batch + 1) +
        " of an epoch that now has " + std::to_string(batches_per_epoch) +
        " (the images or batch_size changed since the run was interrupted): going on from epoch " +
        std::to_string(position.epoch + 2));
    ++position.epoch;
    position.next_batch = 0;
}

} // namespace

std::vector<at::Tensor> trainable_parameters(torch::nn::Module& module) {
    std::vector<at::Tensor> trainable;
    for (const at::Tensor& parameter : module.parameters()) {
        if (parameter.requires_grad()) {
            trainable.push_back(parameter);
        }
    }
    return trainable;
}

FitLoop::FitLoop(const TrainConfig& config, Task& task, Strategy& strategy,
                 runtime::PrecisionPolicy& precision, Optimizer& optimizer, data::Loader& loader,
                 TrainObserver& observer, StopToken stop, Schedule schedule,
                 std::shared_ptr<runtime::EventSource> events,
                 data::LoaderOptions validation_loader, WeightAverage* average)
    : config_(config), task_(task), strategy_(strategy), precision_(precision),
      optimizer_(optimizer), average_(average), loader_(loader), observer_(observer),
      stop_(std::move(stop)), schedule_(schedule),
      checkpoint_(track::RunDirectory(config.out).last_checkpoint()),
      every_n_steps_(config.checkpoint_every_n_steps),
      trainable_(trainable_parameters(task.module())), backbone_(task.backbone_layers()),
      placement_{strategy.device(), precision.storage_dtype(),
                 runtime::memory_format_for(precision.precision())},
      timer_(std::move(events)), sampler_(system::gpus_at(monitored_gpus(config))),
      advice_(config.accelerator == Accelerator::Cuda,
              advised_settings(config, precision.precision())),
      validation_loader_(validation_loader) {}

double backbone_lr_scale(const Schedule& schedule, std::int64_t step) {
    return step < schedule.head_warmup_steps ? 0.0 : schedule.backbone_lr_factor;
}

std::int64_t steps_within(double budget, double spent, double seconds_per_step, double reserve,
                          std::int64_t steps) {
    const double left = budget - spent - reserve;
    if (left <= 0 || seconds_per_step <= 0) {
        return steps;
    }
    return steps + static_cast<std::int64_t>(std::floor(left / seconds_per_step));
}

// After each epoch, unless a time budget has many short epochs: then every twentieth of the
// budget, so that validation never takes much of the time.
bool FitLoop::validation_due() const {
    return !schedule_.time_budget ||
           spent_seconds() - last_validation_at_ >= *schedule_.time_budget / kValidationsPerBudget;
}

double FitLoop::spent_seconds() const {
    return spent_before_ +
           std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

// max_time: every few steps, the total steps are fitted to what the budget has left at the
// speed measured so far (validations and checkpoints included), keeping time for the final
// validation and checkpoint; the cosine decay follows, and the run ends when the steps are
// done. Every rank takes the first rank's estimate.
void FitLoop::fit_schedule_to_time(const Position& position) {
    const std::int64_t done = position.optimizer_step - first_step_;
    if (schedule_.time_budget && done > 0 && done < kStepsBeforeTimeFit) {
        end_if_budget_spent(position);
        return;
    }
    if (!schedule_.time_budget || done < kStepsBeforeTimeFit || done % kStepsBeforeTimeFit != 0) {
        return;
    }
    const double spent = spent_seconds();
    const double per_step = (spent - spent_before_) / double(done);
    const double reserve = validation_seconds_ + save_seconds_ + per_step;
    at::Tensor total = torch::zeros({1}, torch::kFloat64);
    if (strategy_.writes()) {
        total[0] = double(steps_within(*schedule_.time_budget, spent, per_step, reserve,
                                       position.optimizer_step));
    }
    total = total.to(strategy_.device());
    if (strategy_.world_size() > 1) {
        strategy_.sum_over_ranks(total);
    }
    set_total_steps(std::max(position.optimizer_step,
                             static_cast<std::int64_t>(total.cpu()[0].item<double>())));
    const auto warmup = std::min<std::int64_t>(
        static_cast<std::int64_t>(schedule_.warmup_epochs * double(schedule_.steps_per_epoch)),
        schedule_.total_steps / 10);
    // A warm-up under way is never cut short (the rate would jump).
    schedule_.warmup_steps = position.optimizer_step < schedule_.warmup_steps
                                 ? std::max(warmup, position.optimizer_step)
                                 : std::min(warmup, schedule_.warmup_steps);
}

// A resumed max_time run goes on with the schedule as last fitted, not the bound it starts from
// (its rate went back into warm-up until the first fit).
void FitLoop::go_on_with_fitted_schedule(const Position& position) {
    if (!schedule_.time_budget || position.fitted_steps.size() != 2) {
        return;
    }
    set_total_steps(std::max(position.optimizer_step, position.fitted_steps[0]));
    schedule_.warmup_steps = position.fitted_steps[1];
}

void FitLoop::set_total_steps(std::int64_t total) {
    schedule_.total_steps = total;
    schedule_.epochs = (schedule_.total_steps + schedule_.steps_per_epoch - 1) /
                       std::max<std::int64_t>(1, schedule_.steps_per_epoch);
}

// A budget spent before the first fit (steps slower than max_time allows): the run ends with
// this step, validated and saved as any run's end, and says so with the fix. Every rank ends
// together, on the first rank's clock.
void FitLoop::end_if_budget_spent(const Position& position) {
    at::Tensor spent = torch::zeros({1}, torch::kFloat64);
    if (strategy_.writes()) {
        spent[0] = spent_seconds() >= *schedule_.time_budget ? 1.0 : 0.0;
    }
    spent = spent.to(strategy_.device());
    if (strategy_.world_size() > 1) {
        strategy_.sum_over_ranks(spent);
    }
    if (spent.cpu()[0].item<double>() == 0.0) {
        return;
    }
    const std::int64_t done = position.optimizer_step - first_step_;
    const double per_step = (spent_seconds() - spent_before_) / double(done);
    set_total_steps(position.optimizer_step);
    if (strategy_.writes()) {
        char text[400];
        std::snprintf(text, sizeof text,
                      "max_time (%.0f s) was spent after %lld step(s) of %.1f s each, before the "
                      "schedule could be fitted to it (that takes %lld steps); the run ends here. "
                      "Give max_time at least %.0f s, or a smaller model, image_size or "
                      "batch_size",
                      *schedule_.time_budget, static_cast<long long>(done), per_step,
                      static_cast<long long>(kStepsBeforeTimeFit),
                      std::ceil(4.0 * kStepsBeforeTimeFit * per_step));
        log::warning(text);
    }
}

// Scales the gradients so that their total L2 norm is at most `max_norm`, on the device and
// without a copy to the host (as torch.nn.utils.clip_grad_norm_ with foreach does).
void clip_gradients(const std::vector<at::Tensor>& parameters, double max_norm) {
    if (max_norm <= 0) {
        return;
    }
    std::vector<at::Tensor> norms;
    for (const at::Tensor& parameter : parameters) {
        if (parameter.grad().defined()) {
            norms.push_back(parameter.grad().detach().norm(2).to(torch::kFloat32));
        }
    }
    if (norms.empty()) {
        return;
    }
    const at::Tensor scale = (max_norm / (at::stack(norms).norm(2) + 1e-6)).clamp_max(1.0);
    for (const at::Tensor& parameter : parameters) {
        if (parameter.grad().defined()) {
            parameter.grad().detach().mul_(scale.to(parameter.grad().dtype()));
        }
    }
}

RunSummary::Status FitLoop::run(Position& position) {
    if (config_.resume_interrupted) {
        saved_step_ = position.optimizer_step; // the checkpoint it resumed from
    }
    try {
        return fit(position);
    } catch (const NonFiniteWeights& poisoned) {
        throw Error(std::string(poisoned.what()) + ". " + what_is_kept());
    }
}

// What a run that diverged leaves to continue from, and what to change.
std::string FitLoop::what_is_kept() const {
    std::string kept =
        saved_step_ ? "\"" + checkpoint_.string() + "\" holds the weights of step " +
                          std::to_string(*saved_step_) + ", the last ones that were finite"
                    : "No checkpoint was written before (one is written after each epoch, and "
                      "every callbacks.model_checkpoint.every_n_steps)";
    return kept + ". Lower the learning rate (optim_args.lr)" +
           (precision_.precision() == Precision::Full32 ? "" : " or use precision=32-true");
}

RunSummary::Status FitLoop::fit(Position& position) {
    const std::int64_t batches_per_epoch = loader_.batches_per_epoch();
    if (strategy_.writes()) {
        track::RunDirectory(config_.out).remove_leftovers(position.pending_validations);
    }
    best_value_ = position.best_value;
    best_step_ = position.best_step;
    validated_step_ = position.validated_step; // a finished run resumed is not validated again
    go_on_with_fitted_schedule(position);
    // The clock runs before the validations redone (they take part of max_time, and they time
    // the next ones).
    started_ = std::chrono::steady_clock::now();
    first_step_ = position.optimizer_step;
    spent_before_ = position.trained_seconds;
    if (redo_pending_validations(position)) {
        save(position); // a stop or kill from here on does not redo them again
    }
    // After the redone validations, which reload the checkpoint's position: before them, an
    // epoch skipped here came back, and the loop never ended.
    skip_an_epoch_without_batches_left(position, batches_per_epoch);
    const auto done = [&] { return position.optimizer_step >= schedule_.total_steps; };
    while (position.epoch < schedule_.epochs && !done()) {
        task_.start_epoch(position.epoch, schedule_.epochs);
        loader_.start_epoch(position.epoch, position.next_batch);
        while (position.next_batch < batches_per_epoch) {
            std::optional<bool> stopping = step(position);
            if (!stopping) { // stopped while waiting: keep what the finished steps did
                finish_validations(position, true);
                save(position);
                return RunSummary::Status::Cancelled;
            }
            finish_validations(position, *stopping);
            fit_schedule_to_time(position);
            const bool epoch_done = position.next_batch >= batches_per_epoch || done();
            if (epoch_done) {
                report(true);
                ++position.epoch;
                position.next_batch = 0;
                observer_.on_epoch_end(position.epoch - 1,
                                       epoch_loss_ /
                                           double(std::max<std::int64_t>(1, epoch_steps_)));
                epoch_loss_ = 0.0;
                epoch_steps_ = 0;
            }
            const std::int64_t every = schedule_.validate_every_n_steps;
            if (task_.validates() && !*stopping &&
                ((every == 0 && epoch_done && validation_due()) ||
                 (every > 0 && position.optimizer_step % every == 0) || done())) {
                validate(position);
            }
            if (epoch_done || *stopping ||
                (every_n_steps_ > 0 && position.optimizer_step % every_n_steps_ == 0)) {
                save(position);
            }
            if (*stopping) {
                return RunSummary::Status::Cancelled;
            }
            if (epoch_done) {
                break;
            }
        }
    }
    report(true);
    bool validated = false;
    if (task_.validates() && validated_step_ != position.optimizer_step) {
        validate(position);
        if (validated_step_ != position.optimizer_step) { // cut short by a stop: not finished
            finish_validations(position, true);
            save(position);
            return RunSummary::Status::Cancelled;
        }
        validated = true;
    }
    if (finish_validations(position, true) || validated) {
        save(position); // with the best value the last validations found
    }
    return RunSummary::Status::Finished;
}

// The checkpoint a pending validation of `step` validated: its own file; the checkpoint resumed
// from for one a stop cut short; best.ckpt when that validation was found best (its file
// renamed) after the checkpoint was written. nullopt when they are gone.
std::optional<models::Archive> FitLoop::pending_weights(std::int64_t step,
                                                        const Position& position) const {
    const track::RunDirectory run(config_.out);
    if (std::filesystem::exists(run.validated_checkpoint(step))) {
        return models::read_checkpoint_file(run.validated_checkpoint(step));
    }
    if (step == position.optimizer_step) {
        return models::read_checkpoint_file(checkpoint_);
    }
    if (!std::filesystem::exists(run.best_checkpoint())) {
        return std::nullopt;
    }
    try {
        std::optional<models::Archive> best = models::read_checkpoint_file(run.best_checkpoint());
        if (best && best->integer(models::checkpoint_key::kOptimizerStep) == step) {
            return best;
        }
    } catch (const Error&) { // a damaged best.ckpt holds no weights to validate
    }
    return std::nullopt;
}

// The validations whose metrics were still being computed when the checkpoint this run resumes
// from was written: validated again on the weights they validated, before training goes on.
bool FitLoop::redo_pending_validations(Position& position) {
    const std::vector<std::int64_t> steps = std::exchange(position.pending_validations, {});
    if (steps.empty() || !task_.validates()) {
        return false;
    }
    const TrainingState state{task_, optimizer_, precision_, average_};
    const track::RunDirectory run(config_.out);
    for (const std::int64_t step : steps) {
        const std::optional<models::Archive> weights = pending_weights(step, position);
        if (!weights) {
            log::warning("the validation of step " + std::to_string(step) +
                         " was still being computed when the run stopped, and its weights (\"" +
                         run.validated_checkpoint(step).string() + "\", or \"" +
                         run.best_checkpoint().string() +
                         "\" once found best) are gone or unreadable: it is not redone");
            continue;
        }
        log::info("validating step " + std::to_string(step) +
                  " again: the run stopped before its metrics were complete");
        Position validated = load_checkpoint(*weights, state);
        validated.pending_validations.clear();
        validate(validated);
        finish_validations(validated, true);
    }
    const Position given = position; // the images this run trains on are its own, as set
    position = load_checkpoint(checkpoint_, state); // back to the weights training goes on from
    position.dataset_size = given.dataset_size;
    position.dataset_fingerprint = given.dataset_fingerprint;
    position.pending_validations.clear();
    position.best_value = best_value_;
    position.best_step = best_step_;
    return true;
}

// Runs the task's validation on every rank; the writing rank reports it and keeps the best.
void FitLoop::validate(Position& position) {
    report(true);
    torch::nn::Module& module = task_.module();
    ValidationContext context{placement_, validation_loader_, stop_,
                              [this](at::Tensor& tensor) { strategy_.sum_over_ranks(tensor); },
                              strategy_.writes()};
    if (strategy_.world_size() > 1) {
        context.stop = StopToken(); // ranks finish the pass together
    }
    const auto started = std::chrono::steady_clock::now();
    last_validation_at_ = spent_seconds();
    Validation validation;
    module.eval();
    {
        const torch::NoGradGuard no_grad;
        const runtime::AutocastScope autocast = precision_.autocast();
        const WeightAverage::Scope averaged(average_);
        // Every rank validates with rank 0's batch-norm statistics (of the weight average when
        // there is one), as they will be saved.
        strategy_.before_step(module);
        validation = task_.validate(context);
    }
    module.train();
    validation_seconds_ =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (context.stop.stop_requested()) {
        cut_short_ = position.optimizer_step; // a partial pass says nothing: redone on resume
        return;
    }
    validated_step_ = position.optimizer_step;
    if (!strategy_.writes()) {
        return;
    }
    // At an epoch's end the position has moved on to the next epoch already.
    const std::int64_t epoch =
        position.next_batch == 0 ? std::max<std::int64_t>(0, position.epoch - 1) : position.epoch;
    PendingValidation pending{{position.optimizer_step, epoch, std::move(validation.values),
                               task_.watch_metric(config_.watch_metric), false,
                               std::move(validation.confusion), std::move(validation.previews),
                               std::move(validation.precision_recall)},
                              std::move(validation.later),
                              false};
    if (pending.later.valid()) {
        const track::RunDirectory run(config_.out);
        save_checkpoint(run.validated_checkpoint(position.optimizer_step),
                        {task_, optimizer_, precision_, average_}, position, config_);
        std::filesystem::create_directories(run.exported_models());
        const WeightAverage::Scope averaged(average_);
        task_.export_model(run.validated_export(position.optimizer_step));
        pending.snapshot = true;
        observer_.on_validation_pending(position.optimizer_step);
    }
    validations_.push_back(std::move(pending));
    finish_validations(position, false);
}

bool FitLoop::finish_validations(Position& position, bool wait) {
    bool reported = false;
    while (!validations_.empty()) {
        PendingValidation& front = validations_.front();
        if (front.later.valid()) {
            if (!wait &&
                front.later.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
                break;
            }
            LaterMetrics later = front.later.get();
            for (auto& value : later.values) {
                front.metrics.values.push_back(std::move(value));
            }
            front.metrics.precision_recall = std::move(later.precision_recall);
        }
        conclude(front, position);
        validations_.pop_front();
        reported = true;
    }
    return reported;
}

void FitLoop::conclude(PendingValidation& validation, Position& position) {
    ValidationMetrics& metrics = validation.metrics;
    const std::vector<std::pair<std::string, double>>& values = metrics.values;
    const auto watched = std::find_if(values.begin(), values.end(), [&](const auto& entry) {
        return entry.first == metrics.watched;
    });
    const track::RunDirectory run(config_.out);
    if (watched == values.end()) {
        std::string known;
        for (const auto& [key, value] : values) {
            known += (known.empty() ? "" : ", ") + key;
        }
        throw Error("watch_metric \"" + metrics.watched +
                    "\" is not among the validation metrics (" + known + "); choose one of them");
    }
    if (!best_value_ || watched->second > *best_value_) {
        best_value_ = watched->second;
        best_step_ = metrics.step;
        position.best_value = best_value_;
        position.best_step = best_step_;
        metrics.best = true;
        if (validation.snapshot) {
            std::filesystem::rename(run.validated_checkpoint(metrics.step), run.best_checkpoint());
            std::filesystem::rename(run.validated_export(metrics.step), run.exported_best());
        } else {
            save_checkpoint(run.best_checkpoint(), {task_, optimizer_, precision_, average_},
                            position, config_);
            std::filesystem::create_directories(run.exported_models());
            const WeightAverage::Scope averaged(average_);
            task_.export_model(run.exported_best());
        }
    } else if (validation.snapshot) {
        std::error_code ignored; // what is left is only a copy of weights already kept
        std::filesystem::remove(run.validated_checkpoint(metrics.step), ignored);
        std::filesystem::remove(run.validated_export(metrics.step), ignored);
    }
    observer_.on_validation(metrics);
}

// One optimizer step over `accumulation` batches (fewer at an epoch's end). nullopt when
// a stop came while waiting for data; otherwise whether to stop after this step.
std::optional<bool> FitLoop::step(Position& position) {
    const std::int64_t batches_per_epoch = loader_.batches_per_epoch();
    const std::int64_t batches = std::min<std::int64_t>(config_.gradient_accumulation_steps,
                                                        batches_per_epoch - position.next_batch);
    task_.set_progress(double(position.optimizer_step) / double(schedule_.total_steps));
    const double lr = warmup_cosine(schedule_.peak_lr, position.optimizer_step,
                                    schedule_.warmup_steps, schedule_.total_steps);
    const double backbone_scale = backbone_lr_scale(schedule_, position.optimizer_step);
    if (backbone_scale != backbone_scale_) {
        for (std::size_t layer = 0; layer < backbone_.size(); ++layer) {
            optimizer_.set_learning_rate_scale(
                backbone_[layer], backbone_scale * std::pow(schedule_.layer_decay,
                                                            double(backbone_.size() - 1 - layer)));
        }
        backbone_scale_ = backbone_scale;
    }
    optimizer_.zero_grad();
    if (strategy_.world_size() > 1) {
        timer_.begin_compute();
        strategy_.before_step(task_.module());
        timer_.end_compute();
    }
    at::Tensor step_loss;
    std::int64_t images = 0;
    for (std::int64_t b = 0; b < batches; ++b) {
        std::optional<data::Batch> batch = loader_.next();
        if (!batch) {
            return std::nullopt;
        }
        timer_.begin_compute();
        at::Tensor loss;
        {
            const runtime::AutocastScope autocast = precision_.autocast();
            loss = task_.training_loss(*batch, placement_);
        }
        precision_.backward(loss / double(batches));
        const at::Tensor share = loss.detach().to(torch::kFloat64) / double(batches);
        step_loss = step_loss.defined() ? step_loss + share : share;
        images += static_cast<std::int64_t>(batch->indices.size());
        timer_.end_compute();
    }
    timer_.begin_compute();
    const std::optional<double> allreduce_time = strategy_.average_gradients(trainable_, step_loss);
    if (precision_.prepare_step(trainable_)) {
        clip_gradients(trainable_, config_.optimizer.chosen.gradient_clip);
        task_.before_optimizer_step();
        optimizer_.step(lr);
        task_.after_optimizer_step();
    }
    precision_.finish_step();
    timer_.end_compute();

    position.next_batch += batches;
    ++position.optimizer_step;
    if (average_ != nullptr) {
        average_->update(position.optimizer_step, schedule_.total_steps);
    }
    PendingStep pending{{}, step_loss, timer_.finish_cycle(), images, stop_.stop_requested()};
    StepMetrics& metrics = pending.metrics;
    metrics.step = position.optimizer_step;
    metrics.total_steps = schedule_.total_steps;
    metrics.epoch = position.epoch;
    metrics.epochs = schedule_.epochs;
    metrics.batch_in_epoch = position.next_batch;
    metrics.batches_per_epoch = batches_per_epoch;
    metrics.lr = lr;
    metrics.allreduce_time = allreduce_time;
    pending_.push_back(std::move(pending));
    // The ranks of a distributed run agree on every step's metrics and on the stop.
    const bool agreed_stop = report(strategy_.synchronous_metrics());
    return strategy_.synchronous_metrics() ? agreed_stop : stop_.stop_requested();
}

// Reports the pending steps whose events are complete (all of them when `all`); returns
// whether a reported step asked to stop.
bool FitLoop::report(bool all) {
    bool stopping = false;
    while (!pending_.empty() &&
           (all || pending_.size() > kMaxPendingSteps || pending_.front().cycle.ready())) {
        stopping = report(pending_.front()) || stopping;
        pending_.pop_front();
    }
    return stopping;
}

bool FitLoop::report(PendingStep& pending) {
    pending.cycle.wait();
    StepMetrics& metrics = pending.metrics;
    metrics.loss = pending.loss.item<double>();
    if (!std::isfinite(metrics.loss)) {
        throw Error(std::string("the loss became ") +
                    (std::isnan(metrics.loss) ? "NaN" : "infinite") + " at step " +
                    std::to_string(metrics.step) + "; training stopped. " + what_is_kept());
    }
    const runtime::StepTimer::Times times = pending.cycle.times();
    metrics.batch_time = times.batch_time;
    metrics.data_time = times.data_time;
    metrics.data_wait = times.data_wait();
    system::SystemSample usage = sampler_.latest();
    metrics.cpu_util = usage.system_util;
    metrics.process_cpu_util = usage.process_util;
    metrics.rss_mb = usage.rss_mb;
    metrics.gpus = std::move(usage.gpus);
    std::int64_t images = pending.images; // this rank's; every rank's after the reduction
    const bool stopping = strategy_.reduce_metrics(metrics, images, pending.stop_requested);
    const double cycle = metrics.batch_time + metrics.data_time;
    metrics.images_per_second = cycle > 0 ? double(images) / cycle : 0.0;
    advice_.add(metrics, usage.measured, loader_.bytes_read(), pending.images);
    last_loss_ = metrics.loss;
    epoch_loss_ += metrics.loss;
    ++epoch_steps_;
    observer_.on_step(metrics);
    return stopping;
}

// Every step before the checkpoint is reported first, so what observers keep covers it.
void FitLoop::save(Position& position) {
    report(true);
    const auto started = std::chrono::steady_clock::now();
    position.trained_seconds = spent_seconds();
    position.pending_validations.clear();
    for (const PendingValidation& validation : validations_) {
        if (validation.snapshot) {
            position.pending_validations.push_back(validation.metrics.step);
        }
    }
    if (cut_short_ == position.optimizer_step) { // these very weights
        position.pending_validations.push_back(*cut_short_);
    }
    position.validated_step = validated_step_;
    if (schedule_.time_budget) {
        position.fitted_steps = {schedule_.total_steps, schedule_.warmup_steps};
    }
    if (strategy_.writes()) {
        observer_.before_checkpoint(checkpoint_);
        try {
            save_checkpoint(checkpoint_, {task_, optimizer_, precision_, average_}, position,
                            config_);
        } catch (const NonFiniteWeights&) {
            throw;                     // said with its fix where the run ends
        } catch (const Error& error) { // a full disk: the last checkpoint written is still whole
            throw Error(std::string(error.what()) + ". The run stopped at step " +
                        std::to_string(position.optimizer_step) +
                        (saved_step_ ? "; its checkpoint of step " + std::to_string(*saved_step_) +
                                           " is kept, and resume_interrupted=true goes on from it"
                                     : ", before its first checkpoint"));
        }
        saved_step_ = position.optimizer_step;
        observer_.on_checkpoint(checkpoint_);
    }
    save_seconds_ =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

} // namespace kiln::train
