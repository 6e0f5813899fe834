#include "app/run_estimate.h"

#include "app/project_pages.h"
#include "data/image_sizes.h"
#include "data/view_transform.h"
#include "datasets/dataset_scan.h"
#include "datasets/datasets_page.h"
#include "runs/run_history.h"
#include "track/remaining_time.h"
#include "train/step_probe.h"
#include "training/run_config_form.h"

#include <QDir>
#include <QFileInfo>

namespace kiln::gui {
namespace {

QString speedKey(const QString& model, int imageSize, int views) {
    return QStringLiteral("%1@%2/%3").arg(model).arg(imageSize).arg(views);
}

// The side a run of `settings` trains at: image_size as given, or auto resolved from the
// scanned images as the engine will; 0 when unknown.
int trainingImageSize(const nlohmann::json& settings, const DatasetStats& stats) {
    const nlohmann::json size = settings.value("transform_args", nlohmann::json::object())
                                    .value("image_size", nlohmann::json("auto"));
    const nlohmann::json side = size.is_array() && !size.empty() ? size[0] : size;
    if (side.is_number_integer()) {
        return side.get<int>();
    }
    if (size != "auto" || stats.sizes.empty()) {
        return 0;
    }
    // The height the run will resolve auto to, as the engine does it.
    return settings.value("task", std::string("pretrain")) == "pretrain"
               ? data::auto_view_size(stats.sizes, data::kMethodViewSide).height
               : data::auto_image_size(stats.sizes).height;
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

} // namespace

RunEstimate::RunEstimate(const ProjectPages* pages, std::function<bool()> busy, QObject* parent)
    : QObject(parent), pages_(pages), busy_(std::move(busy)) {}

RunEstimate::~RunEstimate() {
    speedJob_.stopAndWait();
}

void RunEstimate::stopMeasuring() {
    speedJob_.stop();
}

void RunEstimate::update() {
    RunConfigForm* form = pages_->runConfig;
    const nlohmann::json settings = form->settings();
    const DatasetStats* stats = pages_->datasets->stats(trainingImages(settings));
    if (stats == nullptr || stats->images == 0 || settings.contains("max_time") ||
        settings.contains("steps")) {
        form->setEstimate({}); // the Datasets tab scans the dataset it shows; or a length is given
        return;
    }
    const std::string task = settings.value("task", std::string("pretrain"));
    const QString model = QString::fromStdString(settings.value("model", std::string()));
    const QString method = QString::fromStdString(settings.value("method", std::string()));
    const int image_size = trainingImageSize(settings, *stats);
    const int epochs = settings.value("epochs", 0);
    for (const RunRow& run : pages_->runHistory->model()->runs()) { // newest first
        const bool same_task =
            task == "pretrain" ? run.method == method : run.task == QString::fromStdString(task);
        if (run.images_per_second > 0 && run.model == model && same_task &&
            run.image_size == image_size) {
            const double seconds = double(stats->images) * double(epochs) / run.images_per_second;
            form->setEstimate(
                tr("Estimated run time: about %1 (%2 images x %3 epochs at %4 images/s, the speed "
                   "of run %5)")
                    .arg(QString::fromStdString(track::clock_text(seconds)))
                    .arg(stats->images)
                    .arg(epochs)
                    .arg(run.images_per_second, 0, 'f', 0)
                    .arg(QFileInfo(run.directory).fileName()));
            return;
        }
    }
    const std::string accelerator = settings.value("accelerator", std::string("auto"));
    const bool on_cpu =
        accelerator == "cpu" || (accelerator == "auto" && !form->hardware().cuda_available());
    estimateFromMeasuredSpeed(model, image_size, task == "pretrain", stats->images, epochs, on_cpu);
}

void RunEstimate::estimateFromMeasuredSpeed(const QString& model, int imageSize, bool pretraining,
                                            qint64 images, int epochs, bool onCpu) {
    const int views = pretraining ? 2 : 1; // a method's pair of views, or the image itself
    const QString key = speedKey(model, imageSize, views);
    if (const auto measured = measuredSpeed_.constFind(key);
        onCpu && measured != measuredSpeed_.constEnd() && *measured > 0) {
        const double seconds = double(images) * double(epochs) / *measured;
        pages_->runConfig->setEstimate(
            tr("Estimated run time: about %1 (%2 images x %3 epochs at about %4 images/s, "
               "measured for %5 at %6 px on this computer's CPU, computing only; the first "
               "run's own speed replaces it)")
                .arg(QString::fromStdString(track::clock_text(seconds)))
                .arg(images)
                .arg(epochs)
                .arg(*measured, 0, 'f', 0)
                .arg(model)
                .arg(imageSize));
        return;
    }
    if (!onCpu || imageSize <= 0 || busy_() || measuredSpeed_.contains(key) ||
        speedJob_.isRunning()) {
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
    measure(model, imageSize, views);
}

void RunEstimate::measure(const QString& model, int imageSize, int views) {
    auto speed = std::make_shared<double>(0.0);
    speedJob_.start(
        [speed, model, imageSize, views](const StopToken& stop) {
            try {
                *speed = train::probe_training_speed(model.toStdString(), imageSize, views, stop);
            } catch (const std::exception&) {
                // An unknown model: the form names it; the estimate waits for a run
            }
            if (stop.stop_requested()) {
                *speed = -1.0; // a run started: measured another time
            }
        },
        [this, speed, key = speedKey(model, imageSize, views)] {
            if (*speed >= 0) {
                measuredSpeed_.insert(key, *speed);
            }
            update();
        });
}

} // namespace kiln::gui
