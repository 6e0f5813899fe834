#pragma once

#include "data/detection_data.h"

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::data {

// What labels a dataset folder has, as Studio lists datasets.
enum class LabelKind {
    Images,       // unlabelled images: pretraining and embedding
    ClassFolders, // one subfolder of images per class
    Masks,        // images with PNG masks of class ids, named as the images
    Coco,         // a COCO instances JSON
    Yolo,         // an Ultralytics data.yaml with images/ and labels/ beside it
};

// The names stored in project files ("images", "class_folders", "masks", "coco", "yolo").
std::string_view label_kind_name(LabelKind kind);
std::optional<LabelKind> parse_label_kind(std::string_view name);

// A dataset's images and labels: `images` is the folder of images (training reads it),
// `labels` the masks folder, COCO JSON or data.yaml (empty for the first two kinds).
struct DatasetLayout {
    LabelKind kind = LabelKind::Images;
    std::filesystem::path images;
    std::filesystem::path labels;
};

// Recognises a folder's layout from its files without reading any image:
//  - a data.yaml (or dataset.yaml): YOLO (images are then images/ when the folder has one);
//  - images/ beside masks/: masks (images are then images/);
//  - a JSON that starts as a COCO file does (an "images" list) in the folder or in its
//    annotations/ subfolder, preferring one named for training: COCO (images are then images/
//    when the folder has one);
//  - images only in two or more subfolders: class folders;
//  - otherwise unlabelled images.
DatasetLayout detect_dataset_layout(const std::filesystem::path& folder);

// COCO's object sizes by box area: small under 32x32 px, medium under 96x96, large above.
enum class ObjectSize { Small, Medium, Large };
ObjectSize object_size(float width, float height);

// One image as the label browser draws it: its boxes (pixels of the image as labelled) or the
// mask file of class ids.
struct LabelledImage {
    std::filesystem::path path;
    std::array<int, 2> size{}; // width, height as the labels give them (0 for masks)
    std::vector<LabelledObject> objects;
    std::filesystem::path mask;
};

struct ClassLabelCount {
    std::string name;
    std::int64_t images = 0;  // images that show the class
    std::int64_t objects = 0; // boxes (COCO, YOLO), pixels (masks) or images (class folders)
};

// What a dataset's labels hold, for the training split of COCO and YOLO sets.
struct LabelStatistics {
    LabelKind kind = LabelKind::Images;
    std::vector<ClassLabelCount> classes;
    std::int64_t images = 0;
    std::int64_t unlabelled_images = 0;         // no box, or a mask of ignored pixels only
    std::array<std::int64_t, 3> object_sizes{}; // by ObjectSize, for boxes
    std::int64_t ignored_pixels = 0;            // masks: pixels of the ignore index (255)
    // Bad labels, each naming its file and the fix; a set with any of them does not train.
    std::vector<std::string> problems;
    // What reading fixed or left out (boxes clipped to their image, crowd annotations).
    std::vector<std::string> warnings;
    std::vector<LabelledImage> labelled; // every image with its labels, for the browser
};

// Reads the labels of `layout` on `threads` threads. Masks are read in full (every pixel
// counted); problems with single files (a missing, unreadable or wrongly sized mask) are
// listed and the rest still counted, while a COCO or YOLO file the engine cannot read is one
// problem with the engine's message. `progress(done, total)` is called as masks are read and
// returns false to stop early (the result then counts what was read).
LabelStatistics
read_label_statistics(const DatasetLayout& layout, int threads,
                      const std::function<bool(std::int64_t, std::int64_t)>& progress = {});

} // namespace kiln::data
