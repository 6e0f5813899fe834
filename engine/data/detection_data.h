#pragma once

#include "data/labelled_data.h"
#include "eval/coco/coco_data.h"

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kiln::data {

// One object to learn: its class and its box (x0, y0, x1, y1 in the image's pixels), and the
// ground-truth annotation it came from, whose mask instance segmentation trains on.
struct LabelledObject {
    std::int64_t class_id = 0;
    std::array<float, 4> box{};
    std::size_t annotation = 0;
};

// One split of a detection set: its images, each with its size and objects, and the split's
// ground truth as COCO's evaluator reads it (YOLO labels are converted to it), which validation
// scores detections against.
struct DetectionImages {
    std::vector<std::filesystem::path> paths;
    std::vector<std::int64_t> image_ids;
    std::vector<std::array<int, 2>> sizes; // width, height as the annotations give them
    std::vector<std::vector<LabelledObject>> objects;
    std::shared_ptr<const coco::GroundTruth> ground_truth;
};

struct DetectionData {
    ClassNames classes;
    std::vector<std::int64_t> category_ids; // the ground truth's category id of each class
    DetectionImages train;
    DetectionImages val;
    // What was fixed or left out, counted: boxes clipped to their image, empty boxes dropped.
    std::vector<std::string> warnings;
};

// `data` of train-object-detection and train-instance-segmentation, in one of two layouts:
//  - COCO: `train.annotations`, `train.images`, `val.annotations`, `val.images` (an
//    instances JSON and the folder its file_names are relative to);
//  - YOLO as Ultralytics lays it out: the path of a data.yaml, or `path`, `train`, `val` and
//    `names`; images under .../images/ with labels as .../labels/NAME.txt, one
//    "class cx cy w h" box or "class x1 y1 x2 y2 ..." polygon per line, normalised.
// Classes are the train split's categories in id order. With `masks`, every object needs a
// segmentation (polygons or RLE). Crowd annotations are left out of training (validation
// counts them as COCO does). Every problem (a missing file or image, an unknown category, a
// malformed line or polygon) is a kiln::Error naming the file and entry; boxes that leave the
// image are clipped and empty ones dropped, counted in `warnings`.
DetectionData load_detection_data(const nlohmann::json& data, bool masks, int threads);

// The training split alone, read and checked as above (boxes only; `val` is not needed), for
// label statistics and browsing.
DetectionData load_detection_train_split(const nlohmann::json& data, int threads);

// Throws, naming the file and the annotations, where an image stored at `stored` ({width,
// height}) is given a size more than 16 times larger a side (256 times the pixels) by its
// annotations: instance masks are drawn at the annotations' size (a file that gave 6000 x 6000
// for a 64 x 64 image took 8.5 GB). A smaller decode (JPEG's 1/8, an optimized copy's 1/16 a
// side) stays within it.
void require_annotated_size(const DetectionImages& images, std::size_t image,
                            std::array<std::int64_t, 2> stored);

// `file_name` of the image `entry` describes (e.g. "train.json: images[3] (id 7)") inside
// `folder`. Annotations come from others, so a name that is absolute or climbs out of the
// folder with ".." is a kiln::Error naming the entry, never followed.
std::filesystem::path image_in_folder(const std::filesystem::path& folder,
                                      const std::string& file_name, const std::string& entry);

} // namespace kiln::data
