#pragma once

#include "common/background_job.h"
#include "runs/run_history.h"

#include <QObject>
#include <QString>
#include <functional>
#include <utility>

class QWidget;

namespace kiln::gui {

class Project;

// The commands that run a trained model on a thread, one at a time: File > Export Model (ONNX)
// and Run > Predict (whose results open in the predictions browser). Each asks with its dialog
// first; the window shows what they report.
class ModelCommands : public QObject {
    Q_OBJECT

public:
    explicit ModelCommands(QWidget* window);

    bool isRunning() const { return job_.isRunning(); }
    void stop() const { job_.stop(); } // a prediction ends at its next batch
    // The warnings the last command logged, when it ended (succeeded or failed).
    const QStringList& warnings() const { return job_.warnings(); }

    // Export Model for `project`, the model of run `directory` chosen when one is given.
    void exportModel(const Project& project, const QVector<RunRow>& runs,
                     const QString& directory = {});
    void predict(const Project& project, const QVector<RunRow>& runs);

Q_SIGNALS:
    void started(const QString& what);
    void progressed(qint64 done, qint64 total, const QString& text);
    void succeeded(const QString& summary, const QString& details);
    void failed(const QString& message);
    void finished(); // after succeeded or failed

private:
    using Work = std::function<std::pair<QString, QString>(const StopToken&)>;
    // Runs `work` (its summary and details, or an exception whose text `failure` frames);
    // `shown` shows a success instead of succeeded() when given.
    void run(const QString& starting, const Work& work, const QString& failure,
             const std::function<void(const QString&)>& shown = {});

    QWidget* window_;
    BackgroundJob job_;
};

} // namespace kiln::gui
