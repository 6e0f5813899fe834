#include "predict/predict_dialog.h"

#include "system/hardware.h"
#include "system/num_workers.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QLineEdit>
#include <QSpinBox>

namespace kiln::gui {
namespace {

constexpr int kTaskRole = Qt::UserRole + 1;

bool isDetection(const QString& task) {
    return task == QLatin1String("object_detection") ||
           task == QLatin1String("instance_segmentation");
}

} // namespace

PredictDialog::PredictDialog(const Project& project, const QVector<RunRow>& runs, QWidget* parent)
    : SettingsDialog(QStringLiteral("predictDialog"), tr("Predict"), parent),
      project_folder_(QFileInfo(project.file()).absolutePath()) {
    model_ = new QComboBox(this);
    model_->setObjectName(QStringLiteral("modelSourceField"));
    for (const RunRow& run : runs) {
        if (run.task.isEmpty() || run.task == QLatin1String("pretrain")) {
            continue; // a backbone predicts nothing
        }
        const QString checkpoint = run.checkpoint();
        if (!checkpoint.isEmpty() && model_->findData(checkpoint) < 0) {
            model_->addItem(tr("%1 (%2, %3)").arg(run.displayName(), run.trainedAs(), run.model),
                            checkpoint);
            model_->setItemData(model_->count() - 1, run.task, kTaskRole);
        }
    }
    model_->setPlaceholderText(tr("no fine-tuning run yet: Browse... for a checkpoint"));
    data_ = new QComboBox(this);
    data_->setObjectName(QStringLiteral("dataField"));
    for (const DatasetEntry& dataset : project.datasets()) {
        data_->addItem(dataset.name, dataset.path);
    }
    image_size_ = imageSizeField();
    out_ = new QLineEdit(this);
    out_->setObjectName(QStringLiteral("outputField"));
    draw_ = new QCheckBox(tr("Also write the images with their detections drawn"), this);
    draw_->setObjectName(QStringLiteral("drawField"));
    auto* form = new QFormLayout;
    form->addRow(tr("Model"),
                 withBrowse(model_, tr("Model"), project_folder_, tr("Kiln checkpoints (*.ckpt)")));
    form->addRow(tr("Images"), withBrowse(data_, tr("Images to predict on"), project_folder_, {}));
    form->addRow(tr("Image size"), image_size_);
    // A CSV, a COCO results JSON or a folder of masks, by the model's task.
    form->addRow(tr("Write to"),
                 withSaveBrowse(out_, tr("Write the Predictions to"),
                                tr("Results (*.csv *.json);;Any file or folder (*)")));
    form->addRow(QString(), draw_);
    finishLayout(form, tr("Predict"));

    connect(model_, &QComboBox::currentIndexChanged, this, &PredictDialog::suggestOutput);
    connect(data_, &QComboBox::currentIndexChanged, this, &PredictDialog::suggestOutput);
    suggestOutput();
}

QString PredictDialog::task() const {
    return model_->currentIndex() >= 0 ? model_->currentData(kTaskRole).toString() : QString();
}

void PredictDialog::setModel(const QString& checkpoint, const QString& task) {
    const bool listed = model_->findData(checkpoint) >= 0;
    choose(model_, checkpoint);
    if (!listed) {
        model_->setItemData(model_->currentIndex(), task, kTaskRole);
    }
}

void PredictDialog::setData(const QString& folder) {
    choose(data_, folder);
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
    nlohmann::json settings = {{"out", out_->text().toStdString()},
                               {"image_size", imageSizeSetting(image_size_)},
                               {"overwrite", true}};
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
    acceptChecked(out_->text(), [this] {
        config_ = resolve_predict_config(
            settings(), {system::probe_hardware(), system::WorkerEnvironment::from_process()});
    });
}

} // namespace kiln::gui
