#include "train/trainer.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/log.h"
#include "distributed/launcher.h"
#include "distributed/process_group.h"
#include "models/backbone_names.h"
#include "models/batch_norm.h"
#include "models/checkpoint_file.h"
#include "runtime/cuda_device.h"
#include "runtime/precision.h"
#include "system/hardware.h"
#include "system/heap_reuse.h"
#include "system/memory.h"
#include "track/loggers.h"
#include "track/run_directory.h"
#include "track/run_lock.h"
#include "train/checkpoint.h"
#include "train/fit_loop.h"
#include "train/optimizer.h"
#include "train/step_memory.h"
#include "train/step_probe.h"
#include "train/strategy.h"
#include "train/weight_average.h"

#include <ATen/CPUGeneratorImpl.h>
#include <algorithm>
#include <chrono>
#include <csignal>
#include <iostream>
#include <optional>
#include <torch/nn/module.h>
#include <torch/types.h>
#include <torch/utils.h>

namespace kiln::train {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double seconds(Clock::duration duration) {
    return std::chrono::duration<double>(duration).count();
}

// This rank's share of the validation split: in order, each image once, whole batches.
data::LoaderOptions validation_options(data::LoaderOptions options) {
    options.shuffle = false;
    options.drop_last = false;
    options.even_shares = false;
    options.fill_batches = false;
    return options;
}

// This rank's share of every global batch, pinned for copies to a GPU.
data::LoaderOptions loader_options(const TrainConfig& config, const Strategy& strategy) {
    data::LoaderOptions options;
    options.batch_size = config.batch_size / strategy.world_size();
    options.num_workers = config.num_workers.value_or(0);
    options.seed = static_cast<std::uint64_t>(config.seed);
    options.rank = strategy.rank();
    options.world_size = strategy.world_size();
    options.pin_memory = strategy.device().is_cuda();
    options.max_image_pixels = config.max_image_pixels;
    options.fill_batches = true;
    return options;
}

// The learning rate scaled linearly with the batch (per 256 images), linear warm-up (at most a
// tenth of the run), cosine decay over every optimizer step; `steps` when given, else `epochs`.
// With max_time the run's length is its time: the fit loop fits the steps to it once it has
// measured the first ones (until then, an upper bound of a thousand epochs).
Schedule schedule_for(const TrainConfig& config, std::int64_t batches_per_epoch) {
    const methods::OptimizerDefaults& optimizer = config.optimizer.chosen;
    const std::int64_t accumulation = config.gradient_accumulation_steps;
    const std::int64_t steps_per_epoch = (batches_per_epoch + accumulation - 1) / accumulation;
    constexpr std::int64_t kTimedEpochsBound = 1000;
    Schedule schedule;
    schedule.time_budget = config.max_time;
    schedule.steps_per_epoch = steps_per_epoch;
    schedule.warmup_epochs = optimizer.warmup_epochs;
    schedule.total_steps = config.max_time ? steps_per_epoch * kTimedEpochsBound
                           : config.steps  ? *config.steps
                                           : steps_per_epoch * config.epochs;
    schedule.epochs = (schedule.total_steps + steps_per_epoch - 1) / steps_per_epoch;
    schedule.validate_every_n_steps = config.task == TaskKind::Pretraining
                                          ? config.knn_monitor.every_n_steps
                                          : config.val_every_n_steps.value_or(0);
    schedule.peak_lr = optimizer.base_lr * config.batch_size * accumulation / 256.0;
    schedule.warmup_steps =
        std::min<std::int64_t>(static_cast<std::int64_t>(optimizer.warmup_epochs * steps_per_epoch),
                               schedule.total_steps / 10);
    schedule.backbone_lr_factor = optimizer.backbone_lr_factor;
    schedule.layer_decay = config.optimizer.layer_decay;
    schedule.head_warmup_steps =
        static_cast<std::int64_t>(config.optimizer.head_warmup_epochs * double(steps_per_epoch));
    return schedule;
}

// overwrite=true deletes only a run's files, and `out` may come from a configuration someone
// else wrote, naming a folder of the user's own: refused before anything (the lock) is written.
void refuse_to_overwrite_foreign_files(const TrainConfig& config) {
    std::error_code error;
    if (!config.overwrite || !fs::is_directory(config.out, error)) {
        return;
    }
    const std::vector<fs::path> foreign = track::RunDirectory(config.out).foreign_entries();
    if (!foreign.empty()) {
        throw Error("out \"" + config.out.string() + "\" holds " + std::to_string(foreign.size()) +
                    " file(s) no Kiln run wrote, such as \"" + foreign.front().filename().string() +
                    "\"; overwrite=true replaces only a run's files: move them, or choose "
                    "another out");
    }
}

void prepare_run_directory(const TrainConfig& config) {
    const track::RunDirectory run(config.out);
    std::error_code error;
    if (config.overwrite && fs::exists(run.root(), error) && !run.remove_run_entries()) {
        throw Error("overwrite=true could not remove the previous run's files in \"" +
                    config.out.string() + "\"; check their permissions");
    }
    // A run folder from someone else may link a run's files elsewhere (train.log appended to,
    // run.db written): refused. Its folders may be links (checkpoints/ on a larger disk).
    for (const auto& entry : fs::directory_iterator(run.root(), error)) {
        if (track::RunDirectory::is_run_entry(entry.path().filename().string()) &&
            entry.is_symlink(error) && !entry.is_directory(error)) {
            throw Error("\"" + entry.path().string() +
                        "\" is a symbolic link; a run writes its files only inside its out: "
                        "remove the link (overwrite=true removes it with the run's other files)");
        }
    }
    if (config.resume_interrupted && !fs::exists(run.last_checkpoint())) {
        // A run stopped before its first checkpoint left its records but nothing to resume
        // from; "drop resume_interrupted" then met "out is not empty".
        const bool stopped_early = fs::exists(run.run_db(), error);
        throw Error("resume_interrupted=true but \"" + run.last_checkpoint().string() +
                    "\" does not exist: " +
                    (stopped_early ? "the run in this out stopped before its first checkpoint, "
                                     "so it cannot be resumed; start it again with "
                                     "overwrite=true instead of resume_interrupted (it replaces "
                                     "only the run's files)"
                                   : "there is no interrupted run to resume in this out; drop "
                                     "resume_interrupted to start a new run"));
    }
    fs::create_directories(run.checkpoints(), error);
    if (error) {
        throw Error("cannot create the run directory \"" + config.out.string() +
                    "\": " + error.message());
    }
}

// What a run changes of the process (LibTorch's thread count, its default generator), put back
// when the run ends: Studio runs jobs in its own process, one after the other.
class ProcessStateScope {
public:
    ProcessStateScope()
        : threads_(torch::get_num_threads()),
          generator_(at::detail::getDefaultCPUGenerator().get_state()) {}
    ~ProcessStateScope() {
        torch::set_num_threads(threads_);
        at::Generator generator = at::detail::getDefaultCPUGenerator(); // shares its state
        generator.set_state(generator_);
    }
    ProcessStateScope(const ProcessStateScope&) = delete;
    ProcessStateScope& operator=(const ProcessStateScope&) = delete;

private:
    int threads_;
    at::Tensor generator_;
};

// Each of this node's processes computes on its share of the cores, all of it: the loader
// threads run beside compute rather than in cores kept from it, because they wait for files
// and leave those cores idle part of each step. On 2 cores with 2 workers, giving compute only
// what the workers left (1 thread) halved a ResNet-18's throughput (bench_distributed,
// bench_lightly_train).
void set_compute_threads(const TrainConfig& config) {
    const int share = system::usable_cpu_cores() / std::max(1, config.devices.value_or(1));
    torch::set_num_threads(std::max(1, share));
}

// This process's device: the CPU, or the GPU of its local rank (which becomes current).
c10::Device device_for(const TrainConfig& config, int local_rank) {
    if (config.accelerator != Accelerator::Cuda) {
        return c10::Device(c10::kCPU);
    }
    const int gpu = config.gpu_indices().at(static_cast<std::size_t>(local_rank));
    runtime::use_cuda_device(gpu);
    return c10::Device(c10::kCUDA, static_cast<c10::DeviceIndex>(gpu));
}

RunSummary run(const TrainConfig& config, TrainObserver& front_end, StopToken stop,
               Strategy& strategy);
RunSummary train_distributed(const TrainConfig& config,
                             std::optional<distributed::RankEnvironment> launched,
                             TrainObserver& observer, StopToken stop);

// A process a launcher started (`launched`: RANK set, as torchrun does) is a rank even of a world
// of one, as under Lightning's DDP strategy, where its collectives' backend was built in.
bool runs_as_a_rank(const TrainConfig& config,
                    const std::optional<distributed::RankEnvironment>& launched) {
    if (config.world_size() > 1) {
        return true;
    }
    return launched && (config.accelerator == Accelerator::Cuda || distributed::gloo_available());
}

} // namespace

RunSummary train(const TrainConfig& config, TrainObserver& observer, StopToken stop) {
    try {
        std::optional<distributed::RankEnvironment> launched =
            distributed::RankEnvironment::from_process();
        if (runs_as_a_rank(config, launched)) {
            return train_distributed(config, std::move(launched), observer, std::move(stop));
        }
        SingleDevice strategy(device_for(config, 0));
        return run(config, observer, std::move(stop), strategy);
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
// of its node), this process is the rank `launched` (the environment) names. Otherwise
// (nullopt) it starts this node's other ranks and runs the node's first rank itself, as
// Lightning does.
RunSummary train_distributed(const TrainConfig& config,
                             std::optional<distributed::RankEnvironment> launched,
                             TrainObserver& observer, StopToken stop) {
    std::optional<distributed::RankEnvironment> environment = std::move(launched);
    const bool kiln_starts_the_ranks = !environment.has_value();
    if (kiln_starts_the_ranks) {
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
    const c10::Device device = device_for(config, environment->local_rank);
    distributed::ProcessGroup group(*environment, timeout, device);
    if (kiln_starts_the_ranks && environment->local_world_size > 1) {
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
    DataParallel strategy(device, group, config.sync_batchnorm);
    RunSummary summary = run(config, observer, std::move(stop), strategy);
    if (local_ranks) {
        local_ranks->wait_for_exit(timeout);
    }
    return summary;
}

// One process's run: setup that can still reject the settings, then the run folder, then the
// loop. Only the rank that writes opens the run folder and reports.
// The task's model on the strategy's device, training, its batch norms synchronised when asked.
void place_module(Task& task, const TrainConfig& config, Strategy& strategy,
                  const runtime::PrecisionPolicy& precision) {
    torch::nn::Module& module = task.module();
    runtime::move_module(module, strategy.device(), precision.storage_dtype(),
                         runtime::memory_format_for(config.precision));
    module.train();
    task.set_process_group(strategy.group());
    if (config.sync_batchnorm) {
        models::synchronize_batch_norms(module, strategy.group());
    }
}

// The settings a run goes on with and, when it resumes, its last checkpoint, read once for both
// the settings it recorded and the state it goes on from.
struct Resumption {
    TrainConfig config;
    std::optional<models::Archive> checkpoint;
};

// Another model's or method's weights do not load into this one: said as such, not as a tensor
// missing from a damaged file.
void refuse_resuming_another_model(const TrainConfig& given, const nlohmann::json& recorded,
                                   const fs::path& checkpoint) {
    if (!recorded.is_object()) {
        return;
    }
    for (const auto& [key, value] : {std::pair{"model", given.model}, {"method", given.method}}) {
        const nlohmann::json was = recorded.value(key, nlohmann::json());
        if (was.is_string() && was.get<std::string>() != value) {
            throw Error("the interrupted run in \"" + given.out.string() + "\" trained " + key +
                        "=" + was.get<std::string>() + " (\"" + checkpoint.string() +
                        "\"), and this command gives " + key + "=" + value +
                        "; resume with the same " + key + ", or give another out to start anew");
        }
    }
}

// A resumed run goes on as it started: what it leaves on auto takes what the interrupted run
// recorded in its checkpoint (with_interrupted_runs_choices).
Resumption with_interrupted_runs_settings(const TrainConfig& given) {
    const fs::path checkpoint = track::RunDirectory(given.out).last_checkpoint();
    if (!given.resume_interrupted || !fs::exists(checkpoint)) {
        return {given, std::nullopt};
    }
    Resumption resumption{given, std::nullopt};
    try {
        resumption.checkpoint = models::read_checkpoint_file(checkpoint);
    } catch (const Error&) {
        return resumption; // resuming reads the checkpoint again and says what is wrong with it
    }
    if (!resumption.checkpoint) {
        return resumption; // not a checkpoint: resuming says so
    }
    refuse_resuming_another_model(given, models::settings_of(*resumption.checkpoint), checkpoint);
    try {
        resumption.config =
            with_interrupted_runs_choices(given, models::settings_of(*resumption.checkpoint));
    } catch (const Error& error) {
        throw Error("the settings \"" + checkpoint.string() +
                    "\" records cannot be resumed with: " + error.what() +
                    "; set them on the command line");
    }
    return resumption;
}

// An interrupted run's state from its last checkpoint (`read` when it was read already), which
// every rank must see: where it goes on from.
Position resume_from(const fs::path& checkpoint, const std::optional<models::Archive>& read,
                     Strategy& strategy, const TrainingState& state, TrainObserver& observer) {
    if (!strategy.writes() && !fs::exists(checkpoint)) {
        throw Error("rank " + std::to_string(strategy.rank()) + " cannot see \"" +
                    checkpoint.string() +
                    "\" to resume from: put out on a filesystem every node shares");
    }
    const Position position =
        read ? load_checkpoint(*read, state) : load_checkpoint(checkpoint, state);
    log::info("resuming from " + checkpoint.string() + " at epoch " +
              std::to_string(position.epoch + 1) + ", step " +
              std::to_string(position.optimizer_step));
    observer.on_resume(position.optimizer_step);
    return position;
}

// A resumed run goes on with the images there are now; when they changed (their number, or
// their names), its epochs and their order did too, which the user should know.
void warn_if_the_data_changed(const Position& recorded, std::int64_t size,
                              std::uint64_t fingerprint) {
    if (recorded.dataset_size > 0 && recorded.dataset_size != size) {
        log::warning("the data has " + std::to_string(size) +
                     " training images, the interrupted run had " +
                     std::to_string(recorded.dataset_size) +
                     ": it goes on with those there are now, in epochs of their size");
    } else if (recorded.dataset_fingerprint != 0 && recorded.dataset_fingerprint != fingerprint) {
        log::warning("the data's " + std::to_string(size) +
                     " training images are not those the interrupted run had (their names "
                     "differ): it goes on with those there are now");
    }
}

// A finished run's model (its weight average when it keeps one), written by the rank that
// writes once the replicas agree: its path.
fs::path export_finished(Task& task, const TrainConfig& config, Strategy& strategy,
                         WeightAverage* average) {
    strategy.check_replicas_agree(task.module());
    const fs::path exported = track::RunDirectory(config.out).exported_last();
    if (strategy.writes()) {
        fs::create_directories(exported.parent_path());
        const WeightAverage::Scope averaged(average);
        task.export_model(exported);
    }
    return exported;
}

// What the memory check of a run found, for train.log: its estimate, and a warning when a step
// may leave little free.
struct MemoryCheckReport {
    std::string estimate;
    std::string warning;
};

// A CPU run of one process whose step would not fit in the free memory stops here, before its
// first step (where the system would kill it).
MemoryCheckReport check_memory_of_a_step(const TrainConfig& config, const Task& task,
                                         std::int64_t batch, const StopToken& stop) {
    const std::optional<double> available = system::available_memory_mb();
    if (!available || models::is_torchscript_model(config.model)) {
        return {}; // a TorchScript module is not built to be probed
    }
    StepMemory memory{.batch = static_cast<int>(batch),
                      .probed = {},
                      .parameter_copies = parameter_copies(config.optimizer.chosen),
                      .available_mb = *available,
                      .views = task.training_views()};
    std::optional<ProbedStepMemory> probed;
    try {
        probed = probe_step_memory(probed_model(config.task, config.model, config.method,
                                                config.method_args, task.dataset_size(),
                                                optimizer_settings(config.optimizer)),
                                   memory.views, stop);
    } catch (const c10::Error& error) {
        // The estimate only advises: a view size the probe's backbone cannot take (which the
        // run's own model may, with its settings) is not the run's error.
        return {"the memory of a training step was not estimated: " +
                    std::string(error.what_without_backtrace()),
                {}};
    } catch (const std::exception& error) { // a scripted teacher's error at the probe's sizes
        return {"the memory of a training step was not estimated: " + std::string(error.what()),
                {}};
    }
    if (!probed) {
        return {};
    }
    memory.probed = *probed;
    std::string warning = check_step_memory(memory);
    return {step_memory_text(memory), std::move(warning)};
}

// The task for `config`. What it logs while it reads the data (what auto resolved to, warnings
// about the data) comes before the run's files exist: held in `held_lines`, and written into
// train.log once they do. Warnings reach the terminal and Studio when raised.
std::unique_ptr<Task> make_task_holding_lines(const TrainConfig& config,
                                              std::vector<log::Line>& held_lines) {
    const log::ScopedSink hold([&held_lines](log::Level level, const std::string& message) {
        if (level >= log::Level::Info) {
            held_lines.push_back({level, message});
        }
    });
    return make_task(config);
}

// The run folder as this process holds it. The rank that writes it refuses it when it holds
// others' files, claims it (the run lock), prepares it, writes config.json and opens the
// loggers; the other ranks hold nothing and report nothing.
struct RunFolder {
    RunFolder(const TrainConfig& config, bool writes, TrainObserver& front_end,
              const std::vector<log::Line>& held_lines, const std::string& memory_warning) {
        if (!writes) {
            return;
        }
        refuse_to_overwrite_foreign_files(config);
        claim.emplace(config.out);
        prepare_run_directory(config);
        write_file_atomically(track::RunDirectory(config.out).config(),
                              to_json(config).dump(2) + "\n");
        tracking = std::make_unique<track::RunTracking>(config, front_end, held_lines);
        if (!memory_warning.empty()) {
            log::warning(memory_warning); // in train.log too: Studio shows no terminal
        }
    }
    TrainObserver& observer() { return tracking ? tracking->observer() : silent; }

    std::optional<track::RunLock> claim;
    std::unique_ptr<track::RunTracking> tracking;
    TrainObserver silent;
};

// How a run that ended (finished or stopped) went, as its observers and callers get it.
RunSummary summary_of(RunSummary::Status status, const Position& position, const FitLoop& loop,
                      const Task& task, const TrainConfig& config, const data::Loader& loader) {
    RunSummary summary;
    summary.status = status;
    summary.steps = position.optimizer_step;
    summary.last_loss = loop.last_loss();
    summary.skipped_images = loader.skipped_files();
    summary.advice = loop.advice();
    summary.watch_metric =
        task.validates() ? task.watch_metric(config.watch_metric) : std::string();
    summary.best_value = loop.best_value();
    summary.best_step = loop.best_step();
    return summary;
}

RunSummary run(const TrainConfig& given, TrainObserver& front_end, StopToken stop,
               Strategy& strategy) {
    const auto started = Clock::now();
    const ProcessStateScope restored_after_the_run;
    const system::HeapReuseScope freed_memory_kept_for_the_next_step;
    set_compute_threads(given);
    wait_for_probes(); // Studio's estimate may be making a model, and would put the seed back
    torch::manual_seed(static_cast<std::uint64_t>(given.seed));
    Resumption resumption = with_interrupted_runs_settings(given);
    const TrainConfig& resumed = resumption.config;
    std::vector<log::Line> held_lines;
    const std::unique_ptr<Task> made = make_task_holding_lines(resumed, held_lines);
    Task& task = *made;
    // What settings left on auto resolved to (the optimizer; the data's image size), written
    // into the config for config.json, run.db and the checkpoints.
    TrainConfig config = with_chosen_optimizer(resumed);
    task.resolve_settings(config);
    runtime::PrecisionPolicy precision(config.precision, strategy.device().type());
    place_module(task, config, strategy, precision);
    const data::LoaderOptions options = loader_options(config, strategy);
    MemoryCheckReport memory_check;
    // Before batches are made, and before the optimizer's state and the weight average, which
    // the check counts.
    if (strategy.device().is_cpu() && strategy.world_size() == 1) {
        memory_check = check_memory_of_a_step(config, task, options.batch_size, stop);
        if (!memory_check.estimate.empty()) {
            held_lines.push_back({log::Level::Info, memory_check.estimate});
        }
    }
    torch::nn::Module& module = task.module();
    const OptimizerArgs& optimizer_args = config.optimizer;
    Optimizer optimizer(optimizer_settings(optimizer_args), trainable_parameters(module));
    std::unique_ptr<WeightAverage> average;
    if (optimizer_args.chosen.ema_decay > 0) {
        average = std::make_unique<WeightAverage>(module, optimizer_args.chosen.ema_decay);
    }
    // Ranks stop together, after a step they all finished: never in the middle of a wait.
    const std::unique_ptr<data::Loader> loader =
        task.make_loader(options, strategy.world_size() > 1 ? StopToken() : stop);
    if (loader->batches_per_epoch() == 0) {
        throw Error("batch_size " + std::to_string(config.batch_size) + " is larger than the " +
                    std::to_string(task.dataset_size()) +
                    " images of the dataset; lower batch_size");
    }
    const Schedule schedule = schedule_for(config, loader->batches_per_epoch());

    RunFolder folder(config, strategy.writes(), front_end, held_lines, memory_check.warning);
    TrainObserver& observer = folder.observer();
    strategy.barrier(); // the run directory is ready (and its checkpoint there to resume)
    try {
        const fs::path checkpoint = track::RunDirectory(config.out).last_checkpoint();
        const std::int64_t dataset_size = task.dataset_size();
        const std::uint64_t fingerprint = task.dataset_fingerprint(); // one pass over the names
        Position position;
        if (config.resume_interrupted) {
            position = resume_from(checkpoint, resumption.checkpoint, strategy,
                                   {task, optimizer, precision, average.get()}, observer);
            resumption.checkpoint.reset(); // the model holds its weights now: free the copies
            warn_if_the_data_changed(position, dataset_size, fingerprint);
        }
        position.dataset_size = dataset_size;
        position.dataset_fingerprint = fingerprint;
        strategy.broadcast_state(module); // every rank starts from rank 0's weights
        if (average && !config.resume_interrupted) {
            average->reset(); // from rank 0's weights too
        }
        observer.on_start(config, dataset_size, schedule.total_steps);

        const std::shared_ptr<runtime::EventSource> events =
            strategy.device().is_cuda() ? runtime::cuda_events()
                                        : std::shared_ptr<runtime::EventSource>(
                                              std::make_shared<runtime::WallClockEvents>());
        FitLoop loop(config, task, strategy, precision, optimizer, *loader, observer,
                     std::move(stop), schedule, events, validation_options(options), average.get());
        RunSummary summary = summary_of(loop.run(position), position, loop, task, config, *loader);
        summary.checkpoint = checkpoint;
        if (summary.status == RunSummary::Status::Finished) {
            summary.exported_model = export_finished(task, config, strategy, average.get());
        }
        if (precision.scales_loss() && precision.scaler().skipped_steps() > 0) {
            log::info(std::to_string(precision.scaler().skipped_steps()) +
                      " optimizer steps were skipped for gradients that overflowed float16");
        }
        summary.seconds = seconds(Clock::now() - started);
        observer.on_end(summary);
        return summary;
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
