#pragma once

#include "core/stop_token.h"

#include <string>

namespace kiln::train {

// How fast this machine's CPU trains `model` on `image_size` px images with `views` views of
// each (2 for pretraining's pairs, 1 for fine-tuning): forward and backward passes of a small
// batch of random images, timed after a warm-up step. Compute only (no decoding, no
// augmentation, no optimizer step), so a first estimate, for the time a run will take before a
// project has one to go by. 0 when `stop` ended it early. A model name Kiln does not know is a
// kiln::Error.
double probe_training_speed(const std::string& model, int image_size, int views,
                            StopToken stop = {});

} // namespace kiln::train
