#include "app/run_estimate.h"

#include "app/project_pages.h"
#include "config/run_config.h"
#include "config/task_names.h"
#include "core/error.h"
#include "core/json_text.h"
#include "data/image_sizes.h"
#include "data/view_transform.h"
#include "datasets/dataset_scan.h"
#include "datasets/datasets_page.h"
#include "models/backbone_names.h"
#include "runs/run_history.h"
#include "system/memory.h"
#include "train/step_memory.h"
#include "train/step_probe.h"
#include "training/run_config_form.h"

#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <algorithm>
#include <cmath>

namespace kiln::gui {
namespace {

std::optional<TaskKind> taskOf(const nlohmann::json& settings) {
    return task_named(settings.value("task", std::string("pretrain")));
}

bool pretrains(const nlohmann::json& settings) {
    return taskOf(settings) == TaskKind::Pretraining;
}

// What image_size=auto resolves to for the scanned images, as the run's task resolves it.
data::AutoImageSize resolvedAutoSize(const nlohmann::json& settings, const DatasetStats& stats) {
    return pretrains(settings) ? data::auto_view_size(stats.sizes, data::kMethodViewSide)
                               : data::auto_image_size(stats.sizes);
}

// The side a run of `settings` trains at: image_size as given, or auto resolved from the
// scanned images as the engine will; 0 when unknown.
int trainingImageSize(const nlohmann::json& settings, const DatasetStats& stats) {
    nlohmann::json size = setting_in_group(settings, "transform_args", "image_size");
    if (size.is_null()) {
        size = "auto";
    }
    const nlohmann::json side = size.is_array() && !size.empty() ? size[0] : size;
    if (side.is_number_integer()) {
        return side.get<int>();
    }
    if (size != "auto" || stats.sizes.empty()) {
        return 0;
    }
    return resolvedAutoSize(settings, stats).height;
}

// The training images: a folder, or the train split's (its images folder for dense tasks).
QString trainingImages(const nlohmann::json& settings) {
    nlohmann::json data = settings.value("data", nlohmann::json());
    if (data.is_object()) {
        data = data.value("train", nlohmann::json());
    }
    if (data.is_object()) {
        data = data.value("images", nlohmann::json());
    }
    return data.is_string() ? QDir::cleanPath(QString::fromStdString(data.get<std::string>()))
                            : QString();
}

// Whether the run trains on this computer's CPU (accelerator cpu, or auto without CUDA).
bool trainsOnCpu(const nlohmann::json& settings, const system::HardwareInfo& hardware) {
    const std::string accelerator = settings.value("accelerator", std::string("auto"));
    return accelerator == "cpu" || (accelerator == "auto" && !hardware.cuda_available());
}

// Whether the run is one process, the runs whose memory the trainer checks.
bool trainsInOneProcess(const nlohmann::json& settings) {
    const auto one = [&settings](const char* key) {
        const nlohmann::json value = settings.value(key, nlohmann::json("auto"));
        return value == "auto" || value == 1;
    };
    return one("devices") && one("num_nodes");
}

// The views a training sample is seen in, as the run's task will make them (image_size=auto
// resolved from the scanned images); none for settings the form reports as wrong.
std::vector<data::ViewShape> trainingViews(const nlohmann::json& settings,
                                           const DatasetStats& stats) {
    try {
        const nlohmann::json transform_args = data::with_resolved_image_size(
            settings.value("transform_args", nlohmann::json::object()),
            [&] { return resolvedAutoSize(settings, stats); }, false);
        const std::optional<TaskKind> task = taskOf(settings);
        if (!task) {
            return {};
        }
        return data::view_shapes(task_training_transform(
            *task, settings.value("method", std::string()), transform_args));
    } catch (const std::exception&) {
        return {};
    }
}

// The optimizer a run of `settings` trains with, as the trainer resolves it; none while the
// settings cannot be read.
std::optional<OptimizerArgs> chosenOptimizer(const nlohmann::json& settings) {
    try {
        return with_chosen_optimizer(parse_train_config(settings, taskOf(settings).value()))
            .optimizer;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

// What a run of `settings` steps, as the probes step it: its model (a pretraining method
// whole: its heads and teacher are much of a step), its training views, and a key naming both
// (the method's arguments and the dataset's size, which scales their defaults) for the probes'
// results. None while the views are not known.
std::optional<ProbedRun> probedRun(const nlohmann::json& settings, const DatasetStats* stats) {
    const std::optional<TaskKind> task = taskOf(settings);
    if (stats == nullptr || stats->images == 0 || !task) {
        return std::nullopt;
    }
    std::vector<data::ViewShape> views = trainingViews(settings, *stats);
    if (views.empty()) {
        return std::nullopt;
    }
    const bool pretraining = *task == TaskKind::Pretraining;
    const std::string model = settings.value("model", std::string());
    const std::string method = pretraining ? settings.value("method", std::string()) : "";
    const nlohmann::json method_args = pretraining
                                           ? settings.value("method_args", nlohmann::json::object())
                                           : nlohmann::json::object();
    // The dataset's size scales a method's defaults.
    const QString key =
        QString::fromStdString(model + "/" + method + method_args.dump() + "/" +
                               (pretraining ? std::to_string(stats->images) : std::string()) + "@" +
                               train::views_text(views));
    // Its update's temporaries are a step's, and its state copies the trained parameters (as the
    // trainer counts them): AdamW's, the most, while the settings cannot be read.
    const std::optional<OptimizerArgs> chosen = chosenOptimizer(settings);
    const train::OptimizerSettings optimizer =
        chosen ? train::optimizer_settings(*chosen) : train::OptimizerSettings{.name = "adamw"};
    return ProbedRun{
        train::probed_model(*task, model, method, method_args, stats->images, optimizer),
        std::move(views), key + QStringLiteral("/") + QString::fromStdString(optimizer.name),
        chosen ? train::parameter_copies(chosen->chosen) : 2};
}

// A run's length as people say it ("16 minutes", "2 h 10 min"): "15:55" read as minutes or
// hours alike.
QString approximateDuration(double seconds) {
    if (!(seconds < 3.2e9)) { // NaN, or past a century: no estimate worth saying
        return QStringLiteral("-");
    }
    const long long minutes = std::max(1LL, std::llround(seconds / 60.0));
    if (minutes < 60) {
        return RunEstimate::tr("%Ln minute(s)", nullptr, int(minutes));
    }
    if (minutes < 48 * 60) {
        return RunEstimate::tr("%1 h %2 min").arg(minutes / 60).arg(minutes % 60);
    }
    return RunEstimate::tr("%Ln day(s)", nullptr, int((minutes + 12 * 60) / (24 * 60)));
}

// The engine's step_memory_text in the user's language: "Memory: a training step of 128
// samples needs 93 MB to 115 MB on the CPU; 21.9 GB free."
QString stepMemoryText(const train::StepMemory& memory) {
    const auto size = [](double mb) {
        return QLocale().formattedDataSize(qint64(std::ceil(mb * 1024 * 1024)), mb < 1000 ? 0 : 1,
                                           QLocale::DataSizeTraditionalFormat);
    };
    return RunEstimate::tr(
               "Memory: a training step of %Ln sample(s) needs %1 to %2 on the CPU; %3 free.",
               nullptr, memory.batch)
        .arg(size(memory.least_mb(memory.batch)), size(memory.most_mb(memory.batch)),
             size(memory.available_mb));
}

} // namespace

RunEstimate::RunEstimate(const ProjectPages* pages, std::function<bool()> busy, QObject* parent)
    : QObject(parent), pages_(pages), busy_(std::move(busy)) {}

RunEstimate::~RunEstimate() {
    speedJob_.stopAndWait();
    memoryJob_.stopAndWait();
}

void RunEstimate::stopMeasuring() {
    speedJob_.stop();
    memoryJob_.stop();
}

void RunEstimate::update() {
    const nlohmann::json settings = pages_->runConfig->settings();
    const DatasetStats* stats = pages_->datasets->stats(trainingImages(settings));
    const std::optional<ProbedRun> run = probedRun(settings, stats);
    // Memory first: a run Train would refuse has no run time.
    const bool refused = updateMemory(settings, run);
    updateTime(settings, stats, run, !refused);
}

void RunEstimate::updateTime(const nlohmann::json& settings, const DatasetStats* stats,
                             const std::optional<ProbedRun>& probed, bool stepFits) {
    RunConfigForm* form = pages_->runConfig;
    // The Datasets tab scans the dataset it shows; a length may be given; a refused run has none,
    // nor one of no epochs or of views the settings refuse.
    const int epochs = settings.value("epochs", 0);
    if (stats == nullptr || stats->images == 0 || settings.contains("max_time") ||
        settings.contains("steps") || !stepFits || epochs <= 0 ||
        trainingImageSize(settings, *stats) < data::kMinImageSide) {
        form->setEstimate({});
        return;
    }
    const std::string task = settings.value("task", std::string("pretrain"));
    const bool pretraining = pretrains(settings);
    const QString model = QString::fromStdString(settings.value("model", std::string()));
    const QString method = QString::fromStdString(settings.value("method", std::string()));
    const int image_size = trainingImageSize(settings, *stats);
    // A run stopped after a step or two timed mostly its start.
    constexpr qint64 kStepsOfASpeed = 3;
    for (const RunRow& run : pages_->runHistory->model()->runs()) { // newest first
        const bool same_task =
            pretraining ? run.method == method : run.task == QString::fromStdString(task);
        if (run.images_per_second > 0 && run.steps >= kStepsOfASpeed && run.model == model &&
            same_task && run.image_size == image_size) {
            const double seconds = double(stats->images) * double(epochs) / run.images_per_second;
            form->setEstimate(
                tr("Estimated run time: about %1 (%2 images x %3 epochs at %4 images/s, the speed "
                   "of run %5)")
                    .arg(approximateDuration(seconds))
                    .arg(QLocale().toString(stats->images))
                    .arg(epochs)
                    .arg(QLocale().toString(run.images_per_second, 'f', 0))
                    .arg(QFileInfo(run.directory).fileName()));
            return;
        }
    }
    estimateFromMeasuredSpeed(probed, settings.value("batch_size", 0), model, image_size,
                              stats->images, epochs, trainsOnCpu(settings, form->hardware()));
}

bool RunEstimate::updateMemory(const nlohmann::json& settings,
                               const std::optional<ProbedRun>& run) {
    RunConfigForm* form = pages_->runConfig;
    const std::string model = settings.value("model", std::string());
    const int batch = settings.value("batch_size", 0);
    const std::optional<double> available = system::available_memory_mb();
    if (!run || batch <= 0 || !available || !trainsInOneProcess(settings) ||
        !trainsOnCpu(settings, form->hardware()) || models::is_torchscript_model(model)) {
        form->setMemoryEstimate({}, false); // as the trainer: a TorchScript module is not probed
        return false;
    }
    const auto probed = probedMemory_.constFind(run->key);
    if (probed == probedMemory_.constEnd()) {
        const bool can_probe = !busy_() && !probing();
        form->setMemoryEstimate(
            can_probe ? tr("Estimating the memory of a training step...") : QString(), false);
        if (can_probe) {
            probeMemory(*run);
        }
        return false;
    }
    if (probed->per_sample_mb <= 0 && probed->per_step_mb <= 0) { // the probe told nothing
        form->setMemoryEstimate({}, false);
        return false;
    }
    const train::StepMemory memory{.batch = batch,
                                   .probed = *probed,
                                   .parameter_copies = run->parameter_copies,
                                   .available_mb = *available,
                                   .views = run->views};
    try {
        const QString warning = QString::fromStdString(train::check_step_memory(memory));
        const QString text = stepMemoryText(memory);
        form->setMemoryEstimate(warning.isEmpty() ? text : text + QLatin1Char('\n') + warning,
                                !warning.isEmpty());
        return false;
    } catch (const Error& refused) {
        form->setMemoryEstimate(
            tr("Train would stop before the first step: %1").arg(QString::fromUtf8(refused.what())),
            true);
        return true;
    }
}

void RunEstimate::estimateFromMeasuredSpeed(const std::optional<ProbedRun>& run, int batch,
                                            const QString& model, int imageSize, qint64 images,
                                            int epochs, bool onCpu) {
    // Timed in steps of at most the batch: the key names how many.
    const QString key = run && batch > 0
                            ? run->key + QStringLiteral("/%1").arg(
                                             train::plan_speed_probe(run->views, batch).samples)
                            : QString();
    if (const auto measured = measuredSpeed_.constFind(key);
        onCpu && measured != measuredSpeed_.constEnd() && *measured > 0) {
        const double seconds = double(images) * double(epochs) / *measured;
        pages_->runConfig->setEstimate(
            tr("Estimated run time: about %1 (%2 images x %3 epochs at about %4 images/s, "
               "measured for %5 at %6 px on this computer's CPU, computing only; the first "
               "run's own speed replaces it)")
                .arg(approximateDuration(seconds))
                .arg(QLocale().toString(images))
                .arg(epochs)
                .arg(QLocale().toString(*measured, 'f', 0))
                .arg(model)
                .arg(imageSize) +
            (imageSize > train::kLargestTimedSide
                 ? QLatin1Char(' ') +
                       tr("Timed at %1 px and scaled by the pixels.").arg(train::kLargestTimedSide)
                 : QString()));
        return;
    }
    if (key.isEmpty() || !onCpu || imageSize <= 0 || busy_() || measuredSpeed_.contains(key) ||
        probing()) {
        pages_->runConfig->setEstimate(tr("Estimated run time: known once a run of %1 at %2 px "
                                          "has trained in this project")
                                           .arg(model)
                                           .arg(imageSize));
        return;
    }
    pages_->runConfig->setEstimate(
        tr("Estimating the run time: measuring %1 at %2 px on this computer...")
            .arg(model)
            .arg(imageSize));
    measure(*run, batch, key);
}

void RunEstimate::measure(const ProbedRun& run, int batch, const QString& key) {
    auto speed = std::make_shared<double>(0.0);
    speedJob_.start(
        [speed, model = run.model, views = run.views, batch](const StopToken& stop) {
            try {
                *speed = train::probe_training_speed(model, views, batch, stop);
            } catch (const std::exception&) {
                // An unknown model: the form names it; the estimate waits for a run
            }
            if (stop.stop_requested()) {
                *speed = -1.0; // a run started: measured another time
            }
        },
        [this, speed, key] {
            if (*speed >= 0) {
                measuredSpeed_.insert(key, *speed);
            }
            update();
        });
}

void RunEstimate::probeMemory(const ProbedRun& run) {
    auto probed = std::make_shared<std::optional<train::ProbedStepMemory>>();
    memoryJob_.start(
        [probed, model = run.model, views = run.views](const StopToken& stop) {
            try {
                *probed = train::probe_step_memory(model, views, stop);
            } catch (const std::exception&) {
                // A model or view size the probe cannot build: the trainer does not estimate it
            }
            if (stop.stop_requested()) {
                probed->reset(); // a run started: probed another time
            } else if (!probed->has_value()) {
                *probed = train::ProbedStepMemory{}; // nothing to tell
            }
        },
        [this, probed, key = run.key] {
            if (probed->has_value()) {
                probedMemory_.insert(key, **probed);
            }
            update();
        });
}

} // namespace kiln::gui
