#pragma once

#include "common/background_job.h"
#include "datasets/dataset_scan.h"
#include "track/remaining_time.h"
#include "train/trainer.h"

#include <QMainWindow>
#include <QMap>
#include <array>

class QAction;
class QProgressBar;
class QMenu;
class QStackedWidget;
class QTabWidget;

namespace kiln::gui {

class DatasetsPage;
class EmbeddingSession;
class EmbeddingsPage;
class EmbeddingsView;
class LivePlots;
class LivePlotsPage;
class ModelCommands;
class Project;
class RunConfigForm;
class RunHistoryView;
class StartPage;
class TrainingSession;

// The Kiln Studio window: menus, the start page, the open project and the status bar.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);

    Project* project() const { return project_; }
    RunHistoryView* runHistory() const { return runHistory_; }
    RunConfigForm* runConfiguration() const { return runConfig_; }
    LivePlots* livePlots() const;
    TrainingSession* session() const { return session_; }
    EmbeddingSession* embeddingSession() const { return embedding_; }
    EmbeddingsView* embeddingsView() const;

public Q_SLOTS:
    void showAbout();
    // Project commands. Each asks first when unsaved changes would be lost; they return false
    // when the user cancelled or the file could not be read or written (with a message).
    bool newProject();
    bool openProject(const QString& file);
    bool saveProject();
    bool saveProjectAs(const QString& file);
    bool closeProject();
    bool addDataset(const QString& folder);
    // File > Open Demo Project: makes the demo project in the user's data folder on a thread
    // (importing Fashion-MNIST the first time) and opens it.
    void openDemoProject();
    // Run > Train: validates the run configuration (problems shown next to their fields) and
    // trains on the engine thread, into a new folder of the project's runs unless one is set.
    void startTraining();
    // Continues the newest run recorded in `directory` from its last checkpoint, with the
    // settings it was started with.
    void resumeTraining(const QString& directory);
    // File > Export Embeddings: asks for a model, dataset, format and file, then embeds on an
    // engine thread and says where the file is.
    void exportEmbeddings();
    // File > Export Model: asks for a run's model (or `directory`'s), precision, batch, size and
    // file, then writes ONNX on a thread and says what the file holds.
    void exportModel(const QString& directory = {});
    // Run > Predict: asks for a fine-tuning run's model, images and where the results go, then
    // predicts on a thread with progress and says where they are.
    void predict();
    // Opens optimize-dataset for a dataset folder; its result is added to the project.
    void optimizeDataset(const QString& folder);
    void optimizeSelectedDataset();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    enum Tab { kDatasetsTab, kRunConfigurationTab, kLivePlotsTab, kRunHistoryTab, kEmbeddingsTab };
    static constexpr int kTabCount = 5;

    // The window's commands, one member each: the menus, the toolbar and the start page trigger
    // them, and updateActions() enables them by what is open and running.
    struct Actions {
        QAction* newProject = nullptr;
        QAction* openProject = nullptr;
        QAction* openDemoProject = nullptr;
        QAction* saveProject = nullptr;
        QAction* saveProjectAs = nullptr;
        QAction* addDataset = nullptr;
        QAction* exportEmbeddings = nullptr;
        QAction* exportModel = nullptr;
        QAction* closeProject = nullptr;
        QAction* train = nullptr;
        QAction* embed = nullptr;
        QAction* predict = nullptr;
        QAction* stop = nullptr;
        QAction* resume = nullptr;
        std::array<QAction*, kTabCount> views{}; // by Tab
    };

    void beginTraining(const kiln::TrainConfig& config);
    void showStep(const kiln::train::StepMetrics& metrics);
    void trainingFinished(const kiln::train::RunSummary& summary);
    void createMenus();
    void createFileMenu();
    void createEditMenu();
    void createRunMenu();
    void createToolBar();
    void createViewMenu();
    void createHelpMenu();
    QWidget* createProjectPage();
    void connectSessions();
    QAction* addAction(QMenu* menu, const QString& objectName, const QString& text,
                       const QKeySequence& shortcut = {});
    void restoreWindowState();
    void setProject(Project* project);
    // Save, discard or cancel when the project has unsaved changes: false means cancel.
    // True when the project has a file; otherwise offers to save it (saying `why`), and is
    // true once it was saved.
    bool ensureProjectSaved(const QString& why);
    bool maybeSaveChanges();
    bool refuseWhileBusy();
    void showError(const QString& text);
    void showInformation(const QString& text);
    void updatePretrainedRuns();
    // Live Plots show the project's newest run when it opens.
    void showLastRun();
    // The GPUs, probed on a thread, into the status bar and the run form.
    void probeHardware();
    // The run configuration's estimated run time: the dataset's images (once scanned) times the
    // epochs, at the speed of the project's newest run of the same model, task and image size.
    void updateEstimate();
    // Before a project has a run of the model at the size: from the machine's measured speed.
    void estimateFromMeasuredSpeed(const QString& model, int imageSize, bool pretraining,
                                   qint64 images, int epochs, bool onCpu);
    bool busy() const; // training or embedding
    // The project's newest run when it was stopped or interrupted and has a checkpoint to
    // continue from (Run > Resume); empty otherwise.
    QString resumableRun() const;
    void rememberRecent(const QString& file);
    void updateRecentMenu();
    void updateTitle();
    void updateActions();

    Actions actions_;
    Project* project_ = nullptr;
    QStackedWidget* pages_ = nullptr;
    StartPage* startPage_ = nullptr;
    BackgroundJob demoJob_{this, QStringLiteral("demo project")};
    BackgroundJob historyJob_{this, QStringLiteral("last run's history")};
    BackgroundJob speedJob_{this, QStringLiteral("training speed probe")};
    BackgroundJob hardwareJob_{this, QStringLiteral("hardware probe")};
    // Images per second measured by train::probe_training_speed, by "model@size/views".
    QMap<QString, double> measuredSpeed_;
    DatasetsPage* datasetsPage_ = nullptr;
    QTabWidget* projectTabs_ = nullptr;
    RunHistoryView* runHistory_ = nullptr;
    RunConfigForm* runConfig_ = nullptr;
    LivePlotsPage* livePlotsPage_ = nullptr;
    QString lastRunDirectory_; // of the run started last in this window (Live Plots' Resume)
    QString trainedDataset_;   // the data of the current or last run
    QProgressBar* progress_ = nullptr;
    track::RemainingTime remaining_; // the ETA of the run in progress
    TrainingSession* session_ = nullptr;
    EmbeddingSession* embedding_ = nullptr;
    ModelCommands* modelCommands_ = nullptr; // Export Model and Predict
    EmbeddingsPage* embeddingsPage_ = nullptr;
    QMenu* recentMenu_ = nullptr;
};

} // namespace kiln::gui
