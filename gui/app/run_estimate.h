#pragma once

#include "common/background_job.h"

#include <QMap>
#include <QObject>
#include <functional>

namespace kiln::gui {

struct ProjectPages;

// The run configuration's estimated run time: the dataset's images (once scanned) times the
// epochs, at the speed of the project's newest run of the same model, task and image size;
// before there is one, at the speed measured on this computer's CPU (once per model and size,
// on a thread, never beside a job: it would take the job's cores).
class RunEstimate : public QObject {
    Q_OBJECT

public:
    RunEstimate(const ProjectPages* pages, std::function<bool()> busy, QObject* parent);
    ~RunEstimate() override;

    void update();
    void stopMeasuring(); // a job starts

private:
    void estimateFromMeasuredSpeed(const QString& model, int imageSize, bool pretraining,
                                   qint64 images, int epochs, bool onCpu);
    void measure(const QString& model, int imageSize, int views);

    const ProjectPages* pages_;
    std::function<bool()> busy_;
    BackgroundJob speedJob_{this, QStringLiteral("training speed probe")};
    // Images per second measured by train::probe_training_speed, by "model@size/views".
    QMap<QString, double> measuredSpeed_;
};

} // namespace kiln::gui
