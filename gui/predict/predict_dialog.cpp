#include "predict/predict_dialog.h"

#include "core/error.h"
#include "system/hardware.h"
#include "system/num_workers.h"
#include "track/run_directory.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace kiln::gui {
namespace {

constexpr int kTaskRole = Qt::UserRole + 1;

bool isDetection(const QString& task) {
    return task == QLatin1String("object_detection") ||
           task == QLatin1String("instance_segmentation");
}

} // namespace

PredictDialog::PredictDialog(const Project& project, const QVector<RunRow>& runs, QWidget* parent)
    : QDialog(parent), project_folder_(QFileInfo(project.file()).absolutePath()) {
    setObjectName(QStringLiteral("predictDialog"));
    setWindowTitle(tr("Predict"));
    model_ = new QComboBox(this);
    model_->setObjectName(QStringLiteral("modelSourceField"));
    for (const RunRow& run : runs) {
        if (run.task.isEmpty() || run.task == QLatin1String("pretrain")) {
            continue; // a backbone predicts nothing
        }
        const track::RunDirectory directory(run.directory.toStdString());
        QString checkpoint = QString::fromStdString(directory.best_checkpoint().string());
        if (!QFileInfo::exists(checkpoint)) {
            checkpoint = QString::fromStdString(directory.last_checkpoint().string());
        }
        if (QFileInfo::exists(checkpoint) && model_->findData(checkpoint) < 0) {
            model_->addItem(
                tr("%1 (%2, %3)").arg(QFileInfo(run.directory).fileName(), run.task, run.model),
                checkpoint);
            model_->setItemData(model_->count() - 1, run.task, kTaskRole);
        }
    }
    auto* browse_model = new QPushButton(tr("Browse..."), this);
    connect(browse_model, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Model"), project_folder_,
                                                          tr("Kiln checkpoints (*.ckpt)"));
        if (!file.isEmpty()) {
            setModel(file);
        }
    });
    auto* model_row = new QHBoxLayout;
    model_row->addWidget(model_, 1);
    model_row->addWidget(browse_model);
    data_ = new QComboBox(this);
    data_->setObjectName(QStringLiteral("dataField"));
    for (const DatasetEntry& dataset : project.datasets()) {
        data_->addItem(dataset.name, dataset.path);
    }
    auto* browse_data = new QPushButton(tr("Browse..."), this);
    connect(browse_data, &QPushButton::clicked, this, [this] {
        const QString folder =
            QFileDialog::getExistingDirectory(this, tr("Images to predict on"), project_folder_);
        if (!folder.isEmpty()) {
            setData(folder);
        }
    });
    auto* data_row = new QHBoxLayout;
    data_row->addWidget(data_, 1);
    data_row->addWidget(browse_data);
    out_ = new QLineEdit(this);
    out_->setObjectName(QStringLiteral("outputField"));
    draw_ = new QCheckBox(tr("Also write the images with their detections drawn"), this);
    draw_->setObjectName(QStringLiteral("drawField"));
    problem_ = new QLabel(this);
    problem_->setObjectName(QStringLiteral("problemLabel"));
    problem_->setWordWrap(true);
    problem_->setStyleSheet(QStringLiteral("color: #c0392b"));

    auto* form = new QFormLayout;
    form->addRow(tr("Model"), model_row);
    form->addRow(tr("Images"), data_row);
    form->addRow(tr("Write to"), out_);
    form->addRow(QString(), draw_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Predict"));
    connect(buttons, &QDialogButtonBox::accepted, this, &PredictDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(problem_);
    layout->addWidget(buttons);

    connect(model_, &QComboBox::currentIndexChanged, this, &PredictDialog::suggestOutput);
    connect(data_, &QComboBox::currentIndexChanged, this, &PredictDialog::suggestOutput);
    suggestOutput();
}

QString PredictDialog::task() const {
    return model_->currentIndex() >= 0 ? model_->currentData(kTaskRole).toString() : QString();
}

void PredictDialog::setModel(const QString& checkpoint, const QString& task) {
    int index = model_->findData(checkpoint);
    if (index < 0) {
        model_->addItem(QFileInfo(checkpoint).fileName(), checkpoint);
        index = model_->count() - 1;
        model_->setItemData(index, task, kTaskRole);
    }
    model_->setCurrentIndex(index);
}

void PredictDialog::setData(const QString& folder) {
    int index = data_->findData(folder);
    if (index < 0) {
        data_->addItem(QFileInfo(folder).fileName(), folder);
        index = data_->count() - 1;
    }
    data_->setCurrentIndex(index);
}

void PredictDialog::setOutput(const QString& path) {
    out_->setText(path);
}

void PredictDialog::suggestOutput() {
    // predictions/<run>-<dataset>.csv, a folder of masks, or .json beside the project.
    QString name = QStringLiteral("predictions");
    if (model_->currentIndex() >= 0) {
        const QFileInfo checkpoint(model_->currentData().toString());
        name = QFileInfo(checkpoint.dir().absolutePath()).dir().dirName();
    }
    if (data_->currentIndex() >= 0) {
        name += QLatin1Char('-') + data_->currentText();
    }
    const QString kind = task();
    const QString suffix = kind == QLatin1String("image_classification") ? QStringLiteral(".csv")
                           : isDetection(kind)                           ? QStringLiteral(".json")
                                                                         : QString();
    out_->setText(QDir(project_folder_).filePath(QStringLiteral("predictions/") + name + suffix));
    draw_->setVisible(isDetection(kind));
}

nlohmann::json PredictDialog::settings() const {
    nlohmann::json settings = {{"out", out_->text().toStdString()}, {"overwrite", true}};
    if (model_->currentIndex() >= 0) {
        settings["checkpoint"] = model_->currentData().toString().toStdString();
    }
    if (data_->currentIndex() >= 0) {
        settings["data"] = data_->currentData().toString().toStdString();
    }
    if (draw_->isVisible() && draw_->isChecked()) {
        settings["draw"] = (out_->text() + QStringLiteral("-drawn")).toStdString();
    }
    return settings;
}

void PredictDialog::accept() {
    problem_->clear();
    try {
        QDir().mkpath(QFileInfo(out_->text()).absolutePath());
        config_ = resolve_predict_config(
            settings(), {system::probe_hardware(), system::WorkerEnvironment::from_process()});
    } catch (const Error& error) { // a ConfigError lists every bad setting
        problem_->setText(QString::fromStdString(error.what()));
        return;
    }
    QDialog::accept();
}

} // namespace kiln::gui
