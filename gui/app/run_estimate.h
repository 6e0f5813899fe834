#pragma once

#include "common/background_job.h"
#include "data/sample_source.h"
#include "train/step_probe.h"

#include <QMap>
#include <QObject>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>

namespace kiln::gui {

struct DatasetStats;
struct ProjectPages;

// A run as the estimates' probes step it (run_estimate.cpp's probedRun).
struct ProbedRun {
    train::MakeProbedModel model;
    std::vector<data::ViewShape> views;
    QString key; // its model, method, method_args, dataset size (pretraining) and views
    int parameter_copies = 0; // its optimizer's state and weight average (train::StepMemory)
};

// The run configuration's estimates.
// Run time: the dataset's images (once scanned) times the epochs, at the speed of the project's
// newest run of the same model, task and image size; before there is one, at the speed measured
// on this computer's CPU (once per model, method and views, the method's heads and teacher
// included).
// Memory, for a CPU run of one process: what a training step of the batch needs against the
// free memory, as the trainer checks it before its first step (train/step_memory), from what a
// step of the model (a pretraining method's heads included) takes and what one more sample of
// the run's views adds to it (probed once per model, method and views), so that a run Train
// would refuse, or one that may not fit, is named before it starts.
// Each probe runs on a thread, one at a time, never beside a job: it would take the job's cores.
class RunEstimate : public QObject {
    Q_OBJECT

public:
    RunEstimate(const ProjectPages* pages, std::function<bool()> busy, QObject* parent);
    ~RunEstimate() override;

    void update();
    void stopMeasuring(); // a job starts

private:
    void updateTime(const nlohmann::json& settings, const DatasetStats* stats,
                    const std::optional<ProbedRun>& probed, bool stepFits);
    // True when Train would refuse the run: its step cannot fit in the free memory.
    bool updateMemory(const nlohmann::json& settings, const std::optional<ProbedRun>& run);
    void estimateFromMeasuredSpeed(const std::optional<ProbedRun>& run, int batch,
                                   const QString& model, int imageSize, qint64 images, int epochs,
                                   bool onCpu);
    void measure(const ProbedRun& run, int batch, const QString& key);
    void probeMemory(const ProbedRun& run);
    bool probing() const { return speedJob_.isRunning() || memoryJob_.isRunning(); }

    const ProjectPages* pages_;
    std::function<bool()> busy_;
    BackgroundJob speedJob_{this, QStringLiteral("training speed probe")};
    // Samples per second measured by train::probe_training_speed, by ProbedRun::key and the
    // samples a step it timed.
    QMap<QString, double> measuredSpeed_;
    BackgroundJob memoryJob_{this, QStringLiteral("training memory probe")};
    // What a step takes (train::probe_step_memory), by ProbedRun::key; 0 a sample where the
    // probe could not tell.
    QMap<QString, train::ProbedStepMemory> probedMemory_;
};

} // namespace kiln::gui
