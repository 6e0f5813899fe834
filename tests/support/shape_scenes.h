#pragma once

#include "data/scene_generator.h"

#include <cstdint>
#include <filesystem>
#include <tuple>

namespace kiln::test {

// Scenes of up to three shapes from an IDX set (write_shapes_idx), made by the engine's
// generator: `root`/train and `root`/val, each with images/, masks/, classes.json, COCO
// annotations.json and a YOLO data.yaml, seeded so every test gets the same scenes.
inline void write_shape_scenes(const std::filesystem::path& idx_images,
                               const std::filesystem::path& idx_labels,
                               const std::filesystem::path& root, int size, int train_scenes,
                               int val_scenes) {
    data::SceneOptions scenes;
    scenes.images = idx_images;
    scenes.labels = idx_labels;
    scenes.size = size;
    scenes.max_objects = 3;
    for (const auto& [split, count, seed] :
         {std::tuple{"train", train_scenes, 1}, std::tuple{"val", val_scenes, 2}}) {
        scenes.out = root / split;
        scenes.scenes = count;
        scenes.seed = std::uint64_t(seed);
        data::generate_scenes(scenes);
    }
}

} // namespace kiln::test
