#include "deploy/export_model_dialog.h"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

namespace kiln::gui {

ExportModelDialog::ExportModelDialog(const QString& project_folder, const QVector<RunRow>& runs,
                                     QWidget* parent)
    : SettingsDialog(QStringLiteral("exportModelDialog"), tr("Export Model"), parent),
      project_folder_(project_folder) {
    model_ = new QComboBox(this);
    model_->setObjectName(QStringLiteral("modelSourceField"));
    for (const RunRow& run : runs) {
        // A fine-tuning run's best model, else its last; a pretraining run's backbone.
        const QString checkpoint = run.checkpoint();
        if (checkpoint.isEmpty() || model_->findData(checkpoint) >= 0) {
            continue;
        }
        const bool pretraining = run.task.isEmpty() || run.task == QLatin1String("pretrain");
        model_->addItem(
            tr("%1 (%2, %3)")
                .arg(run.displayName(), pretraining ? tr("backbone") : run.trainedAs(), run.model),
            checkpoint);
    }
    model_->setPlaceholderText(tr("no run has a checkpoint yet: Browse... for one"));
    precision_ = new QComboBox(this);
    precision_->setObjectName(QStringLiteral("precisionField"));
    precision_->addItem(tr("fp32"), QStringLiteral("fp32"));
    precision_->addItem(tr("fp16 (half the size; for GPUs)"), QStringLiteral("fp16"));
    batch_ = new QSpinBox(this);
    batch_->setObjectName(QStringLiteral("batchField"));
    batch_->setRange(0, 4096);
    batch_->setSpecialValueText(tr("dynamic (any number of images)"));
    image_size_ = imageSizeField();
    out_ = new QLineEdit(this);
    out_->setObjectName(QStringLiteral("outputField"));
    auto* note = new QLabel(tr("ONNX (opset 17) for ONNX Runtime and TensorRT. The model takes "
                               "normalised RGB images; the file's metadata says how to prepare "
                               "them and names the classes."),
                            this);
    note->setWordWrap(true);

    auto* form = new QFormLayout;
    form->addRow(tr("Model"), withBrowse(model_, tr("Model"), project_folder_,
                                         tr("Kiln models (*.ckpt *.pt *.pth)")));
    form->addRow(tr("Precision"), precision_);
    form->addRow(tr("Batch"), batch_);
    form->addRow(tr("Image size"), image_size_);
    form->addRow(tr("Write to"),
                 withSaveBrowse(out_, tr("Write the Model to"), tr("ONNX models (*.onnx)")));
    finishLayout(form, tr("Export"), note);

    connect(model_, &QComboBox::currentIndexChanged, this, &ExportModelDialog::suggestOutput);
    connect(precision_, &QComboBox::currentIndexChanged, this, &ExportModelDialog::suggestOutput);
    suggestOutput();
}

void ExportModelDialog::setModel(const QString& file) {
    choose(model_, file);
}

void ExportModelDialog::setOutput(const QString& file) {
    out_->setText(file);
}

void ExportModelDialog::suggestOutput() {
    // models/<run>[-fp16].onnx beside the project.
    QString name = QStringLiteral("model");
    if (model_->currentIndex() >= 0) {
        const QFileInfo checkpoint(model_->currentData().toString());
        name = checkpoint.dir().dirName() == QLatin1String("checkpoints")
                   ? QFileInfo(checkpoint.dir().absolutePath()).dir().dirName()
                   : checkpoint.completeBaseName();
    }
    if (precision_->currentData() == QLatin1String("fp16")) {
        name += QStringLiteral("-fp16");
    }
    out_->setText(
        QDir(project_folder_).filePath(QStringLiteral("models/") + name + QStringLiteral(".onnx")));
}

nlohmann::json ExportModelDialog::settings() const {
    nlohmann::json settings = {{"out", out_->text().toStdString()},
                               {"precision", precision_->currentData().toString().toStdString()},
                               {"overwrite", true}};
    settings["batch"] =
        batch_->value() == 0 ? nlohmann::json("dynamic") : nlohmann::json(batch_->value());
    settings["image_size"] = imageSizeSetting(image_size_);
    if (model_->currentIndex() >= 0) {
        settings["checkpoint"] = model_->currentData().toString().toStdString();
    }
    return settings;
}

void ExportModelDialog::accept() {
    acceptChecked(out_->text(), [this] { config_ = resolve_export_config(settings()); });
}

} // namespace kiln::gui
