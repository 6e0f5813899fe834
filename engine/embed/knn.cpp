#include "embed/knn.h"

#include "core/error.h"
#include "core/log.h"
#include "core/paths.h"
#include "data/dataset_index.h"
#include "embed/embedder.h"
#include "embed/writers.h"
#include "system/heap_reuse.h"

#include <map>

namespace kiln::embed {
namespace {

// Test classes without a training image are never predicted: said, as each of their images
// counts as a miss. `trained` is the number of classes the training images named.
void warn_about_unseen_classes(const std::map<std::string, std::int64_t>& classes,
                               std::size_t trained) {
    std::string unseen;
    std::size_t count = 0;
    for (const auto& [name, id] : classes) {
        if (id >= std::int64_t(trained)) {
            unseen += (count++ > 0 ? ", " : "") + name;
        }
    }
    if (count > 0) {
        log::warning(std::to_string(count) + " test class(es) have no training images (" + unseen +
                     "); each of their images counts as a miss");
    }
}

// Each test image would find itself as its nearest neighbour: 100% whatever the model.
void refuse_testing_on_the_training_images(const std::filesystem::path& train,
                                           const std::filesystem::path& test,
                                           const std::string& train_option,
                                           const std::string& test_option) {
    if (resolved_place(train) == resolved_place(test)) {
        throw Error(train_option + " and " + test_option + " are both \"" + test.string() +
                    "\": each test image would find itself as its nearest neighbour, and top-1 "
                    "would be 100% whatever the model; give held-out images as " +
                    test_option);
    }
}

} // namespace

eval::KnnAccuracy knn_accuracy_on_folders(models::BackboneImpl& backbone,
                                          const std::filesystem::path& train_folder,
                                          const std::filesystem::path& test_folder,
                                          const FolderKnnOptions& options) {
    refuse_testing_on_the_training_images(train_folder, test_folder, "--train", "--test");
    const system::HeapReuseScope freed_memory_kept_for_the_next_batch;
    std::map<std::string, std::int64_t> classes;
    const auto embed_folder = [&](const std::filesystem::path& folder,
                                  std::vector<std::int64_t>& labels) {
        const data::DatasetIndex index = data::DatasetIndex::scan({folder});
        const train::Embeddings embeddings =
            train::compute_embeddings(backbone, index, options.views);
        std::vector<std::string> names;
        for (const std::int64_t row : embeddings.indices) {
            names.emplace_back(index.filename(static_cast<std::size_t>(row)));
        }
        labels = eval::class_folder_labels(names, classes);
        return embeddings.values;
    };
    std::vector<std::int64_t> train_labels;
    std::vector<std::int64_t> test_labels;
    const at::Tensor train = embed_folder(train_folder, train_labels);
    const std::size_t trained = classes.size();
    const at::Tensor test = embed_folder(test_folder, test_labels);
    warn_about_unseen_classes(classes, trained);
    return eval::knn_accuracy_whitened_if(train, train_labels, test, test_labels, options.k,
                                          options.temperature, options.whiten);
}

eval::KnnAccuracy knn_accuracy_on_files(const std::filesystem::path& train_file,
                                        const std::filesystem::path& test_file, int k,
                                        double temperature, bool whiten) {
    refuse_testing_on_the_training_images(train_file, test_file, "--train-embeddings",
                                          "--test-embeddings");
    const embed::EmbeddingFile train = embed::read_embeddings(train_file);
    const embed::EmbeddingFile test = embed::read_embeddings(test_file);
    if (train.embeddings.size(1) != test.embeddings.size(1)) {
        throw Error("--train-embeddings \"" + train_file.string() + "\" has " +
                    std::to_string(train.embeddings.size(1)) +
                    " dimensions and --test-embeddings \"" + test_file.string() + "\" " +
                    std::to_string(test.embeddings.size(1)) + "; embed both with the same model");
    }
    std::map<std::string, std::int64_t> classes;
    const std::vector<std::int64_t> train_labels =
        eval::class_folder_labels(train.filenames, classes);
    const std::size_t trained = classes.size();
    const std::vector<std::int64_t> test_labels =
        eval::class_folder_labels(test.filenames, classes);
    warn_about_unseen_classes(classes, trained);
    return eval::knn_accuracy_whitened_if(train.embeddings, train_labels, test.embeddings,
                                          test_labels, k, temperature, whiten);
}

} // namespace kiln::embed
