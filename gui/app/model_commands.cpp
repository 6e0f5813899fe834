#include "app/model_commands.h"

#include "deploy/export_model_dialog.h"
#include "deploy/onnx_export.h"
#include "predict/predict_dialog.h"
#include "predict/predictions_browser.h"
#include "predict/predictor.h"
#include "project/project.h"

#include <QDir>
#include <QFileInfo>
#include <QWidget>
#include <memory>

namespace kiln::gui {
namespace {

// The labels the project knows for a folder of images, if it is one of its datasets.
std::optional<data::DatasetLayout> datasetLabels(const Project& project, const QString& folder) {
    for (const DatasetEntry& dataset : project.datasets()) {
        const std::optional<data::LabelKind> kind =
            data::parse_label_kind(dataset.kind.toStdString());
        if (kind && QDir::cleanPath(dataset.path) == QDir::cleanPath(folder)) {
            return data::DatasetLayout{*kind, dataset.path.toStdString(),
                                       dataset.labels.toStdString()};
        }
    }
    return std::nullopt;
}

} // namespace

ModelCommands::ModelCommands(QWidget* window)
    : QObject(window), window_(window), job_(this, QStringLiteral("model export or prediction")) {
    job_.onProgress([this](qint64 done, qint64 total, const QString& text) {
        Q_EMIT progressed(done, total, text);
    });
}

void ModelCommands::exportModel(const Project& project, const QVector<RunRow>& runs,
                                const QString& directory) {
    ExportModelDialog dialog(QFileInfo(project.file()).absolutePath(), runs, window_);
    const QString checkpoint = directory.isEmpty() ? QString() : runCheckpoint(directory);
    if (!checkpoint.isEmpty()) {
        dialog.setModel(checkpoint);
    }
    if (dialog.exec() != QDialog::Accepted || !dialog.config()) {
        return;
    }
    const ExportConfig config = *dialog.config();
    run(
        tr("exporting the model..."),
        [config](const StopToken&) {
            const deploy::ExportSummary summary = deploy::export_onnx(config);
            QStringList outputs;
            for (const std::string& output : summary.outputs) {
                outputs << QString::fromStdString(output);
            }
            return std::pair{
                tr("Exported the %1 (%2, %3 x %4 px) to %5.")
                    .arg(QString::fromStdString(summary.what),
                         QString::fromStdString(summary.model))
                    .arg(summary.image_height)
                    .arg(summary.image_width)
                    .arg(QDir::toNativeSeparators(QString::fromStdString(config.out.string()))),
                tr("Outputs: %1").arg(outputs.join(QStringLiteral("; ")))};
        },
        tr("The model could not be exported:\n%1"));
}

void ModelCommands::predict(const Project& project, const QVector<RunRow>& runs) {
    PredictDialog dialog(project, runs, window_);
    if (dialog.exec() != QDialog::Accepted || !dialog.config()) {
        return;
    }
    const PredictConfig config = *dialog.config();
    PredictionSource source;
    source.out = QString::fromStdString(config.out.string());
    source.images = QString::fromStdString(config.data.front().string());
    source.annotations =
        config.annotations ? QString::fromStdString(config.annotations->string()) : QString();
    source.labels = datasetLabels(project, source.images);
    // Read back on the job's thread, for the browser.
    auto results = std::make_shared<std::shared_ptr<const PredictionResults>>();
    run(
        tr("predicting..."),
        [this, config, source, results](const StopToken& stop) mutable {
            const predict::PredictSummary summary = predict::run_prediction(
                config,
                [this](std::int64_t done, std::int64_t total) {
                    job_.report(done, total,
                                tr("predicting: %1 of %2 images").arg(done).arg(total));
                },
                stop);
            QString text =
                tr("Predicted %Ln image(s) (%1) into %2.", nullptr,
                   static_cast<int>(summary.images))
                    .arg(QString::fromStdString(summary.task),
                         QDir::toNativeSeparators(QString::fromStdString(config.out.string())));
            if (summary.skipped > 0) {
                text += QLatin1Char(' ') + tr("%Ln unreadable image(s) were left out.", nullptr,
                                              static_cast<int>(summary.skipped));
            }
            source.task = QString::fromStdString(summary.task);
            source.classes = summary.classes;
            source.category_ids = summary.category_ids;
            try {
                *results = std::make_shared<const PredictionResults>(read_predictions(source));
            } catch (const std::exception& error) {
                return std::pair{
                    text,
                    tr("They cannot be shown here: %1").arg(QString::fromStdString(error.what()))};
            }
            return std::pair{text, QString()};
        },
        tr("The prediction stopped with an error:\n%1"),
        [this, results](const QString& summary) {
            if (*results == nullptr) {
                Q_EMIT succeeded(summary, {});
                return;
            }
            auto* browser = new PredictionsBrowser(*results, summary, job_.warnings(), window_);
            browser->setAttribute(Qt::WA_DeleteOnClose);
            browser->show();
        });
}

void ModelCommands::run(const QString& starting, const Work& work, const QString& failure,
                        const std::function<void(const QString&)>& shown) {
    const bool began = job_.run<std::pair<QString, QString>>(
        work,
        [this, shown](const std::pair<QString, QString>& result) {
            const auto& [summary, details] = result;
            if (shown) {
                shown(details.isEmpty() ? summary : summary + QLatin1Char('\n') + details);
            } else {
                Q_EMIT succeeded(summary, details);
            }
            Q_EMIT finished();
        },
        [this, failure](const QString& message) {
            Q_EMIT failed(failure.arg(message));
            Q_EMIT finished();
        });
    if (began) {
        Q_EMIT started(starting);
    }
}

} // namespace kiln::gui
