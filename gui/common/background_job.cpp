#include "common/background_job.h"

#include "core/log.h"

#include <QCoreApplication>
#include <QMetaObject>
#include <QThread>
#include <exception>
#include <memory>

namespace kiln::gui {

BackgroundJob::BackgroundJob(QObject* owner, QString name)
    : owner_(owner), name_(std::move(name)) {}

BackgroundJob::~BackgroundJob() {
    stopAndWait();
    for (QThread* thread : abandoned_) {
        thread->wait();
        delete thread;
    }
}

namespace {

// What a job's thread leaves for `done`: what it threw, and the warnings its job logged (from
// any of its threads; log::write calls sinks one at a time).
struct Outcome {
    QString error;
    QStringList warnings;
    qsizetype unlisted = 0;

    void addWarning(const std::string& message) {
        if (warnings.size() < BackgroundJob::kListedWarnings) {
            warnings << QString::fromStdString(message);
        } else {
            ++unlisted;
        }
    }
};

} // namespace

bool BackgroundJob::start(std::function<void(const StopToken&)> work, std::function<void()> done) {
    if (thread_ != nullptr) {
        return false;
    }
    stop_ = StopToken();
    const StopToken stop = stop_;
    auto outcome = std::make_shared<Outcome>();
    thread_ = QThread::create([work = std::move(work), stop, outcome] {
        // A job of its own for the log: the lines it logs reach no other job's sinks (a run's
        // train.log and warning list beside it), and its warnings are kept for `done`.
        const log::JobScope job;
        const log::ScopedSink warnings([&outcome](log::Level level, const std::string& message) {
            if (level >= log::Level::Warning) {
                outcome->addWarning(message);
            }
        });
        try {
            work(stop);
        } catch (const std::exception& thrown) {
            outcome->error = QString::fromUtf8(thrown.what());
        } catch (...) {
            outcome->error = QStringLiteral("an unknown error");
        }
    });
    thread_->setObjectName(name_);
    const quint64 generation = ++generation_;
    QObject::connect(
        thread_, &QThread::finished, owner_, [this, generation, outcome, done = std::move(done)] {
            if (generation != generation_ || thread_ == nullptr) {
                return; // stopAndWait() already took this one
            }
            thread_->deleteLater();
            thread_ = nullptr;
            error_ = outcome->error;
            warnings_ = outcome->warnings;
            if (outcome->unlisted > 0) {
                // (lupdate misses a call whose arguments hold a static_cast)
                const int more = static_cast<int>(outcome->unlisted);
                warnings_ << QCoreApplication::translate(
                    "kiln::gui::BackgroundJob", "... and %Ln more warning(s).", nullptr, more);
            }
            if (done) {
                done();
            }
        });
    thread_->start();
    return true;
}

void BackgroundJob::report(qint64 done, qint64 total, const QString& text) {
    {
        const QMutexLocker lock(&reportMutex_);
        latest_ = Report{done, total, text, false};
    }
    if (!reportQueued_.exchange(true)) {
        QMetaObject::invokeMethod(owner_, [this] { showProgress(); }, Qt::QueuedConnection);
    }
}

void BackgroundJob::showProgress() {
    Report report;
    {
        const QMutexLocker lock(&reportMutex_);
        report = latest_;
        latest_.shown = true;
        reportQueued_ = false;
    }
    if (!report.shown && progressHandler_) {
        progressHandler_(report.done, report.total, report.text);
    }
}

void BackgroundJob::stop() const {
    stop_.request_stop();
}

void BackgroundJob::abandon() {
    if (thread_ == nullptr) {
        return;
    }
    stop_.request_stop();
    // Those abandoned before that have ended go now; the others at the next abandon or the end.
    abandoned_.removeIf([](QThread* thread) {
        if (!thread->isFinished()) {
            return false;
        }
        thread->wait();
        delete thread;
        return true;
    });
    abandoned_.append(thread_);
    thread_ = nullptr;
    ++generation_;
}

void BackgroundJob::stopAndWait() {
    if (thread_ == nullptr) {
        return;
    }
    stop_.request_stop();
    thread_->wait();
    delete thread_;
    thread_ = nullptr;
    ++generation_;
    const QMutexLocker lock(&reportMutex_);
    latest_.shown = true; // its last report, if one waits, is not the next job's
}

} // namespace kiln::gui
