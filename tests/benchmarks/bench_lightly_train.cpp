// Kiln against LightlyTrain, the Python tool it follows, in the same run on the same machine.
// Both pretrain torchvision's ResNet-18 on the CPU with SimCLR and with DINO, on the same
// Fashion-MNIST image folder with the same settings (batch size, loader workers, image size,
// DINO's local view size, 32-bit precision, seed), each for the same wall time of training and
// each with its schedules (warm-up, decay, teacher schedules) fitted to that time, as a user of
// each would set it: Kiln with `max_time` (it fits its steps to the budget as it measures its
// speed), LightlyTrain with the epochs Kiln's run covered and Lightning's max_time stopping it.
// Reported:
//   - images/s and data_wait as each reports them: from each tool's own per-step
//     profiling/batch_time and profiling/data_time in its metrics.jsonl, the first steps left out;
//   - peak memory: the resident memory of the tool's process tree (its loader worker
//     processes included), sampled every 100 ms;
//   - kNN top-1 (k=20, T=0.07) of each trained backbone, both embedded and classified by the
//     same code, against the backbone at random initialisation.
//
//   bench_lightly_train [--train N] [--test N] [--seconds S] [--methods simclr,dino]
//                       [--batch-size B] [--workers W] [--dir DIR] [--seeds 1] [--first-seed 0]
// With --seeds N each tool trains once per seed F..F+N-1, F the first seed (both given the same
// seed; the random initialisation's kNN with it too), and the means close the report.

#include "core/log.h"
#include "fashion_mnist_knn.h"
#include "models/backbone.h"
#include "seed_statistics.h"
#include "track/run_directory.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <torch/utils.h>
#include <unistd.h>
#include <unordered_map>
#include <vector>

namespace fs = std::filesystem;

namespace {

constexpr int kWarmUpSteps = 5; // steps left out of the throughput: allocation, first batches

struct Settings {
    int seconds = 120;
    int batch_size = 128;
    int workers = 2;
    int image_size = 32;
    int local_view_size = 16; // DINO
};

// kNN top-1 of each tool per method, over the seeds.
struct Scores {
    std::vector<double> random_init;
    std::map<std::string, std::vector<double>> kiln, peer;
};

std::string percentages(const std::vector<double>& values) {
    std::string text;
    for (const double value : values) {
        char item[16];
        std::snprintf(item, sizeof item, "%s%.1f", text.empty() ? "" : ", ", 100 * value);
        text += item;
    }
    return text;
}

// The resident memory of `root` and every process below it, in MiB.
double tree_rss_mib(pid_t root) {
    std::unordered_map<pid_t, pid_t> parents;
    for (const auto& entry : fs::directory_iterator("/proc")) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) {
            continue;
        }
        std::ifstream stat(entry.path() / "stat");
        std::string line;
        std::getline(stat, line);
        const std::size_t close = line.rfind(')');
        if (close == std::string::npos) {
            continue;
        }
        std::istringstream fields(line.substr(close + 2));
        char state = 0;
        pid_t parent = 0;
        fields >> state >> parent;
        parents[static_cast<pid_t>(std::stol(name))] = parent;
    }
    const double page_mib = double(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
    double total = 0;
    for (const auto& [pid, parent] : parents) {
        pid_t ancestor = pid;
        while (ancestor > 1 && ancestor != root) {
            const auto found = parents.find(ancestor);
            ancestor = found == parents.end() ? 0 : found->second;
        }
        if (ancestor == root) {
            std::ifstream statm("/proc/" + std::to_string(pid) + "/statm");
            long long size = 0, resident = 0;
            statm >> size >> resident;
            total += double(resident) * page_mib;
        }
    }
    return total;
}

pid_t spawn(const std::vector<std::string>& command, const fs::path& log) {
    const pid_t pid = fork();
    if (pid == 0) {
        std::FILE* out = std::fopen(log.c_str(), "w");
        if (out != nullptr) {
            dup2(fileno(out), STDOUT_FILENO);
            dup2(fileno(out), STDERR_FILENO);
        }
        std::vector<char*> argv;
        for (const std::string& argument : command) {
            argv.push_back(const_cast<char*>(argument.c_str()));
        }
        argv.push_back(nullptr);
        execv(argv[0], argv.data());
        std::perror("execv");
        _exit(127);
    }
    return pid;
}

struct Measured {
    double images_per_second = 0;
    double data_wait = 0;
    long long steps = 0;
    double peak_mib = 0;
    double wall_seconds = 0;
    double top1 = 0;
    int exit_code = 0;
};

// Runs `command` to its end, sampling its memory; with `stop_after` > 0, sends it Ctrl-C that
// many seconds after `first_step` appears.
Measured run_measured(const std::vector<std::string>& command, const fs::path& log,
                      const fs::path& first_step, int stop_after) {
    Measured measured;
    const auto started = std::chrono::steady_clock::now();
    const pid_t pid = spawn(command, log);
    std::atomic<bool> done{false};
    std::atomic<double> peak{0};
    std::thread sampler([&] {
        while (!done) {
            peak = std::max(peak.load(), tree_rss_mib(pid));
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    });
    if (stop_after > 0) {
        std::error_code error;
        while (!(fs::exists(first_step, error) && fs::file_size(first_step, error) > 0)) {
            if (waitpid(pid, nullptr, WNOHANG) != 0) {
                break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        std::this_thread::sleep_for(std::chrono::seconds(stop_after));
        kill(pid, SIGINT);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    done = true;
    sampler.join();
    measured.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    measured.peak_mib = peak;
    measured.wall_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return measured;
}

// Throughput and data_wait from a run's own per-step timings (Kiln's and LightlyTrain's
// metrics.jsonl both name them profiling/batch_time and profiling/data_time).
void read_timings(const fs::path& metrics, int batch_size, Measured& measured) {
    std::map<long long, std::pair<double, double>> steps; // step -> batch_time, data_time
    std::ifstream lines(metrics);
    for (std::string line; std::getline(lines, line);) {
        const nlohmann::json entry = nlohmann::json::parse(line, nullptr, false);
        if (!entry.is_object() || !entry.contains("step")) {
            continue;
        }
        const long long step = entry["step"].get<long long>();
        if (entry.contains("profiling/batch_time")) {
            steps[step].first = entry["profiling/batch_time"].get<double>();
        }
        if (entry.contains("profiling/data_time")) {
            steps[step].second = entry["profiling/data_time"].get<double>();
        }
    }
    double busy = 0, waiting = 0;
    long long counted = 0;
    for (const auto& [step, times] : steps) {
        measured.steps = std::max(measured.steps, step);
        if (step > kWarmUpSteps && times.first > 0) {
            busy += times.first;
            waiting += times.second;
            ++counted;
        }
    }
    if (busy + waiting > 0) {
        measured.images_per_second = double(counted) * batch_size / (busy + waiting);
        measured.data_wait = waiting / (busy + waiting);
    }
}

void print_row(const char* tool, const Measured& measured) {
    std::printf("  %-13s %7.1f %9.1f%% %7lld %10.0f %10.0f %7.1f%%   (exit %d)\n", tool,
                measured.images_per_second, 100 * measured.data_wait, measured.steps,
                measured.peak_mib, measured.wall_seconds, 100 * measured.top1, measured.exit_code);
    std::fflush(stdout);
}

// One seed of every method, both tools, into `scores`.
void run_seed(const fs::path& root, const kiln::bench::FashionMnistSets& sets,
              const Settings& settings, const std::vector<std::string>& methods, int seed,
              const std::string& python, Scores& scores) {
    torch::manual_seed(static_cast<std::uint64_t>(seed));
    const auto untrained = kiln::models::make_backbone("resnet18");
    scores.random_init.push_back(
        kiln::bench::knn_evaluate(*untrained, sets, settings.image_size).top1);
    std::printf("seed %d\n  random init: kNN top-1 %.1f%%\n", seed,
                100 * scores.random_init.back());
    std::printf("  %-13s %7s %10s %7s %10s %10s %8s\n", "", "img/s", "data_wait", "steps",
                "peak MiB", "wall s", "kNN");
    const std::string size = std::to_string(settings.image_size);
    for (const std::string& method : methods) {
        std::printf("%s\n", method.c_str());
        const fs::path kiln_out = root / ("kiln-" + method);
        std::vector<std::string> kiln_command = {
            KILN_CLI,
            "train",
            "out=" + kiln_out.string(),
            "data=" + (root / "train").string(),
            "model=resnet18",
            "method=" + method,
            "max_time=" + std::to_string(settings.seconds),
            "batch_size=" + std::to_string(settings.batch_size),
            "num_workers=" + std::to_string(settings.workers),
            "accelerator=cpu",
            "devices=1",
            "precision=32-true",
            "seed=" + std::to_string(seed),
            "overwrite=true",
            "loggers.tensorboard=null",
            "transform_args.image_size=[" + size + "," + size + "]"};
        std::vector<std::string> peer_command = {python,
                                                 std::string(KILN_BENCHMARK_DIR) +
                                                     "/lightly_train_peer.py",
                                                 (root / ("lightly-train-" + method)).string(),
                                                 (root / "train").string(),
                                                 method,
                                                 std::to_string(settings.seconds),
                                                 "", // the epochs Kiln's run covered, below
                                                 std::to_string(settings.batch_size),
                                                 std::to_string(settings.workers),
                                                 size,
                                                 std::to_string(seed)};
        if (method == "dino") {
            const std::string local = std::to_string(settings.local_view_size);
            kiln_command.push_back("transform_args.local_view.view_size=[" + local + "," + local +
                                   "]");
            peer_command.push_back(local);
        }
        const kiln::track::RunDirectory kiln_run(kiln_out);
        Measured kiln = run_measured(kiln_command, root / ("kiln-" + method + ".log"),
                                     kiln_run.metrics_jsonl(), 0);
        read_timings(kiln_run.metrics_jsonl(), settings.batch_size, kiln);
        const long long steps_per_epoch =
            static_cast<long long>(sets.train.size()) / settings.batch_size;
        peer_command[6] =
            std::to_string(std::max(1LL, (kiln.steps + steps_per_epoch - 1) / steps_per_epoch));
        std::printf("  (LightlyTrain set to %s epochs, the %lld steps Kiln's budget took)\n",
                    peer_command[6].c_str(), kiln.steps);
        if (fs::exists(kiln_run.last_checkpoint())) {
            kiln.top1 =
                kiln::bench::knn_evaluate(*kiln::models::load_backbone(kiln_run.last_checkpoint()),
                                          sets, settings.image_size)
                    .top1;
        }
        print_row("Kiln", kiln);
        scores.kiln[method].push_back(kiln.top1);

        const kiln::track::RunDirectory peer_run(root / ("lightly-train-" + method));
        Measured peer =
            run_measured(peer_command, root / ("lightly-train-" + method + ".log"), {}, 0);
        read_timings(peer_run.metrics_jsonl(), settings.batch_size, peer);
        if (fs::exists(peer_run.exported_last())) {
            const auto backbone = kiln::models::make_backbone("resnet18");
            kiln::models::load_backbone_weights(*backbone, peer_run.exported_last());
            peer.top1 = kiln::bench::knn_evaluate(*backbone, sets, settings.image_size).top1;
        }
        print_row("LightlyTrain", peer);
        scores.peer[method].push_back(peer.top1);
    }
}

} // namespace

int main(int argc, char** argv) {
    long long train_images = 10000;
    long long test_images = 2000;
    Settings settings;
    fs::path root = fs::temp_directory_path() / "kiln-bench-lightly-train";
    std::vector<std::string> methods = {"simclr", "dino"};
    int seeds = 1;
    int first_seed = 0;
    for (int i = 1; i < argc; i += 2) {
        // A flag without its value (--help among them) matches none and gets the usage.
        const std::string flag = i + 1 < argc ? argv[i] : "";
        const std::string value = i + 1 < argc ? argv[i + 1] : "";
        if (flag == "--train") {
            train_images = std::stoll(value);
        } else if (flag == "--test") {
            test_images = std::stoll(value);
        } else if (flag == "--seconds") {
            settings.seconds = std::stoi(value);
        } else if (flag == "--batch-size") {
            settings.batch_size = std::stoi(value);
        } else if (flag == "--workers") {
            settings.workers = std::stoi(value);
        } else if (flag == "--dir") {
            root = value;
        } else if (flag == "--seeds") {
            seeds = std::stoi(value);
        } else if (flag == "--first-seed") {
            first_seed = std::stoi(value);
        } else if (flag == "--methods") {
            methods.clear();
            std::stringstream list(value);
            for (std::string method; std::getline(list, method, ',');) {
                methods.push_back(method);
            }
        } else {
            std::fprintf(stderr, "usage: bench_lightly_train [--train N] [--test N] [--seconds S] "
                                 "[--methods simclr,dino] [--batch-size B] [--workers W] "
                                 "[--dir DIR] [--seeds N] [--first-seed F]\n");
            return 2;
        }
    }
    if (!fs::exists(kiln::bench::kFashionMnist / "train-images-idx3-ubyte.gz")) {
        std::printf("skipped: Fashion-MNIST is not at %s\n", kiln::bench::kFashionMnist.c_str());
        return 0;
    }
    const std::string python = KILN_BENCHMARK_PYTHON;
    if (python.empty() ||
        std::system((python + " -c 'import lightly_train' 2>/dev/null").c_str()) != 0) {
        std::printf("skipped: LightlyTrain is not in the build's Python (%s); "
                    "packaging/setup-debian.sh installs it\n",
                    python.empty() ? "none" : python.c_str());
        return 0;
    }
    const kiln::log::ScopedSink quiet([](kiln::log::Level, const std::string&) {});
    fs::remove_all(root);
    const auto sets = kiln::bench::import_fashion_mnist(root, train_images, test_images);
    std::printf("Fashion-MNIST: pretrain ResNet-18 on %zu images at %d px for %d s of training "
                "each, batch %d, %d loader workers, CPU (%u cores); kNN on %zu test images\n",
                sets.train.size(), settings.image_size, settings.seconds, settings.batch_size,
                settings.workers, std::thread::hardware_concurrency(), sets.test.size());
    Scores scores;
    for (int seed = first_seed; seed < first_seed + seeds; ++seed) {
        run_seed(root, sets, settings, methods, seed, python, scores);
    }
    if (seeds > 1) {
        std::printf("kNN top-1 over seeds %d-%d: random init %.2f%% (%s)\n", first_seed,
                    first_seed + seeds - 1, 100 * kiln::bench::mean_sd(scores.random_init).mean,
                    percentages(scores.random_init).c_str());
        for (const std::string& method : methods) {
            std::printf("  %s: Kiln %.2f%% (%s), LightlyTrain %.2f%% (%s)\n", method.c_str(),
                        100 * kiln::bench::mean_sd(scores.kiln[method]).mean,
                        percentages(scores.kiln[method]).c_str(),
                        100 * kiln::bench::mean_sd(scores.peer[method]).mean,
                        percentages(scores.peer[method]).c_str());
        }
    }
    return 0;
}
