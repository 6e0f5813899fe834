#pragma once

#include "config/run_config.h"
#include "project/project.h"
#include "system/hardware.h"

#include <QMap>
#include <QWidget>
#include <nlohmann/json.hpp>
#include <optional>

class QCheckBox;
class QComboBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTimer;
class QToolButton;

namespace kiln::gui {

// The settings of a training run as a form, in LightlyTrain's names: the task (pretraining,
// image classification, semantic segmentation, object detection, instance segmentation), data
// (a project dataset; for fine-tuning also the validation dataset, for semantic segmentation
// the mask folders and class names, for detection the COCO annotation files), the backbone
// to start from (random, or one of the project's pretraining runs), model, method (and for
// distillation the teacher: a project run's exported model or a file), epochs, batch
// size, image size, accelerator (auto, CPU or a CUDA device), devices and nodes (this build trains
// on one; the engine says so), precision (choices the accelerator cannot run are disabled, with the
// reason as tooltip), num_workers (auto shows what it resolves to), TensorBoard and MLflow, output
// folder, seed; under Advanced settings the optimizer, learning rate, weight decay and warm-up
// (blank: the engine's default for the task, method and optimizer, shown in the field),
// gradient accumulation, augmentation (transform_args as JSON), checkpoints every N steps and a
// Weights & Biases project (an offline run). validate() asks the engine's own validator and
// shows each problem under its field.
class RunConfigForm : public QWidget {
    Q_OBJECT

public:
    // The validation choice that holds a share of the training images out (data.val_split).
    static constexpr const char* kHoldOut = "kiln:hold-out";
    static constexpr double kHoldOutShare = 0.1;
    static constexpr int kLiveCheckDelayMs = 300;

    explicit RunConfigForm(QWidget* parent = nullptr);

    void setDatasets(const QList<DatasetEntry>& datasets);
    // The project's runs whose backbone a fine-tuning can start from: their folders, listed
    // under the names Run History gives them (with the folder's when renamed), and their model
    // (RunRow::pretrainedModel), which a distillation takes as its teacher.
    struct PretrainedRun {
        QString directory;
        QString name;
        QString model;
    };
    void setPretrainedRuns(const QList<PretrainedRun>& runs);
    TaskKind task() const;
    void setHardware(const system::HardwareInfo& hardware);
    const system::HardwareInfo& hardware() const { return hardware_; }

    nlohmann::json settings() const;
    // Shows `settings` (a project's, typed by a user or another program): a value of the wrong
    // type or out of range shows as the default, and valueProblems() then names each.
    void setSettings(const nlohmann::json& settings);
    QStringList valueProblems() const { return value_problems_; }

    // The resolved configuration (with `overrides` on top of the form's settings), or nullopt
    // with every problem shown next to its field.
    std::optional<TrainConfig> validate(const nlohmann::json& overrides = nlohmann::json::object());
    // The problem shown for a setting ("data", "epochs", "optim_args.lr") or a row
    // ("augmentation"); empty when none.
    QString issueText(const QString& key) const;
    // A line under the form on how long the run will take; hidden when empty.
    // The name of the field that holds setting `key` (num_workers: "Loader workers",
    // transform_args.image_size: "Image size"); empty when the form has none.
    QString fieldName(const QString& key) const;
    // Sets `key` (dotted: transform_args.image_size) to `value`, read as JSON when it parses
    // (4, 0.5) and as text otherwise (bf16-mixed), as the command line's key=value does.
    void applySetting(const QString& key, const QString& value);
    void setEstimate(const QString& text);
    QString estimate() const;
    // The estimates' lines (run time, memory), under the fields unless a page lays them out
    // elsewhere (Studio's keeps them in view under the scrolling form).
    QWidget* estimates() const { return estimates_; }
    // A line under the run time's on the memory a CPU training step needs against the free
    // memory; `refused` when Train would stop before the first step (shown as an issue).
    void setMemoryEstimate(const QString& text, bool refused);
    QString memoryEstimate() const;
    // Shows or hides the Advanced settings (they apply either way).
    void setAdvancedVisible(bool visible);
    bool advancedVisible() const;

Q_SIGNALS:
    // The user changed a setting (and the form has checked it).
    void settingsEdited();

private:
    void createDataFields();
    QWidget* createTrainingFields();
    void addRows(QWidget* trainFor);
    void createAdvancedSection();
    void layOut();
    void connectFields();
    // Parts of settings(), each writing its settings as the engine reads them.
    nlohmann::json transformArgs() const;
    void writeDevices(nlohmann::json& settings) const;
    void writeData(TaskKind kind, nlohmann::json& settings) const;
    nlohmann::json loggers() const;
    // The optim_args keys the form shows, each with its field.
    std::vector<std::pair<const char*, QLineEdit*>> optimizerFields() const;
    void writeOptimizer(TaskKind kind, nlohmann::json& settings) const;
    QLabel* addRow(const QString& key, const QString& label, QWidget* field);
    // A row for the setting at `path`, with its declared label and section.
    void addSettingRow(const std::string& path, QWidget* field);
    void setTrainFor(const nlohmann::json& settings);
    void setDataFields(const nlohmann::json& data); // the task's data fields from `data`
    void setAdvancedFields(const nlohmann::json& settings);
    void warnIfValidatingOnTrainingImages();
    void setRowVisible(const QString& key, bool visible);
    void updateTaskRows();
    void updateHoldOut();
    // Scrolls the page the form is in so that the Advanced section starts at its top.
    void scrollToAdvanced();
    bool needsTeacher() const;
    bool yoloLabels() const; // detection data as a YOLO data.yaml
    static QString chosenPath(const QComboBox* box);
    void updatePrecisionChoices();
    void updateWorkerHint();
    void updateOptimizerHints();
    // The Augmentation field as transform_args; nullopt when it is not a JSON object.
    std::optional<nlohmann::json> augmentationArgs() const;
    // The Method settings field as method_args (besides the teacher); nullopt when it is not a
    // JSON object.
    std::optional<nlohmann::json> methodArgs() const;
    void updateMethodArgsHint();
    void clearIssues();
    // knn_monitor's two folders, both ways.
    void setKnnMonitor(const nlohmann::json& settings);
    void takeLabelsOf(QComboBox* split);
    nlohmann::json knnMonitor() const;
    // The row that shows a problem the engine reported at `path` (optim_args.lr, transform_args.x).
    QString rowForIssue(const QString& path) const;

    system::HardwareInfo hardware_;
    // What the settings or the user chose, kept until the probed hardware offers it.
    QString requested_accelerator_ = QStringLiteral("auto");
    QString requested_precision_ = QStringLiteral("auto");
    QGridLayout* form_;
    QComboBox* task_;
    QList<DatasetEntry> datasets_; // the project's, as setDatasets gave them
    QComboBox* data_;
    QComboBox* val_data_;
    QLineEdit* train_masks_;
    QLineEdit* val_masks_;
    QLineEdit* train_annotations_;
    QLineEdit* val_annotations_;
    QLineEdit* classes_;
    QComboBox* labels_;
    QLineEdit* yolo_data_;
    QComboBox* backbone_;
    QComboBox* teacher_;
    QComboBox* knn_train_; // knn_monitor.train: a project dataset of class folders, or none
    QComboBox* knn_val_;
    QComboBox* model_;
    QComboBox* method_;
    QSpinBox* epochs_; // the length of the run, in train_for_unit_'s unit
    QComboBox* train_for_unit_;
    QSpinBox* batch_size_;
    QSpinBox* image_size_;
    QComboBox* accelerator_;
    QComboBox* precision_;
    QSpinBox* devices_;
    QSpinBox* num_nodes_;
    QCheckBox* sync_batchnorm_;
    QSpinBox* num_workers_;
    QCheckBox* tensorboard_;
    QLineEdit* mlflow_uri_;
    QLineEdit* out_;
    QSpinBox* seed_;
    QToolButton* advanced_toggle_;
    QStringList advanced_rows_;
    QStringList value_problems_; // of the settings last given to setSettings
    QStringList setting_rows_;   // rows of a setting's path, shown when the task has it
    TaskKind shown_task_ = TaskKind::Pretraining; // whose defaults the fields were given
    QComboBox* optim_;
    QLineEdit* learning_rate_;
    QLineEdit* weight_decay_;
    QLineEdit* warmup_epochs_;
    QLineEdit* backbone_lr_factor_;
    QLineEdit* layer_decay_;
    QLineEdit* head_warmup_epochs_;
    QSpinBox* accumulation_;
    QLineEdit* augmentation_;
    QLineEdit* method_args_;
    QSpinBox* checkpoint_every_;
    QLineEdit* wandb_project_;
    // What the fields do not show of optim_args and loggers.wandb (momentum, W&B tags): kept
    // from the settings loaded, so that a hand-edited preset survives the form.
    nlohmann::json kept_optim_args_ = nlohmann::json::object();
    // model_args besides backbone_weights (head, freeze_backbone, label_smoothing, ...), kept
    // from a preset as they were.
    nlohmann::json kept_model_args_ = nlohmann::json::object();
    nlohmann::json kept_wandb_ = nlohmann::json::object();
    QLabel* general_issue_;
    QMap<QString, QLabel*> issues_;
    QMap<QString, QWidget*> rows_;
    QMap<QString, QLabel*> row_labels_;
    QTimer* live_check_;
    QWidget* estimates_;
    QLabel* estimate_;
    QLabel* memoryEstimate_;
};

} // namespace kiln::gui
