#include "train/knn_monitor.h"

#include "core/error.h"
#include "core/log.h"
#include "eval/knn.h"
#include "train/embedding_pass.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>

namespace kiln::train {
namespace {

// Classes shared across both folders by name, so "coat" is one class in each.
std::vector<std::int64_t> folder_classes(const data::DatasetIndex& index,
                                         std::map<std::string, std::int64_t>& classes) {
    std::vector<std::string> names;
    names.reserve(index.size());
    for (std::size_t i = 0; i < index.size(); ++i) {
        names.emplace_back(index.filename(i));
    }
    return eval::class_folder_labels(names, classes);
}

} // namespace

KnnMonitor::KnnMonitor(const KnnMonitorSettings& settings,
                       const data::TransformArgs& training_views, Precision precision,
                       std::int64_t feature_dim)
    : settings_(settings), views_(training_views), precision_(precision),
      train_{data::DatasetIndex::scan({settings.train}), {}},
      val_{data::DatasetIndex::scan({settings.val}), {}} {
    std::map<std::string, std::int64_t> classes;
    try {
        train_.labels = folder_classes(train_.index, classes);
        val_.labels = folder_classes(val_.index, classes);
        if (settings.whiten) {
            eval::check_whitening_size(std::int64_t(train_.index.size()), feature_dim);
        }
    } catch (const Error& error) {
        throw Error(std::string("knn_monitor: ") + error.what());
    }
}

at::Tensor KnnMonitor::embed(models::BackboneImpl& backbone, const LabelledFolder& folder,
                             const ValidationContext& context,
                             std::vector<std::int64_t>& labels) const {
    EmbedOptions options;
    const data::ViewArgs& view = views_.views.front();
    options.height = view.height;
    options.width = view.width;
    options.num_channels = views_.num_channels;
    options.mean = views_.mean;
    options.std = views_.std;
    options.batch_size = std::max(1, context.loader.batch_size);
    if (const int fitting = fitting_batch_.load(); fitting > 0) {
        options.batch_size = fitting;
        options.batch_fits = true;
    }
    options.num_workers = context.loader.num_workers;
    options.precision = precision_;
    options.device = context.placement.device.str();
    const Embeddings embeddings =
        compute_embeddings(backbone, folder.index, options, {}, context.stop);
    fitting_batch_.store(embeddings.batch_size);
    labels.clear();
    for (const std::int64_t row : embeddings.indices) {
        labels.push_back(folder.labels[static_cast<std::size_t>(row)]);
    }
    return embeddings.values;
}

MetricValues KnnMonitor::evaluate(models::BackboneImpl& backbone,
                                  const ValidationContext& context) const {
    std::vector<std::int64_t> train_labels;
    std::vector<std::int64_t> val_labels;
    const at::Tensor bank = embed(backbone, train_, context, train_labels);
    const at::Tensor queries = embed(backbone, val_, context, val_labels);
    if (context.stop.stop_requested()) {
        return {}; // a partial pass, which the loop drops
    }
    for (const auto& [rows, folder] :
         {std::pair{bank.size(0), &settings_.train}, std::pair{queries.size(0), &settings_.val}}) {
        if (rows == 0) {
            throw Error("knn_monitor: none of the images in \"" + folder->string() +
                        "\" could be read; give a folder of readable labelled images");
        }
    }
    const at::Tensor train = bank.to(context.placement.device);
    const at::Tensor val = queries.to(context.placement.device);
    eval::KnnAccuracy accuracy;
    try {
        accuracy = eval::knn_accuracy_whitened_if(train, train_labels, val, val_labels, settings_.k,
                                                  settings_.temperature, settings_.whiten);
    } catch (const eval::NothingToWhiten& error) { // a collapsed model: its kNN says so
        log::warning(std::string("knn_monitor: ") + error.what() +
                     "; this validation's kNN is of the embeddings as they are");
        accuracy = eval::knn_accuracy(train, train_labels, val, val_labels, settings_.k,
                                      settings_.temperature);
    }
    return {{"val_metric/knn_top1", accuracy.top1}, {"val_metric/knn_top5", accuracy.top5}};
}

} // namespace kiln::train
