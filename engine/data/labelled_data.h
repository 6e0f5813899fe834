#pragma once

#include "data/image_decode.h"

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <opencv2/core/mat.hpp>
#include <optional>
#include <string>
#include <vector>

namespace kiln::data {

// Class names by class id (0, 1, ...).
using ClassNames = std::vector<std::string>;

// One split of a classification set: each image with its class ids (one, or in a multilabel
// set any number).
struct ClassifiedImages {
    std::vector<std::filesystem::path> paths;
    std::vector<std::string> names; // as users see them: relative to the split's folder
    std::vector<std::vector<std::int64_t>> labels;
};

struct ClassificationData {
    ClassNames classes;
    bool multilabel = false; // a CSV gave an image no label or several
    ClassifiedImages train;
    ClassifiedImages val;
};

// One split of a segmentation set: each image with its mask of class ids.
struct SegmentedImages {
    std::vector<std::filesystem::path> paths;
    std::vector<std::filesystem::path> masks;
    std::vector<std::string> names;
};

struct SegmentationData {
    ClassNames classes;
    int ignore_index = 255; // mask value that no loss or metric counts
    SegmentedImages train;
    SegmentedImages val;
    std::int64_t max_mask_pixels = kDefaultMaxImagePixels; // loader_args.max_image_pixels
};

// `data` of train-image-classification, in LightlyTrain's shape: `train` and `val`, each a
// folder of class folders (cats/001.jpg is a cat) or a CSV file of `image,label` rows (paths
// relative to the CSV's folder, labels by name or id; several labels, separated by ';' or '|',
// or none make the set multilabel); `classes` (optional) maps ids to names,
// as {"0": "cat", ...}, a list of names, or the path of a JSON file holding either. Without
// `classes` the classes are the train split's, sorted by name. Every problem (missing folders,
// images outside class folders, a val class that train lacks, empty splits) is reported
// together in a kiln::ConfigError naming the file and the fix.
ClassificationData load_classification_data(const nlohmann::json& data, std::uint64_t seed = 0);

// `data` of train-semantic-segmentation: `train.images`, `train.masks`, `val.images`,
// `val.masks` (mask files are PNGs named as their image with .png, in the same subfolders),
// `classes` (required, as above) and `ignore_index` (default 255). Every mask is read on
// `threads` threads and checked against its image: a missing mask, an unreadable or
// multi-channel one, a size that differs from the image's, or a value that is neither a class
// id nor the ignore index is an error naming both files. Masks, as images, may have at most
// `max_pixels` pixels.
SegmentationData load_segmentation_data(const nlohmann::json& data, int threads,
                                        std::int64_t max_pixels = kDefaultMaxImagePixels);

// A mask file as 8- or 16-bit class ids, one channel, of at most `max_pixels` pixels (from its
// header, before decoding); a kiln::Error naming the file otherwise.
cv::Mat read_mask(const std::filesystem::path& path,
                  std::int64_t max_pixels = kDefaultMaxImagePixels);
// The same for the mask of `image`, refused when its size differs from the image's: compared
// from both headers before the mask is decoded (a mask declaring 30000 x 30000 pixels took
// 1.3 GB to decode before its size was compared).
cv::Mat read_mask_of(const std::filesystem::path& path, const std::filesystem::path& image,
                     std::int64_t max_pixels = kDefaultMaxImagePixels);

// The most classes a task trains: a head's width and each validation's per-class work grow with
// them, and a file listing millions (made to stall or exhaust a run) is refused first. Large
// vocabularies (LVIS's 1,203, V3Det's 13,204 classes) stay under it.
constexpr std::size_t kMaxClasses = 20000;
// "names 200000 classes; Kiln trains at most 20000 ...", or "" within the limit.
std::string too_many_classes(std::size_t classes);

// Class names from `classes`: {"id": "name"} (ids 0 .. N-1), a list of names, or a JSON file
// holding either (at most kMaxClasses). `key` names the setting in errors.
ClassNames parse_class_names(const nlohmann::json& classes, const std::string& key);
// A message naming the first class whose name is not UTF-8, with the fix; "" when all are.
std::string non_utf8_class(const ClassNames& names);
// A name given to two classes, if one is: each class's metrics are keyed by its name.
std::optional<std::string> repeated_name(const ClassNames& names);

} // namespace kiln::data
