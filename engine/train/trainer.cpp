#include "train/trainer.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/json_args.h"
#include "core/log.h"
#include "data/dataset_index.h"
#include "data/loader.h"
#include "methods/method.h"
#include "system/hardware.h"
#include "system/system_sampler.h"
#include "track/fan_out.h"
#include "track/loggers.h"
#include "track/run_files.h"
#include "track/run_recorder.h"
#include "train/optimizer.h"
#include "train/precision.h"
#include "train/step_timer.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/autocast_mode.h>
#include <chrono>
#include <cmath>
#include <deque>
#include <sstream>
#include <thread>
#include <torch/serialize.h>
#include <torch/utils.h>

namespace kiln::train {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr std::int64_t kCheckpointFormat = 1;

double seconds(Clock::duration duration) {
    return std::chrono::duration<double>(duration).count();
}

// Where a run stands; saved in every checkpoint.
struct Position {
    std::int64_t epoch = 0;          // the epoch in progress
    std::int64_t next_batch = 0;     // first batch of `epoch` not yet trained on
    std::int64_t optimizer_step = 0; // optimizer steps done
};

struct Schedule {
    double peak_lr = 0.0;
    std::int64_t warmup_steps = 0;
    std::int64_t total_steps = 0;
};

OptimizerSettings optimizer_settings(const TrainConfig& config,
                                     const methods::OptimizerDefaults& defaults, double& base_lr) {
    std::vector<ConfigIssue> issues;
    JsonArgs args(config.optim_args, "optim_args", issues);
    OptimizerSettings settings;
    settings.name = config.optim == "auto" ? defaults.name : config.optim;
    const bool method_optimizer = settings.name == defaults.name;
    base_lr = args.number("lr", method_optimizer ? defaults.base_lr : 0.1, 0.0, 1e9);
    settings.weight_decay =
        args.number("weight_decay", method_optimizer ? defaults.weight_decay : 1e-6, 0.0, 10.0);
    settings.momentum = args.number("momentum", defaults.momentum, 0.0, 1.0);
    const std::vector<double> betas = args.numbers("betas", {0.9, 0.999}, 0.0, 1.0);
    settings.beta1 = betas[0];
    settings.beta2 = betas[1];
    settings.eps = args.number("eps", 1e-8, 0.0, 1.0);
    settings.trust_coefficient = args.number("trust_coefficient", 0.001, 0.0, 10.0);
    args.finish();
    if (!issues.empty()) {
        throw ConfigError(issues);
    }
    return settings;
}

std::int64_t checkpoint_every_n_steps(const TrainConfig& config) {
    std::vector<ConfigIssue> issues;
    JsonArgs callbacks(config.callbacks, "callbacks", issues);
    JsonArgs checkpoint = callbacks.child("model_checkpoint");
    const int every = checkpoint.integer("every_n_steps", 0, 0, 1 << 30);
    checkpoint.finish();
    callbacks.finish();
    if (!issues.empty()) {
        throw ConfigError(issues);
    }
    return every;
}

// The PCI bus ids of the GPUs a run uses, for NVML; none on the CPU.
std::vector<std::string> monitored_gpus(const TrainConfig& config) {
    std::vector<std::string> bus_ids;
    if (config.accelerator != Accelerator::Cuda) {
        return bus_ids;
    }
    for (const system::GpuInfo& gpu : system::probe_hardware().gpus) {
        if (gpu.index < config.devices.value_or(1) && !gpu.pci_bus_id.empty()) {
            bus_ids.push_back(gpu.pci_bus_id);
        }
    }
    return bus_ids;
}

void prepare_run_directory(const TrainConfig& config) {
    std::error_code error;
    if (config.overwrite && fs::exists(config.out, error)) {
        for (const auto& entry : fs::directory_iterator(config.out)) {
            fs::remove_all(entry.path());
        }
    }
    if (config.resume_interrupted && !fs::exists(last_checkpoint_path(config.out))) {
        throw Error("resume_interrupted=true but \"" + last_checkpoint_path(config.out).string() +
                    "\" does not exist: there is no interrupted run to resume in this out; "
                    "drop resume_interrupted to start a new run");
    }
    fs::create_directories(config.out / "checkpoints", error);
    if (error) {
        throw Error("cannot create the run directory \"" + config.out.string() +
                    "\": " + error.message());
    }
}

std::string archive_bytes(torch::serialize::OutputArchive& archive) {
    std::ostringstream stream;
    archive.save_to(stream);
    return stream.str();
}

void save_checkpoint(const fs::path& path, methods::MethodImpl& method, const Optimizer& optimizer,
                     const Position& position, const TrainConfig& config) {
    torch::serialize::OutputArchive archive;
    archive.write("kiln/format", torch::tensor(kCheckpointFormat));
    archive.write("kiln/epoch", torch::tensor(position.epoch));
    archive.write("kiln/next_batch", torch::tensor(position.next_batch));
    archive.write("kiln/optimizer_step", torch::tensor(position.optimizer_step));
    archive.write("kiln/config", c10::IValue(to_json(config).dump()));
    archive.write("kiln/rng", at::detail::getDefaultCPUGenerator().get_state());
    torch::serialize::OutputArchive model;
    method.save(model);
    archive.write("model", model);
    torch::serialize::OutputArchive optimizer_state;
    optimizer.save(optimizer_state);
    archive.write("optimizer", optimizer_state);
    write_file_atomically(path, archive_bytes(archive));
}

Position load_checkpoint(const fs::path& path, methods::MethodImpl& method, Optimizer& optimizer) {
    torch::serialize::InputArchive archive;
    try {
        archive.load_from(path.string());
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
    torch::Tensor rng;
    archive.read("kiln/rng", rng);
    at::Generator generator = at::detail::getDefaultCPUGenerator();
    generator.set_state(rng);
    torch::serialize::InputArchive model;
    archive.read("model", model);
    method.load(model);
    torch::serialize::InputArchive optimizer_state;
    archive.read("optimizer", optimizer_state);
    optimizer.load(optimizer_state);
    return position;
}

// Loader threads and LibTorch's intra-op threads share the cores: compute gets what the
// workers leave, at least one thread.
void set_compute_threads(const TrainConfig& config) {
    torch::set_num_threads(
        std::max(1, system::usable_cpu_cores() - config.num_workers.value_or(0)));
}

RunSummary run(const TrainConfig& config, TrainObserver& observer, StopToken stop);

} // namespace

fs::path exported_model_path(const fs::path& out) {
    return out / "exported_models" / "exported_last.pt";
}

fs::path last_checkpoint_path(const fs::path& out) {
    return out / "checkpoints" / "last.ckpt";
}

RunSummary train(const TrainConfig& config, TrainObserver& observer, StopToken stop) {
    try {
        return run(config, observer, std::move(stop));
    } catch (const c10::Error& error) {
        // LibTorch's messages carry a C++ backtrace that helps nobody running Kiln.
        throw Error(std::string("LibTorch stopped the run: ") + error.what_without_backtrace());
    }
}

namespace {

RunSummary run(const TrainConfig& config, TrainObserver& front_end, StopToken stop) {
    if (config.accelerator != Accelerator::Cpu) {
        throw Error("accelerator=" + to_string(config.accelerator) +
                    ": this build of Kiln trains on cpu only; use accelerator=cpu");
    }
    if (config.world_size() != 1) {
        throw Error("num_nodes x devices = " + std::to_string(config.world_size()) +
                    ": this build of Kiln trains in one process; use devices=1 and num_nodes=1");
    }
    const bool autocast = autocasts_to_bf16(config.precision);
    const torch::Dtype dtype = storage_dtype(config.precision);
    const auto started = Clock::now();
    // Everything that can reject the settings runs before anything is written to `out`.
    set_compute_threads(config);
    torch::manual_seed(static_cast<std::uint64_t>(config.seed));

    const data::DatasetIndex index = data::DatasetIndex::scan(config.data);
    data::TransformArgs transform = data::method_transform(config.method, config.transform_args);
    const methods::Method method =
        methods::make_method(config.method, config.model, config.method_args,
                             static_cast<std::int64_t>(index.size()), transform.num_channels);
    if (config.checkpoint) { // weights only: a fresh run from pretrained weights
        models::load_backbone_weights(*method->backbone(), *config.checkpoint);
        method->backbone_weights_loaded();
    }
    method->to(dtype);
    method->train();

    std::vector<torch::Tensor> trainable;
    for (const torch::Tensor& parameter : method->parameters()) {
        if (parameter.requires_grad()) {
            trainable.push_back(parameter);
        }
    }
    double base_lr = 0.0;
    const methods::OptimizerDefaults defaults = method->optimizer_defaults();
    Optimizer optimizer(optimizer_settings(config, defaults, base_lr), trainable);

    data::LoaderOptions loader_options;
    loader_options.batch_size = config.batch_size / config.world_size();
    loader_options.num_workers = config.num_workers.value_or(0);
    loader_options.seed = static_cast<std::uint64_t>(config.seed);
    data::Loader loader(index, transform, loader_options, stop);

    const std::int64_t batches_per_epoch = loader.batches_per_epoch();
    if (batches_per_epoch == 0) {
        throw Error("batch_size " + std::to_string(config.batch_size) + " is larger than the " +
                    std::to_string(index.size()) + " images of the dataset; lower batch_size");
    }
    const std::int64_t accumulation = config.gradient_accumulation_steps;
    const std::int64_t steps_per_epoch = (batches_per_epoch + accumulation - 1) / accumulation;
    Schedule schedule;
    schedule.total_steps = steps_per_epoch * config.epochs;
    schedule.peak_lr = base_lr * config.batch_size * accumulation / 256.0;
    schedule.warmup_steps =
        std::min<std::int64_t>(static_cast<std::int64_t>(defaults.warmup_epochs * steps_per_epoch),
                               schedule.total_steps / 10);
    const std::int64_t every_n_steps = checkpoint_every_n_steps(config);
    prepare_run_directory(config);
    write_file_atomically(config.out / "config.json", to_json(config).dump(2) + "\n");
    track::RunFiles files(config);
    track::RunRecorder recorder(config);
    const std::vector<std::unique_ptr<TrainObserver>> loggers = track::make_loggers(config);
    std::vector<TrainObserver*> observers = {&files, &recorder};
    for (const auto& logger : loggers) {
        observers.push_back(logger.get());
    }
    observers.push_back(&front_end);
    track::FanOut observer(observers);
    const system::SystemSampler sampler(system::gpus_at(monitored_gpus(config)));
    // The last steps as the bottleneck advisor reads them at the end of the run.
    constexpr std::size_t kAdviceWindow = 100;
    struct AdvisorStep {
        double data_wait;
        double cpu_util;
        std::optional<double> gpu_util; // mean over the run's GPUs, when NVML measured them
        std::uint64_t bytes_read;       // by the loader, so far
        Clock::time_point time;
    };
    std::deque<AdvisorStep> recent;
    try {
        const fs::path checkpoint = last_checkpoint_path(config.out);

        Position position;
        if (config.resume_interrupted) {
            position = load_checkpoint(checkpoint, *method, optimizer);
            log::info("resuming from " + checkpoint.string() + " at epoch " +
                      std::to_string(position.epoch + 1) + ", step " +
                      std::to_string(position.optimizer_step));
            observer.on_resume(position.optimizer_step);
        }
        observer.on_start(config, static_cast<std::int64_t>(index.size()), schedule.total_steps);

        RunSummary summary;
        summary.checkpoint = checkpoint;
        const auto finish = [&](RunSummary::Status status) {
            summary.status = status;
            summary.steps = position.optimizer_step;
            summary.seconds = seconds(Clock::now() - started);
            summary.skipped_images = loader.skipped_files();
            if (!recent.empty()) {
                system::AdvisorWindow window;
                window.cuda = config.accelerator == Accelerator::Cuda;
                for (const AdvisorStep& step : recent) {
                    window.data_waits.push_back(step.data_wait);
                    window.cpu_utils.push_back(step.cpu_util);
                    if (step.gpu_util) {
                        window.gpu_utils.push_back(*step.gpu_util);
                    }
                }
                const double span = seconds(recent.back().time - recent.front().time);
                if (span > 0) {
                    window.read_mb_per_second =
                        double(recent.back().bytes_read - recent.front().bytes_read) / span / 1e6;
                }
                summary.advice = system::advise(std::move(window));
            }
            observer.on_end(summary);
            return summary;
        };

        while (position.epoch < config.epochs) {
            loader.start_epoch(position.epoch, position.next_batch);
            double epoch_loss = 0.0;
            std::int64_t epoch_steps = 0;
            StepTimer timer;
            while (position.next_batch < batches_per_epoch) {
                // One optimizer step: `accumulation` batches (fewer at the end of an epoch).
                const std::int64_t batches =
                    std::min(accumulation, batches_per_epoch - position.next_batch);
                method->set_progress(double(position.optimizer_step) /
                                     double(schedule.total_steps));
                const double lr = warmup_cosine(schedule.peak_lr, position.optimizer_step,
                                                schedule.warmup_steps, schedule.total_steps);
                double step_loss = 0.0;
                std::int64_t images = 0;
                optimizer.zero_grad();
                for (std::int64_t b = 0; b < batches; ++b) {
                    std::optional<data::Batch> batch = loader.next();
                    if (!batch) { // stopped while waiting: keep what the finished steps did
                        observer.before_checkpoint(checkpoint);
                        save_checkpoint(checkpoint, *method, optimizer, position, config);
                        return finish(RunSummary::Status::Cancelled);
                    }
                    timer.begin_compute();
                    std::vector<torch::Tensor> views;
                    for (const at::Tensor& view : batch->views) {
                        views.push_back(view.to(dtype));
                    }
                    at::autocast::set_cpu_enabled(autocast);
                    at::autocast::set_autocast_cpu_dtype(at::kBFloat16);
                    const torch::Tensor loss = method->training_loss(views);
                    at::autocast::set_cpu_enabled(false);
                    at::autocast::clear_cache();
                    (loss.to(torch::kFloat32) / double(batches)).backward();
                    step_loss += loss.item<double>() / double(batches);
                    images += static_cast<std::int64_t>(batch->indices.size());
                    timer.end_compute();
                }
                if (!std::isfinite(step_loss)) {
                    throw Error(
                        std::string("the loss became ") +
                        (std::isnan(step_loss) ? "NaN" : "infinite") + " at step " +
                        std::to_string(position.optimizer_step + 1) +
                        "; training stopped. The last good checkpoint is kept in \"" +
                        checkpoint.string() +
                        "\". Lower the learning rate (optim_args.lr) or use precision=32-true");
                }
                timer.begin_compute();
                method->before_optimizer_step();
                optimizer.step(lr);
                method->after_optimizer_step();
                timer.end_compute();

                position.next_batch += batches;
                ++position.optimizer_step;
                epoch_loss += step_loss;
                ++epoch_steps;
                summary.last_loss = step_loss;

                // The observer and checkpoint below fall into the next cycle's data_time.
                const StepTimer::Times times = timer.finish_cycle();
                StepMetrics metrics;
                metrics.step = position.optimizer_step;
                metrics.total_steps = schedule.total_steps;
                metrics.epoch = position.epoch;
                metrics.epochs = config.epochs;
                metrics.batch_in_epoch = position.next_batch;
                metrics.batches_per_epoch = batches_per_epoch;
                metrics.loss = step_loss;
                metrics.lr = lr;
                metrics.batch_time = times.batch_time;
                metrics.data_time = times.data_time;
                metrics.data_wait = times.data_wait();
                const double cycle = times.batch_time + times.data_time;
                metrics.images_per_second = cycle > 0 ? images * config.world_size() / cycle : 0.0;
                system::SystemSample usage = sampler.latest();
                metrics.cpu_util = usage.system_util;
                metrics.process_cpu_util = usage.process_util;
                metrics.rss_mb = usage.rss_mb;
                metrics.gpus = std::move(usage.gpus);
                // The first step includes start-up: not representative.
                if (metrics.step > 1 && usage.measured) {
                    std::optional<double> gpu_util;
                    double gpu_sum = 0;
                    int gpu_count = 0;
                    for (const system::GpuSample& gpu : metrics.gpus) {
                        if (gpu.util_percent) {
                            gpu_sum += *gpu.util_percent / 100.0;
                            ++gpu_count;
                        }
                    }
                    if (gpu_count > 0) {
                        gpu_util = gpu_sum / gpu_count;
                    }
                    recent.push_back({metrics.data_wait, metrics.cpu_util, gpu_util,
                                      loader.bytes_read(), Clock::now()});
                    if (recent.size() > kAdviceWindow) {
                        recent.pop_front();
                    }
                }
                observer.on_step(metrics);

                const bool epoch_done = position.next_batch >= batches_per_epoch;
                if (epoch_done) {
                    ++position.epoch;
                    position.next_batch = 0;
                    observer.on_epoch_end(position.epoch - 1, epoch_loss / double(epoch_steps));
                }
                if (epoch_done || stop.stop_requested() ||
                    (every_n_steps > 0 && position.optimizer_step % every_n_steps == 0)) {
                    observer.before_checkpoint(checkpoint);
                    save_checkpoint(checkpoint, *method, optimizer, position, config);
                }
                if (stop.stop_requested()) {
                    return finish(RunSummary::Status::Cancelled);
                }
                if (epoch_done) {
                    break;
                }
            }
        }
        fs::create_directories(exported_model_path(config.out).parent_path());
        models::save_backbone_weights(*method->backbone(), exported_model_path(config.out));
        summary.exported_model = exported_model_path(config.out);
        return finish(RunSummary::Status::Finished);
    } catch (const std::exception& error) {
        log::error(error.what()); // into train.log while it is open
        try {
            observer.on_failure(error.what());
        } catch (const std::exception& recording) {
            log::error(std::string("could not record the failure: ") + recording.what());
        }
        throw;
    }
}

} // namespace

} // namespace kiln::train
