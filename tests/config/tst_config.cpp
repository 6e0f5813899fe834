// Run configuration: parsing, validation (every error at once), auto resolution, overrides.

#include "config/command_settings.h"
#include "config/config_overrides.h"
#include "config/config_schema.h"
#include "config/form_fields.h"
#include "config/run_config.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/input_file.h"
#include "core/json_text.h"
#include "core/text.h"
#include "methods/method_names.h"
#include "support/error_text.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

using nlohmann::json;

namespace {

kiln::system::GpuInfo gpu(int index, const std::string& name, int major) {
    kiln::system::GpuInfo info;
    info.index = index;
    info.name = name;
    info.compute_major = major;
    return info;
}

kiln::ResolveContext cpuOnly(int cores = 8) {
    kiln::ResolveContext context;
    context.hardware.cpu_cores = cores;
    return context;
}

kiln::ResolveContext withGpus(std::vector<kiln::system::GpuInfo> gpus, int cores = 16) {
    kiln::ResolveContext context;
    context.hardware.cpu_cores = cores;
    context.hardware.gpus = std::move(gpus);
    context.hardware.libtorch_has_cuda = true;
    return context;
}

// The problems a configuration has, as "path: message" lines; empty when it is valid.
template <class Resolve> std::vector<kiln::ConfigIssue> problemsOf(Resolve resolve) {
    try {
        resolve();
    } catch (const kiln::ConfigError& error) {
        return error.issues();
    }
    return {};
}

const kiln::ConfigIssue* findIssue(const std::vector<kiln::ConfigIssue>& issues,
                                   const std::string& path) {
    for (const kiln::ConfigIssue& issue : issues) {
        if (issue.path == path) {
            return &issue;
        }
    }
    return nullptr;
}

using kiln::config::KeySpec;
using kiln::config::ValueKind;

// A value of the wrong type for `key`, which normalize() must report at its own path.
json wrongValue(const KeySpec& key) {
    switch (key.kind) {
    case ValueKind::Text:
    case ValueKind::Path:
    case ValueKind::PathList:
    case ValueKind::Object:
    case ValueKind::ObjectOrPath:
        return 42;
    case ValueKind::Choice:
    case ValueKind::IntegerOrChoice:
        return "no-such-choice";
    default:
        return "not-a-number";
    }
}

// A valid value for `key` other than its default, for round trips.
json otherValue(const KeySpec& key) {
    switch (key.kind) {
    case ValueKind::Text:
    case ValueKind::Path:
        return "/some/where";
    case ValueKind::PathList:
        return json::array({"/a", "/b"});
    case ValueKind::Integer:
    case ValueKind::IntegerOrChoice:
    case ValueKind::Devices:
        return static_cast<long long>(key.minimum) + 3;
    case ValueKind::Number:
        return key.minimum + (std::min(key.maximum, 1e6) - key.minimum) / 4;
    case ValueKind::Numbers:
        return json::array({key.maximum / 2, key.maximum / 4});
    case ValueKind::Boolean: // unset by default (null) or the other truth value
        return !(key.default_value.is_boolean() && key.default_value.get<bool>());
    case ValueKind::Choice:
        return key.choices.back() == key.default_value ? key.choices.front() : key.choices.back();
    case ValueKind::ImageSize:
        return json::array({37, 41});
    case ValueKind::Duration:
        return 300;
    case ValueKind::Object:
    case ValueKind::ObjectOrPath:
        return json::object();
    }
    return nullptr;
}

json::json_pointer pointerOf(const std::string& path) {
    std::string pointer = "/" + path;
    std::replace(pointer.begin(), pointer.end(), '.', '/');
    return json::json_pointer(pointer);
}

// Settings that normalize() accepts for `schema`: its required keys.
json minimalInput(const kiln::config::CommandSchema& schema) {
    json input = json::object();
    for (const KeySpec& key : schema.keys) {
        if (key.required) {
            input[key.name] = key.kind == ValueKind::Object   ? json::object()
                              : key.kind == ValueKind::Choice ? json(key.choices.front())
                                                              : json("/required");
        }
    }
    return input;
}

// Calls `visit(path, key)` for every key and nested key of `keys`.
template <class Visit>
void walkKeys(const std::vector<KeySpec>& keys, const std::string& prefix, Visit visit) {
    for (const KeySpec& key : keys) {
        visit(prefix + key.name, key);
        walkKeys(key.children, prefix + key.name + ".", visit);
    }
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace

class ConfigTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir temp_;
    QString images_;

    json minimalTrain() const {
        return {{"out", (temp_.path() + "/run").toStdString()},
                {"data", images_.toStdString()},
                {"model", "resnet18"}};
    }
    json minimalEmbed() const {
        return {{"out", (temp_.path() + "/embeddings.pt").toStdString()},
                {"data", images_.toStdString()},
                {"checkpoint", (temp_.path() + "/last.ckpt").toStdString()}};
    }
    std::vector<kiln::ConfigIssue> trainProblems(const json& input,
                                                 const kiln::ResolveContext& context) const {
        return problemsOf([&] { kiln::resolve_train_config(input, context); });
    }

private Q_SLOTS:
    // A method's recipe follows the backbone's family and the dataset's size: DINO trains CNNs
    // with SGD, ViTs with AdamW, both clipped at 3; naming the other family's optimizer gives
    // that family's recipe; prototypes, teacher temperature and momentum scale with the data.
    void methodRecipesFollowTheBackboneAndTheData() {
        const auto dino = [](const std::string& optim, const std::string& model) {
            return kiln::optimizer_defaults(kiln::TaskKind::Pretraining, "dino", optim, model);
        };
        QCOMPARE(dino("auto", "resnet18").name, std::string("sgd"));
        QCOMPARE(dino("auto", "resnet18").base_lr, 0.03);
        QCOMPARE(dino("auto", "resnet18").weight_decay, 1e-4);
        QCOMPARE(dino("auto", "resnet18").gradient_clip, 3.0);
        QCOMPARE(dino("auto", "vit_small").name, std::string("adamw"));
        QCOMPARE(dino("auto", "vit_small").base_lr, 5e-4);
        QCOMPARE(dino("adamw", "resnet18").base_lr, 5e-4); // the ViT recipe's AdamW
        QCOMPARE(dino("lars", "resnet18").base_lr, 0.1);   // neither recipe's: the generic one
        QCOMPARE(dino("lars", "resnet18").gradient_clip, 3.0);
        QCOMPARE(kiln::optimizer_defaults(kiln::TaskKind::Pretraining, "simclr", "auto", "vit_tiny")
                     .name,
                 std::string("lars"));
        // A pretrained classifier's backbone learns slower whatever optimizer is named.
        const auto pretrained = [](const std::string& optim) {
            return kiln::optimizer_defaults(kiln::TaskKind::ImageClassification, "", optim,
                                            "smallcnn", true);
        };
        QVERIFY(pretrained("auto").backbone_lr_factor < 1.0);
        QCOMPARE(pretrained("sgd").backbone_lr_factor, pretrained("auto").backbone_lr_factor);

        // SimCLR trains the small CNN with SGD and weight decay (the CIFAR recipe), the other
        // CNNs and ViTs with LARS; naming LARS for the small CNN gives the CNNs' recipe, naming
        // SGD for a ResNet the small CNN's.
        const auto simclr = [](const std::string& optim, const std::string& model) {
            return kiln::optimizer_defaults(kiln::TaskKind::Pretraining, "simclr", optim, model);
        };
        QCOMPARE(simclr("auto", "smallcnn").name, std::string("sgd"));
        QCOMPARE(simclr("auto", "smallcnn").base_lr, 0.12);
        QCOMPARE(simclr("auto", "smallcnn").weight_decay, 5e-4);
        QCOMPARE(simclr("auto", "resnet18").name, std::string("lars"));
        QCOMPARE(simclr("auto", "cspnet_n").name, std::string("lars"));
        QCOMPARE(simclr("lars", "smallcnn").base_lr, 0.3);
        QCOMPARE(simclr("sgd", "resnet18").weight_decay, 5e-4);
        QCOMPARE(dino("auto", "smallcnn").base_lr, 0.03); // DINO has no recipe of its own for it
        json settings = minimalTrain();
        settings["model"] = "smallcnn";
        QCOMPARE(kiln::parse_train_config(settings).optimizer.chosen.name, std::string("sgd"));
        QVERIFY(kiln::methods::describe_recipes().find(
                    "simclr, the small CNN: sgd lr 0.12 per 256 images, weight_decay 0.0005") !=
                std::string::npos);
        // The heads' widths are the table's too, shown beside the optimizers.
        QVERIFY(
            kiln::methods::describe_recipes().find(
                "warm-up 10 epochs, projection head 512 wide (hidden_dim), decorrelation 0.3\n") !=
            std::string::npos);
        QVERIFY(kiln::methods::describe_recipes().find(
                    "simclr: lars lr 0.3 per 256 images, weight_decay 1e-06, warm-up 10 epochs, "
                    "projection head 2048 wide (hidden_dim)\n") != std::string::npos);
        QCOMPARE(kiln::methods::find_method("dino")->head_width_for(
                     kiln::models::BackboneFamily::SmallCnn),
                 2048);
        QVERIFY(kiln::methods::find_method("byol") == nullptr);
        // Each method's views, and which one learns from a teacher, are the table's as well.
        using kiln::data::ViewRecipe;
        QVERIFY(kiln::methods::view_recipe("simclr") == ViewRecipe::Pair);
        QVERIFY(kiln::methods::view_recipe("dino") == ViewRecipe::MultiCrop);
        QVERIFY(kiln::methods::view_recipe("distillation") == ViewRecipe::Single);
        QVERIFY(kiln::methods::view_recipe("byol") == ViewRecipe::Pair); // checked elsewhere
        QVERIFY(kiln::methods::find_method("distillation")->needs_teacher);
        QVERIFY(!kiln::methods::find_method("dino")->needs_teacher);

        const auto small = kiln::methods::dino_scaling(10'000);
        QCOMPARE(small.output_dim, 1024);
        QCOMPARE(small.teacher_temp, 0.02);
        QCOMPARE(small.warmup_teacher_temp, 0.02);
        QCOMPARE(small.momentum_start, 0.99);
        const auto middle = kiln::methods::dino_scaling(216'000); // a fifth of the way
        QCOMPARE(middle.output_dim, 32768);
        QCOMPARE(middle.teacher_temp, 0.03);
        QCOMPARE(middle.warmup_teacher_temp, 0.02); // 0.024, to 2 digits as LightlyTrain's
        QCOMPARE(middle.momentum_start, 0.991);     // 0.9912
        const auto imagenet = kiln::methods::dino_scaling(1'281'167);
        QCOMPARE(imagenet.teacher_temp, 0.07);
        QCOMPARE(imagenet.warmup_teacher_temp, 0.04);
        QCOMPARE(imagenet.momentum_start, 0.996);
        QCOMPARE(kiln::methods::dino_scaling(60'000).output_dim, 4096);
        // A run records what its size chose, beside what it was given.
        const json recorded =
            kiln::methods::with_resolved_scaling("dino", {{"teacher_temp", 0.05}}, 10'000);
        QCOMPARE(recorded, json({{"output_dim", 1024},
                                 {"teacher_temp", 0.05},
                                 {"warmup_teacher_temp", 0.02},
                                 {"momentum_start", 0.99}}));
        QCOMPARE(kiln::methods::with_resolved_scaling("simclr", json(), 10'000), json::object());
        // kiln train --help prints the table.
        QVERIFY(kiln::methods::describe_recipes().find("dino, CNN backbones: sgd lr 0.03") !=
                std::string::npos);
    }

    void initTestCase() {
        QVERIFY(temp_.isValid());
        images_ = temp_.path() + "/images";
        QVERIFY(QDir().mkpath(images_));
        QFile checkpoint(temp_.path() + "/last.ckpt");
        QVERIFY(checkpoint.open(QIODevice::WriteOnly));
    }

    void trainDefaultsAreLightlyTrains() {
        const kiln::TrainConfig config = kiln::parse_train_config(minimalTrain());
        QCOMPARE(config.method, std::string("simclr"));
        QCOMPARE(config.epochs, 100);
        QCOMPARE(config.batch_size, 128);
        QVERIFY(!config.num_workers.has_value());
        QVERIFY(!config.devices.has_value());
        QCOMPARE(config.num_nodes, 1);
        QCOMPARE(config.accelerator, kiln::Accelerator::Auto);
        QCOMPARE(config.strategy, std::string("auto"));
        QCOMPARE(config.precision, kiln::Precision::Auto);
        QCOMPARE(config.seed, 0);
        QCOMPARE(config.optim, std::string("auto"));
        QVERIFY(config.method_args.is_object() && config.method_args.empty());
        QVERIFY(!config.resume_interrupted);
        QVERIFY(!config.checkpoint.has_value());
        QVERIFY(!config.overwrite);
        QCOMPARE(config.gradient_accumulation_steps, 1);
        QCOMPARE(config.data.size(), std::size_t(1));
    }

    void trainJsonRoundTrip() {
        json input = minimalTrain();
        input["data"] = json::array({images_.toStdString(), "/elsewhere/image.jpg"});
        input["epochs"] = 7;
        input["devices"] = 2;
        input["precision"] = "bf16-mixed";
        input["method_args"] = {{"temperature", 0.2}};
        input["loggers"] = {{"tensorboard", nullptr}, {"mlflow", {{"experiment_name", "x"}}}};
        input["checkpoint"] = "/weights.pt";
        const json written = kiln::to_json(kiln::parse_train_config(input));
        QCOMPARE(kiln::to_json(kiln::parse_train_config(written)), written);
        QCOMPARE(written["epochs"], json(7));
        QCOMPARE(written["num_workers"], json("auto"));
        QCOMPARE(written["method_args"]["temperature"], json(0.2));
        QCOMPARE(written["loggers"]["mlflow"]["experiment_name"], json("x"));
        QCOMPARE(written["checkpoint"], json("/weights.pt"));
        QCOMPARE(written["task"], json("pretrain"));
        // Every key of the schema, and the task that picks the schema when read back.
        QCOMPARE(written.size(), kiln::config::train_schema().keys.size() + 1);
    }

    void resumedRunsTakeWhatTheyRecorded() {
        // Studio resumes a run from its recorded settings: a fine-tuning run's name their task
        // (a stopped classifier was resolved as pretraining, and refused).
        QCOMPARE(kiln::recorded_task({{"task", "image_classification"}, {"model", "smallcnn"}}),
                 kiln::TaskKind::ImageClassification);
        QCOMPARE(kiln::recorded_task({{"model", "smallcnn"}}), kiln::TaskKind::Pretraining);
        QVERIFY(kiln::test::throwsContaining([] { kiln::recorded_task({{"task", "painting"}}); },
                                             "unknown task \"painting\""));
        json input = minimalTrain();
        input["model"] = "smallcnn";
        input["optim_args"] = {{"momentum", 0.8}};
        const kiln::TrainConfig given = kiln::parse_train_config(input);
        QCOMPARE(given.optimizer.chosen.name, std::string("sgd")); // auto for the small CNN
        const json recorded = {
            {"optim", "lars"},
            {"optim_args", {{"lr", 0.2}, {"momentum", 0.95}, {"trust_coefficient", 0.02}}},
            {"transform_args", {{"image_size", {48, 48}}}}};
        const kiln::TrainConfig resumed = kiln::with_interrupted_runs_choices(given, recorded);
        QCOMPARE(resumed.optimizer.chosen.name, std::string("lars"));
        QCOMPARE(resumed.optimizer.chosen.base_lr, 0.2);
        QCOMPARE(resumed.optimizer.trust_coefficient, 0.02); // every optimizer setting carries
        QCOMPARE(resumed.optimizer.chosen.momentum, 0.8);    // set for the resumed run: it stays
        QCOMPARE(resumed.transform_args["image_size"], json({48, 48}));
        // The kNN monitor goes on as it was, k included, without being named again; a monitor
        // given with its folders replaces it.
        const json monitored = {{"knn_monitor",
                                 {{"train", "/labelled/train"},
                                  {"val", "/labelled/val"},
                                  {"every_n_steps", 50},
                                  {"k", 3}}}};
        const kiln::TrainConfig monitoring = kiln::with_interrupted_runs_choices(given, monitored);
        QCOMPARE(monitoring.knn_monitor.train, std::filesystem::path("/labelled/train"));
        QCOMPARE(monitoring.knn_monitor.every_n_steps, std::int64_t(50));
        QCOMPARE(monitoring.knn_monitor.k, 3);
        json other = input;
        other["knn_monitor"] = {{"train", "/other/train"}, {"val", "/other/val"}};
        const kiln::TrainConfig replaced =
            kiln::with_interrupted_runs_choices(kiln::parse_train_config(other), monitored);
        QCOMPARE(replaced.knn_monitor.train, std::filesystem::path("/other/train"));
        QCOMPARE(replaced.knn_monitor.k, 20);
        QVERIFY(!resumed.knn_monitor.enabled()); // none recorded, none given
        // AdamW's own settings are recorded with the run's choice, and carried on resuming.
        input["optim"] = "adamw";
        input["optim_args"] = {{"betas", {0.8, 0.99}}, {"eps", 1e-6}};
        const json adamw =
            kiln::to_json(kiln::with_chosen_optimizer(kiln::parse_train_config(input)));
        QCOMPARE(adamw["optim_args"]["betas"], json({0.8, 0.99}));
        QCOMPARE(adamw["optim_args"]["eps"], json(1e-6));
        const kiln::TrainConfig resumedAdamw = kiln::with_interrupted_runs_choices(given, adamw);
        QCOMPARE(resumedAdamw.optimizer.beta1, 0.8);
        QCOMPARE(resumedAdamw.optimizer.beta2, 0.99);
        QCOMPARE(resumedAdamw.optimizer.eps, 1e-6);
        // DINO's local view count is carried as the image size is; a DINO run that predates
        // recording it trained 6 at every size; what the resumed run sets stays.
        json dinoInput = minimalTrain();
        dinoInput["method"] = "dino";
        const auto resumedLocalViews = [&](const json& recordedViews) {
            return kiln::with_interrupted_runs_choices(kiln::parse_train_config(dinoInput),
                                                       {{"transform_args", recordedViews}})
                .transform_args["local_view"]["num_views"];
        };
        QCOMPARE(resumedLocalViews({{"image_size", {32, 32}}, {"local_view", {{"num_views", 0}}}}),
                 json(0));
        QCOMPARE(resumedLocalViews({{"image_size", {32, 32}}}), json(6));
        dinoInput["transform_args"] = {{"local_view", {{"num_views", 2}}}};
        QCOMPARE(resumedLocalViews({{"local_view", {{"num_views", 0}}}}), json(2));
        // So are the method's settings its dataset's size chose, for the same method only.
        dinoInput["method_args"] = {{"teacher_temp", 0.05}};
        const json recordedScaling = {
            {"method", "dino"}, {"method_args", {{"output_dim", 2048}, {"teacher_temp", 0.02}}}};
        const json carried = kiln::with_interrupted_runs_choices(
                                 kiln::parse_train_config(dinoInput), recordedScaling)
                                 .method_args;
        QCOMPARE(carried, json({{"output_dim", 2048}, {"teacher_temp", 0.05}}));
        json otherMethod = recordedScaling;
        otherMethod["method"] = "simclr";
        QCOMPARE(
            kiln::with_interrupted_runs_choices(kiln::parse_train_config(dinoInput), otherMethod)
                .method_args,
            json({{"teacher_temp", 0.05}}));
        // A recorded TorchScript teacher is never loaded for a resume that names none (loading
        // it runs its code); one the user names again is theirs.
        json distillation = minimalTrain();
        distillation["method"] = "distillation";
        const json recordedTeacher = {
            {"method", "distillation"},
            {"method_args", {{"teacher", "torchscript:/elsewhere/teacher.pt"}}}};
        QVERIFY(kiln::test::throwsContaining(
            [&] {
                kiln::with_interrupted_runs_choices(kiln::parse_train_config(distillation),
                                                    recordedTeacher);
            },
            "the interrupted run: method_args.teacher is the TorchScript module"));
        distillation["method_args"] = {{"teacher", "torchscript:/mine/teacher.pt"}};
        QCOMPARE(kiln::with_interrupted_runs_choices(kiln::parse_train_config(distillation),
                                                     recordedTeacher)
                     .method_args["teacher"],
                 json("torchscript:/mine/teacher.pt"));
        // What an older checkpoint does not record is resolved as for a new run.
        const kiln::TrainConfig unrecorded = kiln::with_interrupted_runs_choices(given, json());
        QCOMPARE(unrecorded.optimizer.chosen.name, std::string("sgd"));
        QCOMPARE(unrecorded.transform_args["image_size"], json("auto"));
        // A checkpoint's settings are checked as any settings are.
        json damaged = recorded;
        damaged["optim_args"]["lr"] = -1;
        const auto issues =
            problemsOf([&] { kiln::with_interrupted_runs_choices(given, damaged); });
        QVERIFY(findIssue(issues, "optim_args.lr") != nullptr);
        damaged = recorded;
        damaged["transform_args"]["image_size"] = {0, 100000};
        QVERIFY(!problemsOf([&] { kiln::with_interrupted_runs_choices(given, damaged); }).empty());
    }

    void embedDefaultsAndRoundTrip() {
        json input = minimalEmbed();
        kiln::EmbedConfig config = kiln::parse_embed_config(input);
        QCOMPARE(config.format, std::string("torch"));
        QCOMPARE(config.image_height, 0); // auto: the size the checkpoint was trained at
        QCOMPARE(config.image_width, 0);
        QCOMPARE(kiln::to_json(config)["image_size"], json("auto"));
        QCOMPARE(config.batch_size, 128);
        QCOMPARE(config.precision, kiln::Precision::Full32);
        input["image_size"] = 96;
        config = kiln::parse_embed_config(input);
        QCOMPARE(config.image_height, 96);
        QCOMPARE(config.image_width, 96);
        input["image_size"] = {64, 128};
        input["format"] = "npy";
        const json written = kiln::to_json(kiln::parse_embed_config(input));
        QCOMPARE(written["image_size"], json({64, 128}));
        QCOMPARE(kiln::to_json(kiln::parse_embed_config(written)), written);
    }

    void unknownKeySuggestsTheClosest() {
        json input = minimalTrain();
        input["epohcs"] = 3;
        input["zzzzzzzz"] = 1;
        const auto issues = problemsOf([&] { kiln::parse_train_config(input); });
        QCOMPARE(issues.size(), std::size_t(2));
        QVERIFY(contains(findIssue(issues, "epohcs")->message, "did you mean \"epochs\"?"));
        QVERIFY(contains(findIssue(issues, "zzzzzzzz")->message, "known keys are out, data"));
    }

    void wrongTypesAndRanges() {
        json input = minimalTrain();
        input["epochs"] = "ten";
        input["batch_size"] = 0;
        input["seed"] = 1.5;
        input["overwrite"] = "yes";
        input["num_nodes"] = 5000000000LL;
        input["method_args"] = 3;
        input["data"] = json::array();
        input["transform_args"] = {{"image_size", 1}}; // a CNN's 1 px views learn nothing
        const auto issues = problemsOf([&] { kiln::parse_train_config(input); });
        QCOMPARE(issues.size(), std::size_t(8));
        QVERIFY(contains(findIssue(issues, "transform_args.image_size")->message,
                         "sides must be between 16 and 4096, got 1"));
        QVERIFY(
            contains(findIssue(issues, "epochs")->message, "expected integer >= 1, got a string"));
        QVERIFY(contains(findIssue(issues, "batch_size")->message, "at least 1, got 0"));
        QVERIFY(contains(findIssue(issues, "seed")->message, "number with a decimal point"));
        QVERIFY(contains(findIssue(issues, "overwrite")->message, "true or false"));
        QVERIFY(contains(findIssue(issues, "num_nodes")->message, "at most 2147483647"));
        // Beyond 64 bits the JSON reader holds an integer as floating point: still an integer.
        json huge = minimalTrain();
        huge["batch_size"] = json::parse("99999999999999999999");
        const auto too_large = problemsOf([&] { kiln::parse_train_config(huge); });
        QVERIFY(contains(findIssue(too_large, "batch_size")->message,
                         "got an integer too large to hold"));
        QVERIFY(contains(findIssue(issues, "method_args")->message, "a dictionary"));
        QVERIFY(contains(findIssue(issues, "data")->message, "list is empty"));
        // A key megabytes long is shown cut short (it was printed whole, after minutes of
        // looking for the known key closest to it).
        json long_key = {{"out", "o"}, {"data", "d"}, {"model", "smallcnn"}};
        long_key[std::string(5000000, 'k')] = 1;
        try {
            kiln::parse_train_config(long_key);
            QFAIL("a long unknown key was accepted");
        } catch (const kiln::ConfigError& error) {
            const std::string message = error.what();
            QVERIFY2(message.size() < 1000 && contains(message, "(5000000 bytes): unknown key"),
                     message.substr(0, 1000).c_str());
        }
    }

    void missingRequiredKeysAreAllReported() {
        const auto issues = problemsOf([] { kiln::parse_train_config(json::object()); });
        QCOMPARE(issues.size(), std::size_t(3));
        for (const char* key : {"out", "data", "model"}) {
            QVERIFY2(findIssue(issues, key) != nullptr, key);
            QVERIFY(contains(findIssue(issues, key)->message, "missing"));
        }
        const auto notAnObject = problemsOf([] { kiln::parse_train_config(json::array()); });
        QCOMPARE(notAnObject.size(), std::size_t(1));
        QVERIFY(contains(notAnObject[0].message, "dictionary of settings"));
    }

    void choicesSuggestTheClosest() {
        json input = minimalTrain();
        input["precision"] = "bf16-mix";
        input["method"] = "simclear";
        const auto issues = problemsOf([&] { kiln::parse_train_config(input); });
        QVERIFY(contains(findIssue(issues, "precision")->message, "did you mean \"bf16-mixed\"?"));
        QVERIFY(contains(findIssue(issues, "method")->message, "did you mean \"simclr\"?"));
    }

    void unknownModelsAreConfigErrors() {
        json input = minimalTrain();
        input["model"] = "resnet19";
        const auto issues = problemsOf([&] { kiln::parse_train_config(input); });
        QCOMPARE(issues.size(), std::size_t(1));
        QVERIFY(contains(issues[0].message, "did you mean \"resnet18\"?"));
    }

    void torchScriptModelsMustExist() {
        json input = minimalTrain();
        input["model"] = "torchscript:/no/such/backbone.pt";
        const auto issues = trainProblems(input, cpuOnly());
        QCOMPARE(issues.size(), std::size_t(1));
        QVERIFY(contains(findIssue(issues, "model")->message,
                         "\"/no/such/backbone.pt\" does not exist"));
        QVERIFY(contains(kiln::config::describe_keys(kiln::config::train_schema()),
                         "or torchscript:FILE"));
    }

    // A .pt path alone never loads as TorchScript (which runs the file's code): the user has to
    // say so, and the message says how.
    void torchScriptIsNamedExplicitly() {
        json input = minimalTrain();
        input["model"] = "/some/backbone.pt";
        const auto issues = problemsOf([&] { kiln::parse_train_config(input); });
        QCOMPARE(issues.size(), std::size_t(1));
        QVERIFY2(contains(issues[0].message, "torchscript:FILE"), issues[0].message.c_str());
    }

    void distillationNeedsAnExistingTeacher() {
        json input = minimalTrain();
        input["method"] = "distillation";
        auto issues = trainProblems(input, cpuOnly());
        QCOMPARE(issues.size(), std::size_t(1));
        QVERIFY(contains(findIssue(issues, "method_args.teacher")->message,
                         "required for distillation"));
        input["method_args"] = {{"teacher", "/no/such/teacher.pt"}};
        issues = trainProblems(input, cpuOnly());
        QVERIFY(contains(findIssue(issues, "method_args.teacher")->message, "is not a file"));
        input["method_args"]["teacher"] = (temp_.path() + "/last.ckpt").toStdString();
        QVERIFY(trainProblems(input, cpuOnly()).empty());
    }

    void gpuIsAnAliasOfCuda() {
        json input = minimalTrain();
        input["accelerator"] = "gpu";
        QCOMPARE(kiln::parse_train_config(input).accelerator, kiln::Accelerator::Cuda);
    }

    void loggersAreChecked() {
        json input = minimalTrain();
        input["loggers"] = {{"mlflw", json::object()}, {"tensorboard", 3}};
        const auto issues = problemsOf([&] { kiln::parse_train_config(input); });
        QCOMPARE(issues.size(), std::size_t(2));
        QVERIFY(contains(findIssue(issues, "loggers.mlflw")->message, "did you mean \"mlflow\"?"));
        QVERIFY(contains(findIssue(issues, "loggers.tensorboard")->message, "false to disable"));
        // A logger switched on or off by a boolean: its defaults, or nothing.
        input["loggers"] = {{"tensorboard", false}, {"jsonl", true}};
        const kiln::TrainConfig config = kiln::parse_train_config(input);
        QVERIFY(config.loggers["tensorboard"].is_null());
        QCOMPARE(config.loggers["jsonl"], json::object());
    }

    void autoResolvesOnCpu() {
        const kiln::TrainConfig config = kiln::resolve_train_config(minimalTrain(), cpuOnly(8));
        QCOMPARE(config.accelerator, kiln::Accelerator::Cpu);
        QCOMPARE(*config.devices, 1);
        QCOMPARE(config.precision, kiln::Precision::Full32);
        QCOMPARE(config.strategy, std::string("single_device"));
        QCOMPARE(*config.num_workers, 7);
    }

    void autoResolvesOnGpus() {
        const auto context = withGpus({gpu(0, "A100", 8), gpu(1, "A100", 8)}, 16);
        const kiln::TrainConfig config = kiln::resolve_train_config(minimalTrain(), context);
        QCOMPARE(config.accelerator, kiln::Accelerator::Cuda);
        QCOMPARE(*config.devices, 2);
        QCOMPARE(config.precision, kiln::Precision::BF16Mixed);
        QCOMPARE(config.strategy, std::string("ddp"));
        QCOMPARE(*config.num_workers, 7); // (16 - 2) / 2
    }

    void autoPrecisionWithoutBf16IsFullPrecision() {
        const auto context = withGpus({gpu(0, "Tesla V100", 7)});
        const kiln::TrainConfig config = kiln::resolve_train_config(minimalTrain(), context);
        QCOMPARE(config.precision, kiln::Precision::Full32);
        json input = minimalTrain();
        input["precision"] = "bf16-mixed";
        const auto issues = trainProblems(input, context);
        QCOMPARE(issues.size(), std::size_t(1));
        QVERIFY(contains(issues[0].message, "Tesla V100 has 7.0; use 16-mixed"));
    }

    void manualValuesAreKept() {
        json input = minimalTrain();
        input["num_workers"] = 12;
        input["precision"] = "bf16-mixed";
        const kiln::TrainConfig config = kiln::resolve_train_config(input, cpuOnly(2));
        QCOMPARE(*config.num_workers, 12);
        QCOMPARE(config.precision, kiln::Precision::BF16Mixed);
    }

    void halfPrecisionOnCpuSuggestsBf16() {
        json input = minimalTrain();
        input["precision"] = "16-mixed";
        auto issues = trainProblems(input, cpuOnly());
        QCOMPARE(issues.size(), std::size_t(1));
        QCOMPARE(issues[0].path, std::string("precision"));
        QVERIFY(contains(issues[0].message, "use bf16-mixed"));
        input["precision"] = "16-true";
        issues = trainProblems(input, cpuOnly());
        QVERIFY(contains(issues.at(0).message, "use bf16-true"));
    }

    void cudaWithoutCudaIsAnError() {
        json input = minimalTrain();
        input["accelerator"] = "cuda";
        auto issues = trainProblems(input, cpuOnly());
        QCOMPARE(issues.size(), std::size_t(1));
        QVERIFY(contains(issues[0].message, "CPU-only build"));
        QVERIFY(contains(issues[0].message, "accelerator=cpu"));
        issues = trainProblems(input, withGpus({}));
        QVERIFY(contains(issues.at(0).message, "CUDA_VISIBLE_DEVICES"));
    }

    void moreDevicesThanExist() {
        json input = minimalTrain();
        input["devices"] = 4;
        auto issues = trainProblems(input, withGpus({gpu(0, "A", 8), gpu(1, "B", 8)}));
        QCOMPARE(issues.size(), std::size_t(1));
        QVERIFY(contains(findIssue(issues, "devices")->message, "only 2 CUDA GPU(s)"));
        input["devices"] = 3;
        issues = trainProblems(input, cpuOnly(2));
        QVERIFY(contains(findIssue(issues, "devices")->message, "only 2 CPU cores"));
    }

    void devicesCanNameTheGpus() {
        json input = minimalTrain();
        input["devices"] = json::array({2, 0});
        input["batch_size"] = 64;
        const auto gpus = withGpus({gpu(0, "A", 8), gpu(1, "B", 8), gpu(2, "Old", 7)});
        QVERIFY(trainProblems(input, gpus).empty());
        const kiln::TrainConfig config = kiln::resolve_train_config(input, gpus);
        QCOMPARE(*config.devices, 2);
        QCOMPARE(config.gpu_indices(), (std::vector<int>{2, 0}));
        QCOMPARE(config.accelerator, kiln::Accelerator::Cuda);
        // GPU 2 has no bf16, so auto precision is 32-true; GPUs 0 and 1 alone would get bf16.
        QCOMPARE(config.precision, kiln::Precision::Full32);
        QCOMPARE(kiln::to_json(config)["devices"], json::array({2, 0}));
        input["devices"] = json::array({1});
        QCOMPARE(kiln::resolve_train_config(input, gpus).precision, kiln::Precision::BF16Mixed);
        // Round trip through the resolved settings (what a rank process receives).
        input["devices"] = json::array({1, 2});
        const kiln::TrainConfig round =
            kiln::parse_train_config(kiln::to_json(kiln::resolve_train_config(input, gpus)));
        QCOMPARE(round.gpu_indices(), (std::vector<int>{1, 2}));

        input["devices"] = json::array({0, 3});
        QVERIFY(contains(findIssue(trainProblems(input, gpus), "devices")->message,
                         "GPU 3 is not visible"));
        input["devices"] = json::array({1, 1});
        QVERIFY(
            contains(findIssue(trainProblems(input, gpus), "devices[1]")->message, "listed twice"));
        input["devices"] = json::array();
        QVERIFY(findIssue(trainProblems(input, gpus), "devices"));
        input["devices"] = json::array({0});
        input["accelerator"] = "cpu";
        QVERIFY(contains(findIssue(trainProblems(input, gpus), "devices")->message,
                         "use accelerator=cuda"));
    }

    void batchMustSplitEvenly() {
        json input = minimalTrain();
        input["batch_size"] = 100;
        input["num_nodes"] = 3;
        const auto issues = trainProblems(input, cpuOnly());
        QCOMPARE(issues.size(), std::size_t(1));
        QVERIFY(contains(findIssue(issues, "batch_size")->message,
                         "not divisible by num_nodes x devices = 3; use 99 or 102"));
        input["batch_size"] = 99;
        QVERIFY(trainProblems(input, cpuOnly()).empty());
    }

    void singleDeviceStrategyCannotSpreadOut() {
        json input = minimalTrain();
        input["strategy"] = "single_device";
        input["num_nodes"] = 2;
        const auto issues = trainProblems(input, cpuOnly());
        QVERIFY(contains(findIssue(issues, "strategy")->message, "use ddp"));
    }

    void nonEmptyOutNeedsOverwriteOrResume() {
        json input = minimalTrain();
        const QString out = QString::fromStdString(input["out"].get<std::string>());
        QVERIFY(QDir().mkpath(out));
        QVERIFY(trainProblems(input, cpuOnly()).empty()); // an empty folder is fine
        QFile leftover(out + "/config.json");
        QVERIFY(leftover.open(QIODevice::WriteOnly));
        leftover.close();
        auto issues = trainProblems(input, cpuOnly());
        QCOMPARE(issues.size(), std::size_t(1));
        QVERIFY(contains(findIssue(issues, "out")->message, "overwrite=true"));
        QVERIFY(contains(findIssue(issues, "out")->message, "resume_interrupted=true"));
        input["overwrite"] = true;
        QVERIFY(trainProblems(input, cpuOnly()).empty());
        input["overwrite"] = false;
        input["resume_interrupted"] = true;
        QVERIFY(trainProblems(input, cpuOnly()).empty());
        input["overwrite"] = true;
        issues = trainProblems(input, cpuOnly());
        QVERIFY(findIssue(issues, "resume_interrupted") != nullptr);
        QVERIFY(QDir(out).removeRecursively());
    }

    void missingPathsAreNamed() {
        json input = minimalTrain();
        input["data"] = {images_.toStdString(), "/no/such/folder"};
        input["checkpoint"] = "/no/such/weights.pt";
        const auto issues = trainProblems(input, cpuOnly());
        QCOMPARE(issues.size(), std::size_t(2));
        QVERIFY(
            contains(findIssue(issues, "data[1]")->message, "\"/no/such/folder\" does not exist"));
        QVERIFY(contains(findIssue(issues, "checkpoint")->message, "/no/such/weights.pt"));
    }

    // method_args are checked with the other settings (`config check`, Studio's form), as the
    // method reads them, not first at the start of training.
    void methodArgsAreCheckedWithTheOtherSettings() {
        json input = minimalTrain();
        input["method_args"] = {{"a", 1}, {"temperature", 0.0}};
        auto issues = trainProblems(input, cpuOnly());
        QVERIFY(findIssue(issues, "method_args.a") &&
                contains(findIssue(issues, "method_args.a")->message, "unknown key"));
        QVERIFY(findIssue(issues, "method_args.temperature"));
        input["method"] = "dino";
        input["method_args"] = {{"momentum_start", 0.99}, {"momentum_end", 0.5}};
        issues = trainProblems(input, cpuOnly());
        QCOMPARE(issues.size(), std::size_t(1));
        QVERIFY(findIssue(issues, "method_args.momentum_end"));
        input["method_args"] = {{"output_dim", 512}, {"teacher_temp", 0.04}};
        QVERIFY(trainProblems(input, cpuOnly()).empty());
    }

    // Each method's arguments are declared once, in the method table: the method reads every
    // declared one (its default for the backbone family and dataset size where not given), and
    // `kiln train --help` lists each.
    void methodArgsComeFromTheirDeclarations() {
        using kiln::methods::find_method;
        std::vector<kiln::ConfigIssue> issues;
        const json small = kiln::methods::resolve_method_args(*find_method("simclr"), "smallcnn",
                                                              1000, json(), issues);
        QCOMPARE(small["hidden_dim"], json(512));
        QCOMPARE(small["decorrelation"], json(0.3));
        QCOMPARE(small["temperature"], json(0.1));
        const json resnet = kiln::methods::resolve_method_args(
            *find_method("simclr"), "resnet18", 1000, {{"temperature", 0.2}}, issues);
        QCOMPARE(resnet["hidden_dim"], json(2048));
        QCOMPARE(resnet["decorrelation"], json(0.0));
        QCOMPARE(resnet["temperature"], json(0.2));
        const json dino = kiln::methods::resolve_method_args(*find_method("dino"), "resnet18", 1000,
                                                             json(), issues);
        QCOMPARE(dino["output_dim"], json(kiln::methods::dino_scaling(1000).output_dim));
        QCOMPARE(dino["teacher_temp"], json(kiln::methods::dino_scaling(1000).teacher_temp));
        QVERIFY(issues.empty());
        const std::string help = kiln::config::describe_method_args();
        for (const kiln::methods::MethodEntry& method : kiln::methods::method_table()) {
            QVERIFY(contains(help, method.name + "'s settings:"));
            for (const kiln::methods::MethodArg& arg : method.args) {
                QVERIFY2(contains(help, "method_args." + arg.name + " ("), arg.name.c_str());
                QVERIFY2(contains(help, arg.help), arg.name.c_str());
            }
        }
        QVERIFY(contains(help, "method_args.momentum_end (number in [0, 1]), default 1.0\n"
                               "      the teacher's EMA momentum at the end, at least "
                               "method_args.momentum_start"));
        // The schema's teacher is distillation's declaration.
        const auto* teacher = kiln::config::train_schema().find_path("method_args.teacher");
        QVERIFY(teacher && contains(teacher->help, "distillation: the model it learns from"));
    }

    void everyProblemIsReportedAtOnce() {
        json input = minimalTrain();
        input["epohcs"] = 3;
        input["precision"] = "16-mixed";
        input["batch_size"] = 7;
        input["devices"] = 2;
        input["data"] = "/no/such/folder";
        const auto issues = trainProblems(input, cpuOnly());
        QCOMPARE(issues.size(), std::size_t(4));
        QVERIFY(findIssue(issues, "epohcs"));
        QVERIFY(findIssue(issues, "precision"));
        QVERIFY(findIssue(issues, "batch_size"));
        QVERIFY(findIssue(issues, "data"));
        try {
            kiln::resolve_train_config(input, cpuOnly());
            QFAIL("expected a ConfigError");
        } catch (const kiln::ConfigError& error) {
            QVERIFY(contains(error.what(), "4 problems"));
            QVERIFY(contains(error.what(), "\n  epohcs: unknown key"));
            QVERIFY(!contains(error.what(), "more problems"));
        }
        // A file of thousands of bad keys: every problem kept, the first 50 printed.
        json flooded = minimalTrain();
        for (int i = 0; i < 1000; ++i) {
            flooded["unknown_" + std::to_string(i)] = i;
        }
        try {
            kiln::resolve_train_config(flooded, cpuOnly());
            QFAIL("expected a ConfigError");
        } catch (const kiln::ConfigError& error) {
            QCOMPARE(error.issues().size(), std::size_t(1000));
            QVERIFY(contains(error.what(), "(1000 problems)"));
            QVERIFY(contains(error.what(), "(950 more problems, not listed; fix these first)"));
            QCOMPARE(std::count(error.what(), error.what() + std::strlen(error.what()), '\n'), 51);
        }
    }

    void invalidValuesDoNotCauseFollowUpErrors() {
        json input = minimalTrain();
        input["devices"] = "two";
        input["batch_size"] = 7;
        const auto issues = trainProblems(input, cpuOnly());
        QCOMPARE(issues.size(), std::size_t(1)); // no divisibility complaint about a guess
        QVERIFY(findIssue(issues, "devices"));
    }

    void embedChecksItsFiles() {
        json input = minimalEmbed();
        QVERIFY(problemsOf([&] { kiln::resolve_embed_config(input, cpuOnly()); }).empty());
        input["out"] = temp_.path().toStdString() + "/last.ckpt"; // exists
        input["checkpoint"] = "/no/such/last.ckpt";
        input["format"] = "parquet";
        const auto issues = problemsOf([&] { kiln::resolve_embed_config(input, cpuOnly()); });
        QCOMPARE(issues.size(), std::size_t(3));
        QVERIFY(contains(findIssue(issues, "out")->message, "overwrite=true"));
        QVERIFY(findIssue(issues, "checkpoint"));
        QVERIFY(contains(findIssue(issues, "format")->message, "csv, lightly_csv, torch or npy"));
        input["out"] = temp_.path().toStdString();
        QVERIFY(contains(
            findIssue(problemsOf([&] { kiln::resolve_embed_config(input, cpuOnly()); }), "out")
                ->message,
            "is a folder"));
    }

    void overridesUseLightlyTrainSyntax() {
        const json settings = kiln::config::apply_overrides(
            {{"epochs", 5}, {"model", "resnet50"}},
            {"out=123", "epochs=10", "method_args.temperature=0.2",
             "loggers.mlflow.experiment_name=x", "loggers.tensorboard=null", "overwrite=true",
             "data=[a, b]", "model=resnet18", "optim_args.betas=[0.9,0.95]",
             "transform_args.random_flip.horizontal_prob=0.5"},
            kiln::config::train_schema());
        QCOMPARE(settings["out"], json("123")); // a path stays text
        QCOMPARE(settings["epochs"], json(10));
        QCOMPARE(settings["model"], json("resnet18"));
        QCOMPARE(settings["method_args"]["temperature"], json(0.2));
        QCOMPARE(settings["loggers"]["mlflow"]["experiment_name"], json("x"));
        QVERIFY(settings["loggers"]["tensorboard"].is_null());
        QCOMPARE(settings["overwrite"], json(true));
        QCOMPARE(settings["data"], json({"a", "b"}));
        QCOMPARE(settings["optim_args"]["betas"], json({0.9, 0.95}));
        QCOMPARE(settings["transform_args"]["random_flip"]["horizontal_prob"], json(0.5));
        // A list nested past JSON's limit is no JSON: one level of items, each kept as text
        // (it had recursed once per bracket and overflowed the stack).
        const std::string deep = std::string(30000, '[') + std::string(30000, ']');
        const json nested = kiln::config::apply_overrides(json::object(), {"method_args.x=" + deep},
                                                          kiln::config::train_schema());
        QCOMPARE(nested["method_args"]["x"], json::array({deep.substr(1, deep.size() - 2)}));
        // A path in Latin-1 (from an old zip): named with its key, not "unexpected failure"
        // when the run's settings were first written as JSON.
        QVERIFY(kiln::test::throwsContaining(
            [] {
                kiln::config::apply_overrides(json::object(), {"data=/tmp/caf\xe9"},
                                              kiln::config::train_schema());
            },
            "data: \"/tmp/caf\\xe9\" is not UTF-8 text"));
    }

    void malformedOverridesAreNamed() {
        for (const std::string bad : {"epochs", "=3", ".a=1", "a..b=1", "a.=1"}) {
            try {
                kiln::config::apply_overrides(json::object(), {bad}, kiln::config::train_schema());
                QFAIL(("accepted " + bad).c_str());
            } catch (const kiln::Error& error) {
                QVERIFY(contains(error.what(), "\"" + bad + "\""));
                QVERIFY(contains(error.what(), "kiln train --help"));
            }
        }
    }

    void configFilesAreReadWithClearErrors() {
        const QString path = temp_.path() + "/config.json";
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"epochs\": 3,}");
        file.close();
        try {
            kiln::config::read_config_file(path.toStdString());
            QFAIL("accepted malformed JSON");
        } catch (const kiln::Error& error) {
            QVERIFY(contains(error.what(), path.toStdString()));
            QVERIFY(contains(error.what(), "not valid JSON"));
        }
        QVERIFY_THROWS_EXCEPTION(kiln::Error, kiln::config::read_config_file("/no/such.json"));
        // A file nested deeper than any configuration is refused as it is read: copied or printed
        // (both recursive) it overflowed the stack at some 60,000 levels.
        const auto nested = [](int depth) {
            return std::string(std::size_t(depth), '[') + std::string(std::size_t(depth), ']');
        };
        QCOMPARE(kiln::parse_json(nested(kiln::kMaxJsonDepth), "x").dump().size(),
                 std::size_t(2 * kiln::kMaxJsonDepth));
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(("{\"method_args\": " + nested(100000) + "}").c_str());
        file.close();
        QVERIFY(kiln::test::throwsContaining(
            [&] { kiln::config::read_config_file(path.toStdString()); },
            "configuration file \"" + path.toStdString() + "\" nests deeper than 256 levels"));
        QVERIFY(kiln::parse_json_or_discarded(nested(kiln::kMaxJsonDepth + 1)).is_discarded());
        // A number no double holds names the file too, instead of an unexpected failure.
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write("{\"epochs\": 1e400}");
        file.close();
        QVERIFY(kiln::test::throwsContaining(
            [&] { kiln::config::read_config_file(path.toStdString()); },
            "configuration file \"" + path.toStdString() + "\" is not valid JSON"));
        // A device has no end (reading /dev/zero filled memory), a folder no text: both named.
        QVERIFY(kiln::test::throwsContaining([] { kiln::config::read_config_file("/dev/zero"); },
                                             "configuration file \"/dev/zero\" is a character "
                                             "device, not a file"));
        QVERIFY(kiln::test::throwsContaining([] { kiln::config::read_config_file("/tmp"); },
                                             "configuration file \"/tmp\" is a folder"));
        // The same check on a file already open (what was checked by path may be swapped for a
        // device before the open): the open file decides.
        const int device = ::open("/dev/null", O_RDONLY);
        QVERIFY(device >= 0);
        QVERIFY(kiln::test::throwsContaining(
            [&] { kiln::refuse_special_file(device, "cat.png", "image file"); },
            "image file \"cat.png\" is a character device"));
        ::close(device);
        const int regular = ::open(path.toStdString().c_str(), O_RDONLY);
        QVERIFY(regular >= 0);
        kiln::refuse_special_file(regular, "/dev/null", "image file"); // a file, whatever its name
        ::close(regular);
    }

    // Every setting of every command, declared once, goes through all that is derived from it:
    // --help lists it; a value of the wrong type is reported at its own path; a valid value
    // survives config.json's writer and reader.
    void everySettingWalksThroughEverything() {
        std::vector<const kiln::config::CommandSchema*> schemas;
        for (const kiln::TaskTraits& task : kiln::task_table()) {
            schemas.push_back(&kiln::config::train_schema(task.kind));
        }
        schemas.push_back(&kiln::config::embed_schema());
        schemas.push_back(&kiln::config::predict_schema());
        schemas.push_back(&kiln::config::export_schema());
        int walked = 0;
        for (const kiln::config::CommandSchema* schema : schemas) {
            const std::string help = kiln::config::describe_keys(*schema);
            const json minimal = minimalInput(*schema);
            walkKeys(schema->keys, "", [&](const std::string& path, const KeySpec& key) {
                const std::string where = schema->command + " " + path;
                QVERIFY2(contains(help, "  " + path + " ("), where.c_str());
                json input = minimal;
                input[pointerOf(path)] = wrongValue(key);
                std::vector<kiln::ConfigIssue> issues;
                kiln::config::normalize(*schema, input, issues);
                QVERIFY2(findIssue(issues, path) != nullptr, where.c_str());
                input[pointerOf(path)] = otherValue(key);
                issues.clear();
                const json normalized = kiln::config::normalize(*schema, input, issues);
                QVERIFY2(issues.empty(),
                         (where + ": " + (issues.empty() ? "" : issues[0].message)).c_str());
                ++walked;
            });
        }
        QVERIFY(walked > 150);
        // Written and read back, every command's settings are what was given.
        for (const kiln::TaskTraits& task : kiln::task_table()) {
            const auto& settings = kiln::config::train_settings(task.kind);
            json input = minimalInput(settings.schema());
            for (const KeySpec& key : settings.schema().keys) {
                if (key.children.empty() && !key.required) {
                    input[key.name] = otherValue(key);
                }
            }
            std::vector<kiln::ConfigIssue> issues;
            const json normalized = kiln::config::normalize(settings.schema(), input, issues);
            QVERIFY(issues.empty());
            const json written = settings.write(settings.read(normalized));
            for (const KeySpec& key : settings.schema().keys) {
                if (key.children.empty() && key.kind != ValueKind::Object) {
                    QVERIFY2(written[key.name] == normalized[key.name],
                             (task.command + " " + key.name + ": " + written[key.name].dump() +
                              " != " + normalized[key.name].dump())
                                 .c_str());
                }
            }
        }
    }

    // The defaults each task declares are the ones its command runs with.
    void eachTaskHasItsOwnDefaults() {
        for (const kiln::TaskTraits& task : kiln::task_table()) {
            const auto& schema = kiln::config::train_schema(task.kind);
            QCOMPARE(schema.find("epochs")->default_value, json(task.default_epochs));
            QCOMPARE(schema.find("batch_size")->default_value, json(task.default_batch_size));
            QCOMPARE(schema.command, task.command);
        }
        QCOMPARE(kiln::config::train_schema().find("method")->default_value,
                 json(kiln::methods::default_method()));
        QCOMPARE(kiln::task_traits(kiln::TaskKind::ImageClassification).default_epochs, 10);
        QCOMPARE(kiln::task_traits(kiln::TaskKind::Pretraining).default_batch_size, 128);
    }

    // What Studio's form shows comes from the same settings: its fields per task, the field
    // that shows a problem, and the task's defaults for what a preset leaves out.
    void formFieldsComeFromTheSettings() {
        const auto fields = kiln::config::form_fields(kiln::TaskKind::ImageClassification);
        const auto has = [&fields](const std::string& path) {
            return std::any_of(fields.begin(), fields.end(),
                               [&path](const auto& field) { return field.path == path; });
        };
        QVERIFY(has("epochs") && has("optim_args.lr") && has("model_args.backbone_weights"));
        QVERIFY(!has("method") && !has("method_args.teacher"));
        QVERIFY(kiln::config::form_fields(kiln::TaskKind::Pretraining).size() > fields.size() - 2);
        QCOMPARE(kiln::config::field_for_problem(fields, "optim_args.lr"),
                 std::string("optim_args.lr"));
        QCOMPARE(kiln::config::field_for_problem(fields, "data.train"), std::string("data"));
        QCOMPARE(kiln::config::field_for_problem(fields, "transform_args.image_size[0]"),
                 std::string("transform_args.image_size"));
        QCOMPARE(kiln::config::field_for_problem(fields, "strategy"), std::string());
        const json filled =
            kiln::config::with_form_defaults(kiln::TaskKind::ImageClassification, {{"epochs", 3}});
        QCOMPARE(filled["epochs"], json(3));
        QCOMPARE(filled["batch_size"], json(64));
        QCOMPARE(filled["callbacks"]["model_checkpoint"]["every_n_steps"], json(0));
    }

    // Nested settings are checked with the rest, by path, and read once into typed settings.
    void nestedSettingsAreCheckedAndTyped() {
        json input = minimalTrain();
        input["optim_args"] = {{"lr", -1}, {"betas", {0.9}}, {"momentom", 0.5}, {"eps", 0}};
        input["callbacks"] = {{"model_checkpoint", {{"every_n_step", 5}}}};
        const auto issues = problemsOf([&] { kiln::parse_train_config(input); });
        QVERIFY(findIssue(issues, "optim_args.lr") != nullptr);
        QVERIFY(findIssue(issues, "optim_args.betas") != nullptr);
        QVERIFY(findIssue(issues, "optim_args.eps") != nullptr); // NaN where a square is 0
        QVERIFY(contains(findIssue(issues, "optim_args.momentom")->message, "momentum"));
        QVERIFY(findIssue(issues, "callbacks.model_checkpoint.every_n_step") != nullptr);
        input["optim_args"] = {{"lr", 0.05}, {"betas", {0.8, 0.99}}};
        input["optim"] = "adamw";
        input["callbacks"] = {{"model_checkpoint", {{"every_n_steps", 5}}}};
        const kiln::TrainConfig config = kiln::parse_train_config(input);
        QCOMPARE(config.optimizer.chosen.name, std::string("adamw"));
        QCOMPARE(config.optimizer.chosen.base_lr, 0.05);
        QCOMPARE(config.optimizer.beta1, 0.8);
        QCOMPARE(config.optimizer.chosen.weight_decay, 1e-6); // another optimizer than SimCLR's
        QCOMPARE(config.checkpoint_every_n_steps, std::int64_t{5});
        QCOMPARE(kiln::parse_train_config(minimalTrain()).optimizer.chosen.name,
                 std::string("lars"));
    }

    // max_time takes seconds or Lightning's "DD:HH:MM:SS", and keeps the seconds.
    void maxTimeTakesSecondsOrAClock() {
        json input = minimalTrain();
        input["max_time"] = "00:01:30:05";
        QCOMPARE(*kiln::parse_train_config(input).max_time, 5405.0);
        input["max_time"] = "2:30";
        QCOMPARE(*kiln::parse_train_config(input).max_time, 150.0);
        input["max_time"] = 90;
        QCOMPARE(*kiln::parse_train_config(input).max_time, 90.0);
        QVERIFY(!kiln::parse_train_config(minimalTrain()).max_time);
        for (const json& bad : {json("ten minutes"), json("1::2"), json(0), json("00:00:00:00")}) {
            input["max_time"] = bad;
            const auto issues = problemsOf([&] { kiln::parse_train_config(input); });
            QVERIFY2(findIssue(issues, "max_time") != nullptr, bad.dump().c_str());
        }
    }

    // A fine-tuning run's folders and files are checked with its settings, so that `kiln config
    // check` and Studio's form catch a missing one before Train.
    void fineTuningDataPathsAreChecked() {
        json input = {{"out", (temp_.path() + "/cls").toStdString()},
                      {"model", "smallcnn"},
                      {"data", {{"train", images_.toStdString()}, {"val", "/no/val/folder"}}}};
        auto issues = problemsOf([&] {
            kiln::resolve_train_config(input, cpuOnly(), kiln::TaskKind::ImageClassification);
        });
        QCOMPARE(issues.size(), std::size_t(1));
        QVERIFY(
            contains(findIssue(issues, "data.val")->message, "\"/no/val/folder\" does not exist"));
        input["data"] = {{"train", {{"images", images_.toStdString()}}},
                         {"val", {{"images", images_.toStdString()}, {"annotations", "/no.json"}}}};
        issues = problemsOf(
            [&] { kiln::resolve_train_config(input, cpuOnly(), kiln::TaskKind::ObjectDetection); });
        QVERIFY(findIssue(issues, "data.train.annotations") != nullptr);
        QVERIFY(contains(findIssue(issues, "data.val.annotations")->message, "does not exist"));
    }

    // Each task's model settings are declared with it: `kiln config check` names a setting
    // another task has, or a value out of range, before Train.
    void modelArgsAreDeclaredPerTask() {
        const auto issues_for = [&](kiln::TaskKind task, const json& model_args) {
            const json input = {{"out", (temp_.path() + "/model-args").toStdString()},
                                {"model", "smallcnn"},
                                {"data", json::object()},
                                {"model_args", model_args}};
            return problemsOf([&] { kiln::resolve_train_config(input, cpuOnly(), task); });
        };
        auto issues = issues_for(kiln::TaskKind::SemanticSegmentation, {{"head", "mlp"}});
        QVERIFY(contains(findIssue(issues, "model_args.head")->message, "decoder_width"));
        issues = issues_for(kiln::TaskKind::ObjectDetection, {{"width", 4}, {"prototypes", 8}});
        QVERIFY(findIssue(issues, "model_args.width") != nullptr);
        QVERIFY(findIssue(issues, "model_args.prototypes") != nullptr); // boxes have no masks
        issues =
            issues_for(kiln::TaskKind::InstanceSegmentation, {{"width", 32}, {"prototypes", 8}});
        QVERIFY(findIssue(issues, "model_args.width") == nullptr);
        QVERIFY(findIssue(issues, "model_args.prototypes") == nullptr);
    }

    // A config built in code gets the declared model_args defaults for what it leaves out (a
    // parsed one has them filled in already).
    void modelArgsDefaultsComeFromTheirDeclaration() {
        kiln::TrainConfig built;
        built.task = kiln::TaskKind::ImageClassification;
        built.model_args = {{"freeze_backbone", true}};
        QCOMPARE(kiln::model_args_or_defaults(built),
                 json({{"head", "mlp"}, {"freeze_backbone", true}, {"label_smoothing", 0.0}}));
        built.task = kiln::TaskKind::InstanceSegmentation;
        built.model_args = nullptr;
        QCOMPARE(kiln::model_args_or_defaults(built), json({{"width", 64}, {"prototypes", 32}}));
    }

    // A CNN classifier trains at ten times the other fine-tuning tasks' rate, a ViT at theirs;
    // from a pretrained backbone the head at that rate and the backbone at 0.3 of it;
    // optim_args say otherwise.
    void aPretrainedClassifierHasItsOwnRecipe() {
        const auto recipe = [](bool pretrained, const std::string& model = "smallcnn") {
            return kiln::optimizer_defaults(kiln::TaskKind::ImageClassification, "", "auto", model,
                                            pretrained);
        };
        QCOMPARE(recipe(false).base_lr, 1e-2);
        QCOMPARE(recipe(false, "vit_tiny").base_lr, 1e-3);
        QCOMPARE(kiln::optimizer_defaults(kiln::TaskKind::SemanticSegmentation, "", "auto",
                                          "smallcnn", false)
                     .base_lr,
                 1e-3);
        QCOMPARE(recipe(false).backbone_lr_factor, 1.0);
        QCOMPARE(recipe(true).base_lr, 1e-2);
        QCOMPARE(recipe(true).backbone_lr_factor, 0.3);
        QCOMPARE(recipe(true, "vit_tiny").base_lr, 1e-3); // a ViT's own rate, its backbone's share
        QCOMPARE(recipe(true, "vit_small").backbone_lr_factor, 0.3);
        QCOMPARE(kiln::optimizer_defaults(kiln::TaskKind::SemanticSegmentation, "", "auto",
                                          "smallcnn", true)
                     .backbone_lr_factor,
                 1.0); // only what was measured
        json input = {{"out", (temp_.path() + "/cls-pretrained").toStdString()},
                      {"model", "smallcnn"},
                      {"data", {{"train", images_.toStdString()}, {"val", images_.toStdString()}}},
                      {"model_args", {{"backbone_weights", images_.toStdString()}}}};
        const auto resolved = [&input] {
            return kiln::resolve_train_config(input, cpuOnly(), kiln::TaskKind::ImageClassification)
                .optimizer;
        };
        QCOMPARE(resolved().chosen.backbone_lr_factor, 0.3);
        QCOMPARE(resolved().chosen.base_lr, 1e-2);
        input["optim_args"] = {{"backbone_lr_factor", 0.5}, {"head_warmup_epochs", 2}};
        QCOMPARE(resolved().chosen.backbone_lr_factor, 0.5);
        QCOMPARE(resolved().head_warmup_epochs, 2.0);
        input.erase("model_args");
        input.erase("optim_args");
        QCOMPARE(resolved().chosen.backbone_lr_factor, 1.0);
        // Pretraining has no head to warm up.
        const auto issues = problemsOf([this] {
            json pretraining = minimalTrain();
            pretraining["optim_args"] = {{"head_warmup_epochs", 1}};
            kiln::resolve_train_config(pretraining, cpuOnly());
        });
        QVERIFY(findIssue(issues, "optim_args.head_warmup_epochs") != nullptr);
    }

    // A StagedFolder's files appear in its target when committed, into subfolders and beside
    // files already there; uncommitted, nothing is left, not even the target it made; a target
    // that is a file is refused before anything is written.
    // An atomic write renames its file into place: over a device (as root, /dev/null became a
    // CSV file) or a pipe it must not. A pipe stands in for the device here.
    void anAtomicWriteReplacesOnlyFiles() {
        QTemporaryDir dir;
        const std::filesystem::path pipe = dir.filePath(QStringLiteral("pipe")).toStdString();
        QVERIFY(::mkfifo(pipe.c_str(), 0600) == 0);
        QVERIFY(kiln::test::throwsContaining([&] { kiln::write_file_atomically(pipe, "x"); },
                                             "exists and is not a file"));
        QVERIFY(std::filesystem::is_fifo(pipe));
        const std::filesystem::path file = dir.filePath(QStringLiteral("file")).toStdString();
        kiln::write_file_atomically(file, "a");
        kiln::write_file_atomically(file, "b"); // a file is replaced
        QCOMPARE(std::filesystem::file_size(file), std::uintmax_t(1));

        // A file written in pieces as they are made (a checkpoint) is whole or not there: a
        // producer that fails midway leaves the old file and no temporary beside it.
        kiln::write_file_atomically(file, [](const kiln::ByteSink& sink) {
            sink("ab", 2);
            sink("cde", 3);
        });
        QCOMPARE(std::filesystem::file_size(file), std::uintmax_t(5));
        QVERIFY(kiln::test::throwsContaining(
            [&] {
                kiln::write_file_atomically(file, [](const kiln::ByteSink& sink) {
                    sink("xyz", 3);
                    throw kiln::Error("the model could not be read");
                });
            },
            "the model could not be read"));
        QCOMPARE(std::filesystem::file_size(file), std::uintmax_t(5));
        QCOMPARE(std::distance(std::filesystem::directory_iterator(dir.path().toStdString()),
                               std::filesystem::directory_iterator{}),
                 std::ptrdiff_t{2}); // the pipe and the file

        // A folder of masks a killed prediction began holds only its staging folder.
        const std::filesystem::path masks = dir.filePath(QStringLiteral("masks")).toStdString();
        std::filesystem::create_directories(masks);
        QVERIFY(!kiln::holds_only_unfinished_writes(masks)); // empty
        std::filesystem::create_directories(masks / ".kiln-staged-Ab12Cd");
        std::ofstream(masks / ".a.png.kiln-Ef34Gh") << "x";
        QVERIFY(kiln::holds_only_unfinished_writes(masks));
        std::ofstream(masks / "a.png") << "x";
        QVERIFY(!kiln::holds_only_unfinished_writes(masks));
    }

    void aStagedFolderCommitsAllOrNothing() {
        QTemporaryDir dir;
        const std::filesystem::path target = dir.filePath(QStringLiteral("masks")).toStdString();
        {
            kiln::StagedFolder staged(target);
            std::filesystem::create_directories(staged.path() / "sub");
            std::ofstream(staged.path() / "sub" / "a.png") << "a";
        }
        QVERIFY(!std::filesystem::exists(target));
        std::filesystem::create_directories(target);
        std::ofstream(target / "notes.txt") << "mine";
        {
            kiln::StagedFolder staged(target);
            std::filesystem::create_directories(staged.path() / "sub");
            std::ofstream(staged.path() / "sub" / "a.png") << "a";
            staged.commit();
        }
        QVERIFY(std::filesystem::exists(target / "sub" / "a.png"));
        QVERIFY(std::filesystem::exists(target / "notes.txt"));
        QCOMPARE(std::distance(std::filesystem::directory_iterator(target),
                               std::filesystem::directory_iterator()),
                 std::ptrdiff_t(2)); // no staging folder left
        QVERIFY(kiln::test::throwsContaining(
            [&] { kiln::StagedFolder staged(target / "notes.txt"); }, "as a folder"));
    }

    // What killed writes left in a folder (hidden temporary files and staging folders of
    // Kiln's names, an hour old, not locked) goes with the first write there; a fresh one, a
    // locked one, a kept unmoved folder, a folder of a temporary file's name and other hidden
    // files stay.
    void writesRemoveWhatKilledWritesLeft() {
        namespace fs = std::filesystem;
        QTemporaryDir dir;
        const fs::path folder = dir.path().toStdString();
        const auto hours_old = [](const fs::path& path) {
            fs::last_write_time(path, fs::file_time_type::clock::now() - std::chrono::hours(2));
        };
        for (const char* name :
             {".e.csv.kiln-Ab12Cd", ".f.csv.kiln-Cd34Ef", ".e.csv.kiln-Fresh1", ".e.csv.backup"}) {
            std::ofstream(folder / name) << "cut short";
        }
        fs::create_directories(folder / ".g.csv.kiln-Gh56Ij");
        for (const char* name :
             {".e.csv.kiln-Ab12Cd", ".f.csv.kiln-Cd34Ef", ".e.csv.backup", ".g.csv.kiln-Gh56Ij"}) {
            hours_old(folder / name);
        }
        const fs::path masks = folder / "masks";
        for (const char* name : {".kiln-staged-Xy34Zw/sub", ".kiln-staged-Fresh1",
                                 ".kiln-staged-Lockd1", ".kiln-unmoved-Old123"}) {
            fs::create_directories(masks / name);
        }
        for (const char* name :
             {".kiln-staged-Xy34Zw", ".kiln-staged-Lockd1", ".kiln-unmoved-Old123"}) {
            hours_old(masks / name);
        }
        const int held = ::open((masks / ".kiln-staged-Lockd1").c_str(), O_RDONLY | O_DIRECTORY);
        QVERIFY(held >= 0 && ::flock(held, LOCK_EX) == 0); // another process's, in use
        kiln::write_file_atomically(folder / "e.csv", "filename\n");
        {
            kiln::StagedFolder staged(masks);
        }
        ::close(held);
        for (const char* gone :
             {".e.csv.kiln-Ab12Cd", ".f.csv.kiln-Cd34Ef", "masks/.kiln-staged-Xy34Zw"}) {
            QVERIFY2(!fs::exists(folder / gone), gone);
        }
        for (const char* kept : {".e.csv.kiln-Fresh1", ".e.csv.backup", ".g.csv.kiln-Gh56Ij",
                                 "e.csv", "masks/.kiln-staged-Fresh1", "masks/.kiln-staged-Lockd1",
                                 "masks/.kiln-unmoved-Old123"}) {
            QVERIFY2(fs::exists(folder / kept), kept);
        }
        QVERIFY(kiln::names_unfinished_write(".e.csv.kiln-Ab12Cd"));
        QVERIFY(!kiln::names_unfinished_write(".e.csv.kiln-Ab12C!"));
        QVERIFY(!kiln::names_unfinished_write(".kiln-Ab12Cd"));
    }

    // UMAP's min_dist is checked with the other settings, against the spread Kiln keeps at 1
    // (1.5 passed `config check` and failed when the map ran, naming no fix).
    void mapSettingsAreCheckedBeforeTheMap() {
        QTemporaryDir dir;
        const QString embeddings = dir.filePath(QStringLiteral("e.csv"));
        QFile(embeddings).open(QIODevice::WriteOnly);
        const nlohmann::json settings = {
            {"embeddings", embeddings.toStdString()},
            {"out", dir.filePath(QStringLiteral("m.csv")).toStdString()},
            {"projection", "umap"},
            {"min_dist", 1.5}};
        QVERIFY(
            kiln::test::throwsContaining([&] { kiln::resolve_map_config(settings); }, "min_dist"));
        nlohmann::json fine = settings;
        fine["min_dist"] = 1.0;
        QCOMPARE(kiln::resolve_map_config(fine).min_dist, 1.0);
        // Its own input is no out, even with overwrite=true.
        fine["out"] = embeddings.toStdString();
        fine["overwrite"] = true;
        QVERIFY(kiln::test::throwsContaining([&] { kiln::resolve_map_config(fine); },
                                             "is the file this command reads as"));
    }

    // Names and notes from others' files reach the terminal without their control characters.
    void terminalTextShowsNoControlCharacters() {
        QCOMPARE(kiln::terminal_text("a\x1b[2Jb\nc\td\x7f\u00e9"),
                 std::string("a\\x1b[2Jb c d\\x7f\u00e9"));
        QCOMPARE(kiln::terminal_text(""), std::string());
        QCOMPARE(kiln::escaped_text("a\x1b[2Jb\nc\td\u00e9"),
                 std::string("a\\x1b[2Jb\\x0ac\\x09d\u00e9"));
        // Bytes that are no UTF-8 (a Latin-1 file name) are spelt out too, so that messages
        // quoting them stay text that JSON and run records can hold.
        QCOMPARE(kiln::escaped_text("caf\xe9/\xf0\x9f\x94\xa5\xed\xa0\x80\xc0\xaf\xe2\x82"),
                 std::string("caf\\xe9/\xf0\x9f\x94\xa5\\xed\\xa0\\x80\\xc0\\xaf\\xe2\\x82"));
        for (const auto& [text, valid] :
             std::vector<std::pair<std::string, bool>>{{"", true},
                                                       {"plain", true},
                                                       {"\u00e9\u4e2d\U0001F525", true},
                                                       {"caf\xe9", false},
                                                       {"\xed\xa0\x80", false},     // a surrogate
                                                       {"\xc0\xaf", false},         // overlong '/'
                                                       {"\xf4\x90\x80\x80", false}, // > U+10FFFF
                                                       {"\xe2\x82", false}}) {      // cut short
            QVERIFY2(kiln::is_utf8(text) == valid, kiln::escaped_text(text).c_str());
        }
    }

    // As csv_field writes: quoted fields hold commas, doubled quotes and line breaks; blank
    // lines are no records, a quoted empty field is one.
    void csvIsReadAsCsvFieldWritesIt() {
        const std::string text = "a," + kiln::csv_field("b,\"c\"\nd") + ",\r\n\n\"\"\ne,f";
        using Records = std::vector<std::vector<std::string>>;
        QCOMPARE(kiln::csv_records(text), (Records{{"a", "b,\"c\"\nd", ""}, {""}, {"e", "f"}}));
        kiln::CsvFieldReader reader(text);
        std::string field;
        std::vector<std::pair<std::string, bool>>
            fields; // each field, and whether it ended a record
        while (reader.next(field)) {
            fields.emplace_back(field, reader.record_ended());
        }
        QCOMPARE(fields.size(), std::size_t{7});
        QCOMPARE(fields[2], (std::pair<std::string, bool>{"", true}));
        QCOMPARE(fields[3], (std::pair<std::string, bool>{"", true})); // the blank line
        QCOMPARE(fields[6], (std::pair<std::string, bool>{"f", true}));
        QCOMPARE(kiln::csv_records("x,"), (Records{{"x", ""}}));
        QVERIFY(kiln::csv_records("").empty());
        QCOMPARE(kiln::csv_records("\xEF\xBB\xBF"
                                   "filename,x"),
                 (Records{{"filename", "x"}}));
    }

    void helpListsEveryKeyWithItsDefault() {
        const std::string help = kiln::config::describe_keys(kiln::config::train_schema());
        for (const kiln::config::KeySpec& key : kiln::config::train_schema().keys) {
            QVERIFY2(contains(help, "  " + key.name + " ("), key.name.c_str());
        }
        QVERIFY(contains(help, "epochs (integer >= 1), default 100"));
        QVERIFY(contains(
            help,
            "model (resnet18, resnet34, resnet50, smallcnn, smallcnn_v2, cspnet_n, "
            "cspnet_s, vit_tiny or vit_small, or torchscript:FILE, a TorchScript module (loading "
            "one runs its code: only files you trust)), required"));
    }
};

QTEST_APPLESS_MAIN(ConfigTest)
#include "tst_config.moc"
