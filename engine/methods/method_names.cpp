#include "methods/method_names.h"

#include "core/json_args.h"
#include "core/text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace kiln::methods {
namespace {

// LightlyTrain's DINO for CNNs (and the DINO paper's ResNet-50 family): SGD, clipped at 3.
constexpr OptimizerDefaults kDinoSgd = {.name = "sgd",
                                        .base_lr = 0.03,
                                        .weight_decay = 1e-4,
                                        .momentum = 0.9,
                                        .warmup_epochs = 10,
                                        .gradient_clip = 3.0};
// The DINO paper's ViT recipe.
constexpr OptimizerDefaults kDinoAdamW = {.name = "adamw",
                                          .base_lr = 5e-4,
                                          .weight_decay = 0.04,
                                          .warmup_epochs = 10,
                                          .gradient_clip = 3.0};

constexpr double kImageNetSize = 1'000'000;

// From `start` at 20,000 images to `end` at ImageNet's size, clamped, rounded to `digits`.
double by_dataset_size(std::int64_t size, double start, double end, int digits) {
    const double share =
        std::clamp((double(size) - 20'000.0) / (kImageNetSize - 20'000.0), 0.0, 1.0);
    const double scale = std::pow(10.0, digits);
    return std::round((start + (end - start) * share) * scale) / scale;
}

std::string describe_optimizer(const OptimizerDefaults& optimizer) {
    char text[200];
    std::snprintf(text, sizeof text, "%s lr %g per 256 images, weight_decay %g, warm-up %g epochs",
                  optimizer.name.c_str(), optimizer.base_lr, optimizer.weight_decay,
                  optimizer.warmup_epochs);
    std::string described = text;
    if (optimizer.gradient_clip > 0) {
        std::snprintf(text, sizeof text, ", gradients clipped at %g", optimizer.gradient_clip);
        described += text;
    }
    return described;
}

std::string describe_head(int width) {
    return width > 0 ? ", projection head " + std::to_string(width) + " wide (hidden_dim)" : "";
}

std::string describe_decorrelation(double weight) {
    return weight > 0 ? ", decorrelation " + number_text(weight) : "";
}

using Kind = MethodArg::Kind;
constexpr int kMaxWidth = 1 << 16;

std::vector<MethodArg> simclr_args() {
    return {
        {"temperature", Kind::Number, 0.1, 1e-4, 100.0, "NT-Xent's temperature"},
        {"gather_distributed", Kind::Boolean, true, 0, 0,
         "several processes: each contrasts its views against every process's batch"},
        {"hidden_dim", Kind::Integer, nullptr, 1, kMaxWidth,
         "the projection head's hidden width; unset: the recipe's (below)"},
        {"output_dim", Kind::Integer, 128, 1, kMaxWidth, "the projection's output dimensions"},
        {"decorrelation", Kind::Number, nullptr, 0.0, 1e6,
         "weight of a term that pulls the backbone features' correlations towards zero; unset: "
         "the recipe's (below; 0 where it names none)"},
    };
}

std::vector<MethodArg> dino_args() {
    return {
        {"hidden_dim", Kind::Integer, nullptr, 1, kMaxWidth,
         "the head's hidden width; unset: the recipe's (below)"},
        {"bottleneck_dim", Kind::Integer, 256, 1, kMaxWidth,
         "the head's bottleneck before its prototypes"},
        {"output_dim", Kind::Integer, nullptr, 1, 1 << 20,
         "prototypes; unset: by the dataset's size"},
        {"student_temp", Kind::Number, 0.1, 1e-4, 10.0, "the student's softmax temperature"},
        {"teacher_temp", Kind::Number, nullptr, 1e-4, 10.0,
         "the teacher's softmax temperature after its warm-up; unset: by the dataset's size"},
        {"warmup_teacher_temp", Kind::Number, nullptr, 1e-4, 10.0,
         "the teacher's temperature at the start; unset: by the dataset's size"},
        {"warmup_teacher_temp_fraction", Kind::Number, 0.3, 0.0, 1.0,
         "the share of the run over which the teacher's temperature rises"},
        {"center_momentum", Kind::Number, 0.9, 0.0, 1.0,
         "momentum of the centre subtracted from the teacher's outputs"},
        {"momentum_start", Kind::Number, nullptr, 0.0, 1.0,
         "the teacher's EMA momentum at the start, rising on a cosine; unset: by the dataset's "
         "size"},
        {"momentum_end", Kind::Number, 1.0, 0.0, 1.0, "the teacher's EMA momentum at the end",
         "momentum_start"},
        {"freeze_last_layer_fraction", Kind::Number, 0.01, 0.0, 1.0,
         "the share of the run during which the head's last layer does not learn"},
    };
}

std::vector<MethodArg> distillation_args() {
    return {
        {"teacher", Kind::Text, "", 0, 0,
         "the model it learns from (required): an exported model or checkpoint, or "
         "torchscript:FILE"},
        {"queue_size", Kind::Integer, 0, 0, 1 << 20,
         "the teacher's features of this many recent images, as a KL term's extra negatives; 0: "
         "off"},
        {"temperature", Kind::Number, 0.07, 1e-4, 10.0, "the queue term's temperature"},
        {"patch_weight", Kind::Number, 0.0, 0.0, 100.0,
         "weight of the distance between the backbones' last feature maps; 0: off"},
    };
}

// The defaults the recipe resolves for the backbone family and the dataset's size.
nlohmann::json recipe_defaults(const MethodEntry& method, models::BackboneFamily family,
                               std::int64_t dataset_size) {
    nlohmann::json values = with_resolved_scaling(method.name, nullptr, dataset_size);
    values["hidden_dim"] = method.head_width_for(family);
    values["decorrelation"] = method.decorrelation_for(family);
    return values;
}

nlohmann::json read_arg(const MethodArg& arg, const nlohmann::json& fallback, JsonArgs& args) {
    switch (arg.kind) {
    case Kind::Number:
        return args.number(arg.name, fallback.get<double>(), arg.minimum, arg.maximum);
    case Kind::Integer:
        return args.integer(arg.name, fallback.get<int>(), int(arg.minimum), int(arg.maximum));
    case Kind::Boolean:
        return args.boolean(arg.name, fallback.get<bool>());
    case Kind::Text:
        break;
    }
    return args.text(arg.name, fallback.get<std::string>());
}

} // namespace

const std::vector<MethodEntry>& method_table() {
    static const OptimizerDefaults lars = {
        .name = "lars", .base_lr = 0.3, .weight_decay = 1e-6, .warmup_epochs = 10};
    static const OptimizerDefaults distillation = {
        .name = "adamw", .base_lr = 5e-4, .weight_decay = 0.04, .warmup_epochs = 10};
    // The small CNN on small images: SGD with weight decay 5e-4, the CIFAR recipe of SimSiam and
    // MoCo, at twice their rate. Fashion-MNIST at 32 px, 10 minutes: kNN 88.3% against LARS's
    // 86.3% (86.3% with LARS at this weight decay too); at 0.03, 0.06, 0.12 per 256 images 87.9,
    // 88.0-88.1, 88.4%. Not for ResNet-18 there: 81.5% against LARS's 83.3% after 3 minutes.
    static const OptimizerDefaults small_cnn_sgd = {
        .name = "sgd", .base_lr = 0.12, .weight_decay = 5e-4, .warmup_epochs = 10};
    // SimCLR's and DINO's heads are LightlyTrain's, 2048 wide. The small CNN's SimCLR head is
    // twice its 256 features: on Fashion-MNIST at 32 px its steps run 20% faster and kNN gains
    // 0.3 points in the same 10 minutes.
    static const std::vector<MethodEntry> methods = {
        {.name = "simclr",
         .cnn_optimizer = lars,
         .vit_optimizer = lars,
         .small_cnn_optimizer = small_cnn_sgd,
         .head_width = 2048,
         .small_cnn_head_width = 512,
         .small_cnn_decorrelation = 0.3,
         .args = simclr_args()},
        {.name = "dino",
         .cnn_optimizer = kDinoSgd,
         .vit_optimizer = kDinoAdamW,
         .head_width = 2048,
         .views = data::ViewRecipe::MultiCrop,
         .args = dino_args()},
        {.name = "distillation",
         .cnn_optimizer = distillation,
         .vit_optimizer = distillation,
         .views = data::ViewRecipe::Single,
         .needs_teacher = true,
         .args = distillation_args()},
    };
    return methods;
}

const MethodEntry* find_method(const std::string& name) {
    const std::vector<MethodEntry>& methods = method_table();
    const auto found = std::find_if(methods.begin(), methods.end(),
                                    [&](const MethodEntry& entry) { return entry.name == name; });
    return found == methods.end() ? nullptr : &*found;
}

data::ViewRecipe view_recipe(const std::string& method) {
    const MethodEntry* entry = find_method(method);
    return entry ? entry->views : data::ViewRecipe::Pair;
}

DinoScaling dino_scaling(std::int64_t dataset_size) {
    DinoScaling scaling;
    const std::pair<std::int64_t, int> buckets[] = {
        {20'000, 1024}, {50'000, 2048}, {100'000, 4096}, {200'000, 16384}, {500'000, 32768}};
    scaling.output_dim = 65536;
    for (const auto& [below, output] : buckets) {
        if (dataset_size < below) {
            scaling.output_dim = output;
            break;
        }
    }
    scaling.teacher_temp = by_dataset_size(dataset_size, 0.02, 0.07, 2);
    // The warm-up starts from the sharper of the two: 0.02 on small sets, 0.04 on ImageNet.
    scaling.warmup_teacher_temp =
        std::min(scaling.teacher_temp,
                 std::round((0.02 + (scaling.teacher_temp - 0.02) * 0.4) * 100.0) / 100.0);
    scaling.momentum_start = by_dataset_size(dataset_size, 0.99, 0.996, 3);
    return scaling;
}

nlohmann::json with_resolved_scaling(const std::string& method, const nlohmann::json& method_args,
                                     std::int64_t dataset_size) {
    nlohmann::json resolved = method_args.is_object() ? method_args : nlohmann::json::object();
    if (method == "dino") {
        const DinoScaling scaling = dino_scaling(dataset_size);
        resolved.emplace("output_dim", scaling.output_dim); // what is given stays
        resolved.emplace("teacher_temp", scaling.teacher_temp);
        resolved.emplace("warmup_teacher_temp", scaling.warmup_teacher_temp);
        resolved.emplace("momentum_start", scaling.momentum_start);
    }
    return resolved;
}

std::string describe_recipes() {
    std::string text = "Method recipes (optim=auto; optim_args and method_args change them):\n";
    for (const MethodEntry& method : method_table()) {
        const std::string head = describe_head(method.head_width);
        const std::string cnn = describe_optimizer(method.cnn_optimizer) + head;
        const std::string vit = describe_optimizer(method.vit_optimizer) + head;
        text += cnn == vit ? "  " + method.name + ": " + cnn + "\n"
                           : "  " + method.name + ", CNN backbones: " + cnn + "\n  " + method.name +
                                 ", ViT backbones: " + vit + "\n";
        if (method.small_cnn_optimizer || method.small_cnn_head_width > 0) {
            const auto small = models::BackboneFamily::SmallCnn;
            text += "  " + method.name +
                    ", the small CNN: " + describe_optimizer(method.optimizer(small)) +
                    describe_head(method.head_width_for(small)) +
                    describe_decorrelation(method.decorrelation_for(small)) + "\n";
        }
    }
    const DinoScaling small = dino_scaling(10'000);
    const DinoScaling large = dino_scaling(1'000'000);
    char scaling[400];
    std::snprintf(scaling, sizeof scaling,
                  "  dino, by the dataset's size (under 20k images -> ImageNet's 1M): output_dim "
                  "%d -> %d, teacher_temp %g -> %g (warm-up from %g -> %g), momentum_start %g -> "
                  "%g\n",
                  small.output_dim, large.output_dim, small.teacher_temp, large.teacher_temp,
                  small.warmup_teacher_temp, large.warmup_teacher_temp, small.momentum_start,
                  large.momentum_start);
    return text + scaling;
}

std::vector<std::string> method_names() {
    std::vector<std::string> names;
    for (const MethodEntry& method : method_table()) {
        names.push_back(method.name);
    }
    return names;
}

nlohmann::json resolve_method_args(const MethodEntry& method, const std::string& model,
                                   std::int64_t dataset_size, const nlohmann::json& given,
                                   std::vector<ConfigIssue>& issues) {
    const nlohmann::json recipe =
        recipe_defaults(method, models::backbone_family(model), dataset_size);
    JsonArgs args(given, "method_args", issues);
    nlohmann::json values = nlohmann::json::object();
    for (const MethodArg& arg : method.args) {
        if (arg.fallback.is_null() && !recipe.contains(arg.name)) {
            throw Error("method_args." + arg.name + " of " + method.name +
                        " has no default: declare one or resolve it in recipe_defaults");
        }
        values[arg.name] =
            read_arg(arg, arg.fallback.is_null() ? recipe[arg.name] : arg.fallback, args);
    }
    for (const MethodArg& arg : method.args) {
        if (!arg.at_least.empty() && !values.contains(arg.at_least)) {
            throw Error("method_args." + arg.name + " of " + method.name +
                        " is declared at least an argument it does not have, " + arg.at_least);
        }
        if (!arg.at_least.empty() && values[arg.name] < values[arg.at_least]) {
            args.report(arg.name, "must be at least method_args." + arg.at_least + " (" +
                                      values[arg.at_least].dump() + "), got " +
                                      values[arg.name].dump());
            values[arg.name] = values[arg.at_least];
        }
    }
    args.finish();
    return values;
}

std::vector<ConfigIssue> method_args_issues(const std::string& name, const std::string& model,
                                            const nlohmann::json& method_args) {
    std::vector<ConfigIssue> issues;
    if (const MethodEntry* method = find_method(name)) {
        // The keys and ranges, which do not depend on the dataset's size.
        resolve_method_args(*method, model, 0, method_args, issues);
    }
    return issues;
}

const std::string& default_method() {
    return method_table().front().name;
}

} // namespace kiln::methods
