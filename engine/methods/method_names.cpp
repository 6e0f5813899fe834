#include "methods/method_names.h"

namespace kiln::methods {

const std::vector<MethodEntry>& method_table() {
    static const std::vector<MethodEntry> methods = {
        {"simclr", {.name = "lars", .base_lr = 0.3, .weight_decay = 1e-6, .warmup_epochs = 10}},
        {"dino", {.name = "adamw", .base_lr = 5e-4, .weight_decay = 0.04, .warmup_epochs = 10}},
        {"distillation",
         {.name = "adamw", .base_lr = 5e-4, .weight_decay = 0.04, .warmup_epochs = 10}},
    };
    return methods;
}

std::vector<std::string> method_names() {
    std::vector<std::string> names;
    for (const MethodEntry& method : method_table()) {
        names.push_back(method.name);
    }
    return names;
}

const std::string& default_method() {
    return method_table().front().name;
}

} // namespace kiln::methods
