// Studio's event loop while it reads runs: the longest stall of a 1 ms timer while the window
// opens (hardware probe), opens a project whose run recorded many steps (its plots and Run
// History read off the GUI thread), and draws the selected runs' curves. The baseline, measured
// in the same run on the same files, is what those reads cost when they ran on the GUI thread.
// Then the embeddings explorer's frame time while panning a map of `points` points.
//
//   bench_studio [steps=200000] [runs=3] [points=100000]

#include "app/application.h"
#include "app/main_window.h"
#include "embed/writers.h"
#include "embeddings/embeddings_view.h"
#include "plots/live_plots.h"
#include "plots/qcustomplot.h"
#include "plots/run_series.h"
#include "runs/run_history.h"
#include "track/run_directory.h"
#include "track/run_store.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <torch/types.h>
#include <vector>

namespace {

// The longest gap between ticks of a 1 ms timer while `work` runs and until `done` holds.
class StallMeter {
public:
    double longestGapMs(const std::function<void()>& work, const std::function<bool()>& done) {
        QTimer ticks;
        ticks.setTimerType(Qt::PreciseTimer);
        ticks.setInterval(1);
        QElapsedTimer since;
        double longest = 0;
        QObject::connect(&ticks, &QTimer::timeout, [&] {
            longest = std::max(longest, since.nsecsElapsed() / 1e6);
            since.restart();
        });
        since.start();
        ticks.start();
        QTimer::singleShot(0, [&] {
            since.restart();
            work();
            longest = std::max(longest, since.nsecsElapsed() / 1e6);
            since.restart();
        });
        QElapsedTimer limit;
        limit.start();
        do {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        } while ((limit.elapsed() < 50 || !done()) && limit.elapsed() < 60000);
        return longest;
    }
};

double secondsOf(const std::function<void()>& work) {
    const auto start = std::chrono::steady_clock::now();
    work();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void recordRun(const QString& directory, int steps, int run_index) {
    QDir().mkpath(directory);
    kiln::track::RunStore store(kiln::track::RunDirectory(directory.toStdString()).run_db());
    const std::int64_t run = store.begin_run(R"({"task": "pretrain"})", "simclr", "resnet18");
    for (int step = 1; step <= steps; ++step) {
        store.add_metrics(run, step, 0,
                          {{"train_loss", 1.0 / step},
                           {"lr", 0.1},
                           {"data_wait", 0.25},
                           {"cpu_utilization", 0.5},
                           {"images_per_second", 100.0 + run_index}},
                          1700000000.0 + step);
    }
    store.finish_run(run, kiln::track::RunStatus::Finished, "{}", "");
}

// The explorer's frame while panning: each frame moves the map by a fiftieth of its width and
// redraws it at once, as a drag does. The median and the worst of 60 frames, in ms.
std::pair<double, double> panningFrameMs(const QString& root, int points) {
    std::vector<std::string> names;
    for (int i = 0; i < points; ++i) {
        names.push_back("class" + std::to_string(i % 10) + "/" + std::to_string(i) + ".png");
    }
    torch::manual_seed(0);
    const QString file = QDir(root).filePath(QStringLiteral("embeddings.npy"));
    kiln::embed::write_embeddings(file.toStdString(), "npy", names, torch::randn({points, 64}));
    kiln::gui::EmbeddingsView view;
    view.resize(1366, 700);
    view.show();
    view.load(file, {root});
    QElapsedTimer limit;
    limit.start();
    while ((view.isLoading() || view.pointCount() == 0) && limit.elapsed() < 120000) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    auto* plot = view.findChild<QCustomPlot*>(QStringLiteral("embeddingsPlot"));
    std::vector<double> frames;
    for (int frame = 0; frame < 60; ++frame) {
        const double step = plot->xAxis->range().size() / 50.0;
        plot->xAxis->moveRange(frame < 30 ? step : -step);
        QElapsedTimer drawn;
        drawn.start();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        frames.push_back(drawn.nsecsElapsed() / 1e6);
    }
    std::sort(frames.begin(), frames.end());
    return {frames[frames.size() / 2], frames.back()};
}

} // namespace

int main(int argc, char** argv) {
    const int steps = argc > 1 ? std::stoi(argv[1]) : 200000;
    const int runs = argc > 2 ? std::stoi(argv[2]) : 3;
    const int points = argc > 3 ? std::stoi(argv[3]) : 100000;
    qputenv("QT_QPA_PLATFORM",
            qgetenv("QT_QPA_PLATFORM").isEmpty() ? "offscreen" : qgetenv("QT_QPA_PLATFORM"));
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    kiln::gui::configureApplication(app);
    QTemporaryDir temp;
    const QDir root(temp.path());
    for (int i = 0; i < runs; ++i) {
        recordRun(root.filePath(QStringLiteral("runs/run-%1").arg(i)), steps, i);
    }
    const QString project = root.filePath(QStringLiteral("p.kiln"));
    QFile file(project);
    if (!file.open(QIODevice::WriteOnly)) {
        std::fprintf(stderr, "cannot write %s\n", qPrintable(project));
        return 1;
    }
    file.write(R"({"format_version": 1, "runs_folder": "runs", "datasets": []})");
    file.close();
    const QString newest = root.filePath(QStringLiteral("runs/run-%1").arg(runs - 1));

    // Baseline: the reads as they ran on the GUI thread before.
    const double history_s = secondsOf([&] { kiln::gui::read_recorded_history(newest); });
    const double table_s = secondsOf([&] { kiln::gui::read_runs(root.filePath("runs")); });
    const double curves_s = secondsOf([&] {
        for (int i = 0; i < runs; ++i) {
            const kiln::track::RunReader store(
                kiln::track::RunDirectory(
                    root.filePath(QStringLiteral("runs/run-%1").arg(i)).toStdString())
                    .run_db());
            kiln::gui::recordedSeries(store, store.runs().front().id, "train_loss");
        }
    });

    StallMeter meter;
    kiln::gui::MainWindow* window = nullptr;
    const double start_ms = meter.longestGapMs(
        [&] {
            window = new kiln::gui::MainWindow;
            window->resize(1366, 768);
            window->show();
        },
        [] { return true; });
    const double open_ms = meter.longestGapMs([&] { window->projects()->openProject(project); },
                                              [&] {
                                                  return !window->runHistory()->isRefreshing() &&
                                                         window->livePlots()->stepCount() > 0;
                                              });
    const double curves_ms =
        meter.longestGapMs([&] { window->runHistory()->table()->selectAll(); },
                           [&] { return !window->runHistory()->isReadingCurves(); });
    const int drawn = window->runHistory()->curveCount();
    const int plotted = window->livePlots()->stepCount();
    delete window;

    std::printf("Studio event loop, %d runs of %d steps (5 metrics each), longest stall:\n", runs,
                steps);
    std::printf("| moment | the same reads on the GUI thread | longest stall |\n");
    std::printf("|---|---|---|\n");
    std::printf("| window start (GPU probe) | - | %.0f ms |\n", start_ms);
    std::printf("| open project (last run's history, %d steps plotted, + Run History) | %.0f ms | "
                "%.0f ms |\n",
                plotted, 1000 * (history_s + table_s), open_ms);
    std::printf("| select %d runs (curves) | %.0f ms | %.0f ms (%d curves) |\n", runs,
                1000 * curves_s, curves_ms, drawn);
    const auto [median_ms, worst_ms] = panningFrameMs(temp.path(), points);
    std::printf("\nEmbeddings explorer, %d points of 64 dimensions in 10 folders, panning: median "
                "%.1f ms a frame, worst %.1f ms (60 frames)\n",
                points, median_ms, worst_ms);
    return drawn == runs && plotted == steps ? 0 : 1;
}
