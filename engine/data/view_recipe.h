#pragma once

namespace kiln::data {

// How a self-supervised method sees an image: a pair of views (SimCLR), two global views and
// smaller local ones (DINO's multi-crop), or one view that a teacher and its student share
// (distillation). The method table (methods/method_names.h) names each method's; the views
// themselves are data/view_transform.h's. Apart from it so that the table's readers need no
// OpenCV.
enum class ViewRecipe { Pair, MultiCrop, Single };

} // namespace kiln::data
