#pragma once

#include "core/stop_token.h"

#include <QList>
#include <QString>
#include <functional>

class QObject;
class QThread;

namespace kiln::gui {

// One piece of work at a time on its own thread, for the GUI's long jobs (training, embedding,
// scans, reading run histories). The work gets a stop token to check; `done` runs on the
// owner's thread once the thread has ended. An exception the work lets out ends the work, not
// the program: `done` runs, and error() says what it was. The owner calls stopAndWait() first
// thing in its destructor, so that no work outlives what it reports to.
class BackgroundJob {
public:
    BackgroundJob(QObject* owner, QString name);
    ~BackgroundJob();
    BackgroundJob(const BackgroundJob&) = delete;
    BackgroundJob& operator=(const BackgroundJob&) = delete;

    bool isRunning() const { return thread_ != nullptr; }
    // What the last finished work threw (empty when it threw nothing), for its `done`.
    const QString& error() const { return error_; }
    // Starts `work` unless a job runs; false when one does.
    bool start(std::function<void(const StopToken&)> work, std::function<void()> done = {});
    // Asks the running work to stop; it ends when it next checks the token.
    void stop() const;
    // Asks it to stop and waits for its thread; `done` is not called for it.
    void stopAndWait();
    // Asks it to stop and lets it end on its own, for work that may not check the token (a
    // long read): `done` is not called for it, and a new job can start at once. The work
    // must not touch the owner. The destructor waits for abandoned work too.
    void abandon();

private:
    QObject* owner_;
    QString name_;
    QThread* thread_ = nullptr;
    QList<QThread*> abandoned_;
    StopToken stop_;
    QString error_;
    quint64 generation_ = 0; // the current job's, so that a replaced job's end is ignored
};

} // namespace kiln::gui
