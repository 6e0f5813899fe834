#include "embed/knn.h"

#include "core/error.h"
#include "data/dataset_index.h"
#include "embed/embedder.h"
#include "embed/writers.h"

#include <algorithm>
#include <map>
#include <torch/nn/functional/normalization.h>
#include <torch/types.h>

namespace kiln::embed {

KnnAccuracy knn_accuracy(const at::Tensor& train_features,
                         const std::vector<std::int64_t>& train_labels,
                         const at::Tensor& test_features,
                         const std::vector<std::int64_t>& test_labels, int k, double temperature,
                         std::int64_t chunk) {
    if (train_features.size(0) != static_cast<std::int64_t>(train_labels.size()) ||
        test_features.size(0) != static_cast<std::int64_t>(test_labels.size())) {
        throw Error("kNN: each embedding needs exactly one label");
    }
    if (train_features.size(0) == 0 || test_features.size(0) == 0) {
        throw Error("kNN: the training and the test set both need at least one image");
    }
    namespace F = torch::nn::functional;
    torch::NoGradGuard no_grad;
    const auto options = F::NormalizeFuncOptions().dim(1);
    const at::Tensor bank = F::normalize(train_features.to(torch::kFloat32), options).t();
    const at::Tensor bank_labels = torch::tensor(train_labels, torch::kInt64);
    const std::int64_t classes =
        1 + std::max(*std::max_element(train_labels.begin(), train_labels.end()),
                     *std::max_element(test_labels.begin(), test_labels.end()));
    const std::int64_t neighbours = std::min<std::int64_t>(k, train_features.size(0));
    const at::Tensor truth = torch::tensor(test_labels, torch::kInt64);
    double top1 = 0;
    double top5 = 0;
    for (std::int64_t start = 0; start < test_features.size(0); start += chunk) {
        const std::int64_t rows = std::min(chunk, test_features.size(0) - start);
        const at::Tensor queries =
            F::normalize(test_features.narrow(0, start, rows).to(torch::kFloat32), options);
        const auto [similarity, nearest] = torch::mm(queries, bank).topk(neighbours, 1);
        const at::Tensor weights = (similarity / temperature).exp();
        const at::Tensor votes =
            torch::zeros({rows, classes})
                .scatter_add_(
                    1, bank_labels.index_select(0, nearest.flatten()).view({rows, neighbours}),
                    weights);
        const at::Tensor ranked = std::get<1>(votes.topk(std::min<std::int64_t>(5, classes), 1));
        const at::Tensor expected = truth.narrow(0, start, rows).unsqueeze(1);
        top1 += ranked.narrow(1, 0, 1).eq(expected).sum().item<double>();
        top5 += ranked.eq(expected).any(1).sum().item<double>();
    }
    const double count = static_cast<double>(test_features.size(0));
    return {top1 / count, top5 / count};
}

namespace {

// Class ids from the top-level folder of each name ("cats/001.jpg" is a cat), shared across
// the sets classified together through `classes`.
std::vector<std::int64_t> folder_labels(const std::vector<std::string>& names,
                                        std::map<std::string, std::int64_t>& classes) {
    std::vector<std::int64_t> labels;
    for (const std::string& name : names) {
        const std::size_t slash = name.find('/');
        if (slash == std::string::npos || slash == 0) {
            throw Error("\"" + name +
                        "\" is not in a class folder; kNN needs "
                        "<folder>/<class>/<image>");
        }
        labels.push_back(
            classes.emplace(name.substr(0, slash), static_cast<std::int64_t>(classes.size()))
                .first->second);
    }
    return labels;
}

} // namespace

KnnAccuracy knn_accuracy_on_folders(models::BackboneImpl& backbone,
                                    const std::filesystem::path& train_folder,
                                    const std::filesystem::path& test_folder,
                                    const FolderKnnOptions& options) {
    embed::EmbedOptions embed_options;
    embed_options.height = embed_options.width = options.image_size;
    embed_options.batch_size = options.batch_size;
    embed_options.num_workers = options.num_workers;
    std::map<std::string, std::int64_t> classes;
    const auto embed_folder = [&](const std::filesystem::path& folder,
                                  std::vector<std::int64_t>& labels) {
        const data::DatasetIndex index = data::DatasetIndex::scan({folder});
        const embed::Embeddings embeddings =
            embed::compute_embeddings(backbone, index, embed_options);
        std::vector<std::string> names;
        for (const std::int64_t row : embeddings.indices) {
            names.emplace_back(index.filename(static_cast<std::size_t>(row)));
        }
        labels = folder_labels(names, classes);
        return embeddings.values;
    };
    std::vector<std::int64_t> train_labels;
    std::vector<std::int64_t> test_labels;
    const at::Tensor train = embed_folder(train_folder, train_labels);
    const at::Tensor test = embed_folder(test_folder, test_labels);
    return knn_accuracy(train, train_labels, test, test_labels, options.k, options.temperature);
}

KnnAccuracy knn_accuracy_on_files(const std::filesystem::path& train_file,
                                  const std::filesystem::path& test_file, int k,
                                  double temperature) {
    const embed::EmbeddingFile train = embed::read_embeddings(train_file);
    const embed::EmbeddingFile test = embed::read_embeddings(test_file);
    std::map<std::string, std::int64_t> classes;
    const std::vector<std::int64_t> train_labels = folder_labels(train.filenames, classes);
    const std::vector<std::int64_t> test_labels = folder_labels(test.filenames, classes);
    return knn_accuracy(train.embeddings, train_labels, test.embeddings, test_labels, k,
                        temperature);
}

} // namespace kiln::embed
