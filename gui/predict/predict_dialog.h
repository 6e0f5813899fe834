#pragma once

#include "common/settings_dialog.h"
#include "config/run_config.h"
#include "project/project.h"
#include "runs/run_history.h"

#include <nlohmann/json.hpp>
#include <optional>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QSpinBox;

namespace kiln::gui {

// Run > Predict: a fine-tuning run's model (its best checkpoint) or any fine-tuning checkpoint,
// the images to predict on (a project dataset or any folder) and where the results go: a CSV
// of classes, a folder of masks or a COCO results file, by the model's task; for detection the
// images with their detections drawn too. Accepting it checks the settings with the engine;
// problems are shown in the dialog.
class PredictDialog : public SettingsDialog {
    Q_OBJECT

public:
    PredictDialog(const Project& project, const QVector<RunRow>& runs, QWidget* parent = nullptr);

    nlohmann::json settings() const;
    void setModel(const QString& checkpoint, const QString& task = {});
    void setData(const QString& folder);
    void setOutput(const QString& path);

    const std::optional<PredictConfig>& config() const { return config_; }

public Q_SLOTS:
    void accept() override;

private:
    void suggestOutput();
    QString task() const; // of the chosen model, as its run names it

    QString project_folder_;
    QComboBox* model_;
    QComboBox* data_;
    QLineEdit* out_;
    QSpinBox* image_size_;
    QCheckBox* draw_;
    std::optional<PredictConfig> config_;
};

} // namespace kiln::gui
