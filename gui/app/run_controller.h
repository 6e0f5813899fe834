#pragma once

#include "common/background_job.h"
#include "config/run_config.h"

#include <QObject>

class QWidget;

namespace kiln::track {
struct RunSummary;
}

namespace kiln::gui {

class JobController;
class Project;
class ProjectController;
struct ProjectPages;

// The commands that run something in the open project: Train (into a new run folder named by
// the time, keeping the form's settings as the project's "last" preset), Resume, Export
// Embeddings, Export Model, Predict and Optimize Dataset, with the pages they report to.
class RunController : public QObject {
    Q_OBJECT

public:
    RunController(QWidget* window, ProjectController* projects, JobController* jobs,
                  const ProjectPages* pages);
    ~RunController() override;

    // Run > Train: validates the run configuration (problems shown next to their fields) and
    // trains on the engine thread, into a new folder of the project's runs unless one is set.
    void startTraining();
    // Continues the newest run recorded in `directory` from its last checkpoint, with the
    // settings it was started with.
    void resumeTraining(const QString& directory);
    // The project's newest run when it was stopped or interrupted and has a checkpoint to
    // continue from (Run > Resume); empty otherwise.
    QString resumableRun() const;
    // File > Export Embeddings: asks for a model, dataset, format and file, then embeds.
    void exportEmbeddings();
    // File > Export Model: asks for a run's model (or `directory`'s), precision, batch, size and
    // file, then writes ONNX.
    void exportModel(const QString& directory = {});
    // Run > Predict: asks for a fine-tuning run's model, images and where the results go.
    void predict();
    // Optimize Dataset for `folder`; its result joins the project.
    void optimizeDataset(const QString& folder);
    // A project opened: its last run settings in the form, its newest run in Live Plots.
    void showProject(Project* project);

Q_SIGNALS:
    void trainingStarted();

private:
    void beginTraining(const kiln::TrainConfig& config);
    void trainingFinished(const kiln::track::RunSummary& summary);
    QString newRunFolder() const;
    void keepLastSettings();
    void restoreLastSettings();
    void updatePretrainedRuns();
    void showLastRun();
    bool readyFor(const QString& why) const; // a project, no job, saved

    QWidget* window_;
    ProjectController* projects_;
    JobController* jobs_;
    const ProjectPages* pages_;
    BackgroundJob historyJob_{this, QStringLiteral("last run's history")};
    QString lastRunDirectory_; // of the run started last in this window (Live Plots' Resume)
    QString trainedDataset_;   // the data of the current or last run
};

} // namespace kiln::gui
