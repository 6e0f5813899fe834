#pragma once

#include "common/background_job.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace kiln::gui {

// `kiln optimize-dataset` for one dataset, as the bottleneck advisor suggests for
// CPU-bound loading: re-encode its images as JPEG or WebP, shrinking large ones, into a new
// folder, with progress. Nothing inside the source is changed.
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

public Q_SLOTS:
    void start();

Q_SIGNALS:
    void finished(bool succeeded);

protected:
    void reject() override; // cancels a running optimisation first

private:
    QString source_;
    QLineEdit* destination_;
    QComboBox* format_;
    QSpinBox* max_size_;
    QSpinBox* quality_;
    QProgressBar* progress_;
    QLabel* status_;
    QPushButton* start_;
    BackgroundJob job_;
    QString result_;
};

} // namespace kiln::gui
