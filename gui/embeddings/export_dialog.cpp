#include "embeddings/export_dialog.h"

#include "core/error.h"
#include "system/hardware.h"
#include "system/num_workers.h"
#include "track/run_directory.h"
#include "train/trainer.h"

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
#include <QSpinBox>
#include <QVBoxLayout>

namespace kiln::gui {
namespace {

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
    : QDialog(parent), project_folder_(QFileInfo(project.file()).absolutePath()) {
    setObjectName(QStringLiteral("exportEmbeddingsDialog"));
    setWindowTitle(tr("Export Embeddings"));
    model_ = new QComboBox(this);
    model_->setObjectName(QStringLiteral("modelSourceField"));
    for (const RunRow& run : runs) {
        const QString exported = QString::fromStdString(
            kiln::track::RunDirectory(run.directory.toStdString()).exported_last().string());
        if (QFileInfo::exists(exported)) {
            model_->addItem(
                tr("%1 (%2, %3)").arg(QFileInfo(run.directory).fileName(), run.model, run.method),
                exported);
        }
    }
    auto* browse = new QPushButton(tr("Browse..."), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Model"), project_folder_,
                                                          tr("Kiln models (*.pt *.ckpt *.pth)"));
        if (!file.isEmpty()) {
            setModel(file);
        }
    });
    auto* model_row = new QHBoxLayout;
    model_row->addWidget(model_, 1);
    model_row->addWidget(browse);
    data_ = new QComboBox(this);
    data_->setObjectName(QStringLiteral("datasetField"));
    for (const DatasetEntry& dataset : project.datasets()) {
        data_->addItem(dataset.name, dataset.path);
    }
    format_ = new QComboBox(this);
    format_->setObjectName(QStringLiteral("formatField"));
    format_->addItems({QStringLiteral("csv"), QStringLiteral("lightly_csv"),
                       QStringLiteral("torch"), QStringLiteral("npy")});
    image_size_ = new QSpinBox(this);
    image_size_->setObjectName(QStringLiteral("imageSizeField"));
    image_size_->setRange(8, 4096);
    image_size_->setValue(224);
    image_size_->setSuffix(tr(" px"));
    out_ = new QLineEdit(this);
    out_->setObjectName(QStringLiteral("outputField"));
    problem_ = new QLabel(this);
    problem_->setObjectName(QStringLiteral("problemLabel"));
    problem_->setWordWrap(true);
    problem_->setStyleSheet(QStringLiteral("color: #c0392b"));

    auto* form = new QFormLayout;
    form->addRow(tr("Model"), model_row);
    form->addRow(tr("Dataset"), data_);
    form->addRow(tr("Format"), format_);
    form->addRow(tr("Image size"), image_size_);
    form->addRow(tr("Write to"), out_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    connect(buttons, &QDialogButtonBox::accepted, this, &ExportEmbeddingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(problem_);
    layout->addWidget(buttons);

    connect(format_, &QComboBox::currentIndexChanged, this, &ExportEmbeddingsDialog::suggestOutput);
    connect(data_, &QComboBox::currentIndexChanged, this, &ExportEmbeddingsDialog::suggestOutput);
    suggestOutput();
}

void ExportEmbeddingsDialog::setModel(const QString& file) {
    int index = model_->findData(file);
    if (index < 0) {
        model_->addItem(QFileInfo(file).fileName(), file);
        index = model_->count() - 1;
    }
    model_->setCurrentIndex(index);
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
                               {"image_size", image_size_->value()},
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
    problem_->clear();
    try {
        QDir().mkpath(QFileInfo(out_->text()).absolutePath());
        config_ = resolve_embed_config(
            settings(), {system::probe_hardware(), system::WorkerEnvironment::from_process()});
    } catch (const Error& error) { // a ConfigError lists every bad setting
        problem_->setText(QString::fromStdString(error.what()));
        return;
    }
    QDialog::accept();
}

} // namespace kiln::gui
