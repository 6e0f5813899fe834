#include "training/run_config_form.h"

#include "config/config_schema.h"
#include "config/precision.h"
#include "core/error.h"
#include "methods/method_names.h"
#include "models/backbone_names.h"
#include "system/num_workers.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>

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

QStringList to_qt(const std::vector<std::string>& names) {
    QStringList list;
    for (const std::string& name : names) {
        list << QString::fromStdString(name);
    }
    return list;
}

} // namespace

RunConfigForm::RunConfigForm(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("runConfigForm"));
    auto* form = new QFormLayout;
    data_ = combo(QStringLiteral("dataField"), {}, this);
    model_ = combo(QStringLiteral("modelField"), to_qt(models::backbone_names()), this);
    method_ = combo(QStringLiteral("methodField"), to_qt(methods::method_names()), this);
    epochs_ = spin(QStringLiteral("epochsField"), 1, 100000, 100, this);
    batch_size_ = spin(QStringLiteral("batchSizeField"), 1, 65536, 128, this);
    image_size_ = spin(QStringLiteral("imageSizeField"), 8, 4096, 224, this);
    image_size_->setSuffix(tr(" px"));
    accelerator_ = combo(QStringLiteral("acceleratorField"), {}, this);
    QStringList precisions;
    for (const auto& [precision, name] : precision_names()) {
        precisions << QString::fromStdString(name);
    }
    precision_ = combo(QStringLiteral("precisionField"), precisions, this);
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

    addRow(form, QStringLiteral("data"), tr("Dataset"), data_);
    addRow(form, QStringLiteral("model"), tr("Model"), model_);
    addRow(form, QStringLiteral("method"), tr("Method"), method_);
    addRow(form, QStringLiteral("epochs"), tr("Epochs"), epochs_);
    addRow(form, QStringLiteral("batch_size"), tr("Batch size"), batch_size_);
    addRow(form, QStringLiteral("transform_args"), tr("Image size"), image_size_);
    addRow(form, QStringLiteral("accelerator"), tr("Accelerator"), accelerator_);
    addRow(form, QStringLiteral("devices"), tr("Devices"), devices_);
    addRow(form, QStringLiteral("num_nodes"), tr("Nodes"), num_nodes_);
    addRow(form, QStringLiteral("sync_batchnorm"), tr("Sync batch norm"), sync_batchnorm_);
    addRow(form, QStringLiteral("precision"), tr("Precision"), precision_);
    addRow(form, QStringLiteral("num_workers"), tr("Loader workers"), num_workers_);
    addRow(form, QStringLiteral("loggers"), tr("Loggers"), tensorboard_);
    form->addRow(tr("MLflow"), mlflow_uri_);
    addRow(form, QStringLiteral("out"), tr("Output folder"), out_);
    addRow(form, QStringLiteral("seed"), tr("Seed"), seed_);
    general_issue_ = new QLabel(this);
    general_issue_->setObjectName(QStringLiteral("generalIssue"));
    general_issue_->setWordWrap(true);
    general_issue_->setStyleSheet(QStringLiteral("color: #c0392b"));

    auto* fields = new QWidget(this);
    fields->setLayout(form);
    fields->setMaximumWidth(720); // a form, not a spreadsheet: keep the fields readable
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(fields);
    layout->addWidget(general_issue_);
    layout->addStretch();

    connect(accelerator_, &QComboBox::currentIndexChanged, this, [this] {
        updatePrecisionChoices();
        updateWorkerHint();
    });
    setHardware(system::probe_hardware());
}

QLabel* RunConfigForm::addRow(QFormLayout* form, const QString& key, const QString& label,
                              QWidget* field) {
    auto* issue = new QLabel(this);
    issue->setObjectName(key + QStringLiteral("Issue"));
    issue->setWordWrap(true);
    issue->setStyleSheet(QStringLiteral("color: #c0392b"));
    issue->hide();
    auto* column = new QVBoxLayout;
    column->setContentsMargins(0, 0, 0, 0);
    column->addWidget(field);
    column->addWidget(issue);
    form->addRow(label, column);
    issues_.insert(key, issue);
    return issue;
}

void RunConfigForm::setDatasets(const QList<DatasetEntry>& datasets) {
    data_->clear();
    for (const DatasetEntry& dataset : datasets) {
        data_->addItem(dataset.name, dataset.path);
    }
}

void RunConfigForm::setHardware(const system::HardwareInfo& hardware) {
    hardware_ = hardware;
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
        const QString name = precision_->itemText(i);
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
    const int automatic =
        system::auto_num_workers(hardware_.cpu_cores, 1, system::WorkerEnvironment::from_process());
    num_workers_->setSpecialValueText(tr("auto (%1)").arg(automatic));
}

nlohmann::json RunConfigForm::settings() const {
    nlohmann::json settings = {
        {"model", model_->currentText().toStdString()},
        {"method", method_->currentText().toStdString()},
        {"epochs", epochs_->value()},
        {"batch_size", batch_size_->value()},
        {"transform_args", {{"image_size", {image_size_->value(), image_size_->value()}}}},
        {"precision", precision_->currentText().toStdString()},
        {"seed", seed_->value()},
        {"out", out_->text().toStdString()},
    };
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
    if (data_->currentIndex() >= 0) {
        settings["data"] = data_->currentData().toString().toStdString();
    }
    settings["num_workers"] =
        num_workers_->value() < 0 ? nlohmann::json("auto") : nlohmann::json(num_workers_->value());
    nlohmann::json loggers = nlohmann::json::object();
    if (!tensorboard_->isChecked()) {
        loggers["tensorboard"] = nullptr;
    }
    if (!mlflow_uri_->text().trimmed().isEmpty()) {
        loggers["mlflow"] = {{"tracking_uri", mlflow_uri_->text().trimmed().toStdString()}};
    }
    settings["loggers"] = loggers;
    return settings;
}

void RunConfigForm::setSettings(const nlohmann::json& settings) {
    const auto text = [&](const char* key, const std::string& fallback) {
        return QString::fromStdString(settings.contains(key) && settings[key].is_string()
                                          ? settings[key].get<std::string>()
                                          : fallback);
    };
    const auto number = [&](const char* key, int fallback) {
        return settings.contains(key) && settings[key].is_number_integer()
                   ? settings[key].get<int>()
                   : fallback;
    };
    model_->setCurrentText(text("model", "resnet18"));
    method_->setCurrentText(text("method", "simclr"));
    epochs_->setValue(number("epochs", 100));
    batch_size_->setValue(number("batch_size", 128));
    if (settings.contains("transform_args") && settings["transform_args"].contains("image_size")) {
        const nlohmann::json& size = settings["transform_args"]["image_size"];
        image_size_->setValue(size.is_array() ? size[0].get<int>() : size.get<int>());
    }
    // The accelerator first: changing it resets a precision it cannot run.
    // One listed GPU is the accelerator entry of that GPU ("cuda:1").
    const bool one_gpu = settings.contains("devices") && settings["devices"].is_array() &&
                         settings["devices"].size() == 1;
    const int accelerator = accelerator_->findData(
        one_gpu ? QStringLiteral("cuda:%1").arg(settings["devices"][0].get<int>())
                : text("accelerator", "auto"));
    accelerator_->setCurrentIndex(std::max(0, accelerator));
    precision_->setCurrentText(text("precision", "auto"));
    seed_->setValue(number("seed", 0));
    devices_->setValue(number("devices", 0));
    num_nodes_->setValue(number("num_nodes", 1));
    sync_batchnorm_->setChecked(settings.value("sync_batchnorm", false));
    out_->setText(text("out", ""));
    const QString data = text("data", "");
    if (!data.isEmpty() && data_->findData(data) < 0) { // not a project dataset: still shown
        data_->addItem(QFileInfo(data).fileName(), data);
    }
    if (!data.isEmpty()) {
        data_->setCurrentIndex(data_->findData(data));
    }
    num_workers_->setValue(settings.contains("num_workers") && settings["num_workers"].is_number()
                               ? settings["num_workers"].get<int>()
                               : -1);
    const nlohmann::json loggers = settings.value("loggers", nlohmann::json::object());
    tensorboard_->setChecked(
        !(loggers.contains("tensorboard") && loggers["tensorboard"].is_null()));
    mlflow_uri_->setText(
        loggers.contains("mlflow") && loggers["mlflow"].contains("tracking_uri")
            ? QString::fromStdString(loggers["mlflow"]["tracking_uri"].get<std::string>())
            : QString());
}

void RunConfigForm::clearIssues() {
    for (QLabel* label : issues_) {
        label->clear();
        label->hide();
    }
    general_issue_->clear();
}

std::optional<TrainConfig> RunConfigForm::validate(const nlohmann::json& overrides) {
    clearIssues();
    try {
        nlohmann::json input = settings();
        input.update(overrides);
        return resolve_train_config(input, {hardware_, system::WorkerEnvironment::from_process()});
    } catch (const ConfigError& error) {
        for (const ConfigIssue& issue : error.issues()) {
            const QString key = QString::fromStdString(issue.path).section(QLatin1Char('.'), 0, 0);
            QLabel* label = issues_.value(key, general_issue_);
            const QString message = QString::fromStdString(issue.message);
            label->setText(label->text().isEmpty() ? message
                                                   : label->text() + QLatin1Char('\n') + message);
            label->show();
        }
    } catch (const Error& error) {
        general_issue_->setText(QString::fromStdString(error.what()));
    }
    return std::nullopt;
}

QString RunConfigForm::issueText(const QString& key) const {
    const QLabel* label = issues_.value(key, nullptr);
    return label != nullptr ? label->text() : general_issue_->text();
}

} // namespace kiln::gui
