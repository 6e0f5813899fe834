#pragma once

#include "core/error.h"
#include "data/view_recipe.h"
#include "models/backbone_names.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace kiln::methods {

// What a method trains best with when the user leaves `optim` on auto, as LightlyTrain does.
struct OptimizerDefaults {
    std::string name;          // sgd, adamw or lars
    double base_lr = 0.0;      // for a global batch of 256; scaled linearly with the batch
    double weight_decay = 0.0; // not applied to biases and normalisation weights
    double momentum = 0.9;
    double warmup_epochs = 0.0; // linear warm-up, at most a tenth of the run
    double ema_decay = 0.0;     // an average of the weights is validated and exported; 0: off
    double gradient_clip = 0.0; // the gradients' total norm is clipped to this; 0: off
    // Fine-tuning: the backbone's share of the learning rate (the new head's is all of it).
    double backbone_lr_factor = 1.0;
};

// One of a method's `method_args`, declared once: the method reads it through
// resolve_method_args, which checks it; `kiln train --help` and Studio's method settings
// describe it from here.
struct MethodArg {
    enum class Kind { Number, Integer, Boolean, Text };
    std::string name;
    Kind kind = Kind::Number;
    // null: the recipe's, by backbone family or dataset size (the head's width, DINO's scaling).
    nlohmann::json fallback = nullptr;
    double minimum = 0.0;
    double maximum = 0.0;
    std::string help = {};
    std::string at_least = {}; // the argument this one may not be below
};

// A method's recipe: its optimizer for convolutional backbones (and TorchScript modules) and
// for vision transformers, which the DINO paper and LightlyTrain train differently, and where it
// differs, for the small CNN.
struct MethodEntry {
    std::string name;
    OptimizerDefaults cnn_optimizer;
    OptimizerDefaults vit_optimizer;
    std::optional<OptimizerDefaults> small_cnn_optimizer = std::nullopt;
    // The projection head's hidden width, `method_args.hidden_dim` on its default; 0: no head.
    int head_width = 0;
    int small_cnn_head_width = 0; // where the small CNN's differs; 0: head_width
    data::ViewRecipe views = data::ViewRecipe::Pair;
    bool needs_teacher = false; // method_args.teacher names the model it learns from
    // SimCLR's method_args.decorrelation on the small CNN (elsewhere 0: not measured there).
    double small_cnn_decorrelation = 0.0;
    std::vector<MethodArg> args = {};

    const OptimizerDefaults& optimizer(models::BackboneFamily family) const {
        if (family == models::BackboneFamily::SmallCnn && small_cnn_optimizer) {
            return *small_cnn_optimizer;
        }
        return family == models::BackboneFamily::Vit ? vit_optimizer : cnn_optimizer;
    }
    double decorrelation_for(models::BackboneFamily family) const {
        return family == models::BackboneFamily::SmallCnn ? small_cnn_decorrelation : 0.0;
    }
    int head_width_for(models::BackboneFamily family) const {
        return family == models::BackboneFamily::SmallCnn && small_cnn_head_width > 0
                   ? small_cnn_head_width
                   : head_width;
    }
};

// The self-supervised methods Kiln has, in the order `kiln list-methods` prints them, with
// their optimizer defaults: the one table that the configuration schema, the CLI, Studio,
// make_method and the trainer read. Kept apart from the LibTorch code so that configuration
// checks and Studio's form read it cheaply.
const std::vector<MethodEntry>& method_table();
// The table's entry named `name`; nullptr when there is none.
const MethodEntry* find_method(const std::string& name);
std::vector<std::string> method_names();
// The views `method` trains on; a pair for a name the table lacks (its error is the method
// check's to report, while the views are still checked).
data::ViewRecipe view_recipe(const std::string& method);
// DINO's settings that follow the dataset's size, as LightlyTrain scales them: fewer prototypes,
// a sharper teacher and a slower-moving one on small sets, towards the paper's ImageNet values.
struct DinoScaling {
    int output_dim = 65536;
    double teacher_temp = 0.07;
    double warmup_teacher_temp = 0.04;
    double momentum_start = 0.996;
};
DinoScaling dino_scaling(std::int64_t dataset_size);
// `method_args` with what follows the dataset's size filled in where it is not given (DINO's
// scaling), as a run records it: resumed, it trains the head and teacher it started with even
// when its folder has grown or a newer Kiln scales otherwise.
nlohmann::json with_resolved_scaling(const std::string& method, const nlohmann::json& method_args,
                                     std::int64_t dataset_size);

// `method`'s arguments: `given` checked against their declarations (unknown keys, types,
// ranges, appended to `issues`), every one not given at its default for `model`'s backbone
// family and the dataset's size. A bad value is replaced by its default (one below the argument
// it must be at least, by that argument's value).
nlohmann::json resolve_method_args(const MethodEntry& method, const std::string& model,
                                   std::int64_t dataset_size, const nlohmann::json& given,
                                   std::vector<ConfigIssue>& issues);

// The problems building the method would report with `method_args`, found without building it:
// no model is made, no teacher loaded (its file is run_config's check). For `config check` and
// Studio's form.
std::vector<ConfigIssue> method_args_issues(const std::string& name, const std::string& model,
                                            const nlohmann::json& method_args);

// The recipes as `kiln train --help` prints them: one line per method and backbone family, and
// DINO's scaling with the dataset.
std::string describe_recipes();

// The method `kiln train` uses when none is named: the table's first, SimCLR (distillation would
// need a teacher, which Kiln cannot download).
const std::string& default_method();

} // namespace kiln::methods
