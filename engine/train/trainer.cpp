#include "train/trainer.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/json_args.h"
#include "core/log.h"
#include "data/dataset_index.h"
#include "data/loader.h"
#include "distributed/launcher.h"
#include "distributed/process_group.h"
#include "methods/method.h"
#include "models/batch_norm.h"
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
#include <csignal>
#include <deque>
#include <iostream>
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

// Loader threads and LibTorch's intra-op threads share the cores: each of this node's
// processes gets its share, and compute gets what the loader workers leave, at least one thread.
void set_compute_threads(const TrainConfig& config) {
    const int share = system::usable_cpu_cores() / std::max(1, config.devices.value_or(1));
    torch::set_num_threads(std::max(1, share - config.num_workers.value_or(0)));
}

// Batch-norm running statistics: the only state that each rank's own batches change.
std::vector<torch::Tensor> batch_norm_statistics(const methods::MethodImpl& method) {
    std::vector<torch::Tensor> statistics;
    for (const auto& buffer : method.named_buffers()) {
        const std::string& name = buffer.key();
        const std::string leaf = name.substr(name.rfind('.') + 1);
        if (leaf == "running_mean" || leaf == "running_var" || leaf == "num_batches_tracked") {
            statistics.push_back(buffer.value());
        }
    }
    return statistics;
}

// Everything rank 0 starts with: parameters and buffers.
std::vector<torch::Tensor> state_of(const methods::MethodImpl& method) {
    std::vector<torch::Tensor> tensors = method.parameters();
    for (const torch::Tensor& buffer : method.buffers()) {
        tensors.push_back(buffer);
    }
    return tensors;
}

// At the end of a distributed run every rank must hold the same weights: the same averaged
// gradients went into the same optimizer. A difference means a rank diverged.
void check_ranks_agree(distributed::ProcessGroup& group, const methods::MethodImpl& method) {
    std::vector<torch::Tensor> flat;
    for (const torch::Tensor& parameter : method.parameters()) {
        flat.push_back(parameter.detach().reshape(-1).to(torch::kFloat64));
    }
    const torch::Tensor mine = torch::cat(flat);
    torch::Tensor highest = mine.clone();
    torch::Tensor lowest = -mine;
    group.all_reduce_max(highest);
    group.all_reduce_max(lowest);
    const double difference = (highest + lowest).abs().max().item<double>();
    if (difference > 0) {
        log::warning("the " + std::to_string(group.world_size()) +
                     " ranks ended with different weights (largest difference " +
                     std::to_string(difference) + "); rank 0's were exported");
    } else {
        log::info("the " + std::to_string(group.world_size()) +
                  " ranks ended with identical weights");
    }
}

RunSummary run(const TrainConfig& config, TrainObserver& observer, StopToken stop,
               distributed::ProcessGroup* group);
RunSummary train_distributed(const TrainConfig& config, TrainObserver& observer, StopToken stop);

} // namespace

fs::path exported_model_path(const fs::path& out) {
    return out / "exported_models" / "exported_last.pt";
}

fs::path last_checkpoint_path(const fs::path& out) {
    return out / "checkpoints" / "last.ckpt";
}

RunSummary train(const TrainConfig& config, TrainObserver& observer, StopToken stop) {
    if (config.accelerator != Accelerator::Cpu) {
        throw Error("accelerator=" + to_string(config.accelerator) +
                    ": this build of Kiln trains on cpu only; use accelerator=cpu");
    }
    try {
        if (config.world_size() > 1) {
            return train_distributed(config, observer, std::move(stop));
        }
        return run(config, observer, std::move(stop), nullptr);
    } catch (const c10::Error& error) {
        // LibTorch's messages carry a C++ backtrace that helps nobody running Kiln.
        throw Error(std::string("LibTorch stopped the run: ") + error.what_without_backtrace());
    }
}

int rank_process_main() {
    std::signal(SIGINT, SIG_IGN);
    try {
        const nlohmann::json settings = nlohmann::json::parse(std::cin);
        TrainObserver quiet; // only rank 0 reports
        const RunSummary summary = train(parse_train_config(settings), quiet);
        return summary.status == RunSummary::Status::Finished ? 0 : 130;
    } catch (const nlohmann::json::exception& error) {
        std::cerr << "error: " << distributed::kRankProcessArgument
                  << " expects the launcher's configuration on stdin: " << error.what() << "\n";
    } catch (const std::exception& error) {
        std::cerr << "error: " << error.what() << "\n";
    }
    return 1;
}

namespace {

// One rank of a distributed run. Started by a launcher (torchrun, or Kiln for the other ranks
// of its node), this process is the rank the environment names. Otherwise it starts this
// node's other ranks and runs the node's first rank itself, as Lightning does.
RunSummary train_distributed(const TrainConfig& config, TrainObserver& observer, StopToken stop) {
    std::optional<distributed::RankEnvironment> environment =
        distributed::RankEnvironment::from_process();
    const bool launched = environment.has_value();
    if (!launched) {
        environment =
            distributed::RankEnvironment::for_node(config.num_nodes, config.devices.value_or(1));
    } else if (environment->world_size != config.world_size()) {
        throw Error("WORLD_SIZE=" + std::to_string(environment->world_size) +
                    " but num_nodes x devices = " + std::to_string(config.world_size()) +
                    ": give the launcher and Kiln the same number of processes, or unset RANK "
                    "and WORLD_SIZE to let Kiln start one process per device");
    }
    const std::chrono::milliseconds timeout = distributed::timeout_from_environment();
    // Declared before the group, so the group's connections close first on the way out and
    // the other ranks see it at once.
    std::unique_ptr<distributed::LocalRanks> local_ranks;
    distributed::ProcessGroup group(*environment, timeout);
    if (!launched && environment->local_world_size > 1) {
        const int port = environment->master_port != 0 ? environment->master_port : group.port();
        local_ranks =
            std::make_unique<distributed::LocalRanks>(to_json(config).dump(), *environment, port);
        group.set_failure_explainer(
            [&local_ranks] { return local_ranks->failure(std::chrono::seconds(3)); });
    }
    group.join([&local_ranks, &stop] {
        if (stop.stop_requested()) {
            throw Error("stopped while waiting for the other ranks to join");
        }
        if (local_ranks) {
            if (const std::optional<std::string> failure = local_ranks->failure()) {
                throw Error(*failure);
            }
        }
    });
    RunSummary summary = run(config, observer, std::move(stop), &group);
    if (local_ranks) {
        local_ranks->wait_for_exit(timeout);
    }
    return summary;
}

RunSummary run(const TrainConfig& config, TrainObserver& front_end, StopToken stop,
               distributed::ProcessGroup* group) {
    // Only the first rank writes the run directory and reports; the others only train.
    const bool writes = group == nullptr || group->rank() == 0;
    const int world_size = group ? group->world_size() : 1;
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
    method->set_process_group(group);
    if (config.sync_batchnorm) {
        models::synchronize_batch_norms(*method, group);
    }

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
    loader_options.batch_size = config.batch_size / world_size;
    loader_options.num_workers = config.num_workers.value_or(0);
    loader_options.seed = static_cast<std::uint64_t>(config.seed);
    loader_options.rank = group ? group->rank() : 0;
    loader_options.world_size = world_size;
    // Ranks stop together, after a step they all finished: never in the middle of a wait.
    data::Loader loader(index, transform, loader_options, group ? StopToken() : stop);

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
    std::unique_ptr<track::RunFiles> files;
    std::unique_ptr<track::RunRecorder> recorder;
    std::vector<std::unique_ptr<TrainObserver>> loggers;
    std::vector<TrainObserver*> observers;
    if (writes) {
        prepare_run_directory(config);
        write_file_atomically(config.out / "config.json", to_json(config).dump(2) + "\n");
        files = std::make_unique<track::RunFiles>(config);
        recorder = std::make_unique<track::RunRecorder>(config);
        loggers = track::make_loggers(config);
        observers = {files.get(), recorder.get()};
        for (const auto& logger : loggers) {
            observers.push_back(logger.get());
        }
        observers.push_back(&front_end);
    }
    track::FanOut observer(observers);
    if (group) {
        group->barrier(); // the run directory is ready (and its checkpoint there to resume)
    }
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
            if (!writes && !fs::exists(checkpoint)) {
                throw Error("rank " + std::to_string(group->rank()) + " cannot see \"" +
                            checkpoint.string() +
                            "\" to resume from: put out on a filesystem every node shares");
            }
            position = load_checkpoint(checkpoint, *method, optimizer);
            log::info("resuming from " + checkpoint.string() + " at epoch " +
                      std::to_string(position.epoch + 1) + ", step " +
                      std::to_string(position.optimizer_step));
            observer.on_resume(position.optimizer_step);
        }
        if (group) { // every rank starts from rank 0's weights (and its loaded checkpoint)
            group->broadcast(state_of(*method));
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
                // Batch-norm statistics follow rank 0's, as DDP's do; synchronised ones agree.
                if (group && !config.sync_batchnorm) {
                    timer.begin_compute();
                    group->broadcast(batch_norm_statistics(*method));
                    timer.end_compute();
                }
                for (std::int64_t b = 0; b < batches; ++b) {
                    std::optional<data::Batch> batch = loader.next();
                    if (!batch) { // stopped while waiting: keep what the finished steps did
                        if (writes) {
                            observer.before_checkpoint(checkpoint);
                            save_checkpoint(checkpoint, *method, optimizer, position, config);
                        }
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
                std::optional<double> allreduce_time;
                if (group) {
                    timer.begin_compute();
                    const auto reduce_started = Clock::now();
                    std::vector<torch::Tensor> gradients;
                    for (const torch::Tensor& parameter : trainable) {
                        if (parameter.grad().defined()) {
                            gradients.push_back(parameter.grad());
                        }
                    }
                    group->average(gradients);
                    torch::Tensor loss = torch::tensor(step_loss, torch::kFloat64);
                    group->all_reduce_sum(loss);
                    step_loss = loss.item<double>() / world_size;
                    allreduce_time = seconds(Clock::now() - reduce_started);
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
                system::SystemSample usage = sampler.latest();
                metrics.cpu_util = usage.system_util;
                metrics.process_cpu_util = usage.process_util;
                metrics.rss_mb = usage.rss_mb;
                metrics.gpus = std::move(usage.gpus);
                metrics.allreduce_time = allreduce_time;
                bool stopping = stop.stop_requested();
                if (group) {
                    // Sums over the ranks of images, memory and utilisation; the slowest
                    // rank's times; a stop asked of any rank stops all of them after this step.
                    torch::Tensor sums = torch::tensor({double(images), metrics.cpu_util,
                                                        metrics.process_cpu_util, metrics.rss_mb},
                                                       torch::kFloat64);
                    torch::Tensor maxima =
                        torch::tensor({metrics.batch_time, metrics.data_time, metrics.data_wait,
                                       allreduce_time.value_or(0.0), stopping ? 1.0 : 0.0},
                                      torch::kFloat64);
                    group->all_reduce_sum(sums);
                    group->all_reduce_max(maxima);
                    images = static_cast<std::int64_t>(sums[0].item<double>());
                    metrics.cpu_util = sums[1].item<double>() / world_size;
                    metrics.process_cpu_util = sums[2].item<double>() / world_size;
                    metrics.rss_mb = sums[3].item<double>();
                    metrics.batch_time = maxima[0].item<double>();
                    metrics.data_time = maxima[1].item<double>();
                    metrics.data_wait = maxima[2].item<double>();
                    metrics.allreduce_time = maxima[3].item<double>();
                    stopping = maxima[4].item<double>() > 0;
                }
                const double cycle = metrics.batch_time + metrics.data_time;
                metrics.images_per_second = cycle > 0 ? double(images) / cycle : 0.0;
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
                if (writes &&
                    (epoch_done || stopping ||
                     (every_n_steps > 0 && position.optimizer_step % every_n_steps == 0))) {
                    observer.before_checkpoint(checkpoint);
                    save_checkpoint(checkpoint, *method, optimizer, position, config);
                }
                if (stopping) {
                    return finish(RunSummary::Status::Cancelled);
                }
                if (epoch_done) {
                    break;
                }
            }
        }
        if (group) {
            check_ranks_agree(*group, *method);
        }
        if (writes) {
            fs::create_directories(exported_model_path(config.out).parent_path());
            models::save_backbone_weights(*method->backbone(), exported_model_path(config.out));
        }
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
