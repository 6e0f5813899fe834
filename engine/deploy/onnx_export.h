#pragma once

#include "config/run_config.h"

#include <string>
#include <vector>

namespace kiln::deploy {

struct ExportSummary {
    std::string what;  // "backbone", or the fine-tuning task's name
    std::string model; // the backbone's name
    int image_height = 0;
    int image_width = 0;
    std::vector<std::string> outputs; // "name [dims]"
    // The largest difference between the exported graph's mirror in LibTorch and the model's
    // own forward pass on the example, relative to the outputs' largest magnitude.
    double self_check_difference = 0.0;
};

// Writes the model of `checkpoint` as an ONNX file, by Kiln itself from its own modules:
// a pretraining checkpoint or exported backbone gives the backbone (input `images`, output
// `features` as `kiln embed` computes them); a fine-tuning checkpoint its whole task model
// (`logits` for classification, `logits` at input size for semantic segmentation, `scores`,
// `classes`, `boxes` and for instance segmentation `masks` for detection). The input is the
// normalised image: the metadata says how (kiln.preprocessing: RGB, resized, mean and std),
// with the input size and the class names. Batch norms are folded into the layers before them.
// A model Kiln cannot export is a kiln::Error naming the module; nothing is written then.
ExportSummary export_onnx(const ExportConfig& config);

} // namespace kiln::deploy
