#include "data/scene_generator.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "data/augment.h"

#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

namespace kiln::data {
namespace {

// Garment pixels are those brighter than this (Fashion-MNIST backgrounds are 0).
constexpr int kObjectThreshold = 24;
constexpr int kNoiseLevel = 40;

void write_png(const std::filesystem::path& path, const cv::Mat& image) {
    std::vector<unsigned char> png;
    cv::imencode(".png", image, png);
    write_file_atomically(path,
                          std::string_view(reinterpret_cast<const char*>(png.data()), png.size()),
                          Durability::Buffered);
}

} // namespace

SceneResult generate_segmentation_scenes(const SceneOptions& options, const Progress& progress) {
    if (options.scenes < 1 || options.size < 8 || options.max_objects < 1) {
        throw Error("scenes must be at least 1, size at least 8 and max_objects at least 1");
    }
    const IdxImages garments = read_idx_images(options.images, options.labels);
    if (garments.count == 0) {
        throw Error("images file \"" + options.images.string() + "\" holds no images");
    }
    int max_label = 0;
    for (const unsigned char label : garments.labels) {
        max_label = std::max<int>(max_label, label);
    }
    SceneResult result;
    result.classes = max_label + 2;
    const int digits = static_cast<int>(std::to_string(options.scenes - 1).size());
    for (std::int64_t s = 0; s < options.scenes; ++s) {
        Rng rng = sample_rng(options.seed, 0, static_cast<std::uint64_t>(s));
        cv::Mat canvas(options.size, options.size, CV_8UC1);
        for (int y = 0; y < canvas.rows; ++y) {
            for (int x = 0; x < canvas.cols; ++x) {
                canvas.at<unsigned char>(y, x) =
                    static_cast<unsigned char>(uniform(rng, 0, kNoiseLevel));
            }
        }
        cv::Mat mask = cv::Mat::zeros(options.size, options.size, CV_8UC1);
        const int objects = 1 + static_cast<int>(uniform(rng, 0, options.max_objects - 1e-9));
        for (int o = 0; o < objects; ++o) {
            const auto index =
                static_cast<std::int64_t>(uniform(rng, 0, double(garments.count) - 1e-9));
            const double scale = uniform(rng, 1.0, 2.0);
            const int side = std::min(options.size, static_cast<int>(garments.height * scale));
            cv::Mat garment;
            cv::resize(garments.image(index), garment, cv::Size(side, side), 0, 0,
                       cv::INTER_LINEAR);
            const int top = static_cast<int>(uniform(rng, 0, options.size - side + 1 - 1e-9));
            const int left = static_cast<int>(uniform(rng, 0, options.size - side + 1 - 1e-9));
            const int cls = 1 + garments.labels[static_cast<std::size_t>(index)];
            for (int y = 0; y < side; ++y) {
                for (int x = 0; x < side; ++x) {
                    const unsigned char value = garment.at<unsigned char>(y, x);
                    if (value > kObjectThreshold) {
                        canvas.at<unsigned char>(top + y, left + x) = value;
                        mask.at<unsigned char>(top + y, left + x) = static_cast<unsigned char>(cls);
                    }
                }
            }
        }
        std::string name = std::to_string(s);
        name.insert(0, static_cast<std::size_t>(std::max(0, digits - int(name.size()))), '0');
        write_png(options.out / "images" / (name + ".png"), canvas);
        write_png(options.out / "masks" / (name + ".png"), mask);
        result.objects += objects;
        ++result.scenes;
        if (progress) {
            progress(s + 1, options.scenes);
        }
    }
    nlohmann::json classes = {{"0", "background"}};
    for (int label = 0; label <= max_label; ++label) {
        classes[std::to_string(label + 1)] = std::to_string(label);
    }
    write_file_atomically(options.out / "classes.json", classes.dump(2) + "\n");
    return result;
}

} // namespace kiln::data
