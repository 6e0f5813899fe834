#include "data/scene_generator.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "data/augment.h"
#include "eval/coco/rle.h"

#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

namespace kiln::data {
namespace {

// Garment pixels are those brighter than this (Fashion-MNIST backgrounds are 0).
constexpr int kObjectThreshold = 24;
constexpr int kNoiseLevel = 40;

// The outline of a visible part as YOLO writes segments: x y pairs normalised to [0, 1], of
// the largest connected part. A part too thin for a polygon (one pixel, a line) is written as
// its bounding rectangle's corners, since two points would read as a box.
std::string yolo_polygon(const cv::Mat& visible) {
    std::vector<std::vector<cv::Point>> contours;
    cv::findContours(visible, contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_SIMPLE);
    const auto largest =
        std::max_element(contours.begin(), contours.end(), [](const auto& a, const auto& b) {
            return cv::contourArea(a) < cv::contourArea(b);
        });
    std::vector<cv::Point2d> outline;
    if (largest->size() >= 3) {
        for (const cv::Point& point : *largest) {
            outline.emplace_back(point.x + 0.5, point.y + 0.5);
        }
    } else {
        const cv::Rect box = cv::boundingRect(*largest);
        outline = {cv::Point2d(box.x, box.y), cv::Point2d(box.x + box.width, box.y),
                   cv::Point2d(box.x + box.width, box.y + box.height),
                   cv::Point2d(box.x, box.y + box.height)};
    }
    std::string text;
    char number[32];
    for (const cv::Point2d& point : outline) {
        std::snprintf(number, sizeof number, " %.6f %.6f", point.x / visible.cols,
                      point.y / visible.rows);
        text += number;
    }
    return text;
}

void write_png(const std::filesystem::path& path, const cv::Mat& image) {
    std::vector<unsigned char> png;
    cv::imencode(".png", image, png);
    write_file_atomically(path,
                          std::string_view(reinterpret_cast<const char*>(png.data()), png.size()),
                          Durability::Buffered);
}

// One scene: 1 to max_objects garments of `garments`, each scaled 1-2x, on noise; its class mask
// and each pixel's garment (1 upwards, the last drawn on top).
struct Scene {
    cv::Mat canvas;
    cv::Mat mask;
    cv::Mat instances;
    std::vector<int> instance_classes;
};

Scene draw_scene(const IdxImages& garments, int size, int max_objects, Rng& rng) {
    Scene scene;
    cv::Mat& canvas = scene.canvas;
    canvas.create(size, size, CV_8UC1);
    for (int y = 0; y < canvas.rows; ++y) {
        for (int x = 0; x < canvas.cols; ++x) {
            canvas.at<unsigned char>(y, x) =
                static_cast<unsigned char>(uniform(rng, 0, kNoiseLevel));
        }
    }
    scene.mask = cv::Mat::zeros(size, size, CV_8UC1);
    scene.instances = cv::Mat::zeros(size, size, CV_16UC1);
    const int objects = 1 + static_cast<int>(uniform(rng, 0, max_objects - 1e-9));
    for (int o = 0; o < objects; ++o) {
        const auto index =
            static_cast<std::int64_t>(uniform(rng, 0, double(garments.count) - 1e-9));
        const double scale = uniform(rng, 1.0, 2.0);
        const int side = std::min(size, static_cast<int>(garments.height * scale));
        cv::Mat garment;
        cv::resize(garments.image(index), garment, cv::Size(side, side), 0, 0, cv::INTER_LINEAR);
        const int top = static_cast<int>(uniform(rng, 0, size - side + 1 - 1e-9));
        const int left = static_cast<int>(uniform(rng, 0, size - side + 1 - 1e-9));
        const int cls = 1 + garments.labels[static_cast<std::size_t>(index)];
        scene.instance_classes.push_back(cls);
        for (int y = 0; y < side; ++y) {
            for (int x = 0; x < side; ++x) {
                const unsigned char value = garment.at<unsigned char>(y, x);
                if (value > kObjectThreshold) {
                    canvas.at<unsigned char>(top + y, left + x) = value;
                    scene.mask.at<unsigned char>(top + y, left + x) =
                        static_cast<unsigned char>(cls);
                    scene.instances.at<std::uint16_t>(top + y, left + x) =
                        static_cast<std::uint16_t>(o + 1);
                }
            }
        }
    }
    return scene;
}

} // namespace

SceneResult generate_scenes(const SceneOptions& options, const Progress& progress) {
    if (options.scenes < 1 || options.size < 8 || options.max_objects < 1) {
        throw Error("scenes must be at least 1, size at least 8 and max_objects at least 1");
    }
    if (options.out.empty()) { // it wrote into the current folder
        throw Error("out is empty; name the folder to write the scenes to");
    }
    // Scenes written over others mixed the two sets (images/ held both, annotations.json one).
    for (const char* entry : {"images", "masks", "labels", "annotations.json", "classes.json"}) {
        std::error_code error;
        if (std::filesystem::exists(options.out / entry, error)) {
            throw Error("\"" + options.out.string() + "\" holds " + entry +
                        " already; choose an empty folder for the scenes, or remove it");
        }
    }
    const IdxImages garments = read_idx_images(options.images, options.labels);
    if (garments.count == 0) {
        throw Error("images file \"" + options.images.string() + "\" holds no images");
    }
    int max_label = 0;
    for (const unsigned char label : garments.labels) {
        max_label = std::max<int>(max_label, label);
    }
    if (max_label > 253) { // class 1 + label in 8-bit masks, 255 left as the ignore index
        throw Error("labels file \"" + options.labels.string() + "\" holds the label " +
                    std::to_string(max_label) +
                    "; scenes' masks hold classes 1 + label in 8 bits, so labels go up to 253");
    }
    // Every file, or (a full disk, a stop) none: a half-written set was then refused as
    // "holds images already".
    StagedFolder staged(options.out);
    const std::filesystem::path& out = staged.path();
    SceneResult result;
    result.classes = max_label + 2;
    nlohmann::json coco_images = nlohmann::json::array();
    nlohmann::json coco_annotations = nlohmann::json::array();
    const int digits = static_cast<int>(std::to_string(options.scenes - 1).size());
    for (std::int64_t s = 0; s < options.scenes; ++s) {
        Rng rng = sample_rng(options.seed, 0, static_cast<std::uint64_t>(s));
        const Scene scene = draw_scene(garments, options.size, options.max_objects, rng);
        const cv::Mat& instances = scene.instances;
        const std::vector<int>& instance_classes = scene.instance_classes;
        const int objects = static_cast<int>(instance_classes.size());
        std::string name = std::to_string(s);
        name.insert(0, static_cast<std::size_t>(std::max(0, digits - int(name.size()))), '0');
        write_png(out / "images" / (name + ".png"), scene.canvas);
        write_png(out / "masks" / (name + ".png"), scene.mask);
        // Instances from their visible pixels: COCO annotations and YOLO segments; a garment
        // hidden entirely by later ones is no instance.
        coco_images.push_back({{"id", s + 1},
                               {"file_name", name + ".png"},
                               {"width", options.size},
                               {"height", options.size}});
        std::string yolo;
        for (int o = 0; o < objects; ++o) {
            const cv::Mat visible = instances == o + 1;
            if (cv::countNonZero(visible) == 0) {
                continue;
            }
            const coco::Rle rle =
                coco::encode_mask(visible.data, visible.rows, visible.cols, visible.step[0]);
            const coco::Box box = coco::bounding_box(rle);
            coco_annotations.push_back({{"id", coco_annotations.size() + 1},
                                        {"image_id", s + 1},
                                        {"category_id", instance_classes[std::size_t(o)]},
                                        {"bbox", {box[0], box[1], box[2], box[3]}},
                                        {"area", coco::area(rle)},
                                        {"iscrowd", 0},
                                        {"segmentation",
                                         {{"size", {options.size, options.size}},
                                          {"counts", coco::encode_counts_string(rle)}}}});
            yolo +=
                std::to_string(instance_classes[std::size_t(o)] - 1) + yolo_polygon(visible) + "\n";
            ++result.objects;
        }
        write_file_atomically(out / "labels" / (name + ".txt"), yolo, Durability::Buffered);
        ++result.scenes;
        if (progress) {
            progress(s + 1, options.scenes);
        }
    }
    nlohmann::json classes = {{"0", "background"}};
    nlohmann::json categories = nlohmann::json::array();
    std::string yaml = "path: .\ntrain: images\nval: images\nnames:\n";
    for (int label = 0; label <= max_label; ++label) {
        const std::string label_name = std::to_string(label);
        classes[std::to_string(label + 1)] = label_name;
        categories.push_back({{"id", label + 1}, {"name", label_name}});
        yaml += "  " + std::to_string(label) + ": '" + label_name + "'\n";
    }
    write_file_atomically(out / "classes.json", classes.dump(2) + "\n");
    const nlohmann::json coco = {
        {"images", coco_images}, {"annotations", coco_annotations}, {"categories", categories}};
    write_file_atomically(out / "annotations.json", coco.dump() + "\n");
    write_file_atomically(out / "data.yaml", yaml);
    staged.commit();
    return result;
}

} // namespace kiln::data
