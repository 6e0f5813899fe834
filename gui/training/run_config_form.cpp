#include "training/run_config_form.h"

#include "config/command_settings.h"
#include "config/config_schema.h"
#include "config/form_fields.h"
#include "config/precision.h"
#include "core/error.h"
#include "core/json_text.h"
#include "data/image_sizes.h"
#include "methods/method_names.h"
#include "models/backbone_names.h"
#include "system/num_workers.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QRegularExpressionValidator>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <array>
#include <cmath>

namespace kiln::gui {
namespace {

QComboBox* combo(const QString& name, const QStringList& items, QWidget* parent) {
    auto* box = new QComboBox(parent);
    box->setObjectName(name);
    box->addItems(items);
    return box;
}

QSpinBox* spin(const QString& name, int minimum, int maximum, int value, QWidget* parent) {
    auto* box = new QSpinBox(parent);
    box->setObjectName(name);
    box->setRange(minimum, maximum);
    box->setValue(value);
    return box;
}

// A number field that may stay blank (the engine's default, shown as the placeholder).
QLineEdit* number_field(const QString& name, QWidget* parent) {
    auto* line = new QLineEdit(parent);
    line->setObjectName(name);
    line->setValidator(new QRegularExpressionValidator(
        QRegularExpression(QStringLiteral(R"([0-9]*\.?[0-9]*([eE][-+]?[0-9]*)?)")), line));
    return line;
}

QString number_text(double value) {
    return QString::number(value, 'g', 6);
}

QStringList to_qt(const std::vector<std::string>& names) {
    QStringList list;
    for (const std::string& name : names) {
        list << QString::fromStdString(name);
    }
    return list;
}

// A setting's field name as the settings declare it (config::FormPlace), translated.
QString setting_label(const std::string& path) {
    for (const TaskTraits& entry : task_table()) {
        for (const config::FormField& field : config::form_fields(entry.kind)) {
            if (field.path == path) {
                return QCoreApplication::translate("kiln::config", field.key.form.label);
            }
        }
    }
    return QString::fromStdString(path);
}

// A setting's default for `task`, as the settings declare it.
nlohmann::json setting_default(TaskKind task, const std::string& path) {
    const config::KeySpec* key = config::train_schema(task).find_path(path);
    return key != nullptr ? key->default_value : nlohmann::json();
}

// The value at a dotted path of `settings`, or null where any part of it is missing or is not
// a dictionary (a project file's values may be anything).
nlohmann::json value_at(const nlohmann::json& settings, const std::string& path) {
    const nlohmann::json* value = &settings;
    std::size_t start = 0;
    while (true) {
        const std::size_t dot = path.find('.', start);
        const std::string key = path.substr(start, dot == std::string::npos ? dot : dot - start);
        if (!value->is_object() || !value->contains(key)) {
            return nullptr;
        }
        value = &(*value)[key];
        if (dot == std::string::npos) {
            return *value;
        }
        start = dot + 1;
    }
}

// The text at `path` of `settings`, or `fallback` where it is missing or not a string.
QString text_at(const nlohmann::json& settings, const std::string& path,
                const QString& fallback = {}) {
    const nlohmann::json value = value_at(settings, path);
    return value.is_string() ? QString::fromStdString(value.get<std::string>()) : fallback;
}

// The Image size field's value for auto, every task's default: the images' own size (for
// pretraining at most the methods' 224 px views). Typing 0 gives it back, as the other
// dialogs' image size fields do.
constexpr int kAutoImageSize = 0;

QString task_title(TaskKind kind) {
    switch (kind) {
    case TaskKind::ImageClassification:
        return RunConfigForm::tr("Image classification (fine-tuning)");
    case TaskKind::SemanticSegmentation:
        return RunConfigForm::tr("Semantic segmentation (fine-tuning)");
    case TaskKind::ObjectDetection:
        return RunConfigForm::tr("Object detection (fine-tuning)");
    case TaskKind::InstanceSegmentation:
        return RunConfigForm::tr("Instance segmentation (fine-tuning)");
    case TaskKind::Pretraining:
        break;
    }
    return RunConfigForm::tr("Pretraining (self-supervised)");
}

// Selects `folder` in a box of datasets; one that is not the project's is still shown, under its
// folder's name.
void select(QComboBox* box, const QString& folder) {
    if (folder.isEmpty()) {
        return;
    }
    if (box->findData(folder) < 0) {
        box->addItem(QFileInfo(folder).fileName(), folder);
    }
    box->setCurrentIndex(box->findData(folder));
}

} // namespace

RunConfigForm::RunConfigForm(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("runConfigForm"));
    form_ = new QGridLayout;
    form_->setColumnStretch(1, 1);
    createDataFields();
    addRows(createTrainingFields());
    createAdvancedSection();
    // The labels' column as wide as its widest label, shown or not, so that the fields keep
    // their place when a change of task shows other rows.
    int widest = 0;
    for (const QLabel* label : std::as_const(row_labels_)) {
        widest = std::max(widest, label->sizeHint().width());
    }
    form_->setColumnMinimumWidth(0, widest);
    layOut();
    connectFields();
    // The cores now; the GPUs when the window's probe (off the GUI thread) reports them.
    system::HardwareInfo cores;
    cores.cpu_cores = system::usable_cpu_cores();
    setHardware(cores);
    updateOptimizerHints();
    updateMethodArgsHint();
    updateTaskRows();
}

// The task, its data and the model: what a run trains on and what it trains.
void RunConfigForm::createDataFields() {
    task_ = combo(QStringLiteral("taskField"), {}, this);
    for (const TaskTraits& entry : task_table()) {
        task_->addItem(task_title(entry.kind), QString::fromStdString(entry.name));
    }
    data_ = combo(QStringLiteral("dataField"), {}, this);
    val_data_ = combo(QStringLiteral("valDataField"), {}, this);
    train_masks_ = new QLineEdit(this);
    train_masks_->setObjectName(QStringLiteral("trainMasksField"));
    train_masks_->setPlaceholderText(tr("folder of PNG masks of class ids, named as the images"));
    val_masks_ = new QLineEdit(this);
    val_masks_->setObjectName(QStringLiteral("valMasksField"));
    val_masks_->setPlaceholderText(tr("folder of the validation images' masks"));
    train_annotations_ = new QLineEdit(this);
    train_annotations_->setObjectName(QStringLiteral("trainAnnotationsField"));
    train_annotations_->setPlaceholderText(tr("COCO JSON of the training images' objects"));
    val_annotations_ = new QLineEdit(this);
    val_annotations_->setObjectName(QStringLiteral("valAnnotationsField"));
    val_annotations_->setPlaceholderText(tr("COCO JSON of the validation images' objects"));
    // Detection labels: COCO annotation files beside image folders, or a YOLO dataset's YAML.
    labels_ = combo(QStringLiteral("detectionLabelsField"), {}, this);
    labels_->addItem(tr("COCO annotation files"), QStringLiteral("coco"));
    labels_->addItem(tr("YOLO dataset (data.yaml)"), QStringLiteral("yolo"));
    yolo_data_ = new QLineEdit(this);
    yolo_data_->setObjectName(QStringLiteral("yoloDataField"));
    yolo_data_->setPlaceholderText(
        tr("data.yaml of an Ultralytics-layout dataset (images/ and labels/ beside it)"));
    classes_ = new QLineEdit(this);
    classes_->setObjectName(QStringLiteral("classesField"));
    classes_->setPlaceholderText(tr("JSON file naming the class ids, e.g. classes.json"));
    backbone_ = combo(QStringLiteral("backboneField"), {}, this);
    backbone_->setEditable(true);
    backbone_->lineEdit()->setPlaceholderText(tr("random weights"));
    model_ = combo(QStringLiteral("modelField"), to_qt(models::backbone_names()), this);
    method_ = combo(QStringLiteral("methodField"), to_qt(methods::method_names()), this);
    teacher_ = combo(QStringLiteral("teacherField"), {}, this);
    teacher_->setEditable(true);
    teacher_->lineEdit()->setPlaceholderText(
        tr("the teacher's exported model: a project run, or a .pt file"));
    knn_train_ = combo(QStringLiteral("knnMonitorTrainField"), {}, this);
    knn_train_->setToolTip(tr("Labelled images (class folders) whose nearest neighbours classify "
                              "the images below while pretraining: val_metric/knn_top1 shows "
                              "whether pretraining pays, and picks best.ckpt."));
    knn_val_ = combo(QStringLiteral("knnMonitorValField"), {}, this);
    knn_val_->setToolTip(tr("Labelled images (class folders) classified by the kNN monitor."));
}

// How long, how much at a time, where and how it runs. Returns the "Train for" row's widget.
QWidget* RunConfigForm::createTrainingFields() {
    // From 0: a value the engine refuses is shown with its reason, never silently changed.
    const TaskKind initial = TaskKind::Pretraining;
    epochs_ = spin(QStringLiteral("epochsField"), 0, 100000,
                   setting_default(initial, "epochs").get<int>(), this);
    // How long: epochs, optimizer steps (fine-tuning) or minutes (max_time, the schedule fitted
    // to the time).
    train_for_unit_ = combo(QStringLiteral("trainForUnitField"), {}, this);
    train_for_unit_->addItem(tr("epochs"), QStringLiteral("epochs"));
    train_for_unit_->addItem(tr("steps"), QStringLiteral("steps"));
    train_for_unit_->addItem(tr("minutes"), QStringLiteral("max_time"));
    auto* train_for = new QWidget(this);
    auto* train_for_layout = new QHBoxLayout(train_for);
    train_for_layout->setContentsMargins(0, 0, 0, 0);
    train_for_layout->addWidget(epochs_, 1);
    train_for_layout->addWidget(train_for_unit_);
    batch_size_ = spin(QStringLiteral("batchSizeField"), 0, 65536,
                       setting_default(initial, "batch_size").get<int>(), this);
    image_size_ = spin(QStringLiteral("imageSizeField"), kAutoImageSize, data::kMaxImageSide,
                       kAutoImageSize, this);
    image_size_->setSuffix(tr(" px"));
    image_size_->setSpecialValueText(tr("auto"));
    accelerator_ = combo(QStringLiteral("acceleratorField"), {}, this);
    precision_ = combo(QStringLiteral("precisionField"), {}, this);
    for (const auto& [precision, name] : precision_names()) {
        const QString value = QString::fromStdString(name); // its own name: "bf16-mixed"
        precision_->addItem(value == QStringLiteral("auto") ? tr("auto") : value, value);
    }
    num_workers_ = spin(QStringLiteral("numWorkersField"), -1, 256, -1, this);
    devices_ = spin(QStringLiteral("devicesField"), 0, 1024, 0, this);
    devices_->setSpecialValueText(tr("auto"));
    num_nodes_ = spin(QStringLiteral("numNodesField"), 1, 4096, 1, this);
    sync_batchnorm_ = new QCheckBox(tr("Batch-norm statistics over all devices"), this);
    sync_batchnorm_->setObjectName(QStringLiteral("syncBatchnormField"));
    tensorboard_ = new QCheckBox(tr("TensorBoard event files"), this);
    tensorboard_->setObjectName(QStringLiteral("tensorboardField"));
    tensorboard_->setChecked(true);
    mlflow_uri_ = new QLineEdit(this);
    mlflow_uri_->setObjectName(QStringLiteral("mlflowField"));
    mlflow_uri_->setPlaceholderText(tr("off; a folder or http(s):// server to log to MLflow"));
    out_ = new QLineEdit(this);
    out_->setObjectName(QStringLiteral("outField"));
    out_->setPlaceholderText(tr("a new folder in the project's runs"));
    seed_ = spin(QStringLiteral("seedField"), 0, 2147483647, 0, this);
    return train_for;
}

void RunConfigForm::addRows(QWidget* trainFor) {
    // Rows named by a setting's path take its declared label; the others are parts of one
    // setting (the data's splits and labels, the loggers) that the form shows apart.
    addRow(QStringLiteral("task"), tr("Task"), task_);
    addRow(QStringLiteral("labels"), tr("Labels"), labels_);
    addRow(QStringLiteral("yolo"), tr("YOLO data"), yolo_data_);
    addSettingRow("data", data_);
    addRow(QStringLiteral("val"), tr("Validation dataset"), val_data_);
    addRow(QStringLiteral("train_masks"), tr("Training masks"), train_masks_);
    addRow(QStringLiteral("val_masks"), tr("Validation masks"), val_masks_);
    addRow(QStringLiteral("train_annotations"), tr("Training annotations"), train_annotations_);
    addRow(QStringLiteral("val_annotations"), tr("Validation annotations"), val_annotations_);
    addRow(QStringLiteral("classes"), tr("Classes"), classes_);
    addSettingRow("model", model_);
    addSettingRow("model_args.backbone_weights", backbone_);
    addSettingRow("method", method_);
    addSettingRow("method_args.teacher", teacher_);
    addSettingRow("knn_monitor.train", knn_train_);
    addSettingRow("knn_monitor.val", knn_val_);
    addSettingRow("epochs", trainFor);
    addSettingRow("batch_size", batch_size_);
    addSettingRow("transform_args.image_size", image_size_);
    addSettingRow("accelerator", accelerator_);
    addSettingRow("devices", devices_);
    addSettingRow("num_nodes", num_nodes_);
    addSettingRow("sync_batchnorm", sync_batchnorm_);
    addSettingRow("precision", precision_);
    addSettingRow("num_workers", num_workers_);
    addRow(QStringLiteral("loggers"), tr("Loggers"), tensorboard_);
    addRow(QStringLiteral("mlflow"), tr("MLflow"), mlflow_uri_);
    addSettingRow("out", out_);
    addSettingRow("seed", seed_);
}

// Advanced settings: folded away, applied either way; blank numbers are the engine's defaults,
// which the fields show.
void RunConfigForm::createAdvancedSection() {
    advanced_toggle_ = new QToolButton(this);
    advanced_toggle_->setObjectName(QStringLiteral("advancedToggle"));
    advanced_toggle_->setText(tr("Advanced settings"));
    advanced_toggle_->setCheckable(true);
    advanced_toggle_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    advanced_toggle_->setArrowType(Qt::RightArrow);
    advanced_toggle_->setAutoRaise(true);
    form_->addWidget(advanced_toggle_, form_->rowCount(), 0, 1, 2);
    QStringList optimizers;
    if (const config::KeySpec* optim = config::train_schema().find("optim")) {
        optimizers << QStringLiteral("auto") << to_qt(optim->choices);
    }
    optim_ = combo(QStringLiteral("optimField"), optimizers, this);
    learning_rate_ = number_field(QStringLiteral("learningRateField"), this);
    weight_decay_ = number_field(QStringLiteral("weightDecayField"), this);
    warmup_epochs_ = number_field(QStringLiteral("warmupEpochsField"), this);
    backbone_lr_factor_ = number_field(QStringLiteral("backboneLrFactorField"), this);
    head_warmup_epochs_ = number_field(QStringLiteral("headWarmupEpochsField"), this);
    head_warmup_epochs_->setPlaceholderText(tr("0: the backbone learns from the start"));
    layer_decay_ = number_field(QStringLiteral("layerDecayField"), this);
    layer_decay_->setPlaceholderText(tr("1: every backbone layer at the same rate"));
    accumulation_ = spin(QStringLiteral("accumulationField"), 1, 1024, 1, this);
    accumulation_->setToolTip(tr("Batches summed into each optimizer step"));
    augmentation_ = new QLineEdit(this);
    augmentation_->setObjectName(QStringLiteral("augmentationField"));
    augmentation_->setPlaceholderText(tr(
        R"(the method's views; JSON to change them, e.g. {"random_resize": {"min_scale": 0.2}})"));
    augmentation_->setToolTip(
        tr("transform_args besides the image size: random_resize, random_flip, color_jitter, "
           "random_gray_scale, gaussian_blur, normalize, and for DINO global_view_1, "
           "global_view_2, local_view. The Datasets tab previews the views."));
    method_args_ = new QLineEdit(this);
    method_args_->setObjectName(QStringLiteral("methodArgsField"));
    method_args_->setPlaceholderText(
        tr(R"(the method's defaults; JSON to change them, e.g. {"temperature": 0.2})"));
    checkpoint_every_ = spin(QStringLiteral("checkpointEveryField"), 0, 10000000, 0, this);
    checkpoint_every_->setSpecialValueText(tr("each epoch"));
    checkpoint_every_->setSuffix(tr(" steps"));
    checkpoint_every_->setToolTip(tr("last.ckpt is also written every this many steps"));
    wandb_project_ = new QLineEdit(this);
    wandb_project_->setObjectName(QStringLiteral("wandbField"));
    wandb_project_->setPlaceholderText(
        tr("off; a project name writes an offline W&B run, for wandb sync"));
    addSettingRow("optim", optim_);
    addSettingRow("optim_args.lr", learning_rate_);
    addSettingRow("optim_args.weight_decay", weight_decay_);
    addSettingRow("optim_args.warmup_epochs", warmup_epochs_);
    addSettingRow("optim_args.backbone_lr_factor", backbone_lr_factor_);
    addSettingRow("optim_args.layer_decay", layer_decay_);
    addSettingRow("optim_args.head_warmup_epochs", head_warmup_epochs_);
    addSettingRow("gradient_accumulation_steps", accumulation_);
    addRow(QStringLiteral("augmentation"), tr("Augmentation"), augmentation_);
    advanced_rows_ << QStringLiteral("augmentation");
    addRow(QStringLiteral("method_args"), tr("Method settings"), method_args_);
    advanced_rows_ << QStringLiteral("method_args");
    addSettingRow("callbacks.model_checkpoint.every_n_steps", checkpoint_every_);
    addRow(QStringLiteral("wandb"), tr("Weights & Biases"), wandb_project_);
    advanced_rows_ << QStringLiteral("wandb");
    connect(advanced_toggle_, &QToolButton::toggled, this, &RunConfigForm::setAdvancedVisible);
    // Opened by the user, the section scrolls up into view (its fields opened below the fold).
    connect(advanced_toggle_, &QToolButton::clicked, this, [this](bool opened) {
        if (opened) {
            QTimer::singleShot(0, this, [this] { scrollToAdvanced(); });
        }
    });
    setAdvancedVisible(false);
}

void RunConfigForm::layOut() {
    general_issue_ = new QLabel(this);
    general_issue_->setTextFormat(Qt::PlainText);
    general_issue_->setObjectName(QStringLiteral("generalIssue"));
    general_issue_->setWordWrap(true);
    general_issue_->setStyleSheet(QStringLiteral("color: #c0392b"));

    auto* fields = new QWidget(this);
    fields->setLayout(form_);
    // A form, not a spreadsheet: the fields no wider than reading needs, which is wide enough
    // for the longest hint (Augmentation's), in the font's own units.
    fields->setMaximumWidth(fontMetrics().horizontalAdvance(QLatin1Char('x')) * 130);
    estimates_ = new QWidget(this);
    estimates_->setObjectName(QStringLiteral("runEstimates"));
    estimate_ = new QLabel(estimates_);
    estimate_->setObjectName(QStringLiteral("runEstimate"));
    estimate_->setWordWrap(true);
    estimate_->hide();
    memoryEstimate_ = new QLabel(estimates_);
    memoryEstimate_->setObjectName(QStringLiteral("memoryEstimate"));
    memoryEstimate_->setWordWrap(true);
    memoryEstimate_->hide();
    auto* estimatesLayout = new QVBoxLayout(estimates_);
    estimatesLayout->addWidget(estimate_);
    estimatesLayout->addWidget(memoryEstimate_);
    estimates_->hide(); // until one of them has something to say: no empty strip
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(fields);
    layout->addWidget(estimates_);
    layout->addWidget(general_issue_);
    layout->addStretch();
}

// Every field's change is checked shortly after the last one; some change which rows and hints
// show.
void RunConfigForm::connectFields() {
    connect(accelerator_, &QComboBox::currentIndexChanged, this, [this] {
        updatePrecisionChoices();
        updateWorkerHint();
    });
    connect(devices_, &QSpinBox::valueChanged, this, &RunConfigForm::updateWorkerHint);
    // Checked as the user types: shortly after the last change, problems appear and go.
    live_check_ = new QTimer(this);
    live_check_->setSingleShot(true);
    live_check_->setInterval(kLiveCheckDelayMs);
    connect(live_check_, &QTimer::timeout, this, [this] {
        validate();
        Q_EMIT settingsEdited();
    });
    const auto changed = [this] { live_check_->start(); };
    for (QSpinBox* box : findChildren<QSpinBox*>()) {
        connect(box, &QSpinBox::valueChanged, this, changed);
    }
    for (QComboBox* box : findChildren<QComboBox*>()) {
        connect(box, &QComboBox::currentIndexChanged, this, changed);
        connect(box, &QComboBox::editTextChanged, this, changed);
    }
    for (QLineEdit* line : findChildren<QLineEdit*>()) {
        connect(line, &QLineEdit::textChanged, this, changed);
    }
    for (QCheckBox* box : findChildren<QCheckBox*>()) {
        connect(box, &QCheckBox::toggled, this, changed);
    }
    connect(task_, &QComboBox::currentIndexChanged, this, &RunConfigForm::updateTaskRows);
    // Chosen by the user (not by a preset, which names its own labels), and with the task.
    for (QComboBox* split : {data_, val_data_}) {
        connect(split, &QComboBox::activated, this, [this, split] { takeLabelsOf(split); });
    }
    connect(task_, &QComboBox::activated, this, [this] {
        takeLabelsOf(data_);
        takeLabelsOf(val_data_);
    });
    connect(method_, &QComboBox::currentIndexChanged, this, &RunConfigForm::updateTaskRows);
    for (QComboBox* box : {method_, model_}) {
        connect(box, &QComboBox::currentTextChanged, this, &RunConfigForm::updateMethodArgsHint);
    }
    connect(labels_, &QComboBox::currentIndexChanged, this, &RunConfigForm::updateTaskRows);
    for (QComboBox* box : {task_, method_, optim_, model_}) {
        connect(box, &QComboBox::currentIndexChanged, this, &RunConfigForm::updateOptimizerHints);
    }
    // A pretrained backbone has its own recipe (a faster head).
    connect(backbone_, &QComboBox::currentTextChanged, this, &RunConfigForm::updateOptimizerHints);
    connect(accelerator_, &QComboBox::activated, this,
            [this] { requested_accelerator_ = accelerator_->currentData().toString(); });
    connect(precision_, &QComboBox::activated, this,
            [this] { requested_precision_ = precision_->currentData().toString(); });
}

TaskKind RunConfigForm::task() const {
    return task_named(task_->currentData().toString().toStdString())
        .value_or(TaskKind::Pretraining);
}

// Each task shows the settings it has (the method for pretraining, the backbone to start from
// for fine-tuning), and the parts of its data: the validation split, masks and class names for
// segmentation, annotation files or a YOLO data.yaml for detection. Settings still at the
// previous task's default take the new task's (epochs, batch size).
void RunConfigForm::updateTaskRows() {
    const TaskKind kind = task();
    updateHoldOut();
    if (const int hold_out = val_data_->findData(QLatin1String(kHoldOut));
        hold_out >= 0 && kind == TaskKind::ImageClassification && shown_task_ != kind) {
        val_data_->setCurrentIndex(hold_out);
    }
    // Pretraining has no steps setting: its length is epochs or minutes.
    auto* units = qobject_cast<QStandardItemModel*>(train_for_unit_->model());
    units->item(train_for_unit_->findData(QStringLiteral("steps")))
        ->setEnabled(kind != TaskKind::Pretraining);
    if (kind == TaskKind::Pretraining &&
        train_for_unit_->currentData() == QStringLiteral("steps")) {
        train_for_unit_->setCurrentIndex(train_for_unit_->findData(QStringLiteral("epochs")));
    }
    const bool in_epochs = train_for_unit_->currentData() == QStringLiteral("epochs");
    for (QSpinBox* box : {epochs_, batch_size_}) {
        const std::string path = box == epochs_ ? "epochs" : "batch_size";
        if ((box != epochs_ || in_epochs) &&
            nlohmann::json(box->value()) == setting_default(shown_task_, path)) {
            box->setValue(setting_default(kind, path).get<int>());
        }
    }
    shown_task_ = kind;
    QStringList present;
    for (const config::FormField& field : config::form_fields(kind)) {
        present << QString::fromStdString(field.path);
    }
    for (const QString& path : setting_rows_) {
        setRowVisible(path, present.contains(path) &&
                                (!advanced_rows_.contains(path) || advancedVisible()));
    }
    setRowVisible(QStringLiteral("method_args.teacher"),
                  present.contains(QStringLiteral("method_args.teacher")) && needsTeacher());
    setRowVisible(QStringLiteral("method_args"),
                  kind == TaskKind::Pretraining && advancedVisible());
    const bool finetuning = kind != TaskKind::Pretraining;
    const bool segmentation = kind == TaskKind::SemanticSegmentation;
    const bool detection = has_boxes(kind);
    const bool yolo = detection && yoloLabels();
    setRowVisible(QStringLiteral("labels"), detection);
    setRowVisible(QStringLiteral("yolo"), yolo);
    setRowVisible(QStringLiteral("data"), !yolo);
    setRowVisible(QStringLiteral("train_annotations"), detection && !yolo);
    setRowVisible(QStringLiteral("val_annotations"), detection && !yolo);
    setRowVisible(QStringLiteral("val"), finetuning && !yolo);
    setRowVisible(QStringLiteral("train_masks"), segmentation);
    setRowVisible(QStringLiteral("val_masks"), segmentation);
    setRowVisible(QStringLiteral("classes"), segmentation);
}

void RunConfigForm::setAdvancedVisible(bool visible) {
    if (advanced_toggle_->isChecked() != visible) {
        advanced_toggle_->setChecked(visible); // comes back here through toggled
        return;
    }
    advanced_toggle_->setArrowType(visible ? Qt::DownArrow : Qt::RightArrow);
    for (const QString& key : advanced_rows_) {
        if (!setting_rows_.contains(key)) {
            setRowVisible(key, visible);
        }
    }
    updateTaskRows();
}

void RunConfigForm::scrollToAdvanced() {
    for (QWidget* outer = parentWidget(); outer != nullptr; outer = outer->parentWidget()) {
        if (auto* scroll = qobject_cast<QScrollArea*>(outer); scroll != nullptr) {
            scroll->verticalScrollBar()->setValue(
                advanced_toggle_->mapTo(scroll->widget(), QPoint(0, 0)).y());
            return;
        }
    }
}

bool RunConfigForm::advancedVisible() const {
    return advanced_toggle_->isChecked();
}

// The engine's defaults for the chosen task, method and optimizer, in the blank fields.
void RunConfigForm::updateOptimizerHints() {
    const std::string optim =
        optim_->currentIndex() > 0 ? optim_->currentText().toStdString() : std::string("auto");
    const bool pretrained = task() != TaskKind::Pretraining && !chosenPath(backbone_).isEmpty();
    const methods::OptimizerDefaults chosen =
        optimizer_defaults(task(), method_->currentText().toStdString(), optim,
                           model_->currentText().toStdString(), pretrained);
    optim_->setItemText(0, tr("auto (%1)").arg(QString::fromStdString(chosen.name)));
    learning_rate_->setPlaceholderText(
        tr("%1 per 256 images, scaled with the batch size").arg(number_text(chosen.base_lr)));
    weight_decay_->setPlaceholderText(number_text(chosen.weight_decay));
    warmup_epochs_->setPlaceholderText(
        tr("%1 (at most a tenth of the run)").arg(number_text(chosen.warmup_epochs)));
    backbone_lr_factor_->setPlaceholderText(
        tr("%1 of the learning rate").arg(number_text(chosen.backbone_lr_factor)));
}

QString RunConfigForm::fieldName(const QString& key) const {
    // transform_args as a whole is the augmentation; its image_size has its own row.
    const QString row =
        key == QLatin1String("transform_args") ? QStringLiteral("augmentation") : rowForIssue(key);
    const QLabel* label = row_labels_.value(row, nullptr);
    return label != nullptr ? label->text().remove(QLatin1Char('&')) : QString();
}

void RunConfigForm::applySetting(const QString& key, const QString& value) {
    nlohmann::json settings = this->settings();
    const nlohmann::json parsed = nlohmann::json::parse(value.toStdString(), nullptr, false);
    std::string pointer = "/" + key.toStdString();
    std::replace(pointer.begin(), pointer.end(), '.', '/');
    settings[nlohmann::json::json_pointer(pointer)] =
        parsed.is_discarded() ? nlohmann::json(value.toStdString()) : parsed;
    setSettings(settings);
    Q_EMIT settingsEdited();
}

QString RunConfigForm::rowForIssue(const QString& path) const {
    if (issues_.contains(path)) {
        return path; // a row of its own
    }
    // The parts of the data and of the loggers that have rows of their own.
    const std::pair<const char*, const char*> parts[] = {
        {"data.val.images", "val"},
        {"data.val.masks", "val_masks"},
        {"data.val.annotations", "val_annotations"},
        {"data.val", "val"},
        {"data.train.masks", "train_masks"},
        {"data.train.annotations", "train_annotations"},
        {"data.classes", "classes"},
        {"loggers.wandb", "wandb"},
        {"loggers.mlflow", "mlflow"},
        {"max_time", "epochs"}, // the Train for row
        {"steps", "epochs"},
    };
    for (const auto& [prefix, row] : parts) {
        if (path.startsWith(QLatin1String(prefix))) {
            return QLatin1String(row);
        }
    }
    const std::string field =
        config::field_for_problem(config::form_fields(task()), path.toStdString());
    // transform_args' other keys are the Augmentation field's, method_args' the Method
    // settings'.
    if (path.startsWith(QStringLiteral("transform_args.")) &&
        field != "transform_args.image_size") {
        return QStringLiteral("augmentation");
    }
    if (path.startsWith(QStringLiteral("method_args.")) && field != "method_args.teacher") {
        return QStringLiteral("method_args");
    }
    return field.empty() ? path.section(QLatin1Char('.'), 0, 0) : QString::fromStdString(field);
}

void RunConfigForm::setRowVisible(const QString& key, bool visible) {
    if (QWidget* row = rows_.value(key, nullptr)) {
        row->setVisible(visible);
        row_labels_.value(key)->setVisible(visible);
    }
}

void RunConfigForm::setPretrainedRuns(const QList<PretrainedRun>& runs) {
    // Kept by what they point at: a run renamed since keeps its place under its new name.
    const QString current = chosenPath(backbone_);
    const QString teacher = chosenPath(teacher_);
    backbone_->clear();
    backbone_->addItem(QString());
    teacher_->clear();
    teacher_->addItem(QString());
    for (const PretrainedRun& run : runs) {
        const QString folder = QFileInfo(run.directory).fileName();
        // Unique, as the form finds a typed or listed choice by its text.
        const QString text = run.name.isEmpty() || run.name == folder
                                 ? folder
                                 : QStringLiteral("%1 (%2)").arg(run.name, folder);
        backbone_->addItem(text, run.directory);
        teacher_->addItem(text, run.model); // a teacher is a model file
    }
    for (const auto& [box, chosen] :
         {std::pair{backbone_, current}, std::pair{teacher_, teacher}}) {
        if (const int listed = box->findData(chosen); listed > 0) {
            box->setCurrentIndex(listed);
        } else {
            box->setCurrentText(chosen);
        }
    }
}

bool RunConfigForm::yoloLabels() const {
    return labels_->currentData() == QLatin1String("yolo");
}

bool RunConfigForm::needsTeacher() const {
    const methods::MethodEntry* method = methods::find_method(method_->currentText().toStdString());
    return method && method->needs_teacher;
}

// A listed run by its data (a path), or whatever path was typed in.
QString RunConfigForm::chosenPath(const QComboBox* box) {
    const int listed = box->findText(box->currentText());
    return listed > 0 ? box->itemData(listed).toString() : box->currentText().trimmed();
}

// The run's length as the settings give it: max_time (shown in whole minutes), steps, else
// epochs (the task's default when unset).
void RunConfigForm::setTrainFor(const nlohmann::json& settings) {
    const nlohmann::json max_time = settings.value("max_time", nlohmann::json());
    const nlohmann::json steps = settings.value("steps", nlohmann::json());
    QString unit = QStringLiteral("epochs");
    int value = setting_default(task(), "epochs").get<int>();
    if (max_time.is_number() && max_time.get<double>() > 0) {
        unit = QStringLiteral("max_time");
        value = std::max(1, int(std::lround(max_time.get<double>() / 60.0)));
    } else if (steps.is_number_integer() && task() != TaskKind::Pretraining) {
        unit = QStringLiteral("steps");
        value = steps.get<int>();
    } else if (settings.contains("epochs") && settings["epochs"].is_number_integer()) {
        value = settings["epochs"].get<int>();
    }
    train_for_unit_->setCurrentIndex(train_for_unit_->findData(unit));
    epochs_->setValue(value);
}

void RunConfigForm::addSettingRow(const std::string& path, QWidget* field) {
    const QString key = QString::fromStdString(path);
    addRow(key, setting_label(path), field);
    setting_rows_ << key;
    for (const TaskTraits& entry : task_table()) {
        const config::KeySpec* spec = config::train_schema(entry.kind).find_path(path);
        if (spec != nullptr && spec->form.section == config::FormSection::Advanced &&
            !advanced_rows_.contains(key)) {
            advanced_rows_ << key;
        }
    }
}

QLabel* RunConfigForm::addRow(const QString& key, const QString& label, QWidget* field) {
    auto* issue = new QLabel(this);
    issue->setObjectName(key + QStringLiteral("Issue"));
    issue->setWordWrap(true);
    issue->setTextFormat(Qt::PlainText); // the engine's messages quote paths and names

    issue->setStyleSheet(QStringLiteral("color: #c0392b"));
    issue->hide();
    // The field and its issue in one widget, so that a row hides whole (a hidden nested
    // layout would keep its spacing).
    auto* row = new QWidget(this);
    auto* column = new QVBoxLayout(row);
    column->setContentsMargins(0, 0, 0, 0);
    column->addWidget(field);
    column->addWidget(issue);
    // A grid, not a QFormLayout: with rows hidden (the task's) and a message shown, Qt 6.4's
    // QFormLayout gave the rows between hidden ones no height.
    const int line = form_->rowCount();
    auto* name = new QLabel(label, this);
    name->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    name->setContentsMargins(0, 4, 0, 0); // level with the field's text
    form_->addWidget(name, line, 0);
    form_->addWidget(row, line, 1);
    row_labels_.insert(key, name);
    issues_.insert(key, issue);
    rows_.insert(key, row);
    return issue;
}

void RunConfigForm::setDatasets(const QList<DatasetEntry>& datasets) {
    datasets_ = datasets;
    // What each list had chosen stays chosen where it still is: another dataset's labels
    // changed, or one was added.
    const std::array<QComboBox*, 4> lists = {data_, val_data_, knn_train_, knn_val_};
    std::array<QString, 4> chosen;
    for (std::size_t i = 0; i < lists.size(); ++i) {
        chosen[i] = lists[i]->currentIndex() >= 0 ? lists[i]->currentData().toString() : QString();
    }
    data_->clear();
    val_data_->clear();
    // Classification's default: never the training images themselves.
    val_data_->addItem(tr("Hold out 10% of the training images"), QLatin1String(kHoldOut));
    for (QComboBox* monitor : {knn_train_, knn_val_}) {
        monitor->clear();
        monitor->addItem(tr("none"), QString());
    }
    for (const DatasetEntry& dataset : datasets) {
        for (QComboBox* box : lists) {
            box->addItem(dataset.name, dataset.path);
        }
    }
    for (std::size_t i = 0; i < lists.size(); ++i) {
        if (const int kept = lists[i]->findData(chosen[i]); kept >= 0 && !chosen[i].isEmpty()) {
            lists[i]->setCurrentIndex(kept);
        }
    }
    updateHoldOut();
}

// Holding out part of the training images is classification's alone: another task validates on
// a dataset of its own (the hold-out's name, given as a folder, was refused as missing).
void RunConfigForm::updateHoldOut() {
    const int hold_out = val_data_->findData(QLatin1String(kHoldOut));
    if (hold_out < 0) {
        return;
    }
    const bool classification = task() == TaskKind::ImageClassification;
    qobject_cast<QStandardItemModel*>(val_data_->model())
        ->item(hold_out)
        ->setEnabled(classification);
    if (!classification && val_data_->currentIndex() == hold_out) {
        val_data_->setCurrentIndex(val_data_->count() > 1 ? 1 : -1);
    }
}

// A labelled dataset chosen for a split brings its labels: its COCO file or data.yaml for
// detection, its masks folder for segmentation (what the Datasets tab says it has).
void RunConfigForm::takeLabelsOf(QComboBox* split) {
    const QString path = split->currentData().toString();
    const auto dataset =
        std::find_if(datasets_.begin(), datasets_.end(),
                     [&](const DatasetEntry& entry) { return entry.path == path; });
    if (dataset == datasets_.end() || dataset->labels.isEmpty()) {
        return;
    }
    const bool training = split == data_;
    const QString labels = QDir::toNativeSeparators(dataset->labels);
    if (has_boxes(task()) && dataset->kind == QLatin1String("coco")) {
        labels_->setCurrentIndex(labels_->findData(QStringLiteral("coco")));
        (training ? train_annotations_ : val_annotations_)->setText(labels);
    } else if (has_boxes(task()) && dataset->kind == QLatin1String("yolo")) {
        labels_->setCurrentIndex(labels_->findData(QStringLiteral("yolo")));
        yolo_data_->setText(labels);
    } else if (task() == TaskKind::SemanticSegmentation &&
               dataset->kind == QLatin1String("masks")) {
        (training ? train_masks_ : val_masks_)->setText(labels);
    }
}

void RunConfigForm::setKnnMonitor(const nlohmann::json& settings) {
    const auto folder = [&](const char* key) {
        const nlohmann::json value = value_at(settings, std::string("knn_monitor.") + key);
        return value.is_string() ? QString::fromStdString(value.get<std::string>()) : QString();
    };
    for (QComboBox* box : {knn_train_, knn_val_}) {
        box->setCurrentIndex(box->count() > 0 ? 0 : -1); // none
    }
    select(knn_train_, folder("train"));
    select(knn_val_, folder("val"));
}

nlohmann::json RunConfigForm::knnMonitor() const {
    nlohmann::json monitor = nlohmann::json::object();
    for (const auto& [key, box] : {std::pair{"train", knn_train_}, std::pair{"val", knn_val_}}) {
        if (const QString folder = box->currentData().toString(); !folder.isEmpty()) {
            monitor[key] = folder.toStdString(); // one alone: the engine asks for the other
        }
    }
    return monitor.empty() ? nlohmann::json() : monitor;
}

void RunConfigForm::setHardware(const system::HardwareInfo& hardware) {
    hardware_ = hardware;
    const QSignalBlocker blocker(accelerator_); // one update at the end, with the choice back
    accelerator_->clear();
    accelerator_->addItem(tr("auto"), QStringLiteral("auto"));
    accelerator_->addItem(tr("CPU"), QStringLiteral("cpu"));
    for (const system::GpuInfo& gpu : hardware.gpus) {
        accelerator_->addItem(
            tr("CUDA %1: %2 (%3)")
                .arg(gpu.index)
                .arg(QString::fromStdString(gpu.name))
                .arg(QLocale().formattedDataSize(qint64(gpu.memory_total_mb) << 20, 0,
                                                 QLocale::DataSizeTraditionalFormat)),
            QStringLiteral("cuda:%1").arg(gpu.index));
    }
    if (hardware.gpus.empty()) {
        accelerator_->addItem(tr("CUDA"), QStringLiteral("cuda"));
        auto* model = qobject_cast<QStandardItemModel*>(accelerator_->model());
        QStandardItem* item = model->item(accelerator_->count() - 1);
        item->setEnabled(false);
        item->setToolTip(hardware.libtorch_has_cuda ? tr("No CUDA GPU is visible.")
                                                    : tr("This Kiln's LibTorch has no CUDA."));
    }
    // The settings' or the user's choice, once the hardware offers it.
    accelerator_->setCurrentIndex(std::max(0, accelerator_->findData(requested_accelerator_)));
    precision_->setCurrentIndex(std::max(0, precision_->findData(requested_precision_)));
    updatePrecisionChoices();
    updateWorkerHint();
}

void RunConfigForm::updatePrecisionChoices() {
    const bool cuda = accelerator_->currentData().toString().startsWith(QStringLiteral("cuda")) ||
                      (accelerator_->currentData().toString() == QStringLiteral("auto") &&
                       hardware_.cuda_available());
    // The GPU the run would start on: the one chosen, or the first for auto.
    const QString chosen = accelerator_->currentData().toString();
    const int index = chosen.startsWith(QStringLiteral("cuda:")) ? chosen.mid(5).toInt() : 0;
    const system::GpuInfo* gpu = cuda && index < static_cast<int>(hardware_.gpus.size())
                                     ? &hardware_.gpus[static_cast<std::size_t>(index)]
                                     : nullptr;
    auto* model = qobject_cast<QStandardItemModel*>(precision_->model());
    for (int i = 0; i < precision_->count(); ++i) {
        const QString name = precision_->itemData(i).toString();
        QString reason;
        if (!cuda && (name == QStringLiteral("16-mixed") || name == QStringLiteral("16-true"))) {
            reason = tr("float16 needs a CUDA GPU; on the CPU use the bf16 precisions.");
        } else if (gpu != nullptr && gpu->compute_major > 0 && gpu->compute_major < 8 &&
                   name.startsWith(QStringLiteral("bf16"))) {
            reason = tr("bfloat16 needs compute capability 8.0 or newer; %1 has %2.%3. Use "
                        "16-mixed.")
                         .arg(QString::fromStdString(gpu->name))
                         .arg(gpu->compute_major)
                         .arg(gpu->compute_minor);
        }
        QStandardItem* item = model->item(i);
        item->setEnabled(reason.isEmpty());
        item->setToolTip(reason);
    }
    if (!model->item(precision_->currentIndex())->isEnabled()) {
        precision_->setCurrentIndex(0);
    }
}

void RunConfigForm::updateWorkerHint() {
    // The engine's auto: each device's process gets a share of the cores. Devices "auto" are
    // every GPU with the CUDA accelerator (or auto when there are GPUs), else one.
    const QString accelerator = accelerator_->currentData().toString();
    const bool all_gpus = accelerator == QLatin1String("cuda") ||
                          (accelerator == QLatin1String("auto") && !hardware_.gpus.empty());
    const int devices = devices_->value() > 0 ? devices_->value()
                        : all_gpus            ? std::max<int>(1, int(hardware_.gpus.size()))
                                              : 1;
    const int automatic = system::auto_num_workers(hardware_.cpu_cores, devices,
                                                   system::WorkerEnvironment::from_process());
    num_workers_->setSpecialValueText(tr("auto (%1)").arg(automatic));
}

nlohmann::json RunConfigForm::settings() const {
    const TaskKind kind = task();
    nlohmann::json settings = {
        {"task", task_traits(kind).name},
        {"model", model_->currentText().toStdString()},
        {"batch_size", batch_size_->value()},
        {"transform_args", transformArgs()},
        {"precision", precision_->currentData().toString().toStdString()},
        {"seed", seed_->value()},
    };
    if (!out_->text().isEmpty()) { // none: Train names a new folder
        settings["out"] = out_->text().toStdString();
    }
    const QString unit = train_for_unit_->currentData().toString();
    if (unit == QLatin1String("max_time")) {
        settings["max_time"] = epochs_->value() * 60;
    } else {
        settings[unit.toStdString()] = epochs_->value();
    }
    writeDevices(settings);
    writeData(kind, settings);
    // A listed run by its name, or any weights file or run folder typed in.
    const QString backbone = chosenPath(backbone_);
    nlohmann::json model_args = kept_model_args_;
    // A preset's model settings that this task does not have stay out (another task's
    // decoder_width would be refused).
    for (auto entry = model_args.begin(); entry != model_args.end();) {
        const bool declared =
            config::train_schema(kind).find_path("model_args." + entry.key()) != nullptr;
        entry = declared ? std::next(entry) : model_args.erase(entry);
    }
    if (!backbone.isEmpty()) {
        model_args["backbone_weights"] = backbone.toStdString();
    }
    if (kind != TaskKind::Pretraining && !model_args.empty()) {
        settings["model_args"] = model_args;
    }
    settings["num_workers"] =
        num_workers_->value() < 0 ? nlohmann::json("auto") : nlohmann::json(num_workers_->value());
    settings["loggers"] = loggers();
    writeOptimizer(kind, settings);
    if (accumulation_->value() > 1) {
        settings["gradient_accumulation_steps"] = accumulation_->value();
    }
    if (checkpoint_every_->value() > 0) {
        settings["callbacks"] = {
            {"model_checkpoint", {{"every_n_steps", checkpoint_every_->value()}}}};
    }
    return settings;
}

nlohmann::json RunConfigForm::transformArgs() const {
    // Augmentation as typed (a JSON object; validate() says when it is not one).
    nlohmann::json transform_args = augmentationArgs().value_or(nlohmann::json::object());
    if (image_size_->value() != kAutoImageSize) {
        transform_args["image_size"] = {image_size_->value(), image_size_->value()};
    } else {
        transform_args["image_size"] = "auto";
    }
    return transform_args;
}

void RunConfigForm::writeDevices(nlohmann::json& settings) const {
    const QString accelerator = accelerator_->currentData().toString();
    if (accelerator.startsWith(QStringLiteral("cuda:"))) {
        settings["accelerator"] = "cuda";
        settings["devices"] = nlohmann::json::array({accelerator.mid(5).toInt()});
    } else {
        settings["accelerator"] = accelerator.toStdString();
        if (devices_->value() > 0) {
            settings["devices"] = devices_->value();
        }
    }
    if (num_nodes_->value() > 1) {
        settings["num_nodes"] = num_nodes_->value();
    }
    if (sync_batchnorm_->isChecked()) {
        settings["sync_batchnorm"] = true;
    }
}

// The data's splits and labels as the task reads them; pretraining's method settings too.
void RunConfigForm::writeData(TaskKind kind, nlohmann::json& settings) const {
    const std::string train =
        data_->currentIndex() >= 0 ? data_->currentData().toString().toStdString() : std::string();
    const std::string val = val_data_->currentIndex() >= 0
                                ? val_data_->currentData().toString().toStdString()
                                : std::string();
    if (kind == TaskKind::Pretraining) {
        settings["method"] = method_->currentText().toStdString();
        if (!train.empty()) {
            settings["data"] = train;
        }
        nlohmann::json method_args = methodArgs().value_or(nlohmann::json::object());
        if (needsTeacher()) { // the Teacher field's
            method_args["teacher"] = chosenPath(teacher_).toStdString();
        }
        if (!method_args.empty()) {
            settings["method_args"] = method_args;
        }
        if (const nlohmann::json monitor = knnMonitor(); !monitor.is_null()) {
            settings["knn_monitor"] = monitor;
        }
    } else if (kind == TaskKind::ImageClassification) {
        settings["data"] = val == kHoldOut
                               ? nlohmann::json{{"train", train}, {"val_split", kHoldOutShare}}
                               : nlohmann::json{{"train", train}, {"val", val}};
    } else if (has_boxes(kind) && yoloLabels()) {
        settings["data"] = yolo_data_->text().trimmed().toStdString(); // splits and names in it
    } else if (has_boxes(kind)) {
        settings["data"] = {
            {"train",
             {{"images", train},
              {"annotations", train_annotations_->text().trimmed().toStdString()}}},
            {"val",
             {{"images", val}, {"annotations", val_annotations_->text().trimmed().toStdString()}}}};
    } else {
        settings["data"] = {
            {"train", {{"images", train}, {"masks", train_masks_->text().trimmed().toStdString()}}},
            {"val", {{"images", val}, {"masks", val_masks_->text().trimmed().toStdString()}}},
            {"classes", classes_->text().trimmed().toStdString()}};
    }
}

nlohmann::json RunConfigForm::loggers() const {
    nlohmann::json loggers = nlohmann::json::object();
    if (!tensorboard_->isChecked()) {
        loggers["tensorboard"] = nullptr;
    }
    if (!mlflow_uri_->text().trimmed().isEmpty()) {
        loggers["mlflow"] = {{"tracking_uri", mlflow_uri_->text().trimmed().toStdString()}};
    }
    if (!wandb_project_->text().trimmed().isEmpty()) {
        loggers["wandb"] = kept_wandb_; // name, tags, ... from a preset, kept as they were
        loggers["wandb"]["project"] = wandb_project_->text().trimmed().toStdString();
        loggers["wandb"]["offline"] = true;
    }
    return loggers;
}

std::vector<std::pair<const char*, QLineEdit*>> RunConfigForm::optimizerFields() const {
    return {{"lr", learning_rate_},
            {"weight_decay", weight_decay_},
            {"warmup_epochs", warmup_epochs_},
            {"backbone_lr_factor", backbone_lr_factor_},
            {"layer_decay", layer_decay_},
            {"head_warmup_epochs", head_warmup_epochs_}};
}

void RunConfigForm::writeOptimizer(TaskKind kind, nlohmann::json& settings) const {
    if (optim_->currentIndex() > 0) {
        settings["optim"] = optim_->currentText().toStdString();
    }
    nlohmann::json optim_args = kept_optim_args_; // momentum, betas, ... from a preset
    for (const auto& [key, field] : optimizerFields()) {
        if (config::train_schema(kind).find_path(std::string("optim_args.") + key) == nullptr) {
            continue; // fine-tuning's, left from another task
        }
        bool number = false;
        const double value = field->text().toDouble(&number);
        if (number) {
            optim_args[key] = value;
        } else if (!field->text().trimmed().isEmpty()) {
            optim_args[key] = field->text().trimmed().toStdString(); // the engine says why
        }
    }
    if (!optim_args.empty()) {
        settings["optim_args"] = optim_args;
    }
}

namespace {

// The problems of the values `settings` gives (not of what they leave out, such as out and
// data, which a project's settings may not have yet), in the settings checker's words.
std::vector<ConfigIssue> value_issues_of(nlohmann::json settings) {
    if (settings.is_object() && settings.value("out", nlohmann::json()) == "") {
        settings.erase("out"); // saved by Studio before it left an unnamed folder out
    }
    std::vector<ConfigIssue> issues;
    try {
        parse_train_config(settings);
    } catch (const ConfigError& error) {
        for (const ConfigIssue& issue : error.issues()) {
            const std::string top = issue.path.substr(0, issue.path.find_first_of(".["));
            if (settings.is_object() && settings.contains(top)) {
                issues.push_back(issue);
            }
        }
    } catch (const std::exception&) {
        // Nothing the form reads can be checked further; the fields show the defaults.
    }
    return issues;
}

} // namespace

void RunConfigForm::setSettings(const nlohmann::json& settings) {
    const std::vector<ConfigIssue> issues = value_issues_of(settings);
    value_problems_.clear();
    for (const ConfigIssue& issue : issues) {
        value_problems_ << QString::fromStdString(issue.path + ": " + issue.message);
    }
    // A value the checker refuses shows as the default, as the problems say.
    const auto refused = [&issues](const std::string& path) {
        return std::any_of(issues.begin(), issues.end(), [&path](const ConfigIssue& issue) {
            return issue.path.rfind(path, 0) == 0;
        });
    };
    const auto text = [&](const char* key, const std::string& fallback) {
        return QString::fromStdString(settings.contains(key) && settings[key].is_string()
                                          ? settings[key].get<std::string>()
                                          : fallback);
    };
    const auto number = [&](const char* key, int fallback) {
        return settings.contains(key) && settings[key].is_number_integer() && !refused(key)
                   ? settings[key].get<int>()
                   : fallback;
    };
    task_->setCurrentIndex(std::max(0, task_->findData(text("task", "pretrain"))));
    model_->setCurrentText(text("model", "resnet18"));
    method_->setCurrentText(text("method", methods::default_method()));
    if (settings.contains("method_args") && settings["method_args"].is_object() &&
        settings["method_args"].contains("teacher") &&
        settings["method_args"]["teacher"].is_string()) {
        const QString teacher =
            QString::fromStdString(settings["method_args"]["teacher"].get<std::string>());
        const int listed = teacher_->findData(teacher);
        teacher_->setCurrentText(listed > 0 ? teacher_->itemText(listed) : teacher);
    }
    nlohmann::json method_args = value_at(settings, "method_args");
    if (method_args.is_object()) {
        method_args.erase("teacher");
    }
    method_args_->setText(method_args.is_object() && !method_args.empty()
                              ? QString::fromStdString(method_args.dump())
                              : QString());
    // What the settings leave out is the task's default, as the command line has it.
    setTrainFor(settings);
    batch_size_->setValue(number("batch_size", setting_default(task(), "batch_size").get<int>()));
    const nlohmann::json size = value_at(settings, "transform_args.image_size");
    const nlohmann::json side = size.is_array() && !size.empty() ? size[0] : size;
    image_size_->setValue(side.is_number_integer() && !refused("transform_args.image_size")
                              ? side.get<int>()
                              : kAutoImageSize);
    // The accelerator first: changing it resets a precision it cannot run.
    // One listed GPU is the accelerator entry of that GPU ("cuda:1").
    const bool one_gpu = settings.contains("devices") && settings["devices"].is_array() &&
                         settings["devices"].size() == 1 &&
                         settings["devices"][0].is_number_integer();
    requested_accelerator_ = one_gpu
                                 ? QStringLiteral("cuda:%1").arg(settings["devices"][0].get<int>())
                                 : text("accelerator", "auto");
    requested_precision_ = text("precision", "auto");
    accelerator_->setCurrentIndex(std::max(0, accelerator_->findData(requested_accelerator_)));
    precision_->setCurrentIndex(std::max(0, precision_->findData(requested_precision_)));
    seed_->setValue(number("seed", 0));
    devices_->setValue(number("devices", 0));
    num_nodes_->setValue(number("num_nodes", 1));
    sync_batchnorm_->setChecked(settings.contains("sync_batchnorm") &&
                                settings["sync_batchnorm"].is_boolean() &&
                                settings["sync_batchnorm"].get<bool>());
    out_->setText(text("out", ""));
    setKnnMonitor(settings);
    accumulation_->setValue(number("gradient_accumulation_steps", 1));
    setDataFields(settings.value("data", nlohmann::json()));
    setAdvancedFields(settings);
}

void RunConfigForm::setDataFields(const nlohmann::json& data) {
    const auto path_at = [&data](const char* split, const char* key) {
        if (!data.is_object() || !data.contains(split)) {
            return QString();
        }
        const nlohmann::json& entry = data[split];
        const nlohmann::json& value = key == nullptr                             ? entry
                                      : entry.is_object() && entry.contains(key) ? entry[key]
                                                                                 : nlohmann::json();
        return value.is_string() ? QString::fromStdString(value.get<std::string>()) : QString();
    };
    const bool detection = has_boxes(task());
    labels_->setCurrentIndex(labels_->findData(
        detection && data.is_string() ? QStringLiteral("yolo") : QStringLiteral("coco")));
    if (detection && data.is_string()) {
        yolo_data_->setText(QString::fromStdString(data.get<std::string>()));
    } else if (data.is_string()) {
        select(data_, QString::fromStdString(data.get<std::string>()));
    } else if (has_boxes(task())) {
        select(data_, path_at("train", "images"));
        select(val_data_, path_at("val", "images"));
        train_annotations_->setText(path_at("train", "annotations"));
        val_annotations_->setText(path_at("val", "annotations"));
    } else if (task() == TaskKind::SemanticSegmentation) {
        select(data_, path_at("train", "images"));
        select(val_data_, path_at("val", "images"));
        train_masks_->setText(path_at("train", "masks"));
        val_masks_->setText(path_at("val", "masks"));
        classes_->setText(data.contains("classes") && data["classes"].is_string()
                              ? QString::fromStdString(data["classes"].get<std::string>())
                              : QString());
    } else {
        select(data_, path_at("train", nullptr));
        select(val_data_, path_at("val", nullptr));
        if (data.is_object() && data.contains("val_split")) {
            if (val_data_->findData(QLatin1String(kHoldOut)) < 0) {
                val_data_->insertItem(0, tr("Hold out 10% of the training images"),
                                      QLatin1String(kHoldOut));
            }
            val_data_->setCurrentIndex(val_data_->findData(QLatin1String(kHoldOut)));
        }
    }
}

// The Advanced section's fields, and what the form keeps of the settings it has no field for.
void RunConfigForm::setAdvancedFields(const nlohmann::json& settings) {
    const QString weights = text_at(settings, "model_args.backbone_weights");
    const int run = backbone_->findData(weights);
    backbone_->setCurrentText(run > 0 ? backbone_->itemText(run) : weights);
    const nlohmann::json model_args = value_at(settings, "model_args");
    kept_model_args_ = model_args.is_object() ? model_args : nlohmann::json::object();
    kept_model_args_.erase("backbone_weights"); // the field has it
    // A preset from someone else may hold any number here (1e300 made the conversion undefined).
    const nlohmann::json workers = value_at(settings, "num_workers");
    num_workers_->setValue(
        workers.is_number_integer()
            ? int(std::clamp<std::int64_t>(workers.get<std::int64_t>(), num_workers_->minimum(),
                                           num_workers_->maximum()))
            : -1);
    nlohmann::json augmentation = settings.value("transform_args", nlohmann::json::object());
    if (augmentation.is_object()) {
        augmentation.erase("image_size");
    }
    augmentation_->setText(augmentation.is_object() && !augmentation.empty()
                               ? QString::fromStdString(augmentation.dump())
                               : QString());
    const int optim = optim_->findText(text_at(settings, "optim", QStringLiteral("auto")));
    optim_->setCurrentIndex(std::max(0, optim));
    const nlohmann::json optim_args = settings.value("optim_args", nlohmann::json::object());
    kept_optim_args_ = optim_args.is_object() ? optim_args : nlohmann::json::object();
    for (const auto& [key, field] : optimizerFields()) {
        field->setText(optim_args.is_object() && optim_args.contains(key) &&
                               optim_args[key].is_number()
                           ? number_text(optim_args[key].get<double>())
                           : QString());
        kept_optim_args_.erase(key); // the field has it
    }
    const nlohmann::json every = value_at(settings, "callbacks.model_checkpoint.every_n_steps");
    checkpoint_every_->setValue(every.is_number_integer() ? every.get<int>() : 0);
    const nlohmann::json wandb = value_at(settings, "loggers.wandb");
    kept_wandb_ = wandb.is_object() ? wandb : nlohmann::json::object();
    wandb_project_->setText(text_at(settings, "loggers.wandb.project"));
    const nlohmann::json loggers = value_at(settings, "loggers");
    // Off only when set to null; absent (the default) is on.
    tensorboard_->setChecked(!(loggers.is_object() && loggers.contains("tensorboard") &&
                               loggers["tensorboard"].is_null()));
    mlflow_uri_->setText(text_at(settings, "loggers.mlflow.tracking_uri"));
}

void RunConfigForm::clearIssues() {
    for (QLabel* label : issues_) {
        label->clear();
        label->hide();
    }
    general_issue_->clear();
}

namespace {

// A field holding a JSON object: blank is an empty one; nullopt when it holds anything else.
std::optional<nlohmann::json> json_object_in(const QLineEdit* field) {
    const std::string text = field->text().trimmed().toStdString();
    if (text.empty()) {
        return nlohmann::json::object();
    }
    const nlohmann::json parsed = parse_json_or_discarded(text);
    return parsed.is_object() ? std::optional(parsed) : std::nullopt;
}

} // namespace

std::optional<nlohmann::json> RunConfigForm::augmentationArgs() const {
    return json_object_in(augmentation_);
}

std::optional<nlohmann::json> RunConfigForm::methodArgs() const {
    return json_object_in(method_args_);
}

// The chosen method's settings with their defaults for the chosen model (those that follow the
// dataset's size said so), as `kiln train --help` describes them.
void RunConfigForm::updateMethodArgsHint() {
    const methods::MethodEntry* method = methods::find_method(method_->currentText().toStdString());
    if (method == nullptr) {
        method_args_->setToolTip(QString());
        return;
    }
    const std::string model = model_->currentText().toStdString();
    std::vector<ConfigIssue> unused; // no arguments given, none refused
    const nlohmann::json small = methods::resolve_method_args(*method, model, 0, {}, unused);
    const nlohmann::json large =
        methods::resolve_method_args(*method, model, std::int64_t(1) << 40, {}, unused);
    QStringList lines;
    for (const methods::MethodArg& arg : method->args) {
        if (arg.name == "teacher") {
            continue; // a field of its own
        }
        const nlohmann::json& value = small[arg.name];
        lines << QStringLiteral("%1 (%2): %3")
                     .arg(QString::fromStdString(arg.name),
                          value == large[arg.name] ? QString::fromStdString(value.dump())
                                                   : tr("by the dataset's size"),
                          QString::fromStdString(arg.help));
    }
    method_args_->setToolTip(lines.join(QLatin1Char('\n')));
}

std::optional<TrainConfig> RunConfigForm::validate(const nlohmann::json& overrides) {
    clearIssues();
    warnIfValidatingOnTrainingImages();
    const std::pair<QString, QString> json_fields[] = {
        {QStringLiteral("augmentation"),
         augmentationArgs()
             ? QString()
             : tr(R"(Augmentation takes a JSON object, e.g. {"color_jitter": {"prob": 0.5}})")},
        {QStringLiteral("method_args"), // pretraining's only: the other tasks leave it out
         methodArgs() || task() != TaskKind::Pretraining
             ? QString()
             : tr(R"(Method settings take a JSON object, e.g. {"temperature": 0.2})")},
    };
    bool refused = false;
    for (const auto& [row, problem] : json_fields) {
        if (!problem.isEmpty()) {
            issues_.value(row)->setText(problem);
            issues_.value(row)->show();
            refused = true;
        }
    }
    if (refused) {
        setAdvancedVisible(true);
        return std::nullopt;
    }
    try {
        nlohmann::json input = settings();
        if (out_->text().isEmpty()) {
            // No output folder means a new one, which Train names; checked as one nothing has.
            input["out"] = QDir(QDir::tempPath())
                               .filePath(QStringLiteral("kiln-new-run-folder"))
                               .toStdString();
        }
        input.update(overrides);
        const TaskKind kind = task();
        return resolve_train_config(input, {hardware_, system::WorkerEnvironment::from_process()},
                                    kind);
    } catch (const ConfigError& error) {
        for (const ConfigIssue& issue : error.issues()) {
            QString key = rowForIssue(QString::fromStdString(issue.path));
            if (key == QLatin1String("data") && !rows_.value(key)->isVisibleTo(this)) {
                key = QStringLiteral("yolo"); // the YOLO YAML stands for the data
            }
            if (advanced_rows_.contains(key)) {
                setAdvancedVisible(true); // a problem is never folded away
            }
            QLabel* label = issues_.value(key, general_issue_);
            QString message = QString::fromStdString(issue.message);
            if (key == QLatin1String("augmentation") || key == QLatin1String("method_args")) {
                // one field for many keys: say which
                message = QString::fromStdString(issue.path).section(QLatin1Char('.'), 1) +
                          QStringLiteral(": ") + message;
            }
            label->setText(label->text().isEmpty() ? message
                                                   : label->text() + QLatin1Char('\n') + message);
            label->show();
        }
    } catch (const Error& error) {
        general_issue_->setText(QString::fromStdString(error.what()));
    }
    return std::nullopt;
}

// Said in red, not refused: a quick check on one folder is legitimate, a model judged by it
// is not.
void RunConfigForm::warnIfValidatingOnTrainingImages() {
    const QString train = data_->currentData().toString();
    if (task() == TaskKind::ImageClassification && !train.isEmpty() &&
        val_data_->currentData().toString() == train) {
        QLabel* label = issues_.value(QStringLiteral("val"));
        label->setText(tr("These are the training images: validation would measure memory, not "
                          "how the model does on new images. Hold out 10% instead."));
        label->show();
    }
}

void RunConfigForm::setEstimate(const QString& text) {
    estimate_->setText(text);
    estimate_->setVisible(!text.isEmpty());
    estimates_->setVisible(!estimate_->isHidden() || !memoryEstimate_->isHidden());
}

QString RunConfigForm::estimate() const {
    return estimate_->text();
}

void RunConfigForm::setMemoryEstimate(const QString& text, bool refused) {
    memoryEstimate_->setText(text);
    memoryEstimate_->setStyleSheet(refused ? QStringLiteral("color: #c0392b") : QString());
    memoryEstimate_->setVisible(!text.isEmpty());
    estimates_->setVisible(!estimate_->isHidden() || !memoryEstimate_->isHidden());
}

QString RunConfigForm::memoryEstimate() const {
    return memoryEstimate_->text();
}

QString RunConfigForm::issueText(const QString& key) const {
    const QLabel* label = issues_.value(rowForIssue(key), nullptr);
    return label != nullptr ? label->text() : general_issue_->text();
}

} // namespace kiln::gui
