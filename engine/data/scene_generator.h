#pragma once

#include "data/idx_import.h"

#include <cstdint>
#include <filesystem>

namespace kiln::data {

struct SceneOptions {
    std::filesystem::path images; // IDX3 garments (Fashion-MNIST), plain or gzip-compressed
    std::filesystem::path labels; // IDX1 labels
    std::filesystem::path out;    // gets images/, masks/ and classes.json
    std::int64_t scenes = 1000;
    int size = 64;       // canvas side in pixels
    int max_objects = 4; // garments per scene: 1 .. max_objects
    std::uint64_t seed = 0;
};

struct SceneResult {
    std::int64_t scenes = 0;
    std::int64_t objects = 0; // visible garments (instances)
    int classes = 0;          // background included
};

// A labelled set for segmentation and detection made from an IDX image set, seeded: each scene
// is a canvas of faint noise with garments scaled (1x to 2x) and placed at random, touching and
// occluding (later ones on top). Garment pixels are those brighter than its background; each
// garment's instance is the part of it still visible. Writes, under out/:
//   images/NNN.png      the scenes
//   masks/NNN.png       semantic masks: 1 + the label of the garment seen, 0 for background
//   classes.json        {"0": "background", "1": "0", ...} (labels as import-idx names folders)
//   annotations.json    COCO instances: per visible garment its box, area and RLE mask
//                       (category_id = 1 + label)
//   labels/NNN.txt      YOLO (Ultralytics) segments: "label x1 y1 x2 y2 ..." normalised, the
//                       outline of the garment's largest visible part
//   data.yaml           Ultralytics' dataset file naming the labels
// A garment hidden entirely is no instance. The same options always give the same files.
SceneResult generate_scenes(const SceneOptions& options, const Progress& progress = {});

} // namespace kiln::data
