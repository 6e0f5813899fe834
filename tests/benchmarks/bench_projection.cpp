// Kiln's 2-D maps (PCA, t-SNE, UMAP) against their real peers, in the same run on the same data
// and machine: scikit-learn's Barnes-Hut TSNE (perplexity 30, PCA start, learning_rate='auto',
// 750 iterations in all as Kiln's, n_jobs=-1) and umap-learn's UMAP (n_neighbors 15, min_dist
// 0.1, PCA start as Kiln's), once with random_state = seed, which makes umap-learn run on one
// thread, and once unseeded with n_jobs=-1. Data: Fashion-MNIST's 10,000 test images as raw
// pixels; with --large also all 70,000 images and 100,000 synthetic points in 512 dimensions
// (20 Gaussian clusters), the size the embeddings view must handle; on a few cores --large takes
// an hour or more, most of it the peers' t-SNE and the exact reference neighbours. Per map:
//   - seconds: Kiln's map_2d in this process; the peer's fit_transform alone, as
//     projection_peers.py times it (imports, reading the data and umap-learn's Numba warm-up
//     left out);
//   - peak MiB: the process's peak resident memory during the map (VmHWM, reset just before
//     it), and +MiB, that peak less the resident memory when the map began;
//   - kNN@10 L2: the mean share of each point's 10 nearest neighbours in the input (exact,
//     Euclidean, all dimensions) that are among its 10 nearest in the map; kNN@10 Kiln: the
//     same against Kiln's own graph (cosine after PCA to 50 dimensions), the one Kiln's maps
//     are built from, so it favours them as L2 favours the peers;
//   - 10-NN acc: leave-one-out 10-NN classification accuracy in the map (classes apart).
// All the quality figures come from the same C++ code on each map's coordinates. Kiln's t-SNE
// and UMAP use every hardware thread and are still the same for the same seed.
//
//   bench_projection [--dir DIR] [--seeds N] [--large] [--skip-peers]

#include "core/log.h"
#include "data/idx_import.h"
#include "embed/embedding_map.h"
#include "embed/projection.h"
#include "embed/writers.h"
#include "fashion_mnist_knn.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <torch/types.h>
#include <torch/utils.h>
#include <vector>

namespace fs = std::filesystem;
using kiln::embed::NeighbourGraph;
using kiln::embed::Projection;

namespace {

constexpr int kK = 10; // neighbours for kNN preservation and the 2-D classifier

struct Settings {
    fs::path dir = fs::temp_directory_path() / "kiln-bench-projection";
    int seeds = 1;
    bool large = false;
    bool skip_peers = false;
};

struct Dataset {
    std::string name;
    std::string key;   // file stem in the work folder
    at::Tensor points; // [N, D] float32
    std::vector<int> labels;
};

// One map and what it cost; `failure` says why a peer gave none.
struct Map {
    std::vector<float> xy; // points x 2, row-major
    double seconds = 0;
    double peak_mib = 0;
    double start_mib = 0;
    std::string failure;
};

struct Figures {
    double seconds = 0;
    double peak_mib = 0;
    double growth_mib = 0;
    double kept_l2 = 0;
    double kept_kiln = 0;
    double accuracy = 0;
};

struct Method {
    std::string label;
    Projection projection = Projection::Pca; // Kiln's, where `peer` is empty
    std::string peer;                        // projection_peers.py's --method
};

struct Peers {
    bool tsne = false;
    bool umap = false;
};

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A field of /proc/self/status (VmRSS, VmHWM) in MiB.
double status_mib(const std::string& field) {
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);) {
        if (line.rfind(field + ":", 0) == 0) {
            return std::stod(line.substr(field.size() + 1)) / 1024.0; // kB
        }
    }
    return 0;
}

// Resets VmHWM to the present resident memory (Linux 4.0 on), so that each map's peak is its
// own rather than the process's so far; false where /proc/self/clear_refs is not writable.
bool reset_peak() {
    std::ofstream clear("/proc/self/clear_refs");
    clear << "5" << std::flush;
    return static_cast<bool>(clear);
}

std::string quoted(const std::string& text) {
    std::string out = "'";
    for (const char c : text) {
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return out + "'";
}

// Squared Euclidean distances from `block`'s rows to every row of `rows`. Maps get exact
// differences: the expanded form |a|^2 + |b|^2 - 2ab loses neighbours' small distances to
// cancellation at t-SNE's coordinate ranges; high dimensions need the matrix product for speed.
at::Tensor squared_distances(const at::Tensor& block, const at::Tensor& rows,
                             const at::Tensor& block_norms, const at::Tensor& norms) {
    if (rows.size(1) == 2) {
        at::Tensor dx = block.select(1, 0).unsqueeze(1) - rows.select(1, 0).unsqueeze(0);
        at::Tensor dy = block.select(1, 1).unsqueeze(1) - rows.select(1, 1).unsqueeze(0);
        return dx.mul_(dx).add_(dy.mul_(dy));
    }
    return block.mm(rows.t()).mul_(-2.0).add_(norms.unsqueeze(0)).add_(block_norms.unsqueeze(1));
}

// The exact k nearest neighbours of each row by Euclidean distance, in blocks of rows (memory:
// block x N floats a few times over).
NeighbourGraph exact_euclidean_graph(const at::Tensor& points, int k) {
    torch::NoGradGuard no_grad;
    const at::Tensor rows = points.to(torch::kFloat32).contiguous();
    const at::Tensor norms = rows.square().sum(1);
    NeighbourGraph graph;
    graph.points = rows.size(0);
    graph.k = k;
    graph.index.resize(static_cast<std::size_t>(graph.points * k));
    graph.distance.resize(graph.index.size());
    constexpr std::int64_t kBlock = 512;
    for (std::int64_t from = 0; from < graph.points; from += kBlock) {
        const std::int64_t count = std::min(kBlock, graph.points - from);
        at::Tensor distance = squared_distances(rows.narrow(0, from, count), rows,
                                                norms.narrow(0, from, count), norms);
        distance.diagonal(from).fill_(std::numeric_limits<float>::infinity()); // not itself
        const auto [values, columns] = distance.topk(k, 1, /*largest=*/false, /*sorted=*/true);
        const at::Tensor lengths = values.clamp_min(0.0).sqrt().contiguous();
        const at::Tensor index = columns.contiguous();
        std::copy_n(index.data_ptr<std::int64_t>(), index.numel(), graph.index.begin() + from * k);
        std::copy_n(lengths.data_ptr<float>(), lengths.numel(), graph.distance.begin() + from * k);
    }
    return graph;
}

// Leave-one-out kNN classification in the map: each point takes its neighbours' majority class;
// a tie goes to the class that reached the winning count first, nearest first.
double knn_accuracy_2d(const std::vector<float>& xy, const std::vector<int>& labels) {
    const NeighbourGraph graph =
        exact_euclidean_graph(torch::tensor(xy, torch::kFloat32).reshape({-1, 2}), kK);
    const int classes = *std::max_element(labels.begin(), labels.end()) + 1;
    std::int64_t correct = 0;
    for (std::int64_t i = 0; i < graph.points; ++i) {
        std::vector<int> votes(static_cast<std::size_t>(classes), 0);
        int best = -1, most = 0;
        for (int j = 0; j < kK; ++j) {
            const int label = labels[std::size_t(graph.index[std::size_t(i * kK + j)])];
            if (++votes[std::size_t(label)] > most) {
                most = votes[std::size_t(label)];
                best = label;
            }
        }
        correct += best == labels[std::size_t(i)] ? 1 : 0;
    }
    return double(correct) / double(graph.points);
}

// The two graphs the maps are judged against (see the header).
struct References {
    NeighbourGraph l2;
    NeighbourGraph kiln;
};

References reference_graphs(const at::Tensor& points) {
    const auto started = std::chrono::steady_clock::now();
    References references{exact_euclidean_graph(points, kK),
                          kiln::embed::neighbour_graph(points, kK)};
    std::printf("  (reference neighbours found in %.0f s)\n", seconds_since(started));
    return references;
}

Figures score(const Map& map, const References& references, const std::vector<int>& labels) {
    Figures figures;
    figures.seconds = map.seconds;
    figures.peak_mib = map.peak_mib;
    figures.growth_mib = map.peak_mib - map.start_mib;
    figures.kept_l2 = kiln::embed::knn_preservation(references.l2, map.xy, kK);
    figures.kept_kiln = kiln::embed::knn_preservation(references.kiln, map.xy, kK);
    figures.accuracy = knn_accuracy_2d(map.xy, labels);
    return figures;
}

Map map_with_kiln(const at::Tensor& points, Projection projection, std::uint64_t seed) {
    kiln::embed::MapOptions options;
    options.projection = projection;
    options.seed = seed;
    Map map;
    reset_peak();
    map.start_mib = status_mib("VmRSS");
    const auto started = std::chrono::steady_clock::now();
    const at::Tensor xy = kiln::embed::map_2d(points, options).to(torch::kFloat32).contiguous();
    map.seconds = seconds_since(started);
    map.peak_mib = status_mib("VmHWM");
    map.xy.assign(xy.data_ptr<float>(), xy.data_ptr<float>() + xy.numel());
    return map;
}

// A float32 points x 2 matrix as np.save writes it (format 1.0); empty if the file is not one.
std::vector<float> read_map_npy(const fs::path& path, std::int64_t points) {
    std::ifstream file(path, std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(file), {}};
    if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0 || bytes[6] != 1) {
        return {};
    }
    const std::size_t header =
        static_cast<unsigned char>(bytes[8]) |
        (static_cast<std::size_t>(static_cast<unsigned char>(bytes[9])) << 8);
    const std::string dict = bytes.substr(10, header);
    const std::size_t size = static_cast<std::size_t>(points) * 2 * sizeof(float);
    if (dict.find("'<f4'") == std::string::npos || dict.find("False") == std::string::npos ||
        dict.find("(" + std::to_string(points) + ", 2)") == std::string::npos ||
        bytes.size() != 10 + header + size) {
        return {};
    }
    std::vector<float> xy(static_cast<std::size_t>(points) * 2);
    std::memcpy(xy.data(), bytes.data() + 10 + header, size);
    return xy;
}

double number(const nlohmann::json& report, const char* key) {
    return report.contains(key) && report[key].is_number() ? report[key].get<double>() : 0.0;
}

// Runs projection_peers.py on `data`, its stderr appended to `log`.
Map map_with_peer(const std::string& method, const fs::path& data, const fs::path& out,
                  std::uint64_t seed, std::int64_t points, const fs::path& log) {
    const std::string command = quoted(KILN_BENCHMARK_PYTHON) + " " +
                                quoted(std::string(KILN_BENCHMARK_DIR) + "/projection_peers.py") +
                                " --method " + method + " --data " + quoted(data.string()) +
                                " --out " + quoted(out.string()) + " --seed " +
                                std::to_string(seed) + " 2>>" + quoted(log.string());
    Map map;
    nlohmann::json report;
    FILE* pipe = ::popen(command.c_str(), "r");
    char line[4096];
    while (pipe != nullptr && std::fgets(line, sizeof line, pipe) != nullptr) {
        const nlohmann::json parsed = nlohmann::json::parse(line, nullptr, false);
        report = parsed.is_object() ? parsed : report;
    }
    const int status = pipe != nullptr ? ::pclose(pipe) : -1;
    if (report.contains("skipped")) {
        map.failure = "skipped: " + report["skipped"].get<std::string>();
        return map;
    }
    if (!report.contains("seconds") || !report["seconds"].is_number()) {
        map.failure = "failed (exit " +
                      std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + "; see " +
                      log.string() + ")";
        return map;
    }
    map.seconds = number(report, "seconds");
    map.peak_mib = number(report, "peak_mib");
    map.start_mib = number(report, "start_mib");
    map.xy = read_map_npy(out, points);
    if (map.xy.empty()) {
        map.failure = "failed: " + out.string() + " is not a float32 points x 2 .npy";
    }
    return map;
}

Figures mean_of(const std::vector<Figures>& runs) {
    Figures mean;
    const double n = double(runs.size());
    for (const Figures& run : runs) {
        mean.seconds += run.seconds / n;
        mean.peak_mib += run.peak_mib / n;
        mean.growth_mib += run.growth_mib / n;
        mean.kept_l2 += run.kept_l2 / n;
        mean.kept_kiln += run.kept_kiln / n;
        mean.accuracy += run.accuracy / n;
    }
    return mean;
}

void print_table_header() {
    std::printf("  %-34s %8s %9s %7s %11s %12s %10s\n", "method (mean over seeds)", "seconds",
                "peak MiB", "+MiB", "kNN@10 L2", "kNN@10 Kiln", "10-NN acc");
}

void print_row(const std::string& label, const std::vector<Figures>& runs,
               const std::string& failure) {
    if (runs.empty()) {
        std::printf("  %-34s %s\n", label.c_str(), failure.c_str());
        std::fflush(stdout);
        return;
    }
    const Figures mean = mean_of(runs);
    std::printf("  %-34s %8.1f %9.0f %7.0f %11.3f %12.3f %9.1f%%", label.c_str(), mean.seconds,
                mean.peak_mib, mean.growth_mib, mean.kept_l2, mean.kept_kiln, 100 * mean.accuracy);
    if (runs.size() > 1) {
        std::printf("  kNN@10 L2 by seed:");
        for (const Figures& run : runs) {
            std::printf(" %.3f", run.kept_l2);
        }
    }
    std::printf("%s\n", failure.empty() ? "" : ("  (then " + failure + ")").c_str());
    std::fflush(stdout);
}

std::vector<Method> methods_with(const Peers& peers) {
    std::vector<Method> methods = {{"Kiln PCA", Projection::Pca, ""},
                                   {"Kiln t-SNE", Projection::Tsne, ""}};
    if (peers.tsne) {
        methods.push_back({"scikit-learn TSNE (n_jobs=-1)", Projection::Pca, "tsne"});
    }
    methods.push_back({"Kiln UMAP", Projection::Umap, ""});
    if (peers.umap) {
        methods.push_back({"umap-learn, seeded (1 thread)", Projection::Pca, "umap"});
        methods.push_back({"umap-learn, unseeded (n_jobs=-1)", Projection::Pca, "umap-parallel"});
    }
    return methods;
}

// The peers read the points from <key>.npy in the work folder and write <key>-<method>-<seed>.npy.
Map make_map(const Method& method, const Dataset& set, const Settings& settings, int seed) {
    const auto seed_value = static_cast<std::uint64_t>(seed);
    if (method.peer.empty()) {
        return map_with_kiln(set.points, method.projection, seed_value);
    }
    const std::string stem = set.key + "-" + method.peer + "-" + std::to_string(seed);
    return map_with_peer(method.peer, settings.dir / (set.key + ".npy"),
                         settings.dir / (stem + ".npy"), seed_value, set.points.size(0),
                         settings.dir / "peers.log");
}

void benchmark(const Dataset& set, const Settings& settings, const Peers& peers) {
    const int classes = *std::max_element(set.labels.begin(), set.labels.end()) + 1;
    std::printf("\n%s: %lld points x %lld dimensions, %d classes\n", set.name.c_str(),
                static_cast<long long>(set.points.size(0)),
                static_cast<long long>(set.points.size(1)), classes);
    if (peers.tsne || peers.umap) {
        std::vector<std::string> names;
        for (std::int64_t i = 0; i < set.points.size(0); ++i) {
            names.push_back(std::to_string(i));
        }
        kiln::embed::write_embeddings(settings.dir / (set.key + ".npy"), "npy", names, set.points);
    }
    const References references = reference_graphs(set.points);
    print_table_header();
    for (const Method& method : methods_with(peers)) {
        std::vector<Figures> runs;
        std::string failure;
        for (int seed = 0; seed < settings.seeds && failure.empty(); ++seed) {
            const Map map = make_map(method, set, settings, seed);
            failure = map.failure;
            if (failure.empty()) {
                runs.push_back(score(map, references, set.labels));
            }
        }
        print_row(method.label, runs, failure);
    }
    // The points the peers read take hundreds of MiB for the large sets; their maps stay.
    const fs::path points = settings.dir / (set.key + ".npy");
    fs::remove(points);
    fs::remove(kiln::embed::npy_filenames_path(points));
}

// Fashion-MNIST's test images, or with `all` the training images and then the test images, as
// pixels in [0, 1].
Dataset fashion_mnist(bool all) {
    Dataset set;
    set.name = all ? "Fashion-MNIST, all images" : "Fashion-MNIST, test images";
    set.key = all ? "fashion-mnist-all" : "fashion-mnist-test";
    std::vector<at::Tensor> parts;
    for (const std::string split : {"train", "t10k"}) {
        if (split == "train" && !all) {
            continue;
        }
        const kiln::data::IdxImages images = kiln::data::read_idx_images(
            kiln::bench::kFashionMnist / (split + "-images-idx3-ubyte.gz"),
            kiln::bench::kFashionMnist / (split + "-labels-idx1-ubyte.gz"));
        const at::Tensor pixels = torch::from_blob(
            const_cast<unsigned char*>(images.pixels.data()),
            {images.count, std::int64_t(images.height) * images.width}, torch::kUInt8);
        parts.push_back(pixels.to(torch::kFloat32) / 255.0); // a copy: `images` may go
        set.labels.insert(set.labels.end(), images.labels.begin(), images.labels.end());
    }
    set.points = torch::cat(parts).contiguous();
    return set;
}

// Clusters as embeddings have them, fixed by seed 0: centres N(0, 0.3^2) per dimension, points
// N(centre, 1). At 512 dimensions their margins meet: a point's 10 nearest neighbours are mostly
// but not all of its own cluster (about 84% at 10,000 points), so the 2-D figures mean something.
Dataset synthetic_clusters(std::int64_t points, std::int64_t dimensions, int clusters) {
    torch::manual_seed(0);
    const at::Tensor centres = 0.3 * torch::randn({clusters, dimensions});
    const at::Tensor labels = torch::randint(clusters, {points}, torch::kLong);
    Dataset set;
    set.name = "Synthetic, " + std::to_string(clusters) + " Gaussian clusters";
    set.key = "synthetic";
    set.points =
        (centres.index_select(0, labels) + torch::randn({points, dimensions})).contiguous();
    set.labels.assign(labels.data_ptr<std::int64_t>(), labels.data_ptr<std::int64_t>() + points);
    return set;
}

Peers available_peers(const Settings& settings) {
    const std::string python = KILN_BENCHMARK_PYTHON;
    if (settings.skip_peers || python.empty()) {
        std::printf("peers not run: %s\n",
                    settings.skip_peers ? "--skip-peers" : "no Python environment in this build");
        return {};
    }
    const auto has = [&](const std::string& module) {
        return std::system((quoted(python) + " -c 'import " + module + "' 2>/dev/null").c_str()) ==
               0;
    };
    Peers peers{has("sklearn.manifold"), has("umap")};
    for (const auto& [present, package] :
         {std::pair{peers.tsne, "scikit-learn"}, std::pair{peers.umap, "umap-learn"}}) {
        if (!present) {
            std::printf("%s is not in the build's Python (%s): its rows are skipped; "
                        "packaging/setup-debian.sh installs it\n",
                        package, python.c_str());
        }
    }
    return peers;
}

bool parse(int argc, char** argv, Settings& settings) {
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        const bool has_value = i + 1 < argc;
        if (flag == "--dir" && has_value) {
            settings.dir = argv[++i];
        } else if (flag == "--seeds" && has_value) {
            settings.seeds = std::max(1, std::stoi(argv[++i]));
        } else if (flag == "--large") {
            settings.large = true;
        } else if (flag == "--skip-peers") {
            settings.skip_peers = true;
        } else {
            std::fprintf(stderr, "usage: bench_projection [--dir DIR] [--seeds N] [--large] "
                                 "[--skip-peers]\n");
            return false;
        }
    }
    return true;
}

} // namespace

int main(int argc, char** argv) {
    Settings settings;
    if (!parse(argc, argv, settings)) {
        return 2;
    }
    const kiln::log::ScopedSink quiet([](kiln::log::Level, const std::string&) {});
    fs::create_directories(settings.dir);
    std::printf("2-D maps on the CPU (%u hardware threads), seeds 0 to %d; work folder %s\n",
                std::thread::hardware_concurrency(), settings.seeds - 1,
                settings.dir.string().c_str());
    if (!reset_peak()) {
        std::printf("(/proc/self/clear_refs is not writable: peaks are each process's so far)\n");
    }
    const Peers peers = available_peers(settings);
    const bool have_fashion_mnist =
        fs::exists(kiln::bench::kFashionMnist / "t10k-images-idx3-ubyte.gz");
    if (!have_fashion_mnist) {
        std::printf("Fashion-MNIST is not at %s: its sets are skipped\n",
                    kiln::bench::kFashionMnist.c_str());
    } else {
        benchmark(fashion_mnist(false), settings, peers);
    }
    if (settings.large) {
        if (have_fashion_mnist) {
            benchmark(fashion_mnist(true), settings, peers);
        }
        benchmark(synthetic_clusters(100000, 512, 20), settings, peers);
    }
    return 0;
}
