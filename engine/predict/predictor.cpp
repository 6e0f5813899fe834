#include "predict/predictor.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/text.h"
#include "data/dataset_index.h"
#include "data/detection_data.h"
#include "data/image_decode.h"
#include "data/labelled_samples.h"
#include "data/loader.h"
#include "data/view_transform.h"
#include "eval/coco/coco_data.h"
#include "runtime/cuda_device.h"
#include "runtime/precision.h"
#include "system/heap_reuse.h"
#include "train/classification_task.h"
#include "train/detection_task.h"
#include "train/segmentation_task.h"
#include "train/step_memory.h"

#include <algorithm>
#include <chrono>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <sstream>
#include <torch/nn/functional/upsampling.h>
#include <torch/types.h>
#include <torch/utils.h>

namespace kiln::predict {
namespace {

namespace fs = std::filesystem;

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

// The images to detect objects in: those of `annotations` (their ids and file_names, relative
// to the first data folder) when given, else every image under data, numbered from 1.
struct DetectionInputs {
    std::vector<fs::path> paths;
    std::vector<std::string> names; // relative to the data folder
    std::vector<train::ImageRef> images;
};

// Classes and detections are written with each image's name: one that is not UTF-8 cannot be
// JSON, nor read by Python's csv. Found at the end, it lost every prediction.
void refuse_names_outputs_cannot_hold(const data::DatasetIndex& index) {
    for (std::size_t i = 0; i < index.size(); ++i) {
        if (!is_utf8(index.filename(i))) {
            throw Error("image " + quoted_excerpt(index.filename(i)) + " has a name that" +
                        kNotUtf8 + "; the predictions file holds each image's name as text");
        }
    }
}

// Two images written under one name: the second's mask or drawing (a PNG named after the
// image, when `files`) would replace the first's, or the predictions could not say which is
// which.
void refuse_names_written_twice(const DetectionInputs& inputs, bool files) {
    std::vector<std::string> written;
    for (const std::string& name : inputs.names) {
        written.push_back(files ? fs::path(name).replace_extension(".png").string() : name);
    }
    if (const auto repeat = first_repeat(written)) {
        throw Error("\"" + inputs.paths[repeat->first].string() + "\" and \"" +
                    inputs.paths[repeat->second].string() + "\" would both be written as " +
                    quoted_excerpt(written[repeat->second]) +
                    "; predict each data folder into its own out, or rename one of them");
    }
}

DetectionInputs detection_inputs(const PredictConfig& config, const data::DatasetIndex& index) {
    DetectionInputs inputs;
    if (!config.annotations) {
        for (std::size_t i = 0; i < index.size(); ++i) {
            inputs.paths.push_back(index.path(i));
            inputs.names.emplace_back(index.filename(i));
            inputs.images.push_back({std::int64_t(i) + 1, 0, 0});
        }
        return inputs;
    }
    const coco::GroundTruth truth = coco::GroundTruth::load(*config.annotations);
    for (const coco::Image& image : truth.images()) {
        const fs::path path = data::image_in_folder(config.data.front(), image.file_name,
                                                    config.annotations->string() + ": image id " +
                                                        std::to_string(image.id));
        std::error_code error;
        if (!fs::is_regular_file(path, error)) {
            throw Error(config.annotations->string() + ": image id " + std::to_string(image.id) +
                        " is not at \"" + path.string() +
                        "\"; give the folder its file_names are relative to as data");
        }
        inputs.paths.push_back(path);
        inputs.names.push_back(image.file_name);
        inputs.images.push_back({image.id, int(image.width), int(image.height)});
    }
    return inputs;
}

// Detections below this score are left out of drawings: they would hide the image.
constexpr double kDrawScore = 0.3;

// The image with its confident detections: masks tinted, boxes outlined, class and score
// above each box, in a colour per class.
void draw_detections(const fs::path& image_file, const std::vector<coco::Annotation>& found,
                     const std::vector<std::int64_t>& category_ids, const data::ClassNames& classes,
                     const fs::path& file) {
    // Decoded as for the prediction: cv::imread would turn it as its EXIF says, away from the
    // boxes, and read it unchecked.
    cv::Mat image = data::decode_image(image_file);
    const auto colour_of = [](std::size_t index) {
        static const std::array<cv::Scalar, 6> palette = {
            cv::Scalar(60, 76, 231),  cv::Scalar(113, 204, 46), cv::Scalar(219, 152, 52),
            cv::Scalar(15, 196, 241), cv::Scalar(182, 89, 155), cv::Scalar(34, 126, 230)};
        return palette[index % palette.size()];
    };
    for (const coco::Annotation& detection : found) {
        if (detection.score < kDrawScore) {
            continue;
        }
        const auto category =
            std::find(category_ids.begin(), category_ids.end(), detection.category_id);
        const auto index = static_cast<std::size_t>(category - category_ids.begin());
        const cv::Scalar colour = colour_of(index);
        if (detection.segmentation.kind == coco::Segmentation::Kind::Mask) {
            std::vector<std::uint8_t> pixels = coco::decode_to_pixels(detection.segmentation.mask);
            const cv::Mat mask(image.rows, image.cols, CV_8U, pixels.data());
            cv::Mat tinted = image.clone();
            tinted.setTo(colour, mask);
            cv::addWeighted(image, 0.5, tinted, 0.5, 0.0, image);
        }
        const cv::Rect box(cv::Point(int(detection.box[0]), int(detection.box[1])),
                           cv::Point(int(detection.box[0] + detection.box[2]),
                                     int(detection.box[1] + detection.box[3])));
        cv::rectangle(image, box, colour, 1);
        char score[16];
        std::snprintf(score, sizeof score, " %.2f", detection.score);
        cv::putText(image, classes[index] + score, {box.x, std::max(8, box.y - 2)},
                    cv::FONT_HERSHEY_PLAIN, 0.7, colour, 1);
    }
    std::vector<unsigned char> png;
    cv::imencode(".png", image, png);
    fs::create_directories(file.parent_path());
    write_file_atomically(file,
                          std::string_view(reinterpret_cast<const char*>(png.data()), png.size()));
}

nlohmann::json result_json(const coco::Annotation& detection, const std::string& file_name) {
    nlohmann::json entry = {{"image_id", detection.image_id},
                            {"category_id", detection.category_id},
                            {"bbox", detection.box},
                            {"score", detection.score}};
    if (detection.segmentation.kind == coco::Segmentation::Kind::Mask) {
        const coco::Rle& mask = detection.segmentation.mask;
        entry["segmentation"] = {{"size", {mask.height, mask.width}},
                                 {"counts", coco::encode_counts_string(mask)}};
    }
    if (!file_name.empty()) {
        entry["file_name"] = file_name;
    }
    return entry;
}

// What a prediction writes, one kind per task: the caller feeds it each batch's model outputs,
// then finish() puts it all in place at once (a whole file, or a folder of them); a writer
// destroyed unfinished leaves nothing.
class PredictionWriter {
public:
    virtual ~PredictionWriter() = default;
    virtual void add(const data::Batch& batch, const at::Tensor& logits) = 0;
    virtual void finish() = 0;
};

// Classification: a CSV of filename,class,score.
class ClassesWriter : public PredictionWriter {
public:
    ClassesWriter(const PredictConfig& config, const data::DatasetIndex& index,
                  const train::FinetuningTask& task)
        : config_(config), index_(index), task_(task) {
        csv_ << "filename,class,score\n";
    }
    void add(const data::Batch& batch, const at::Tensor& logits) override {
        std::vector<std::string> filenames;
        for (const std::int64_t sample : batch.indices) {
            filenames.emplace_back(index_.filename(static_cast<std::size_t>(sample)));
        }
        write_classes(csv_, logits, filenames, task_.classes(), task_.multilabel());
    }
    void finish() override { write_file_atomically(config_.out, csv_.str()); }

private:
    const PredictConfig& config_;
    const data::DatasetIndex& index_;
    const train::FinetuningTask& task_;
    std::ostringstream csv_;
};

// Segmentation: a PNG of class ids per image, under the folder config.out.
class MasksWriter : public PredictionWriter {
public:
    MasksWriter(const PredictConfig& config, const data::DatasetIndex& index, std::size_t classes)
        : index_(index), classes_(classes), masks_(config.out) {}
    void add(const data::Batch& batch, const at::Tensor& logits) override {
        for (std::size_t i = 0; i < batch.indices.size(); ++i) {
            const auto sample = static_cast<std::size_t>(batch.indices[i]);
            write_mask(logits[static_cast<std::int64_t>(i)], index_.path(sample),
                       masks_.path() / fs::path(index_.filename(sample)).replace_extension(".png"),
                       classes_);
        }
    }
    void finish() override { masks_.commit(); }

private:
    const data::DatasetIndex& index_;
    std::size_t classes_;
    StagedFolder masks_; // every mask, or none
};

// Detection and instance segmentation: COCO results JSON (and drawn images with config.draw).
class DetectionsWriter : public PredictionWriter {
public:
    DetectionsWriter(const PredictConfig& config, const DetectionInputs& inputs,
                     const train::DetectionTask& detector)
        : config_(config), inputs_(inputs), detector_(detector) {
        if (config_.draw) {
            drawn_.emplace(*config_.draw);
        }
    }
    void add(const data::Batch& batch, const at::Tensor& logits) override {
        std::vector<train::ImageRef> images;
        for (const std::int64_t sample : batch.indices) {
            images.push_back(image_ref(std::size_t(sample)));
        }
        const at::Tensor& pixels = batch.views.front();
        const auto found = detector_.detections(logits, pixels.size(2), pixels.size(3), images,
                                                std::max(1, config_.num_workers.value_or(1)));
        for (std::size_t i = 0; i < found.size(); ++i) {
            const auto sample = std::size_t(batch.indices[i]);
            if (drawn_) {
                draw_detections(
                    inputs_.paths[sample], found[i], detector_.category_ids(), detector_.classes(),
                    drawn_->path() / fs::path(inputs_.names[sample]).replace_extension(".png"));
            }
            for (const coco::Annotation& detection : found[i]) {
                results_.push_back(
                    result_json(detection, config_.annotations ? "" : inputs_.names[sample]));
            }
        }
    }
    void finish() override {
        write_file_atomically(config_.out, results_.dump());
        if (drawn_) {
            drawn_->commit();
        }
    }

private:
    // An image from the annotations, or the file's own size.
    train::ImageRef image_ref(std::size_t sample) const {
        train::ImageRef image = inputs_.images[sample];
        if (image.width == 0) {
            const fs::path& path = inputs_.paths[sample];
            const cv::Size size = data::stored_image_size(data::read_file(path), path.string());
            image.width = size.width;
            image.height = size.height;
        }
        return image;
    }

    const PredictConfig& config_;
    const DetectionInputs& inputs_;
    const train::DetectionTask& detector_;
    nlohmann::json results_ = nlohmann::json::array();
    std::optional<StagedFolder> drawn_; // every drawing, or none
};

// The device config names, with the model moved there for inference.
c10::Device inference_device(const PredictConfig& config, torch::nn::Module& module,
                             const runtime::PrecisionPolicy& precision) {
    c10::Device device(c10::kCPU);
    if (config.accelerator == Accelerator::Cuda) {
        const int gpu = config.gpu_indices().front();
        runtime::use_cuda_device(gpu);
        device = c10::Device(c10::kCUDA, static_cast<c10::DeviceIndex>(gpu));
    }
    runtime::move_module(module, device, precision.storage_dtype(),
                         runtime::memory_format_for(config.precision));
    module.eval();
    return device;
}

} // namespace

PredictSummary run_prediction(const PredictConfig& config, const PredictProgress& progress,
                              StopToken stop) {
    const auto started = std::chrono::steady_clock::now();
    const system::HeapReuseScope freed_memory_kept_for_the_next_batch;
    TrainConfig trained;
    const std::unique_ptr<train::FinetuningTask> task =
        train::load_finetuning_task(config.checkpoint, &trained);
    const data::DatasetIndex index = data::DatasetIndex::scan(config.data);
    // A detection checkpoint is read back as a DetectionTask (load_finetuning_task).
    const auto* detector =
        has_boxes(trained.task) ? static_cast<const train::DetectionTask*>(task.get()) : nullptr;
    if (trained.task != TaskKind::SemanticSegmentation && !config.annotations) {
        refuse_names_outputs_cannot_hold(index);
    }
    DetectionInputs inputs;
    if (detector) {
        inputs = detection_inputs(config, index);
    } else {
        for (std::size_t i = 0; i < index.size(); ++i) {
            inputs.paths.push_back(index.path(i));
            inputs.names.emplace_back(index.filename(i));
        }
    }
    const bool files = trained.task == TaskKind::SemanticSegmentation || (detector && config.draw);
    if (files || !config.annotations) {
        refuse_names_written_twice(inputs, files);
    }
    const auto total = static_cast<std::int64_t>(inputs.paths.size());
    const runtime::PrecisionPolicy precision(
        config.precision,
        config.accelerator == Accelerator::Cuda ? c10::DeviceType::CUDA : c10::DeviceType::CPU);
    const c10::Device device = inference_device(config, task->module(), precision);

    if (config.image_height > 0) {
        trained.transform_args["image_size"] = {config.image_height, config.image_width};
    }
    // Float images, as the loader gives them, through the model as prediction runs it.
    const auto forward = [&](const at::Tensor& images) {
        const runtime::AutocastScope autocast = precision.autocast();
        return task->forward(images.to(device, precision.storage_dtype(), true)
                                 .contiguous(runtime::memory_format_for(config.precision)));
    };
    const data::TransformArgs transform = data::finetune_transform(
        trained.transform_args, false, 0.08, task_augmentations(trained.task));
    data::LoaderOptions options;
    options.batch_size = config.batch_size;
    if (device.is_cpu()) { // the checkpoint says the size: it may be one no batch fits at
        options.batch_size = train::cpu_inference_batch(
            config.batch_size, [&](const at::Tensor& images) { forward(images); },
            data::view_shapes(transform).front(), "image_size");
    }
    options.num_workers = config.num_workers.value_or(0);
    options.shuffle = false;
    options.drop_last = false;
    options.pin_memory = device.is_cuda();
    data::Loader loader(std::make_shared<data::ImageSamples>(inputs.paths, transform), options,
                        stop);
    loader.start_epoch(0);

    std::unique_ptr<PredictionWriter> writer;
    if (detector) {
        writer = std::make_unique<DetectionsWriter>(config, inputs, *detector);
    } else if (trained.task == TaskKind::ImageClassification) {
        writer = std::make_unique<ClassesWriter>(config, index, *task);
    } else {
        writer = std::make_unique<MasksWriter>(config, index, task->classes().size());
    }
    PredictSummary summary;
    summary.task = task_traits(trained.task).name;
    summary.classes = task->classes();
    if (detector) {
        summary.category_ids = detector->category_ids();
    }
    const torch::NoGradGuard no_grad;
    while (std::optional<data::Batch> batch = loader.next()) {
        const at::Tensor logits = forward(batch->views.front());
        writer->add(*batch, logits);
        summary.images += static_cast<std::int64_t>(batch->indices.size());
        if (progress) {
            progress(summary.images, total);
        }
    }
    if (stop.stop_requested()) {
        throw Error("prediction stopped; nothing was written to \"" + config.out.string() + "\"");
    }
    writer->finish();
    summary.skipped = loader.skipped_files();
    summary.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return summary;
}

} // namespace kiln::predict
