// Distributed data parallel: the process group's collectives (two ranks as two threads of this
// test), and whole runs of the `kiln` executable with several processes on the loopback.

#include "core/error.h"
#include "distributed/process_group.h"
#include "eval/coco/coco_eval.h"
#include "methods/method.h"
#include "models/backbone.h"
#include "models/batch_norm.h"
#include "models/checkpoint_file.h"
#include "support/shapes_idx.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest>
#include <cstdlib>
#include <functional>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <signal.h>
#include <thread>
#include <torch/types.h>
#include <torch/utils.h>

namespace {

using kiln::distributed::ProcessGroup;
using kiln::distributed::RankEnvironment;

RankEnvironment rank_environment(int rank, int world_size, int port) {
    RankEnvironment environment;
    environment.rank = rank;
    environment.world_size = world_size;
    environment.master_port = port;
    return environment;
}

// Runs `body` as every rank of a fresh group, one thread per rank; the results in rank order.
template <typename Result>
std::vector<Result> on_every_rank(int world_size,
                                  const std::function<Result(ProcessGroup&)>& body) {
    const std::chrono::seconds timeout(30);
    auto first = std::make_unique<ProcessGroup>(rank_environment(0, world_size, 0), timeout);
    const int port = first->port();
    std::vector<Result> results(world_size);
    std::vector<std::string> errors(world_size);
    std::vector<std::thread> threads;
    for (int rank = 0; rank < world_size; ++rank) {
        threads.emplace_back([&, rank] {
            try {
                std::unique_ptr<ProcessGroup> group =
                    rank == 0 ? std::move(first)
                              : std::make_unique<ProcessGroup>(
                                    rank_environment(rank, world_size, port), timeout);
                group->join();
                results[rank] = body(*group);
            } catch (const std::exception& error) {
                errors[rank] = error.what();
            }
        });
    }
    for (std::thread& thread : threads) {
        thread.join();
    }
    for (const std::string& error : errors) {
        if (!error.empty()) {
            throw std::runtime_error(error);
        }
    }
    return results;
}

struct Result {
    int exitCode = -1;
    QString out;
    QString err;
};

Result finished(QProcess& process, int timeout_ms = 120000) {
    if (!process.waitForFinished(timeout_ms)) {
        process.kill();
        process.waitForFinished();
        return {};
    }
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
            QString::fromUtf8(process.readAllStandardOutput()),
            QString::fromUtf8(process.readAllStandardError())};
}

void startKiln(QProcess& process, const QStringList& arguments,
               const QStringList& environment = {}) {
    QProcessEnvironment variables = QProcessEnvironment::systemEnvironment();
    for (const QString& entry : environment) {
        variables.insert(entry.section('=', 0, 0), entry.section('=', 1));
    }
    process.setProcessEnvironment(variables);
    process.start(QStringLiteral(KILN_EXECUTABLE), arguments);
}

Result runKiln(const QStringList& arguments, const QStringList& environment = {}) {
    QProcess process;
    startKiln(process, arguments, environment);
    return finished(process);
}

// Two `kiln` processes with the same arguments and their own environments, side by side.
std::pair<Result, Result> runTogether(const QStringList& arguments, const QStringList& first_env,
                                      const QStringList& second_env) {
    QProcess first;
    QProcess second;
    startKiln(first, arguments, first_env);
    startKiln(second, arguments, second_env);
    Result one = finished(first);
    return {one, finished(second)};
}

int freePort() {
    QTcpServer server;
    server.listen(QHostAddress::LocalHost, 0);
    return server.serverPort();
}

// The processes whose parent is `parent`, from /proc.
std::vector<pid_t> childrenOf(qint64 parent) {
    std::vector<pid_t> children;
    for (const QString& entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        bool number = false;
        const pid_t pid = entry.toInt(&number);
        QFile stat(QStringLiteral("/proc/%1/stat").arg(entry));
        if (!number || !stat.open(QIODevice::ReadOnly)) {
            continue;
        }
        // pid (comm) state ppid ...: the command may hold spaces, so count from its ')'.
        const QString text = QString::fromUtf8(stat.readAll());
        const QStringList fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 1 && fields[1].toLongLong() == parent) {
            children.push_back(pid);
        }
    }
    return children;
}

bool processExists(pid_t pid) {
    return QFileInfo::exists(QStringLiteral("/proc/%1").arg(pid));
}

double largestDifference(const QString& first, const QString& second) {
    const kiln::models::Backbone a = kiln::models::load_backbone(first.toStdString());
    const kiln::models::Backbone b = kiln::models::load_backbone(second.toStdString());
    const auto b_parameters = b->named_parameters();
    double largest = 0;
    for (const auto& item : a->named_parameters()) {
        largest =
            std::max(largest, (item.value() - b_parameters[item.key()]).abs().max().item<double>());
    }
    return largest;
}

} // namespace

class DistributedTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir temp_;
    QString images_;

    // A tiny DINO run on a ViT: no batch norm, so 2 ranks of 8 images equal 1 rank of 16.
    QStringList dinoSettings(const QString& out, int devices, int epochs = 1) const {
        return {"train",
                "out=" + out,
                "data=" + images_,
                "model=vit_tiny",
                "method=dino",
                "method_args={\"output_dim\": 64, \"hidden_dim\": 64, \"bottleneck_dim\": 32}",
                "transform_args={\"image_size\": [32, 32], \"local_view\": {\"num_views\": 2, "
                "\"view_size\": [16, 16]}}",
                "epochs=" + QString::number(epochs),
                "batch_size=16",
                "num_workers=0",
                "accelerator=cpu",
                "seed=7",
                "devices=" + QString::number(devices)};
    }

    // A tiny smallcnn run (32 px, batch 16, seed 7) with the method and settings in `extra`.
    QStringList smallCnnSettings(const QString& out, int devices, const QStringList& extra) const {
        return QStringList{"train",
                           "out=" + out,
                           "data=" + images_,
                           "model=smallcnn",
                           "transform_args.image_size=[32,32]",
                           "batch_size=16",
                           "num_workers=0",
                           "accelerator=cpu",
                           "seed=7",
                           "devices=" + QString::number(devices)} +
               extra;
    }

    static QString exportedModel(const QString& out) {
        return out + QStringLiteral("/exported_models/exported_last.pt");
    }

    // Starts a 2-process run that checkpoints every `every_n_steps` steps and waits (up to a
    // minute) for its first checkpoint, whose path it returns.
    QString startUntilCheckpoint(QProcess& training, const QString& out, int epochs,
                                 int every_n_steps) const {
        startKiln(training, dinoSettings(out, 2, epochs) +
                                QStringList{"callbacks.model_checkpoint.every_n_steps=" +
                                            QString::number(every_n_steps)});
        training.waitForStarted();
        const QString checkpoint = out + QStringLiteral("/checkpoints/last.ckpt");
        for (int wait = 0; wait < 1200 && !QFileInfo::exists(checkpoint); ++wait) {
            QTest::qWait(50);
        }
        return checkpoint;
    }

    QString trainLog(const QString& out) const {
        QFile file(out + QStringLiteral("/train.log"));
        return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(temp_.isValid());
        images_ = temp_.filePath(QStringLiteral("images"));
        QVERIFY(QDir().mkpath(images_));
        cv::RNG random(5);
        for (int i = 0; i < 64; ++i) {
            cv::Mat image(32, 32, CV_8UC3);
            random.fill(image, cv::RNG::UNIFORM, 0, 255);
            QVERIFY(cv::imwrite(
                QStringLiteral("%1/%2.png").arg(images_).arg(i, 2, 10, QChar('0')).toStdString(),
                image));
        }
    }

    void averageAndBroadcastAcrossRanks() {
        // Several dtypes and a bucket size small enough for several buckets.
        const auto results = on_every_rank<std::vector<torch::Tensor>>(2, [](ProcessGroup& group) {
            const double rank = group.rank();
            std::vector<torch::Tensor> gradients = {torch::full({3, 4}, rank + 1.0),
                                                    torch::full({1000}, 10.0 * rank),
                                                    torch::full({5}, rank, torch::kFloat64)};
            group.average(gradients, 64);
            std::vector<torch::Tensor> state = {torch::full({2, 2}, rank + 5.0),
                                                torch::full({}, int64_t(rank) + 3, torch::kLong)};
            group.broadcast(state);
            torch::Tensor largest = torch::tensor({rank});
            group.all_reduce_max(largest);
            return std::vector<torch::Tensor>{gradients[0], gradients[1], gradients[2],
                                              state[0],     state[1],     largest};
        });
        for (const std::vector<torch::Tensor>& rank : results) {
            QVERIFY(torch::equal(rank[0], torch::full({3, 4}, 1.5)));
            QVERIFY(torch::equal(rank[1], torch::full({1000}, 5.0)));
            QVERIFY(torch::equal(rank[2], torch::full({5}, 0.5, torch::kFloat64)));
            QVERIFY(torch::equal(rank[3], torch::full({2, 2}, 5.0)));
            QCOMPARE(rank[4].item<int64_t>(), int64_t(3));
            QCOMPARE(rank[5].item<float>(), 1.0f);
        }
    }

    void gatheredNtXentEqualsTheGlobalBatchLoss() {
        // Global batch of 8 (4 per rank) of 16-d embeddings, two views.
        torch::manual_seed(11);
        const torch::Tensor first = torch::randn({8, 16}, torch::kFloat64);
        const torch::Tensor second = torch::randn({8, 16}, torch::kFloat64);
        const torch::Tensor single_first = first.clone().requires_grad_(true);
        const torch::Tensor single_second = second.clone().requires_grad_(true);
        const torch::Tensor single = kiln::methods::nt_xent_loss(single_first, single_second, 0.1);
        single.backward();

        const auto results = on_every_rank<std::vector<torch::Tensor>>(2, [&](ProcessGroup& group) {
            const torch::Tensor mine_first =
                first.narrow(0, 4 * group.rank(), 4).clone().requires_grad_(true);
            const torch::Tensor mine_second =
                second.narrow(0, 4 * group.rank(), 4).clone().requires_grad_(true);
            const torch::Tensor loss =
                kiln::methods::nt_xent_loss(mine_first, mine_second, 0.1, &group);
            loss.backward();
            return std::vector<torch::Tensor>{loss.detach(), mine_first.grad(), mine_second.grad()};
        });
        // The global loss is the mean of the ranks' losses, and DDP's averaged gradients are
        // the global loss's gradients.
        const double mean = (results[0][0].item<double>() + results[1][0].item<double>()) / 2;
        QVERIFY2(std::abs(mean - single.item<double>()) < 1e-12,
                 qPrintable(QString::number(mean - single.item<double>())));
        for (int rank = 0; rank < 2; ++rank) {
            QVERIFY(torch::allclose(results[rank][1] / 2,
                                    single_first.grad().narrow(0, 4 * rank, 4), 1e-12, 1e-12));
            QVERIFY(torch::allclose(results[rank][2] / 2,
                                    single_second.grad().narrow(0, 4 * rank, 4), 1e-12, 1e-12));
        }
    }

    void syncBatchNormEqualsBatchNormOfTheGlobalBatch() {
        torch::manual_seed(3);
        const torch::Tensor images = torch::randn({8, 3, 5, 5}) * 2 + 1;
        const torch::Tensor upstream = torch::randn({8, 3, 5, 5});
        kiln::models::BatchNorm single(3);
        const torch::Tensor whole = images.clone().requires_grad_(true);
        const torch::Tensor expected = single(whole);
        (expected * upstream).sum().backward();

        const auto results = on_every_rank<std::vector<torch::Tensor>>(2, [&](ProcessGroup& group) {
            kiln::models::BatchNorm norm(3);
            if (kiln::models::synchronize_batch_norms(*norm, &group) != 1) {
                throw std::runtime_error("the batch norm was not found");
            }
            const torch::Tensor mine =
                images.narrow(0, 4 * group.rank(), 4).clone().requires_grad_(true);
            const torch::Tensor out = norm(mine);
            (out * upstream.narrow(0, 4 * group.rank(), 4)).sum().backward();
            // DDP averages the parameter gradients; the input's is this rank's own.
            torch::Tensor weight_gradient = norm->weight.grad().clone();
            group.average({weight_gradient});
            return std::vector<torch::Tensor>{out.detach(), mine.grad(), weight_gradient,
                                              norm->running_mean, norm->running_var};
        });
        for (int rank = 0; rank < 2; ++rank) {
            const auto& r = results[rank];
            QVERIFY(torch::allclose(r[0], expected.detach().narrow(0, 4 * rank, 4), 1e-5, 1e-5));
            QVERIFY(torch::allclose(r[1], whole.grad().narrow(0, 4 * rank, 4), 1e-5, 1e-5));
            // The sum over ranks is the single-process gradient; DDP's average is half of it.
            QVERIFY(torch::allclose(r[2] * 2, single->weight.grad(), 1e-4, 1e-5));
            QVERIFY(torch::allclose(r[3], single->running_mean, 1e-6, 1e-6));
            QVERIFY(torch::allclose(r[4], single->running_var, 1e-5, 1e-6));
        }
    }

    void portInUseAndUnreachableMasterAreClearErrors() {
        QTcpServer taken;
        QVERIFY(taken.listen(QHostAddress::LocalHost, 0));
        try {
            ProcessGroup group(rank_environment(0, 2, taken.serverPort()), std::chrono::seconds(2));
            QFAIL("a port in use was accepted");
        } catch (const kiln::Error& error) {
            QVERIFY2(QString(error.what())
                         .contains(QStringLiteral("MASTER_PORT=%1").arg(taken.serverPort())),
                     error.what());
            QVERIFY(QString(error.what()).contains(QStringLiteral("in use")));
        }
        const int closed = freePort();
        const auto started = std::chrono::steady_clock::now();
        try {
            ProcessGroup group(rank_environment(1, 2, closed), std::chrono::seconds(2));
            QFAIL("an unreachable master was accepted");
        } catch (const kiln::Error& error) {
            QVERIFY2(QString(error.what()).contains(QStringLiteral("cannot reach the master")),
                     error.what());
            QVERIFY(QString(error.what()).contains(QStringLiteral("within 2 s")));
        }
        QVERIFY(std::chrono::steady_clock::now() - started < std::chrono::seconds(30));
    }

    void environmentIsReadAsTorchrunWritesIt() {
        for (const char* name :
             {"RANK", "WORLD_SIZE", "LOCAL_RANK", "NODE_RANK", "MASTER_ADDR", "MASTER_PORT"}) {
            unsetenv(name);
        }
        QVERIFY(!RankEnvironment::from_process());
        QVERIFY(kiln::distributed::writes_run_directory());
        RankEnvironment node = RankEnvironment::for_node(1, 2);
        QCOMPARE(node.world_size, 2);
        QCOMPARE(node.master_port, 0); // any free port
        try {
            RankEnvironment::for_node(2, 1);
            QFAIL("two nodes without MASTER_ADDR were accepted");
        } catch (const kiln::Error& error) {
            QVERIFY(QString(error.what()).contains(QStringLiteral("needs MASTER_ADDR")));
        }
        setenv("MASTER_ADDR", "10.0.0.1", 1);
        setenv("NODE_RANK", "1", 1);
        node = RankEnvironment::for_node(2, 4);
        QCOMPARE(node.rank, 4);
        QCOMPARE(node.world_size, 8);
        QCOMPARE(node.master_port, 29500);
        QVERIFY(!kiln::distributed::writes_run_directory());
        setenv("RANK", "3", 1);
        setenv("WORLD_SIZE", "8", 1);
        setenv("LOCAL_RANK", "3", 1);
        const std::optional<RankEnvironment> launched = RankEnvironment::from_process();
        QVERIFY(launched);
        QCOMPARE(launched->rank, 3);
        QCOMPARE(launched->local_rank, 3);
        QCOMPARE(launched->master_addr, std::string("10.0.0.1"));
        setenv("RANK", "8", 1);
        try {
            RankEnvironment::from_process();
            QFAIL("RANK=8 of WORLD_SIZE=8 was accepted");
        } catch (const kiln::Error& error) {
            QVERIFY(QString(error.what()).contains(QStringLiteral("RANK=\"8\"")));
        }
        for (const char* name : {"RANK", "WORLD_SIZE", "LOCAL_RANK", "NODE_RANK", "MASTER_ADDR"}) {
            unsetenv(name);
        }
    }

    void twoProcessesTrainAsOneWithTheSameGlobalBatch() {
        const QString single = temp_.filePath(QStringLiteral("single"));
        const QString pair = temp_.filePath(QStringLiteral("pair"));
        Result result = runKiln(dinoSettings(single, 1));
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        result = runKiln(dinoSettings(pair, 2));
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY2(result.out.contains(QStringLiteral("finished after 4 steps")),
                 qPrintable(result.out));
        QVERIFY2(
            trainLog(pair).contains(QStringLiteral("the 2 ranks ended with identical weights")),
            qPrintable(trainLog(pair)));
        const double difference = largestDifference(exportedModel(single), exportedModel(pair));
        QVERIFY2(difference < 1e-4, qPrintable(QString::number(difference)));
        // The slowest rank's times and the all-reduce are logged with the other metrics.
        QFile metrics(pair + QStringLiteral("/metrics.jsonl"));
        QVERIFY(metrics.open(QIODevice::ReadOnly));
        QVERIFY(metrics.readAll().contains("profiling/allreduce_time"));
    }

    void simclrWithSyncBatchNormOnTwoProcessesTrainsAsOne() {
        // Batch norm everywhere (backbone and head): equal only with synchronised statistics,
        // and with negatives gathered from both ranks.
        const QStringList simclr = {"method=simclr", "epochs=1", "sync_batchnorm=true"};
        const QString single = temp_.filePath(QStringLiteral("simclr-single"));
        const QString pair = temp_.filePath(QStringLiteral("simclr-pair"));
        const QString local = temp_.filePath(QStringLiteral("simclr-local"));
        for (const auto& [out, devices, extra] :
             {std::tuple{single, 1, QStringList()}, std::tuple{pair, 2, QStringList()},
              // Each rank's own statistics make a different run.
              std::tuple{local, 2, QStringList{"sync_batchnorm=false"}}}) {
            const Result result = runKiln(smallCnnSettings(out, devices, simclr + extra));
            QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        }
        const double difference = largestDifference(exportedModel(single), exportedModel(pair));
        QVERIFY2(difference < 1e-4, qPrintable(QString::number(difference)));
        const double unsynchronised =
            largestDifference(exportedModel(single), exportedModel(local));
        QVERIFY2(unsynchronised > 1e-3, qPrintable(QString::number(unsynchronised)));
    }

    void distillationQueueFillsFromEveryRank() {
        // The queue holds the global batch's teacher features, so 2 ranks train as 1.
        const QString teacher = temp_.filePath(QStringLiteral("teacher.pt"));
        torch::manual_seed(5);
        kiln::models::save_backbone_weights(*kiln::models::make_backbone("smallcnn"),
                                            teacher.toStdString());
        const QStringList distillation = {"method=distillation", "method_args.teacher=" + teacher,
                                          "method_args.queue_size=32", "epochs=2",
                                          "sync_batchnorm=true"};
        const QString single = temp_.filePath(QStringLiteral("distill-single"));
        const QString pair = temp_.filePath(QStringLiteral("distill-pair"));
        for (const auto& [out, devices] : {std::pair{single, 1}, std::pair{pair, 2}}) {
            const Result result = runKiln(smallCnnSettings(out, devices, distillation));
            QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        }
        const double difference = largestDifference(exportedModel(single), exportedModel(pair));
        QVERIFY2(difference < 1e-4, qPrintable(QString::number(difference)));
    }

    void twoNodesOnTheLoopback() {
        const QString out = temp_.filePath(QStringLiteral("nodes"));
        const QString port = QString::number(freePort());
        QStringList settings = dinoSettings(out, 1);
        settings << QStringLiteral("num_nodes=2");
        const auto [one, two] =
            runTogether(settings, {"NODE_RANK=0", "MASTER_ADDR=127.0.0.1", "MASTER_PORT=" + port},
                        {"NODE_RANK=1", "MASTER_ADDR=127.0.0.1", "MASTER_PORT=" + port});
        QVERIFY2(one.exitCode == 0, qPrintable(one.err));
        QVERIFY2(two.exitCode == 0, qPrintable(two.err));
        QVERIFY(one.out.contains(QStringLiteral("finished after 4 steps")));
        // Only rank 0 reports progress; the other node says so and how it ended.
        QVERIFY2(two.out.startsWith(QStringLiteral("training as a rank of a distributed run")),
                 qPrintable(two.out));
        QVERIFY(two.out.contains(QStringLiteral("finished after 4 steps")));
        QVERIFY(!two.out.contains(QStringLiteral("epoch 1/1")));
        QVERIFY(QFileInfo::exists(exportedModel(out)));
        QVERIFY(trainLog(out).contains(QStringLiteral("the 2 ranks ended with identical weights")));
    }

    void underAnExternalLauncherEachProcessIsTheRankItIsTold() {
        // As torchrun starts them: one `kiln train` per rank, RANK and WORLD_SIZE set.
        const QString out = temp_.filePath(QStringLiteral("torchrun"));
        const QString port = QString::number(freePort());
        const QStringList settings = dinoSettings(out, 2);
        const auto [one, two] = runTogether(settings,
                                            {"RANK=0", "LOCAL_RANK=0", "WORLD_SIZE=2",
                                             "MASTER_ADDR=127.0.0.1", "MASTER_PORT=" + port},
                                            {"RANK=1", "LOCAL_RANK=1", "WORLD_SIZE=2",
                                             "MASTER_ADDR=127.0.0.1", "MASTER_PORT=" + port});
        QVERIFY2(one.exitCode == 0, qPrintable(one.err));
        QVERIFY2(two.exitCode == 0, qPrintable(two.err));
        QVERIFY(one.out.contains(QStringLiteral("finished after 4 steps")));
        QVERIFY(trainLog(out).contains(QStringLiteral("the 2 ranks ended with identical weights")));

        const Result mismatch =
            runKiln(dinoSettings(temp_.filePath(QStringLiteral("mismatch")), 2),
                    {"RANK=0", "WORLD_SIZE=3", "MASTER_PORT=" + QString::number(freePort())});
        QCOMPARE(mismatch.exitCode, 1);
        QVERIFY2(mismatch.err.contains(QStringLiteral("WORLD_SIZE=3 but num_nodes x devices = 2")),
                 qPrintable(mismatch.err));
    }

    void aLaunchedProcessIsARankEvenInAWorldOfOne() {
        // torchrun --nproc_per_node=1: the distributed path, with its collectives, and the same
        // weights as the single-process run.
        if (!kiln::distributed::gloo_available()) {
            QSKIP("built without Gloo's headers: a CPU rank of a world of one runs alone");
        }
        const QString single = temp_.filePath(QStringLiteral("world-of-one-single"));
        const QString launched = temp_.filePath(QStringLiteral("world-of-one"));
        Result result = runKiln(dinoSettings(single, 1));
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        result =
            runKiln(dinoSettings(launched, 1), {"RANK=0", "WORLD_SIZE=1", "MASTER_ADDR=127.0.0.1",
                                                "MASTER_PORT=" + QString::number(freePort())});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QFile metrics(launched + QStringLiteral("/metrics.jsonl"));
        QVERIFY(metrics.open(QIODevice::ReadOnly));
        QVERIFY(metrics.readAll().contains("profiling/allreduce_time"));
        const double difference = largestDifference(exportedModel(single), exportedModel(launched));
        QVERIFY2(difference < 1e-4, qPrintable(QString::number(difference)));
    }

    void fineTuningValidatesOverBothRanks() {
        // Two classes of the random images; each rank validates half of them and the counts are
        // summed: the metric must equal the best checkpoint's accuracy over all of them.
        const QString data = temp_.filePath(QStringLiteral("labelled"));
        for (int i = 0; i < 64; ++i) {
            const QString folder = data + (i % 2 == 0 ? "/even" : "/odd");
            QVERIFY(QDir().mkpath(folder));
            const QString name = QStringLiteral("/%1.png").arg(i, 2, 10, QChar('0'));
            QVERIFY(QFile::copy(images_ + name, folder + name));
        }
        const QString out = temp_.filePath(QStringLiteral("finetune-ddp"));
        Result result = runKiln({"train-image-classification", "out=" + out, "data.train=" + data,
                                 "data.val=" + data, "model=smallcnn", "epochs=2", "batch_size=16",
                                 "num_workers=0", "accelerator=cpu", "transform_args.image_size=32",
                                 "devices=2"});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QFile metrics(out + QStringLiteral("/metrics.jsonl"));
        QVERIFY(metrics.open(QIODevice::ReadOnly));
        double best = -1;
        int validations = 0;
        for (const QByteArray& line : metrics.readAll().split('\n')) {
            const QJsonObject record = QJsonDocument::fromJson(line).object();
            if (record.contains(QStringLiteral("val_metric/top1_acc_micro"))) {
                best = std::max(
                    best, record.value(QStringLiteral("val_metric/top1_acc_micro")).toDouble());
                ++validations;
            }
        }
        QCOMPARE(validations, 2);
        const QString predictions = temp_.filePath(QStringLiteral("ddp-predictions.csv"));
        result = runKiln({"predict", "checkpoint=" + out + "/checkpoints/best.ckpt", "data=" + data,
                          "out=" + predictions, "accelerator=cpu"});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QFile csv(predictions);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        int correct = 0, total = 0;
        for (const QByteArray& line : csv.readAll().split('\n').mid(1)) {
            if (line.isEmpty()) {
                continue;
            }
            const QList<QByteArray> fields = line.split(',');
            correct += fields[0].startsWith(fields[1] + "/") ? 1 : 0;
            ++total;
        }
        QCOMPARE(total, 64);
        QCOMPARE(best, double(correct) / total);
    }

    void instanceMasksAreGatheredFromBothRanks() {
        // Each rank detects in its half of the val images; their masks are gathered for one
        // evaluation, which must give the mAP of the same checkpoint's predictions over all.
        const QString shapes = temp_.filePath(QStringLiteral("shapes"));
        kiln::test::write_shapes_idx((shapes + "-images").toStdString(),
                                     (shapes + "-labels").toStdString(), 40);
        for (const auto& [split, seed] : {std::pair{"train", "1"}, std::pair{"val", "2"}}) {
            const Result made = runKiln({"generate-scenes", "--images", shapes + "-images",
                                         "--labels", shapes + "-labels", "--out",
                                         temp_.filePath(split), "--scenes", "24", "--seed", seed});
            QVERIFY2(made.exitCode == 0, qPrintable(made.err));
        }
        const QString train = temp_.filePath(QStringLiteral("train"));
        const QString val = temp_.filePath(QStringLiteral("val"));
        const QString out = temp_.filePath(QStringLiteral("instances-ddp"));
        Result result = runKiln({"train-instance-segmentation", "out=" + out,
                                 "data.train.annotations=" + train + "/annotations.json",
                                 "data.train.images=" + train + "/images",
                                 "data.val.annotations=" + val + "/annotations.json",
                                 "data.val.images=" + val + "/images", "model=smallcnn", "steps=6",
                                 "val_every_n_steps=6", "batch_size=8", "num_workers=0",
                                 "accelerator=cpu", "transform_args.image_size=64", "devices=2"});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QFile metrics(out + QStringLiteral("/metrics.jsonl"));
        QVERIFY(metrics.open(QIODevice::ReadOnly));
        double logged = -2;
        for (const QByteArray& line : metrics.readAll().split('\n')) {
            const QJsonObject record = QJsonDocument::fromJson(line).object();
            if (record.contains(QStringLiteral("val_metric/map"))) {
                logged = record.value(QStringLiteral("val_metric/map")).toDouble();
            }
        }
        QVERIFY(logged >= 0);
        const QString results = temp_.filePath(QStringLiteral("instances.json"));
        result = runKiln({"predict", "checkpoint=" + out + "/checkpoints/best.ckpt",
                          "data.images=" + val + "/images",
                          "data.annotations=" + val + "/annotations.json", "out=" + results,
                          "accelerator=cpu", "batch_size=4"});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        const auto truth = kiln::coco::GroundTruth::load((val + "/annotations.json").toStdString());
        const auto detections =
            kiln::coco::Detections::load(results.toStdString(), truth, kiln::coco::IouType::Mask);
        kiln::coco::EvalParams params;
        params.iou_type = kiln::coco::IouType::Mask;
        QVERIFY(kiln::coco::evaluate(truth, detections, params).stats[0] == logged);
    }

    void aKilledRankFailsTheRunAndLeavesNoProcessBehind() {
        const QString out = temp_.filePath(QStringLiteral("killed"));
        QProcess training;
        const QString checkpoint = startUntilCheckpoint(training, out, 200, 2);
        QVERIFY(QFileInfo::exists(checkpoint));
        const std::vector<pid_t> ranks = childrenOf(training.processId());
        QCOMPARE(ranks.size(), std::size_t(1));
        QCOMPARE(kill(ranks[0], SIGKILL), 0);
        const auto killed = std::chrono::steady_clock::now();
        const Result result = finished(training, 60000);
        QVERIFY2(std::chrono::steady_clock::now() - killed < std::chrono::seconds(20),
                 "the run did not fail promptly");
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains(QStringLiteral("rank 1 failed: killed by signal 9")),
                 qPrintable(result.err));
        QVERIFY(!processExists(ranks[0]));
        // The checkpoint is whole and the run is recorded as failed.
        const auto file = kiln::models::WeightsFile::read(checkpoint.toStdString());
        QCOMPARE(file.settings().value("model", ""), std::string("vit_tiny"));
        QVERIFY(kiln::models::load_backbone(file));
        const Result runs = runKiln({"runs", "show", out});
        QVERIFY2(runs.out.contains(QStringLiteral("failed")), qPrintable(runs.out));
    }

    void aStoppedDistributedRunResumes() {
        const QString out = temp_.filePath(QStringLiteral("stopped"));
        QProcess training;
        QVERIFY(QFileInfo::exists(startUntilCheckpoint(training, out, 4, 1)));
        const std::vector<pid_t> ranks = childrenOf(training.processId());
        training.terminate(); // SIGTERM, as Ctrl-C: every rank stops after the same step
        Result result = finished(training, 60000);
        QVERIFY2(result.exitCode == 130, qPrintable(result.err));
        QVERIFY2(result.out.contains(QStringLiteral("stopped after")), qPrintable(result.out));
        for (const pid_t rank : ranks) {
            QVERIFY(!processExists(rank));
        }
        result = runKiln(dinoSettings(out, 2, 4) + QStringList{"resume_interrupted=true"});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY2(result.out.contains(QStringLiteral("finished after 16 steps")),
                 qPrintable(result.out));
    }
};

QTEST_GUILESS_MAIN(DistributedTest)
#include "tst_distributed.moc"
