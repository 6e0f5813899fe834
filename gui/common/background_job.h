#pragma once

#include "core/stop_token.h"

#include <QList>
#include <QMutex>
#include <QString>
#include <QStringList>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>

class QObject;
class QThread;

namespace kiln::gui {

// One piece of work at a time on its own thread: Studio's one runner for every slow call
// (training, embedding, export, prediction, dataset scans, run histories, projections). The work
// gets a stop token to check; `done` runs on the owner's thread once the thread has ended. An
// exception the work lets out ends the work, not the program: `done` runs, and error() says what
// it was (run() hands it to `failed`). Each job is a job of its own for the log: the warnings it
// logs (on its thread or threads it starts) are kept for `done` to show (warnings()), as Studio
// has no terminal, and reach no other job's sinks. Progress the work reports is coalesced: only the
// latest report waits for the owner's thread, so work that reports every image never floods the
// event loop. The owner calls stopAndWait() first thing in its destructor, so that no work outlives
// what it reports to.
class BackgroundJob {
public:
    BackgroundJob(QObject* owner, QString name);
    ~BackgroundJob();
    BackgroundJob(const BackgroundJob&) = delete;
    BackgroundJob& operator=(const BackgroundJob&) = delete;

    bool isRunning() const { return thread_ != nullptr; }
    // Whether stop() was asked of the running or last job.
    bool stopRequested() const { return stop_.stop_requested(); }
    // What the last finished work threw (empty when it threw nothing), for its `done`.
    const QString& error() const { return error_; }
    // The warnings and errors the last finished work logged, in order, for its `done` to show: at
    // most kListedWarnings of them, then a line that counts the rest.
    const QStringList& warnings() const { return warnings_; }
    static constexpr int kListedWarnings = 20;
    // Starts `work` unless a job runs; false when one does.
    bool start(std::function<void(const StopToken&)> work, std::function<void()> done = {});
    // Starts `work` unless a job runs; on the owner's thread, `done` receives what it returned,
    // or `failed` what it threw. False when a job runs.
    template <typename Result>
    bool run(std::function<Result(const StopToken&)> work, std::function<void(Result)> done,
             std::function<void(const QString&)> failed) {
        auto result = std::make_shared<std::optional<Result>>();
        return start([work = std::move(work),
                      result](const StopToken& stop) { result->emplace(work(stop)); },
                     [this, result, done = std::move(done), failed = std::move(failed)] {
                         if (result->has_value()) {
                             done(std::move(**result));
                         } else {
                             failed(QString(error_));
                         }
                     });
    }

    // Where reports go, on the owner's thread: `done` of `total` (0 when unknown), and a text.
    using ProgressHandler = std::function<void(qint64 done, qint64 total, const QString& text)>;
    void onProgress(ProgressHandler handler) { progressHandler_ = std::move(handler); }
    // From the work's thread (or any): the latest report replaces one not yet shown. The job
    // must live as long as its owner (a member of it), as the report is shown through both.
    void report(qint64 done, qint64 total, const QString& text = {});
    // Asks the running work to stop; it ends when it next checks the token.
    void stop() const;
    // Asks it to stop and waits for its thread; `done` is not called for it.
    void stopAndWait();
    // Asks it to stop and lets it end on its own, for work that may not check the token (a
    // long read): `done` is not called for it, and a new job can start at once. The work
    // must not touch the owner, nor report. The destructor waits for abandoned work too.
    void abandon();

private:
    void showProgress();

    QObject* owner_;
    QString name_;
    QThread* thread_ = nullptr;
    QList<QThread*> abandoned_;
    StopToken stop_;
    QString error_;
    QStringList warnings_;
    quint64 generation_ = 0; // the current job's, so that a replaced job's end is ignored
    ProgressHandler progressHandler_;
    struct Report {
        qint64 done = 0;
        qint64 total = 0;
        QString text;
        bool shown = true; // shown already, or of work stopAndWait() ended
    };
    QMutex reportMutex_;
    Report latest_;                         // guarded by reportMutex_
    std::atomic<bool> reportQueued_{false}; // a call to showProgress() waits in the event loop
};

} // namespace kiln::gui
