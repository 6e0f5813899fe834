#include "embed/embedder.h"

#include "core/error.h"
#include "core/input_file.h"
#include "core/json_text.h"
#include "core/log.h"
#include "core/text.h"
#include "data/image_sizes.h"
#include "data/loader.h"
#include "data/view_transform.h"
#include "embed/writers.h"
#include "models/checkpoint_file.h"
#include "runtime/cuda_device.h"
#include "runtime/precision.h"
#include "system/hardware.h"
#include "system/heap_reuse.h"
#include "system/system_sampler.h"
#include "track/run_directory.h"
#include "track/run_store.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>
#include <torch/types.h>
#include <tuple>

namespace kiln::embed {

namespace {

// The rows of every shard, in the dataset's order, each image once.
train::Embeddings merge_shards(std::vector<train::Embeddings> shards) {
    if (shards.size() == 1) {
        return std::move(shards.front());
    }
    std::vector<std::pair<std::int64_t, at::Tensor>> rows;
    train::Embeddings merged;
    for (train::Embeddings& shard : shards) {
        for (std::size_t i = 0; i < shard.indices.size(); ++i) {
            rows.emplace_back(shard.indices[i], shard.values[static_cast<std::int64_t>(i)]);
        }
    }
    std::stable_sort(rows.begin(), rows.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<at::Tensor> values;
    for (auto& [index, row] : rows) {
        if (merged.indices.empty() || merged.indices.back() != index) { // padding repeats
            merged.indices.push_back(index);
            values.push_back(row);
        }
    }
    merged.values = values.empty() ? shards.front().values : torch::stack(values);
    return merged;
}

// The settings the run of `model` recorded and the file they are in: its Kiln checkpoint, or
// the config.json of the run an exported model lies in. No settings (null) when neither is there.
std::pair<nlohmann::json, std::filesystem::path>
recorded_settings(const models::WeightsFile& model) {
    if (nlohmann::json settings = model.settings(); settings.is_object()) {
        return {settings, model.path()};
    }
    if (const std::optional<track::RunDirectory> run =
            track::RunDirectory::of_model(model.path())) {
        refuse_unless_regular_file(run->config(), "run settings");
        std::ifstream file(run->config());
        return {parse_json_or_discarded(std::string(std::istreambuf_iterator<char>(file),
                                                    std::istreambuf_iterator<char>())),
                run->config()};
    }
    return {nullptr, model.path()};
}

// transform_args.image_size as recorded (the methods' and tasks' 224 when not a size).
std::pair<int, int> recorded_size(const nlohmann::json& settings,
                                  const std::filesystem::path& source) {
    const nlohmann::json size = setting_in_group(settings, "transform_args", "image_size");
    std::pair<std::int64_t, std::int64_t> sides{224, 224};
    if (size.is_number_integer()) {
        sides = {size.get<std::int64_t>(), size.get<std::int64_t>()};
    } else if (size.is_array() && size.size() == 2 && size[0].is_number_integer() &&
               size[1].is_number_integer()) {
        sides = {size[0].get<std::int64_t>(), size[1].get<std::int64_t>()};
    }
    for (const std::int64_t side : {sides.first, sides.second}) {
        if (side < 1 || side > data::kMaxImageSide) { // a damaged file, or a hand-made one
            throw Error("\"" + source.string() + "\" records transform_args.image_size " +
                        size.dump() + ", whose sides are not between 1 and " +
                        std::to_string(data::kMaxImageSide) + "; give image_size yourself");
        }
    }
    return {int(sides.first), int(sides.second)};
}

} // namespace

train::EmbedOptions trained_view_options(const models::WeightsFile& model,
                                         models::BackboneImpl& backbone,
                                         std::optional<std::pair<int, int>> size, bool* recorded) {
    train::EmbedOptions options;
    options.num_channels = int(models::input_channels(backbone));
    const auto [settings, source] = recorded_settings(model);
    if (recorded != nullptr) {
        *recorded = settings.is_object();
    }
    if (settings.is_object() && !size) {
        size = recorded_size(settings, source);
    }
    std::tie(options.height, options.width) = size.value_or(std::pair{224, 224});
    if (!settings.is_object()) {
        return options;
    }
    try {
        const data::TransformArgs normalization =
            data::normalization_of(settings.value("transform_args", nlohmann::json()));
        options.mean = normalization.mean;
        options.std = normalization.std;
    } catch (const Error& error) {
        throw Error("\"" + source.string() +
                    "\" records settings Kiln cannot use: " + error.what());
    }
    return options;
}

namespace {

// The shards' progress as one: images add up, the slowest sets the time; their data_wait and
// the CPU's load gathered for the advice.
class ShardProgress {
public:
    ShardProgress(int shards, bool cuda, const train::EmbedProgress& progress)
        : done_(static_cast<std::size_t>(shards)), progress_(progress), shards_(shards) {
        window_.cuda = cuda;
        window_.settings.cpu_bf16 = system::cpu_has_bf16();
    }

    void report(int shard, const train::EmbedProgressInfo& mine) {
        const std::lock_guard<std::mutex> lock(mutex_);
        done_[static_cast<std::size_t>(shard)] = mine;
        train::EmbedProgressInfo all;
        for (const train::EmbedProgressInfo& each : done_) {
            all.done += each.done;
            all.total += each.total;
            all.images += each.images;
            all.seconds = std::max(all.seconds, each.seconds);
            all.wait_seconds = std::max(all.wait_seconds, each.wait_seconds);
        }
        all.total = std::max(all.total, mine.total * shards_);
        window_.data_waits.push_back(mine.last_data_wait);
        if (const system::SystemSample usage = sampler_.latest(); usage.measured) {
            window_.cpu_utils.push_back(usage.system_util);
        }
        if (progress_) {
            progress_(all);
        }
    }

    // Read once the shards have ended.
    const system::AdvisorWindow& window() const { return window_; }

private:
    std::mutex mutex_;
    std::vector<train::EmbedProgressInfo> done_;
    system::AdvisorWindow window_;
    const system::SystemSampler sampler_;
    const train::EmbedProgress& progress_;
    int shards_;
};

// `views`: the size, channels and normalisation to embed at; this shard's share of the rest.
train::EmbedOptions shard_options(const EmbedConfig& config, const train::EmbedOptions& views,
                                  const std::vector<int>& gpus, int shard) {
    train::EmbedOptions options = views;
    options.batch_size = config.batch_size;
    options.num_workers = config.num_workers.value_or(0);
    options.precision = config.precision;
    options.device = config.accelerator == Accelerator::Cuda
                         ? "cuda:" + std::to_string(gpus[static_cast<std::size_t>(shard)])
                         : "cpu";
    options.shard = shard;
    options.shards = static_cast<int>(gpus.size());
    options.patches = config.patches;
    return options;
}

// The checkpoint read once: one copy of its backbone per device, how it saw its images in
// training into `trained`, and its model name and (for image_size auto) trained size into
// `summary`. The file's other contents (the optimizer's state) are freed before the embedding
// starts.
std::vector<models::Backbone> load_backbones(const EmbedConfig& config, EmbedSummary& summary,
                                             train::EmbedOptions& trained) {
    const models::WeightsFile weights = models::WeightsFile::read(config.checkpoint);
    std::vector<models::Backbone> backbones;
    const std::size_t devices = config.gpu_indices().size();
    while (backbones.size() < devices) {
        backbones.push_back(models::load_backbone(weights, &summary.model));
    }
    bool recorded = false;
    const auto given = config.image_height > 0
                           ? std::optional(std::pair{config.image_height, config.image_width})
                           : std::nullopt;
    trained = trained_view_options(weights, *backbones.front(), given, &recorded);
    if (!given) { // auto
        summary.size_from_training = recorded;
        summary.image_height = trained.height;
        summary.image_width = trained.width;
    }
    return backbones;
}

// Embeds a share of the images per GPU (or all on the CPU), each on its own thread with its own
// copy of the model; the first error is rethrown once all have ended.
std::vector<train::Embeddings> embed_shards(const EmbedConfig& config,
                                            std::vector<models::Backbone>& backbones,
                                            const data::DatasetIndex& index,
                                            const train::EmbedOptions& views,
                                            ShardProgress& progress, StopToken stop) {
    const std::vector<int> gpus = config.gpu_indices();
    const std::size_t shards = gpus.size();
    std::vector<train::Embeddings> results(shards);
    std::vector<std::exception_ptr> errors(shards);
    std::vector<std::thread> threads;
    for (std::size_t shard = 0; shard < shards; ++shard) {
        threads.emplace_back(log::for_this_job([&, shard] {
            try {
                if (config.accelerator == Accelerator::Cuda) {
                    runtime::use_cuda_device(gpus[shard]);
                }
                const int number = static_cast<int>(shard);
                results[shard] = train::compute_embeddings(
                    *backbones[shard], index, shard_options(config, views, gpus, number),
                    [&](const train::EmbedProgressInfo& mine) { progress.report(number, mine); },
                    stop);
            } catch (...) {
                errors[shard] = std::current_exception();
            }
        }));
    }
    for (std::thread& thread : threads) {
        thread.join();
    }
    for (const std::exception_ptr& error : errors) {
        if (error) {
            std::rethrow_exception(error);
        }
    }
    return results;
}

// Before any image is embedded: a name the embeddings file could not hold would fail the write.
void refuse_unusable_names(const data::DatasetIndex& index) {
    std::vector<std::string> names;
    for (std::size_t row = 0; row < index.size(); ++row) {
        names.emplace_back(index.filename(row));
    }
    if (const std::optional<std::string> problem = unusable_names(names)) {
        throw Error("an image of data cannot be embedded: " + *problem);
    }
    if (const auto repeat = first_repeat(names)) {
        throw Error("\"" + index.path(repeat->first).string() + "\" and \"" +
                    index.path(repeat->second).string() + "\" would both be named " +
                    quoted_excerpt(names[repeat->second]) +
                    " in the embeddings, which could then not say which is which; embed each "
                    "data folder into its own file, or rename one of them");
    }
}

// npy writes the names beside `out`: a file there is replaced only with overwrite=true, as
// `out` itself is.
void refuse_replacing_the_names_file(const EmbedConfig& config) {
    const std::filesystem::path names = npy_filenames_path(config.out);
    std::error_code error;
    if (config.format == "npy" && !config.overwrite && std::filesystem::exists(names, error)) {
        throw Error("\"" + names.string() +
                    "\" exists, and format=npy writes the images' names there; set "
                    "overwrite=true to replace it or choose another out");
    }
}

} // namespace

EmbedSummary run_embedding(const EmbedConfig& config, const train::EmbedProgress& progress,
                           StopToken stop) {
    refuse_replacing_the_names_file(config);
    const auto started = std::chrono::steady_clock::now();
    const system::HeapReuseScope freed_memory_kept_for_the_next_batch;
    EmbedSummary summary;
    summary.image_height = config.image_height;
    summary.image_width = config.image_width;
    train::EmbedOptions views;
    std::vector<models::Backbone> backbones = load_backbones(config, summary, views);
    views.height = summary.image_height; // auto's, or as given
    views.width = summary.image_width;
    const data::DatasetIndex index = data::DatasetIndex::scan(config.data);
    refuse_unusable_names(index);
    ShardProgress shard_progress(static_cast<int>(config.gpu_indices().size()),
                                 config.accelerator == Accelerator::Cuda, progress);
    std::vector<train::Embeddings> results =
        embed_shards(config, backbones, index, views, shard_progress, stop);
    // The shards ran side by side: the slowest sets the pace, its waits the data_wait.
    double embedding_seconds = 0.0;
    for (const train::Embeddings& shard : results) {
        embedding_seconds = std::max(embedding_seconds, shard.total_seconds);
        if (shard.total_seconds > 0 &&
            shard.wait_seconds / shard.total_seconds > summary.data_wait) {
            summary.data_wait = shard.wait_seconds / shard.total_seconds;
        }
    }
    if (!shard_progress.window().data_waits.empty()) {
        summary.advice = system::advise(shard_progress.window());
    }
    const train::Embeddings embeddings = merge_shards(std::move(results));
    if (stop.stop_requested()) {
        throw Error("embedding stopped before the end; nothing was written");
    }
    if (embeddings.indices.empty()) {
        throw Error("none of the images in the data could be read; nothing was written");
    }
    std::vector<std::string> filenames;
    for (const std::int64_t row : embeddings.indices) {
        filenames.emplace_back(index.filename(static_cast<std::size_t>(row)));
    }
    write_embeddings(config.out, config.format, filenames, embeddings.values);
    track::record_model_artifact(config.checkpoint, "embeddings", config.out);
    summary.images = static_cast<std::int64_t>(filenames.size());
    // Every image not written was unreadable (shares may repeat an entry, so their own counts
    // can count one twice).
    summary.skipped = static_cast<std::int64_t>(index.size()) - summary.images;
    summary.dimension = embeddings.values.size(-1);
    if (config.patches) {
        summary.rows = embeddings.values.size(1);
        summary.columns = embeddings.values.size(2);
    }
    summary.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    // Over the embedding itself, as the progress line and training count it (the run's
    // seconds also hold loading the model and writing the file).
    summary.images_per_second =
        embedding_seconds > 0 ? double(summary.images) / embedding_seconds : 0.0;
    return summary;
}

} // namespace kiln::embed
