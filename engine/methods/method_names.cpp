#include "methods/method_names.h"

namespace kiln::methods {

// Kept apart from the LibTorch code so that configuration checks can list the methods cheaply.
std::vector<std::string> method_names() {
    return {"simclr", "dino", "distillation"};
}

} // namespace kiln::methods
