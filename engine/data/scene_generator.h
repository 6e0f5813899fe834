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
    std::int64_t objects = 0;
    int classes = 0; // background included
};

// A labelled segmentation set made from an IDX image set, seeded: each scene is a canvas of
// faint noise with garments scaled (1x to 2x) and placed at random, touching and occluding
// (later ones on top); its mask holds, per pixel, 1 + the label of the garment seen there
// (pixels brighter than the garment's background), else 0. Writes out/images/NNNNN.png,
// out/masks/NNNNN.png and out/classes.json ({"0": "background", "1": "0", ...}: label ids as
// import-idx names its folders). The same options always give the same files.
SceneResult generate_segmentation_scenes(const SceneOptions& options,
                                         const Progress& progress = {});

} // namespace kiln::data
