#pragma once

#include "common/background_job.h"
#include "data/dataset_optimizer.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTimer;

namespace kiln::gui {

// `kiln optimize-dataset` for one dataset, as the bottleneck advisor suggests for
// CPU-bound loading: re-encode its images as JPEG or WebP, shrinking large ones, into a new
// folder, with progress. Nothing inside the source is changed. Before anything is written, the
// copy's size is estimated from a sample (again as the settings change); a copy larger than
// the dataset is said in red and the button becomes Optimize Anyway.
class OptimizeDatasetDialog : public QDialog {
    Q_OBJECT

public:
    OptimizeDatasetDialog(const QString& source, QWidget* parent = nullptr);
    ~OptimizeDatasetDialog() override;

    void setDestination(const QString& folder);
    void setMaxSize(int pixels);
    QString destination() const;
    // The summary shown when it ended; empty before.
    QString result() const { return result_; }
    // The estimate shown (empty while it is computed); whether the copy would be larger.
    QString estimateText() const;
    bool estimatedLarger() const { return estimated_larger_; }
    bool isEstimating() const;

public Q_SLOTS:
    void start();

Q_SIGNALS:
    void finished(bool succeeded);

protected:
    void reject() override; // cancels a running optimisation first

private:
    void estimate();
    // Starts the estimate again when the settings changed while it ran; true when it did.
    bool estimatedAgain();
    void showEstimate(const data::OptimizeEstimate& sized);
    void showResult(const QString& text, bool succeeded);
    data::OptimizeOptions options() const;

    QString source_;
    QLineEdit* destination_;
    QComboBox* format_;
    QSpinBox* max_size_;
    QSpinBox* quality_;
    QProgressBar* progress_;
    QLabel* status_;
    QPushButton* start_;
    QLabel* estimate_;
    QTimer* estimate_timer_ = nullptr;
    BackgroundJob job_;
    BackgroundJob estimate_job_;
    bool estimate_again_ = false;
    bool estimated_larger_ = false;
    bool succeeded_ = false; // a finished copy: nothing more to start
    QString result_;
};

} // namespace kiln::gui
