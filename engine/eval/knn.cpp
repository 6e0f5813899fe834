#include "eval/knn.h"

#include "core/error.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <torch/nn/functional/normalization.h>
#include <torch/types.h>

namespace kiln::eval {

void check_whitening_size(std::int64_t rows, std::int64_t width) {
    constexpr std::int64_t kMostAxes = 4096;
    if (std::min(rows, width) > kMostAxes) {
        throw Error(
            "whitening " + std::to_string(rows) + " embeddings of " + std::to_string(width) +
            " dimensions would decompose a " + std::to_string(std::min(rows, width)) +
            "-square matrix; it is offered for at most " + std::to_string(kMostAxes) +
            " dimensions or " + std::to_string(kMostAxes) + " embeddings: leave whitening off");
    }
}

Whitening fit_whitening(const at::Tensor& features) {
    if (features.dim() != 2 || features.size(0) < 2) {
        throw Error("whitening needs at least 2 embeddings to fit");
    }
    const std::int64_t rows = features.size(0), width = features.size(1);
    check_whitening_size(rows, width);
    torch::NoGradGuard no_grad;
    const at::Tensor values = features.to(torch::kFloat64);
    const at::Tensor mean = values.mean(0);
    const at::Tensor centred = values - mean;
    // Float rounding is not variation: an axis must vary by more than 1e-10 of the embeddings'
    // squared length, and by 1e-6 of the largest variance.
    const double floor = 1e-10 * values.pow(2).sum(1).mean().item<double>();
    at::Tensor projection;
    if (rows > width) { // the covariance's axes
        const at::Tensor covariance = centred.t().mm(centred) / double(rows - 1);
        const auto [variances, axes] = torch::linalg_eigh(covariance); // ascending
        const at::Tensor kept = variances > at::clamp_min(variances.max() * 1e-6, floor);
        projection = axes.index({torch::indexing::Slice(), kept}) / variances.index({kept}).sqrt();
    } else { // the same axes from the rows' Gram matrix: X'u / sqrt(l), of variance l / (N - 1)
        const auto [eigenvalues, vectors] = torch::linalg_eigh(centred.mm(centred.t()));
        const at::Tensor variances = eigenvalues / double(rows - 1);
        const at::Tensor kept = variances > at::clamp_min(variances.max() * 1e-6, floor);
        projection = centred.t().mm(vectors.index({torch::indexing::Slice(), kept})) *
                     std::sqrt(double(rows - 1)) / eigenvalues.index({kept});
    }
    if (projection.size(1) == 0) {
        throw NothingToWhiten(
            "the " + std::to_string(rows) +
            " embeddings do not vary (they are one embedding, up to rounding), so there "
            "is nothing to whiten: leave whitening off");
    }
    return {mean.to(features.dtype()), projection.to(features.dtype())};
}

at::Tensor Whitening::apply(const at::Tensor& features) const {
    return (features - mean.to(features.device())).mm(projection.to(features.device()));
}

KnnAccuracy knn_accuracy_whitened_if(const at::Tensor& train_features,
                                     const std::vector<std::int64_t>& train_labels,
                                     const at::Tensor& test_features,
                                     const std::vector<std::int64_t>& test_labels, int k,
                                     double temperature, bool whiten) {
    if (!whiten) {
        return knn_accuracy(train_features, train_labels, test_features, test_labels, k,
                            temperature);
    }
    const Whitening whitening = fit_whitening(train_features); // the labels stay unused
    return knn_accuracy(whitening.apply(train_features), train_labels,
                        whitening.apply(test_features), test_labels, k, temperature);
}

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
    const auto on_device = torch::TensorOptions().dtype(torch::kInt64).device(bank.device());
    const at::Tensor bank_labels = torch::tensor(train_labels, torch::kInt64).to(bank.device());
    const std::int64_t classes =
        1 + std::max(*std::max_element(train_labels.begin(), train_labels.end()),
                     *std::max_element(test_labels.begin(), test_labels.end()));
    const std::int64_t neighbours = std::min<std::int64_t>(k, train_features.size(0));
    const at::Tensor truth = torch::tensor(test_labels, torch::kInt64).to(bank.device());
    double top1 = 0;
    double top5 = 0;
    for (std::int64_t start = 0; start < test_features.size(0); start += chunk) {
        const std::int64_t rows = std::min(chunk, test_features.size(0) - start);
        const at::Tensor queries = F::normalize(
            test_features.narrow(0, start, rows).to(bank.device(), torch::kFloat32), options);
        const auto [similarity, nearest] = torch::mm(queries, bank).topk(neighbours, 1);
        // Relative to each query's nearest, in double: the same votes, without exp overflowing
        // at small T (nor underflowing before T ~ 0.003).
        const at::Tensor weights =
            ((similarity - similarity.narrow(1, 0, 1)).to(torch::kFloat64) / temperature).exp();
        const at::Tensor neighbour_classes =
            bank_labels.index_select(0, nearest.flatten()).view({rows, neighbours});
        const at::Tensor votes = torch::zeros({rows, classes}, on_device.dtype(torch::kFloat64))
                                     .scatter_add_(1, neighbour_classes, weights);
        const at::Tensor counts =
            torch::zeros({rows, classes}, on_device.dtype(torch::kFloat64))
                .scatter_add_(1, neighbour_classes, torch::ones_like(weights));
        const at::Tensor ranked = std::get<1>(votes.topk(std::min<std::int64_t>(5, classes), 1));
        const at::Tensor expected = truth.narrow(0, start, rows).unsqueeze(1);
        top1 += ranked.narrow(1, 0, 1).eq(expected).sum().item<double>();
        // A class no neighbour voted for is no prediction, though topk ranks it among the five
        // when fewer classes were voted for (a test class missing from training read as a hit).
        const at::Tensor voted = counts.gather(1, expected).squeeze(1) > 0;
        top5 += ranked.eq(expected).any(1).logical_and(voted).sum().item<double>();
    }
    const double count = static_cast<double>(test_features.size(0));
    return {top1 / count, top5 / count};
}

std::vector<std::int64_t> class_folder_labels(const std::vector<std::string>& names,
                                              std::map<std::string, std::int64_t>& classes) {
    std::vector<std::int64_t> labels;
    labels.reserve(names.size());
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

} // namespace kiln::eval
