#include "models/backbone_names.h"

namespace kiln::models {

// Kept apart from the LibTorch code so that configuration checks can list the models cheaply.
std::vector<std::string> backbone_names() {
    return {"resnet18", "resnet34", "resnet50", "smallcnn"};
}

} // namespace kiln::models
