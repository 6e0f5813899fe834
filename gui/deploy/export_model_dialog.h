#pragma once

#include "common/settings_dialog.h"
#include "config/run_config.h"
#include "runs/run_history.h"

#include <nlohmann/json.hpp>
#include <optional>

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace kiln::gui {

// File > Export Model: a run's model (a fine-tuning run's best checkpoint, the whole task
// model; a pretraining run's last one, the backbone) or any checkpoint on disk, as ONNX for
// ONNX Runtime and TensorRT: precision, batch (dynamic or fixed), input size (as trained or
// given) and where to write. Accepting it checks the settings with the engine; problems are
// shown in the dialog.
class ExportModelDialog : public SettingsDialog {
    Q_OBJECT

public:
    ExportModelDialog(const QString& project_folder, const QVector<RunRow>& runs,
                      QWidget* parent = nullptr);

    nlohmann::json settings() const;
    void setModel(const QString& file); // a checkpoint, added to the list when not a run's
    void setOutput(const QString& file);

    // The resolved configuration once accepted.
    const std::optional<ExportConfig>& config() const { return config_; }

public Q_SLOTS:
    void accept() override;

private:
    void suggestOutput();

    QString project_folder_;
    QComboBox* model_;
    QComboBox* precision_;
    QSpinBox* batch_;
    QSpinBox* image_size_;
    QLineEdit* out_;
    std::optional<ExportConfig> config_;
};

} // namespace kiln::gui
