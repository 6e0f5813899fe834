#include "predict/predictor.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "data/dataset_index.h"
#include "data/image_decode.h"
#include "data/labelled_samples.h"
#include "data/loader.h"
#include "data/view_transform.h"
#include "train/classification_task.h"
#include "train/cuda_device.h"
#include "train/precision.h"
#include "train/segmentation_task.h"

#include <algorithm>
#include <chrono>
#include <opencv2/imgcodecs.hpp>
#include <sstream>
#include <torch/nn/functional/upsampling.h>
#include <torch/serialize.h>
#include <torch/types.h>
#include <torch/utils.h>

namespace kiln::predict {
namespace {

namespace fs = std::filesystem;

TrainConfig checkpoint_config(const fs::path& checkpoint) {
    torch::serialize::InputArchive archive;
    c10::IValue settings;
    try {
        archive.load_from(checkpoint.string(), torch::Device(torch::kCPU));
        archive.read("kiln/config", settings);
    } catch (const c10::Error&) {
        throw Error("checkpoint \"" + checkpoint.string() +
                    "\" is not a Kiln checkpoint; give a fine-tuning run's checkpoints/best.ckpt "
                    "or last.ckpt");
    }
    const TrainConfig config = parse_train_config(nlohmann::json::parse(settings.toStringRef()));
    if (config.task == TaskKind::Pretraining) {
        throw Error("checkpoint \"" + checkpoint.string() +
                    "\" is a pretraining checkpoint: it has a backbone but no task model; "
                    "`kiln embed` writes its embeddings, or fine-tune it with "
                    "train-image-classification");
    }
    return config;
}

std::unique_ptr<train::FinetuningTask> load_task(const TrainConfig& config,
                                                 const fs::path& checkpoint) {
    train::FinetuningTask::Labels labels = train::FinetuningTask::checkpoint_labels(checkpoint);
    std::unique_ptr<train::FinetuningTask> task;
    if (config.task == TaskKind::ImageClassification) {
        task = std::make_unique<train::ClassificationTask>(config, std::move(labels));
    } else {
        task = std::make_unique<train::SegmentationTask>(config, std::move(labels));
    }
    torch::serialize::InputArchive archive;
    torch::serialize::InputArchive model;
    archive.load_from(checkpoint.string(), torch::Device(torch::kCPU));
    archive.read("model", model);
    task->load(model);
    return task;
}

// One class-id mask at the image's own size, as a PNG (16-bit when the ids need it).
void write_mask(const at::Tensor& logits, const fs::path& image, const fs::path& file,
                std::size_t classes) {
    const cv::Size size = data::stored_image_size(data::read_file(image), image.string());
    torch::nn::functional::InterpolateFuncOptions bilinear;
    bilinear.size(std::vector<std::int64_t>{size.height, size.width})
        .mode(torch::kBilinear)
        .align_corners(false);
    const at::Tensor ids =
        torch::nn::functional::interpolate(logits.unsqueeze(0).to(torch::kFloat32), bilinear)
            .argmax(1)
            .squeeze(0)
            .to(torch::kInt32)
            .cpu()
            .contiguous();
    cv::Mat mask(size.height, size.width, CV_32S, ids.data_ptr<int>());
    cv::Mat stored;
    mask.convertTo(stored, classes <= 256 ? CV_8U : CV_16U);
    std::vector<unsigned char> png;
    cv::imencode(".png", stored, png);
    fs::create_directories(file.parent_path());
    write_file_atomically(file,
                          std::string_view(reinterpret_cast<const char*>(png.data()), png.size()));
}

std::string csv_field(const std::string& text);

// The CSV lines of one batch: the most likely class and its softmax score, or for a multilabel
// model one line per class whose sigmoid score is 0.5 or more (an empty class when none is).
void write_classes(std::ostream& csv, const at::Tensor& logits,
                   const std::vector<std::string>& filenames, const data::ClassNames& classes,
                   bool multilabel) {
    const at::Tensor probabilities = (multilabel ? torch::sigmoid(logits.to(torch::kFloat32))
                                                 : torch::softmax(logits.to(torch::kFloat32), 1))
                                         .cpu()
                                         .contiguous();
    const auto count = static_cast<std::int64_t>(classes.size());
    for (std::size_t i = 0; i < filenames.size(); ++i) {
        const float* scores = probabilities.data_ptr<float>() + std::int64_t(i) * count;
        const std::string filename = csv_field(filenames[i]);
        if (!multilabel) {
            const auto best = std::max_element(scores, scores + count) - scores;
            csv << filename << "," << csv_field(classes[std::size_t(best)]) << "," << scores[best]
                << "\n";
            continue;
        }
        bool any = false;
        for (std::int64_t c = 0; c < count; ++c) {
            if (scores[c] >= 0.5f) {
                csv << filename << "," << csv_field(classes[std::size_t(c)]) << "," << scores[c]
                    << "\n";
                any = true;
            }
        }
        if (!any) {
            csv << filename << ",,\n";
        }
    }
}

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos) {
        return text;
    }
    std::string quoted = "\"";
    for (const char c : text) {
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    }
    return quoted + "\"";
}

} // namespace

PredictSummary run_prediction(const PredictConfig& config, const PredictProgress& progress,
                              StopToken stop) {
    const auto started = std::chrono::steady_clock::now();
    const TrainConfig trained = checkpoint_config(config.checkpoint);
    const std::unique_ptr<train::FinetuningTask> task = load_task(trained, config.checkpoint);
    const data::DatasetIndex index = data::DatasetIndex::scan(config.data);
    std::vector<fs::path> paths;
    for (std::size_t i = 0; i < index.size(); ++i) {
        paths.push_back(index.path(i));
    }

    c10::Device device(c10::kCPU);
    if (config.accelerator == Accelerator::Cuda) {
        const int gpu = config.gpu_indices().front();
        train::use_cuda_device(gpu);
        device = c10::Device(c10::kCUDA, static_cast<c10::DeviceIndex>(gpu));
    }
    train::PrecisionPolicy precision(config.precision, device.type());
    torch::nn::Module& module = task->module();
    train::move_module(module, device, precision.storage_dtype(),
                       train::memory_format_for(config.precision));
    module.eval();

    data::LoaderOptions options;
    options.batch_size = config.batch_size;
    options.num_workers = config.num_workers.value_or(0);
    options.shuffle = false;
    options.drop_last = false;
    options.pin_memory = device.is_cuda();
    data::Loader loader(
        std::make_shared<data::ImageSamples>(
            std::move(paths), data::finetune_transform(trained.transform_args, false, 0.08)),
        options, stop);
    loader.start_epoch(0);

    const bool classification = trained.task == TaskKind::ImageClassification;
    const data::ClassNames& classes = task->classes();
    if (!classification) {
        fs::create_directories(config.out);
    }
    std::ostringstream csv;
    csv << "filename,class,score\n";
    PredictSummary summary;
    summary.task = task_name(trained.task).name;
    const torch::NoGradGuard no_grad;
    while (std::optional<data::Batch> batch = loader.next()) {
        at::Tensor logits;
        {
            const train::AutocastScope autocast = precision.autocast();
            logits = task->forward(batch->views.front()
                                       .to(device, precision.storage_dtype(), true)
                                       .contiguous(train::memory_format_for(config.precision)));
        }
        if (classification) {
            std::vector<std::string> filenames;
            for (const std::int64_t sample : batch->indices) {
                filenames.emplace_back(index.filename(static_cast<std::size_t>(sample)));
            }
            write_classes(csv, logits, filenames, classes, task->multilabel());
        } else {
            for (std::size_t i = 0; i < batch->indices.size(); ++i) {
                const auto sample = static_cast<std::size_t>(batch->indices[i]);
                write_mask(logits[static_cast<std::int64_t>(i)], index.path(sample),
                           config.out / fs::path(index.filename(sample)).replace_extension(".png"),
                           classes.size());
            }
        }
        summary.images += static_cast<std::int64_t>(batch->indices.size());
        if (progress) {
            progress(summary.images, static_cast<std::int64_t>(index.size()));
        }
    }
    if (stop.stop_requested()) {
        throw Error("prediction stopped; nothing was written to \"" + config.out.string() + "\"" +
                    (classification ? "" : " beyond the masks already finished"));
    }
    if (classification) {
        write_file_atomically(config.out, csv.str());
    }
    summary.skipped = loader.skipped_files();
    summary.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return summary;
}

} // namespace kiln::predict
