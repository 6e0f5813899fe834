#pragma once

#include "common/settings_dialog.h"
#include "config/run_config.h"
#include "project/project.h"
#include "runs/run_history.h"

#include <nlohmann/json.hpp>
#include <optional>

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace kiln::gui {

// File > Export Embeddings: a model (a run's exported model, or any checkpoint or export on
// disk), a project dataset, a format (csv, lightly_csv, torch, npy), an image size and where
// to write. Accepting it checks the settings with the engine; problems are shown in the dialog.
class ExportEmbeddingsDialog : public SettingsDialog {
    Q_OBJECT

public:
    ExportEmbeddingsDialog(const Project& project, const QVector<RunRow>& runs,
                           QWidget* parent = nullptr);

    nlohmann::json settings() const;
    // The model file, the format and the output file can also be set directly.
    void setModel(const QString& file);
    void setFormat(const QString& format);
    void setOutput(const QString& file);

    // The resolved configuration once accepted.
    const std::optional<EmbedConfig>& config() const { return config_; }

public Q_SLOTS:
    void accept() override;

private:
    void suggestOutput();

    QString project_folder_;
    QComboBox* model_;
    QComboBox* data_;
    QComboBox* format_;
    QSpinBox* image_size_;
    QLineEdit* out_;
    std::optional<EmbedConfig> config_;
};

} // namespace kiln::gui
