#include "embeddings/export_dialog.h"

#include "system/hardware.h"
#include "system/num_workers.h"
#include "track/run_directory.h"
#include "train/trainer.h"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QLineEdit>
#include <QSpinBox>
#include <algorithm>

namespace kiln::gui {
namespace {

constexpr int kImageSizeRole = Qt::UserRole + 1; // a run's image size, beside its model

const char* extension_of(const QString& format) {
    if (format == QLatin1String("torch")) {
        return ".pt";
    }
    if (format == QLatin1String("npy")) {
        return ".npy";
    }
    return ".csv";
}

} // namespace

ExportEmbeddingsDialog::ExportEmbeddingsDialog(const Project& project, const QVector<RunRow>& runs,
                                               QWidget* parent)
    : SettingsDialog(QStringLiteral("exportEmbeddingsDialog"), tr("Export Embeddings"), parent),
      project_folder_(QFileInfo(project.file()).absolutePath()) {
    model_ = new QComboBox(this);
    model_->setObjectName(QStringLiteral("modelSourceField"));
    for (const RunRow& run : runs) {
        // Its exported backbone; else, for a run that ended before exporting (killed, power
        // lost), its checkpoint.
        QString model = QString::fromStdString(
            kiln::track::RunDirectory(run.directory.toStdString()).exported_last().string());
        if (!QFileInfo::exists(model)) {
            model = run.checkpoint();
        }
        if (!model.isEmpty()) {
            model_->addItem(tr("%1 (%2, %3)").arg(run.displayName(), run.model, run.trainedAs()),
                            model);
            model_->setItemData(model_->count() - 1, run.image_size, kImageSizeRole);
        }
    }
    model_->setPlaceholderText(tr("no run has a model yet: Browse... for a model file"));
    data_ = new QComboBox(this);
    data_->setObjectName(QStringLiteral("datasetField"));
    for (const DatasetEntry& dataset : project.datasets()) {
        data_->addItem(dataset.name, dataset.path);
    }
    format_ = new QComboBox(this);
    format_->setObjectName(QStringLiteral("formatField"));
    format_->addItems({QStringLiteral("csv"), QStringLiteral("lightly_csv"),
                       QStringLiteral("torch"), QStringLiteral("npy")});
    image_size_ = imageSizeField();
    out_ = new QLineEdit(this);
    out_->setObjectName(QStringLiteral("outputField"));
    auto* form = new QFormLayout;
    form->addRow(tr("Model"), withBrowse(model_, tr("Model"), project_folder_,
                                         tr("Kiln models (*.pt *.ckpt *.pth)")));
    form->addRow(tr("Dataset"), data_);
    form->addRow(tr("Format"), format_);
    form->addRow(tr("Image size"), image_size_);
    form->addRow(tr("Write to"), withSaveBrowse(out_, tr("Write the Embeddings to"),
                                                tr("Embeddings (*.csv *.pt *.npy)")));
    finishLayout(form, tr("Export"));

    // A model embeds best at the size it trained at: a run's says it, and the engine reads it
    // from any other Kiln model (auto).
    connect(model_, &QComboBox::currentIndexChanged, this, [this](int index) {
        const int trained = model_->itemData(index, kImageSizeRole).toInt();
        image_size_->setValue(std::max(trained, 0));
    });
    if (model_->count() > 0 && model_->itemData(0, kImageSizeRole).toInt() > 0) {
        image_size_->setValue(model_->itemData(0, kImageSizeRole).toInt());
    }
    connect(format_, &QComboBox::currentIndexChanged, this, &ExportEmbeddingsDialog::suggestOutput);
    connect(data_, &QComboBox::currentIndexChanged, this, &ExportEmbeddingsDialog::suggestOutput);
    suggestOutput();
}

void ExportEmbeddingsDialog::setModel(const QString& file) {
    choose(model_, file);
}

void ExportEmbeddingsDialog::setFormat(const QString& format) {
    format_->setCurrentText(format);
}

void ExportEmbeddingsDialog::setOutput(const QString& file) {
    out_->setText(file);
}

void ExportEmbeddingsDialog::suggestOutput() {
    // embeddings/<dataset>.<ext> beside the project, until the user types something else.
    const QString name = data_->currentIndex() >= 0 ? data_->currentText() : tr("embeddings");
    out_->setText(QDir(project_folder_)
                      .filePath(QStringLiteral("embeddings/") + name +
                                QLatin1String(extension_of(format_->currentText()))));
}

nlohmann::json ExportEmbeddingsDialog::settings() const {
    nlohmann::json settings = {{"out", out_->text().toStdString()},
                               {"format", format_->currentText().toStdString()},
                               {"image_size", imageSizeSetting(image_size_)},
                               {"overwrite", true}};
    if (model_->currentIndex() >= 0) {
        settings["checkpoint"] = model_->currentData().toString().toStdString();
    }
    if (data_->currentIndex() >= 0) {
        settings["data"] = data_->currentData().toString().toStdString();
    }
    return settings;
}

void ExportEmbeddingsDialog::accept() {
    acceptChecked(out_->text(), [this] {
        config_ = resolve_embed_config(
            settings(), {system::probe_hardware(), system::WorkerEnvironment::from_process()});
    });
}

} // namespace kiln::gui
