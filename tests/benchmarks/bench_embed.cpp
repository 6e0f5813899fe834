// Embedding throughput by batch size (1..256) for two backbones, and the explorer's operations
// on 100,000 embeddings (the embeddings view must stay interactive at that size). Batch 1 is
// the baseline the other batch sizes are compared with.
//
//   bench_embed [--rows N]

#include "embed/explorer.h"
#include "models/backbone.h"

#include <chrono>
#include <cstdio>
#include <functional>
#include <set>
#include <string>
#include <torch/types.h>
#include <torch/utils.h>

namespace {

double seconds_of(const std::function<void()>& work) {
    const auto start = std::chrono::steady_clock::now();
    work();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

int main(int argc, char** argv) {
    std::int64_t rows = 100000;
    if (argc == 3 && std::string(argv[1]) == "--rows") {
        rows = std::stoll(argv[2]);
    } else if (argc != 1) {
        std::fprintf(stderr, "usage: bench_embed [--rows N]\n");
        return 2;
    }
    torch::NoGradGuard no_grad;
    for (const auto& [model, side] : {std::pair{"smallcnn", 64}, std::pair{"resnet18", 64}}) {
        const kiln::models::Backbone backbone = kiln::models::make_backbone(model);
        backbone->eval();
        std::printf("%s forward at %dx%d, %d intra-op threads\n", model, side, side,
                    torch::get_num_threads());
        double baseline = 0.0;
        for (const int batch : {1, 4, 16, 64, 256}) {
            const torch::Tensor images = torch::randn({batch, 3, side, side});
            backbone->forward(images); // warm-up
            const int repeats = std::max(1, 512 / batch);
            const double rate = batch * repeats / seconds_of([&] {
                                    for (int r = 0; r < repeats; ++r) {
                                        backbone->forward(images);
                                    }
                                });
            if (batch == 1) {
                baseline = rate;
            }
            std::printf("  batch %4d: %8.1f img/s (%.1fx batch 1)\n", batch, rate, rate / baseline);
        }
    }
    // Clustered like real embeddings: 500 centres, rows at cosine ~0.75 to theirs, and 1,000
    // planted near-duplicates at cosine 0.95 to 1.
    torch::manual_seed(0);
    const torch::Tensor centres = torch::randn({500, 256});
    torch::Tensor embeddings =
        centres.index_select(0, torch::randint(500, {rows})) + 0.85 * torch::randn({rows, 256});
    const torch::Tensor originals = embeddings.narrow(0, 0, 1000);
    embeddings.narrow(0, rows - 1000, 1000)
        .copy_(originals + 0.3 * torch::rand({1000, 1}) * torch::randn({1000, 256}) *
                               originals.norm(2, 1, true) / 16.0);
    std::printf("explorer on %lld embeddings of 256 dimensions\n", static_cast<long long>(rows));
    std::printf("  2-D projection (PCA):     %.2f s\n",
                seconds_of([&] { kiln::embed::pca_2d(embeddings); }));
    const at::Tensor unit = kiln::embed::unit_rows(embeddings); // once, when a file is shown
    std::printf("  20 nearest neighbours:    %.3f s (a click)\n",
                seconds_of([&] { kiln::embed::nearest_neighbours(unit, 12345, 20); }));
    std::vector<kiln::embed::Duplicate> exact, indexed;
    const double exact_seconds =
        seconds_of([&] { exact = kiln::embed::near_duplicates_exact(embeddings, 0.95); });
    const double indexed_seconds =
        seconds_of([&] { indexed = kiln::embed::near_duplicates_approximate(embeddings, 0.95); });
    std::set<std::int64_t> truth;
    for (const auto& duplicate : exact) {
        truth.insert(duplicate.row);
    }
    std::size_t found = 0;
    for (const auto& duplicate : indexed) {
        found += truth.count(duplicate.row);
    }
    std::printf("  near-duplicates >= 0.95, exact (baseline): %.1f s, %zu duplicates\n",
                exact_seconds, exact.size());
    std::printf("  near-duplicates >= 0.95, LSH index:        %.2f s, %zu duplicates, recall "
                "%.2f%%, %zu not found exactly (%.0fx faster)\n",
                indexed_seconds, indexed.size(),
                100.0 * found / std::max<std::size_t>(1, truth.size()), indexed.size() - found,
                exact_seconds / indexed_seconds);
    return 0;
}
