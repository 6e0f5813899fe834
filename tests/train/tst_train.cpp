// Pretraining engine: backbones, methods, optimizers and schedules, step timing, the trainer
// with checkpoints, resume, stop, NaN handling and export.

#include "config/run_config.h"
#include "core/error.h"
#include "core/log.h"
#include "methods/method.h"
#include "models/archive.h"
#include "models/backbone.h"
#include "models/batch_norm.h"
#include "models/checkpoint_file.h"
#include "models/torch_file.h"
#include "runtime/precision.h"
#include "runtime/step_timer.h"
#include "support/error_text.h"
#include "support/python.h"
#include "system/memory.h"
#include "track/run_directory.h"
#include "train/advice_window.h"
#include "train/embedding_pass.h"
#include "train/finetuning_task.h"
#include "train/fit_loop.h"
#include "train/knn_monitor.h"
#include "train/optimizer.h"
#include "train/pretraining_task.h"
#include "train/step_memory.h"
#include "train/step_probe.h"
#include "train/strategy.h"
#include "train/trainer.h"
#include "train/weight_average.h"

#include <QTemporaryDir>
#include <QtTest>
#include <atomic>
#include <c10/core/CPUAllocator.h>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <opencv2/core/utility.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <random>
#include <thread>
#include <torch/nn/functional/normalization.h>
#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>
#include <torch/optim/sgd.h>
#include <torch/serialize.h>
#include <torch/types.h>
#include <tuple>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// A device timeline under the test's control: events complete when told, at given times.
class FakeEvents : public kiln::runtime::EventSource {
public:
    struct State {
        double time = 0.0;
        bool complete = false;
    };
    class Event : public kiln::runtime::TimingEvent {
    public:
        explicit Event(std::shared_ptr<State> state) : state_(std::move(state)) {}
        bool complete() const override { return state_->complete; }
        void wait() const override { state_->complete = true; }
        double seconds_since(const kiln::runtime::TimingEvent& earlier) const override {
            return state_->time - static_cast<const Event&>(earlier).state_->time;
        }

    private:
        std::shared_ptr<State> state_;
    };

    std::unique_ptr<kiln::runtime::TimingEvent> record() override {
        recorded.push_back(std::make_shared<State>());
        return std::make_unique<Event>(recorded.back());
    }
    std::vector<std::shared_ptr<State>> recorded;
};

// Records what a run reports; optionally asks it to stop after a given epoch.
class Recorder : public kiln::train::TrainObserver {
public:
    std::vector<kiln::train::StepMetrics> steps;
    std::vector<double> epoch_losses;
    std::optional<kiln::train::RunSummary> summary;
    kiln::StopToken stop;
    std::int64_t stop_after_epoch = -1;
    std::size_t stop_after_steps = 0; // 0: never

    void on_step(const kiln::train::StepMetrics& metrics) override {
        steps.push_back(metrics);
        if (steps.size() == stop_after_steps) {
            stop.request_stop();
        }
    }
    void on_epoch_end(std::int64_t epoch, double mean_loss) override {
        epoch_losses.push_back(mean_loss);
        if (epoch == stop_after_epoch) {
            stop.request_stop();
        }
    }
    void on_end(const kiln::train::RunSummary& result) override { summary = result; }
    void on_start(const kiln::TrainConfig& config, std::int64_t, std::int64_t) override {
        started = config;
    }
    std::optional<kiln::TrainConfig> started; // as the run resolved it
};

// Two kinds of images (stripes and blobs) in varying colours: enough structure to learn from.
void writeTinyDataset(const fs::path& folder, int count) {
    fs::create_directories(folder);
    for (int i = 0; i < count; ++i) {
        cv::Mat image(40, 40, CV_8UC3, cv::Scalar((i * 40) % 256, (i * 90) % 256, (i * 20) % 256));
        if (i % 2 == 0) {
            for (int x = 0; x < 40; x += 8) {
                cv::rectangle(image, {x, 0}, {x + 3, 39}, cv::Scalar(255, 255, 255), -1);
            }
        } else {
            cv::circle(image, {20, 20}, 12, cv::Scalar(0, 0, 0), -1);
        }
        cv::imwrite((folder / (std::to_string(i) + ".png")).string(), image);
    }
}

// What a run wrote to its train.log.
std::string trainLog(const fs::path& out) {
    std::ifstream file(kiln::track::RunDirectory(out).train_log());
    return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

kiln::TrainConfig tinyRun(const fs::path& out, const fs::path& data, const std::string& method,
                          int epochs, json extra = json::object()) {
    json settings = {{"out", out.string()}, {"data", data.string()},
                     {"model", "smallcnn"}, {"method", method},
                     {"epochs", epochs},    {"batch_size", 8},
                     {"num_workers", 0},    {"accelerator", "cpu"},
                     {"seed", 3},           {"transform_args", {{"image_size", {24, 24}}}}};
    if (method == "dino") {
        settings["transform_args"]["local_view"] = {{"num_views", 2}, {"view_size", {12, 12}}};
        settings["method_args"] = {{"output_dim", 64}, {"hidden_dim", 64}, {"bottleneck_dim", 32}};
    }
    settings.update(extra, true);
    kiln::ResolveContext context;
    context.hardware.cpu_cores = 2;
    return kiln::resolve_train_config(settings, context);
}

// A SimCLR run of `epochs` over `images` tiny images, stopped after `steps` steps, to resume.
struct InterruptedRun {
    fs::path data;
    fs::path out;
    kiln::train::RunSummary::Status status;
};
InterruptedRun interruptedRun(const fs::path& folder, int images, int epochs, int steps) {
    InterruptedRun run{folder / "data", folder / "run", {}};
    writeTinyDataset(run.data, images);
    Recorder recorder;
    recorder.stop_after_steps = steps;
    run.status =
        kiln::train::train(tinyRun(run.out, run.data, "simclr", epochs), recorder, recorder.stop)
            .status;
    return run;
}

// A checkpoint as Kiln's first format wrote it: a LibTorch TorchScript archive, numbers as
// one-element tensors. Writing one runs nothing; Kiln reads it with its own reader.
void write_first_format(const kiln::models::Archive& archive,
                        torch::serialize::OutputArchive& out) {
    for (const auto& entry : archive.to_ivalue().toGenericDict()) {
        const std::string key = entry.key().toStringRef();
        const c10::IValue& value = entry.value();
        if (value.isGenericDict()) {
            torch::serialize::OutputArchive child;
            write_first_format(archive.child(key), child);
            out.write(key, child);
        } else if (value.isTensor()) {
            out.write(key, value.toTensor(), !value.toTensor().requires_grad());
        } else if (value.isInt()) {
            out.write(key, torch::tensor(value.toInt()));
        } else if (value.isDouble()) {
            out.write(key, torch::tensor(value.toDouble(), torch::kFloat64));
        } else if (value.isList() && key == "kiln/category_ids") {
            out.write(key, c10::IValue(c10::List<std::int64_t>(archive.integers(key))));
        } else if (value.isList()) {
            out.write(key, c10::IValue(c10::List<std::string>(archive.texts(key))));
        } else {
            out.write(key, value);
        }
    }
}

std::map<std::string, torch::Tensor> backboneWeights(const fs::path& exported) {
    std::ifstream file(exported, std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(file)), {});
    const c10::IValue value = torch::pickle_load(bytes);
    std::map<std::string, torch::Tensor> weights;
    for (const auto& entry : value.toGenericDict()) {
        weights[entry.key().toStringRef()] = entry.value().toTensor();
    }
    return weights;
}

bool containsText(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace

class TrainTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir temp_;
    fs::path root_;
    fs::path data_;
    std::unique_ptr<kiln::log::ScopedSink> quiet_;

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(temp_.isValid());
        root_ = temp_.path().toStdString();
        data_ = root_ / "tiny";
        writeTinyDataset(data_, 32);
        quiet_ =
            std::make_unique<kiln::log::ScopedSink>([](kiln::log::Level, const std::string&) {});
    }

    // ---- backbones ----

    void resnetsUseTorchvisionNames() {
        const auto resnet18 = kiln::models::make_backbone("resnet18");
        QCOMPARE(resnet18->feature_dim(), 512);
        std::set<std::string> names;
        for (const auto& item : resnet18->named_parameters()) {
            names.insert(item.key());
        }
        for (const auto& item : resnet18->named_buffers()) {
            names.insert(item.key());
        }
        for (const char* name :
             {"conv1.weight", "bn1.running_mean", "bn1.num_batches_tracked",
              "layer1.0.conv1.weight", "layer1.1.bn2.bias", "layer2.0.downsample.0.weight",
              "layer2.0.downsample.1.running_var", "layer4.1.conv2.weight"}) {
            QVERIFY2(names.count(name) == 1, name);
        }
        QCOMPARE(names.size(), std::size_t(122 - 2)); // torchvision's 122 entries, less fc
        QCOMPARE(kiln::models::make_backbone("resnet50")->feature_dim(), 2048);
        QCOMPARE(kiln::models::make_backbone("resnet34")->feature_dim(), 512);
        const torch::Tensor features =
            kiln::models::make_backbone("smallcnn")->forward(torch::rand({2, 3, 32, 32}));
        QCOMPARE(features.sizes().vec(), (std::vector<std::int64_t>{2, 256}));
    }

    void vitsUseTimmNames() {
        const auto tiny = kiln::models::make_backbone("vit_tiny");
        QCOMPARE(tiny->feature_dim(), 192);
        QCOMPARE(kiln::models::make_backbone("vit_small")->feature_dim(), 384);
        std::map<std::string, std::vector<std::int64_t>> shapes;
        for (const auto& [name, tensor] : tiny->state()) {
            shapes[name] = tensor.sizes().vec();
        }
        // timm's vit_tiny_patch16_224 state_dict: 152 entries, less head.weight and head.bias.
        QCOMPARE(shapes.size(), std::size_t(150));
        QCOMPARE(shapes.at("cls_token"), (std::vector<std::int64_t>{1, 1, 192}));
        QCOMPARE(shapes.at("pos_embed"), (std::vector<std::int64_t>{1, 197, 192}));
        QCOMPARE(shapes.at("patch_embed.proj.weight"), (std::vector<std::int64_t>{192, 3, 16, 16}));
        QCOMPARE(shapes.at("blocks.0.attn.qkv.weight"), (std::vector<std::int64_t>{576, 192}));
        QCOMPARE(shapes.at("blocks.11.mlp.fc2.weight"), (std::vector<std::int64_t>{192, 768}));
        QCOMPARE(shapes.at("blocks.5.norm2.bias"), (std::vector<std::int64_t>{192}));
        QCOMPARE(shapes.at("norm.weight"), (std::vector<std::int64_t>{192}));
        // Any multiple of 16: position embeddings are interpolated (multi-crop's 96 px views).
        for (const std::int64_t side : {224, 96, 32}) {
            const torch::Tensor features = tiny->forward(torch::rand({2, 3, side, side}));
            QCOMPARE(features.sizes().vec(), (std::vector<std::int64_t>{2, 192}));
        }
        // Under one patch, a size the user (or a file) gave is named, not LibTorch's kernel.
        QVERIFY(kiln::test::throwsContaining([&tiny] { tiny->forward(torch::rand({1, 3, 8, 8})); },
                                             "these are 8 x 8 px; give an image_size of at "
                                             "least 16"));
        // Exported, then recognised from its tensors.
        const auto path = root_ / "vit_tiny.pt";
        kiln::models::save_backbone_weights(*tiny, path);
        std::string model;
        const auto loaded = kiln::models::load_backbone(path, &model);
        QCOMPARE(model, std::string("vit_tiny"));
        tiny->eval();
        loaded->eval();
        const torch::Tensor image = torch::rand({1, 3, 64, 64});
        QVERIFY(torch::allclose(tiny->forward(image), loaded->forward(image)));

        // One tensor short: the error names the model the file nearly is, not the first tried.
        c10::Dict<std::string, at::Tensor> partial;
        for (const auto& [name, tensor] : tiny->state()) {
            if (name != "norm.bias") {
                partial.insert(name, tensor.detach().contiguous());
            }
        }
        const auto bytes = kiln::models::torch_load_compatible(c10::IValue(partial));
        const auto short_one = root_ / "vit_tiny-short.pt";
        std::ofstream(short_one, std::ios::binary)
            .write(bytes.data(), std::streamsize(bytes.size()));
        try {
            kiln::models::load_backbone(short_one);
            QFAIL("a state_dict without norm.bias loaded");
        } catch (const kiln::Error& error) {
            QVERIFY2(containsText(error.what(), "the closest is vit_tiny (149 of its 150 tensors "
                                                "match)") &&
                         containsText(error.what(), "no tensor \"norm.bias\""),
                     error.what());
        }

        // Every tensor there, one of them NaN: the file is named damaged, not another model's,
        // and nothing is embedded or predicted with it.
        c10::Dict<std::string, at::Tensor> poisoned;
        for (const auto& [name, tensor] : tiny->state()) {
            at::Tensor value = tensor.detach().clone();
            if (name == "norm.weight") {
                value[0] = std::numeric_limits<float>::quiet_NaN();
            }
            poisoned.insert(name, value);
        }
        const auto poisoned_bytes = kiln::models::torch_load_compatible(c10::IValue(poisoned));
        const auto nan_one = root_ / "vit_tiny-nan.pt";
        std::ofstream(nan_one, std::ios::binary)
            .write(poisoned_bytes.data(), std::streamsize(poisoned_bytes.size()));
        QVERIFY(kiln::test::throwsContaining(
            [&] { kiln::models::load_backbone(nan_one); },
            "\"" + nan_one.string() +
                "\": tensor \"norm.weight\" holds values that are not finite numbers"));
    }

    void smallCnnV2HasSignedFeaturesAndFilesOfItsOwn() {
        torch::manual_seed(0);
        const torch::Tensor images = torch::rand({4, 3, 32, 32});
        for (const std::string name : {"smallcnn", "smallcnn_v2"}) {
            const auto backbone = kiln::models::make_backbone(name);
            backbone->eval();
            torch::NoGradGuard no_grad;
            const torch::Tensor features = backbone->forward(images);
            // v2's last block has no ReLU: its features are signed, smallcnn's never negative.
            QCOMPARE(features.min().item<float>() < 0, name == "smallcnn_v2");
            // The last feature map is what is pooled, at stride 16.
            const std::vector<torch::Tensor> maps = backbone->feature_maps(images);
            QCOMPARE(maps.size(), std::size_t(4));
            QCOMPARE(maps.back().sizes().vec(), (std::vector<std::int64_t>{4, 256, 2, 2}));
            QVERIFY(torch::allclose(maps.back().mean({2, 3}), features, 1e-5, 1e-6));
            // Its tensors differ in name, so an exported state_dict says which it is.
            const auto path = root_ / (name + ".pt");
            kiln::models::save_backbone_weights(*backbone, path);
            std::string recognised;
            kiln::models::load_backbone(path, &recognised);
            QCOMPARE(recognised, name);
        }
    }

    // A batch of one (what unreadable images left of a batch of two) made batch norm's variance
    // NaN, then its running statistics, and the run failed as if it had diverged.
    void batchNormTakesABatchOfOne() {
        kiln::models::BatchNorm norm(3);
        norm->train();
        torch::manual_seed(0);
        const torch::Tensor single = torch::randn({1, 3}, torch::requires_grad());
        const torch::Tensor out = norm->forward(single);
        QVERIFY(torch::isfinite(out).all().item<bool>());
        out.sum().backward();
        QVERIFY(torch::isfinite(norm->weight.grad()).all().item<bool>());
        QVERIFY(torch::equal(norm->running_mean, torch::zeros({3})));
        QVERIFY(torch::equal(norm->running_var, torch::ones({3})));
        // One image with spatial extent has batch statistics: they are taken.
        norm->forward(torch::randn({1, 3, 4, 4}));
        QVERIFY(!torch::equal(norm->running_mean, torch::zeros({3})));
        QVERIFY(torch::isfinite(norm->running_var).all().item<bool>());
    }

    // Layer-wise decay's layers, input first: timm's groups for ResNets and ViTs (stem or
    // embeddings, each block, a ViT's last norm), the small CNNs' blocks, the CSP stages. Every
    // parameter is in exactly one.
    void backbonesListTheirLayersFromTheInput() {
        const auto names_of = [](kiln::models::BackboneImpl& backbone) {
            std::map<const void*, std::string> names;
            for (const auto& item : backbone.named_parameters()) {
                names[item.value().data_ptr()] = item.key();
            }
            std::vector<std::vector<std::string>> layers;
            for (const std::vector<torch::Tensor>& layer : backbone.layers()) {
                layers.emplace_back();
                for (const torch::Tensor& parameter : layer) {
                    layers.back().push_back(names.at(parameter.data_ptr()));
                }
            }
            return layers;
        };
        using Layers = std::vector<std::string>;
        for (const auto& [name, count, first, last] :
             {std::tuple<std::string, std::size_t, Layers, Layers>{
                  "resnet18", 9, {"conv1.weight", "bn1.weight", "bn1.bias"}, {}},
              {"vit_tiny",
               14,
               {"cls_token", "pos_embed", "patch_embed.proj.weight", "patch_embed.proj.bias"},
               {"norm.weight", "norm.bias"}},
              {"smallcnn", 4, {"features.0.weight", "features.1.weight", "features.1.bias"}, {}},
              {"smallcnn_v2",
               4,
               {"features.0.weight", "features.1.weight", "features.1.bias"},
               {"last_block.0.weight", "last_block.1.weight", "last_block.1.bias"}},
              {"cspnet_n", 5, {}, {}}}) {
            const auto backbone = kiln::models::make_backbone(name);
            const auto layers = names_of(*backbone);
            QVERIFY2(layers.size() == count, name.c_str());
            std::size_t parameters = 0;
            for (const auto& layer : layers) {
                parameters += layer.size();
            }
            QCOMPARE(parameters, backbone->parameters().size());
            if (!first.empty()) {
                QCOMPARE(layers.front(), first);
            }
            if (!last.empty()) {
                QCOMPARE(layers.back(), last);
            }
        }
        QCOMPARE(kiln::models::leading_parts("layer1.0.conv1.weight", 2), std::string("layer1.0"));
    }

    void unknownNamesListTheValidOnes() {
        try {
            kiln::models::make_backbone("resnet19");
            QFAIL("accepted resnet19");
        } catch (const kiln::Error& error) {
            QVERIFY(containsText(error.what(), "did you mean \"resnet18\"?"));
            QVERIFY(containsText(error.what(),
                                 "resnet18, resnet34, resnet50, smallcnn, smallcnn_v2, "
                                 "cspnet_n, cspnet_s, vit_tiny or vit_small"));
        }
        QVERIFY_THROWS_EXCEPTION(kiln::Error,
                                 kiln::methods::make_method("byol", "smallcnn", {}, 10));
        try {
            kiln::methods::make_method("simclr", "smallcnn", {{"temprature", 0.2}}, 10);
            QFAIL("accepted a misspelt method argument");
        } catch (const kiln::ConfigError& error) {
            QVERIFY(
                containsText(error.what(),
                             "method_args.temprature: unknown key; did you mean \"temperature\"?"));
        }
    }

    // ---- losses, optimizers, schedules ----

    void ntXentMatchesItsDefinition() {
        const torch::Tensor a = torch::tensor({{1.0f, 0.0f}, {0.0f, 1.0f}});
        const torch::Tensor b = torch::tensor({{1.0f, 0.0f}, {0.0f, 1.0f}});
        // Each row: positive similarity 1, negatives 0 (orthogonal) and 1 (its own twin's
        // twin is itself... the other pair): logits / 0.5 over the 3 others.
        const double loss = kiln::methods::nt_xent_loss(a, b, 0.5).item<double>();
        const double expected = -std::log(std::exp(2.0) / (std::exp(2.0) + 2 * std::exp(0.0)));
        QVERIFY(std::abs(loss - expected) < 1e-5);
        const double mismatched =
            kiln::methods::nt_xent_loss(a, torch::tensor({{0.0f, 1.0f}, {1.0f, 0.0f}}), 0.5)
                .item<double>();
        QVERIFY(mismatched > loss);
        // Half-precision embeddings, as 16-mixed autocast gives them: the masked self-similarity
        // must not overflow float16, and the loss is the float one's.
        const double half =
            kiln::methods::nt_xent_loss(a.to(torch::kHalf), b.to(torch::kHalf), 0.5).item<double>();
        QVERIFY2(std::abs(half - expected) < 1e-3, qPrintable(QString::number(half)));
    }

    void anisotropyMatchesItsDefinition() {
        // Covariance 2/3 I: alike in every direction.
        const torch::Tensor round =
            torch::tensor({{1.0f, 0.0f}, {-1.0f, 0.0f}, {0.0f, 1.0f}, {0.0f, -1.0f}});
        QVERIFY(kiln::methods::anisotropy(round).item<double>() < 1e-6);
        // Covariance [[2, 2], [2, 2]]: over its mean variance [[1, 1], [1, 1]], off the identity
        // by 1 in two places: (1 + 1) / 2 dimensions.
        const torch::Tensor line = torch::tensor({{1.0f, 1.0f}, {-1.0f, -1.0f}});
        QCOMPARE(kiln::methods::anisotropy(line).item<double>(), 1.0);
        // Scale does not matter.
        QCOMPARE(kiln::methods::anisotropy(line * 7).item<double>(), 1.0);
        // Under bf16 autocast it still computes in float: bf16's 3 digits would move it by
        // about 1e-2 here.
        torch::manual_seed(0);
        const torch::Tensor features = torch::randn({64, 32});
        const double full = kiln::methods::anisotropy(features).item<double>();
        const kiln::runtime::PrecisionPolicy bf16(kiln::Precision::BF16Mixed, c10::kCPU);
        const kiln::runtime::AutocastScope scope = bf16.autocast();
        const torch::Tensor mixed = kiln::methods::anisotropy(features);
        QCOMPARE(mixed.scalar_type(), torch::kFloat32);
        QVERIFY(std::abs(mixed.item<double>() - full) < 1e-5 * full);
    }

    void schedulesFollowTheirFormulas() {
        using kiln::train::warmup_cosine;
        QCOMPARE(warmup_cosine(1.0, 0, 10, 110), 0.1);
        QCOMPARE(warmup_cosine(1.0, 9, 10, 110), 1.0);
        QCOMPARE(warmup_cosine(1.0, 10, 10, 110), 1.0);
        QVERIFY(std::abs(warmup_cosine(1.0, 60, 10, 110) - 0.5) < 1e-12);
        QVERIFY(std::abs(warmup_cosine(2.0, 110, 10, 110)) < 1e-12);
        QCOMPARE(kiln::methods::dino_teacher_temperature(0.0, 0.04, 0.07, 0.3), 0.04);
        QVERIFY(std::abs(kiln::methods::dino_teacher_temperature(0.15, 0.04, 0.07, 0.3) - 0.055) <
                1e-12);
        QCOMPARE(kiln::methods::dino_teacher_temperature(0.5, 0.04, 0.07, 0.3), 0.07);
        QCOMPARE(kiln::methods::cosine_momentum(0.0, 0.996, 1.0), 0.996);
        QVERIFY(std::abs(kiln::methods::cosine_momentum(0.5, 0.996, 1.0) - 0.998) < 1e-12);
        QCOMPARE(kiln::methods::cosine_momentum(1.0, 0.996, 1.0), 1.0);
    }

    void simclrHeadFollowsTheBackbone() {
        // LightlyTrain's 2048-wide projection head; the small CNN's is twice its 256 features.
        const auto hidden_width = [](const std::string& model, const json& args) {
            const kiln::methods::Method method =
                kiln::methods::make_method("simclr", model, args, 10);
            return method->named_parameters()["projection_head.0.weight"].size(0);
        };
        QCOMPARE(hidden_width("smallcnn", json::object()), 512);
        QCOMPARE(hidden_width("resnet18", json::object()), 2048);
        QCOMPARE(hidden_width("smallcnn", {{"hidden_dim", 64}}), 64);
    }

    void dinoTeacherIsAnExponentialMovingAverage() {
        const kiln::methods::Method dino = kiln::methods::make_method(
            "dino", "smallcnn", {{"output_dim", 16}, {"momentum_start", 0.996}}, 100);
        auto parameters = dino->named_parameters();
        torch::Tensor student = parameters["backbone.features.0.weight"];
        torch::Tensor teacher = parameters["teacher_backbone.features.0.weight"];
        QVERIFY(torch::equal(student, teacher)); // starts as a copy
        QVERIFY(!teacher.requires_grad());
        auto buffers = dino->named_buffers();
        torch::Tensor student_statistics = buffers["backbone.features.1.running_mean"];
        torch::Tensor teacher_statistics = buffers["teacher_backbone.features.1.running_mean"];
        {
            torch::NoGradGuard no_grad;
            student.add_(1.0);
            student_statistics.add_(1.0);
        }
        const torch::Tensor before = teacher.clone();
        const torch::Tensor statistics_before = teacher_statistics.clone();
        dino->set_progress(0.0); // momentum 0.996
        dino->after_optimizer_step();
        QVERIFY(torch::allclose(teacher, 0.996 * before + 0.004 * student, 1e-5, 1e-6));
        // The teacher's batch-norm statistics are its own, not the student's.
        QVERIFY(torch::equal(teacher_statistics, statistics_before));
        // Unset, a small dataset's teacher starts slower (LightlyTrain's scaling): 0.99.
        const kiln::methods::Method scaled =
            kiln::methods::make_method("dino", "smallcnn", {{"output_dim", 16}}, 100);
        auto scaled_parameters = scaled->named_parameters();
        {
            torch::NoGradGuard no_grad;
            scaled_parameters["backbone.features.0.weight"].add_(1.0);
        }
        const torch::Tensor initial =
            scaled_parameters["teacher_backbone.features.0.weight"].clone();
        scaled->set_progress(0.0);
        scaled->after_optimizer_step();
        QVERIFY(torch::allclose(
            scaled_parameters["teacher_backbone.features.0.weight"],
            0.99 * initial + 0.01 * scaled_parameters["backbone.features.0.weight"], 1e-5, 1e-6));
    }

    // Under gradient accumulation a step's center is the mean teacher output over all its
    // micro-batches, as if they were one batch (in eval mode the teacher's rows do not depend on
    // their batch).
    void dinoCentersOverEveryMicroBatchOfAStep() {
        const auto make = [] {
            torch::manual_seed(3);
            const kiln::methods::Method dino = kiln::methods::make_method(
                "dino", "smallcnn", {{"output_dim", 16}, {"center_momentum", 0.5}}, 100);
            dino->eval();
            return dino;
        };
        torch::manual_seed(4);
        const torch::Tensor first = torch::rand({2, 4, 3, 32, 32});
        const torch::Tensor second = torch::rand({2, 6, 3, 32, 32});
        const auto views = [](const torch::Tensor& batch) {
            return std::vector<torch::Tensor>{batch[0], batch[1]};
        };
        const kiln::methods::Method accumulated = make();
        accumulated->training_loss(views(first));
        accumulated->training_loss(views(second));
        accumulated->after_optimizer_step();
        const kiln::methods::Method whole = make();
        whole->training_loss(views(torch::cat({first, second}, 1)));
        whole->after_optimizer_step();
        const torch::Tensor center = accumulated->named_buffers()["center"];
        QVERIFY(center.abs().sum().item<double>() > 0);
        QVERIFY(torch::allclose(center, whole->named_buffers()["center"], 1e-5, 1e-6));
    }

    // Every micro-batch of a step joins the distillation queue, the newest first, and the oldest
    // leave it when it is full.
    void distillationQueuesEveryMicroBatchOfAStep() {
        torch::manual_seed(5);
        const fs::path teacher_file = root_ / "queue-teacher.pt";
        kiln::models::save_backbone_weights(*kiln::models::make_backbone("smallcnn"), teacher_file);
        const auto method =
            kiln::methods::make_method("distillation", "smallcnn",
                                       {{"teacher", teacher_file.string()}, {"queue_size", 8}}, 10);
        method->train();
        const auto teacher = kiln::models::load_backbone(teacher_file.string());
        teacher->eval();
        // One optimizer step of two micro-batches; the queue's rows, newest first, after it.
        const auto step = [&](const torch::Tensor& older, const torch::Tensor& newer) {
            method->training_loss({older});
            method->training_loss({newer});
            method->after_optimizer_step();
            return std::pair{method->named_buffers()["queue_filled"].item<std::int64_t>(),
                             method->named_buffers()["queue"]};
        };
        const auto teacher_rows = [&](const std::vector<torch::Tensor>& newest_first) {
            torch::NoGradGuard no_grad;
            return torch::nn::functional::normalize(
                teacher->forward(torch::cat(newest_first)),
                torch::nn::functional::NormalizeFuncOptions().dim(1));
        };
        const torch::Tensor first = torch::rand({3, 3, 24, 24});
        const torch::Tensor second = torch::rand({2, 3, 24, 24});
        const auto [filled, queue] = step(first, second);
        QCOMPARE(filled, std::int64_t(5));
        QVERIFY(torch::allclose(queue.narrow(0, 0, 5), teacher_rows({second, first}), 1e-5, 1e-6));
        // A step of 6 more into the 8 places: the oldest 3 leave.
        const torch::Tensor third = torch::rand({3, 3, 24, 24});
        const torch::Tensor fourth = torch::rand({3, 3, 24, 24});
        const auto [full, later] = step(third, fourth);
        QCOMPARE(full, std::int64_t(8));
        QVERIFY(torch::allclose(later, teacher_rows({fourth, third, second}), 1e-5, 1e-6));
    }

    void dinoRecordsItsLocalViewCount() {
        // 12 px local views are left out by default: the run records that it trained none, so
        // that resuming it keeps them out whatever a later default says.
        const fs::path out = root_ / "dino-local-views";
        kiln::TrainConfig config = tinyRun(out, data_, "dino", 1);
        config.transform_args["local_view"].erase("num_views");
        Recorder recorder;
        QCOMPARE(kiln::train::train(config, recorder).status,
                 kiln::train::RunSummary::Status::Finished);
        std::ifstream file(kiln::track::RunDirectory(out).config());
        const json recorded = json::parse(file);
        QCOMPARE(recorded["transform_args"]["local_view"]["num_views"], json(0));
        QCOMPARE(recorded["transform_args"]["local_view"]["view_size"], json({12, 12}));
        // ... and the teacher its dataset's size chose: 0.02 on a small set.
        QCOMPARE(recorded["method_args"]["teacher_temp"], json(0.02));
        QCOMPARE(recorded["method_args"]["output_dim"], json(64)); // as given
    }

    void dinoHandsBackItsTeacher() {
        // The EMA teacher is what a DINO run exports and what its checkpoint gives as a backbone
        // (embed, eval knn, fine-tuning), not the student that trained.
        const fs::path out = root_ / "dino-teacher";
        Recorder recorder;
        QCOMPARE(kiln::train::train(tinyRun(out, data_, "dino", 2), recorder).status,
                 kiln::train::RunSummary::Status::Finished);
        const kiln::track::RunDirectory run(out);
        const kiln::models::Archive model =
            kiln::models::read_checkpoint_file(run.last_checkpoint())->child("model");
        const auto tensor = [](const kiln::models::Archive& archive, const std::string& path) {
            return archive.child("features").child("0").tensor(path);
        };
        const torch::Tensor teacher = tensor(model.child("teacher_backbone"), "weight");
        QVERIFY(!torch::equal(teacher, tensor(model.child("backbone"), "weight")));
        const auto first_weight = [](kiln::models::BackboneImpl& backbone) {
            return backbone.named_parameters()["features.0.weight"];
        };
        QVERIFY(torch::equal(first_weight(*kiln::models::load_backbone(run.last_checkpoint())),
                             teacher));
        const auto exported = kiln::models::make_backbone("smallcnn");
        kiln::models::load_backbone_weights(*exported, run.exported_last());
        QVERIFY(torch::equal(first_weight(*exported), teacher));
    }

    void optimizersStepAsDefined() {
        torch::Tensor weight = torch::ones({2, 2}).requires_grad_();
        torch::Tensor bias = torch::ones({2}).requires_grad_();
        kiln::train::OptimizerSettings sgd;
        sgd.name = "sgd";
        sgd.momentum = 0.0;
        sgd.weight_decay = 0.5;
        kiln::train::Optimizer optimizer(sgd, {weight, bias});
        weight.mutable_grad() = torch::full({2, 2}, 0.25);
        bias.mutable_grad() = torch::full({2}, 0.25);
        optimizer.step(0.1);
        QVERIFY(torch::allclose(weight, torch::full({2, 2}, 1.0 - 0.1 * (0.25 + 0.5))));
        QVERIFY(torch::allclose(bias, torch::full({2}, 1.0 - 0.1 * 0.25))); // no decay on biases

        torch::Tensor adam_weight = torch::ones({3, 1}).requires_grad_();
        kiln::train::OptimizerSettings adamw;
        adamw.name = "adamw";
        kiln::train::Optimizer adam(adamw, {adam_weight});
        adam_weight.mutable_grad() = torch::full({3, 1}, 0.3);
        adam.step(0.01);
        // First Adam step moves every weight by lr (bias-corrected m / sqrt(v) = sign of grad).
        QVERIFY(torch::allclose(adam_weight, torch::full({3, 1}, 0.99), 1e-5, 1e-6));
        QVERIFY_THROWS_EXCEPTION(kiln::Error, kiln::train::Optimizer({"rmsprop"}, {adam_weight}));
    }

    void learningRateScalesApplyPerParameter() {
        for (const char* name : {"sgd", "adamw"}) {
            torch::Tensor head = torch::ones({2, 2}).requires_grad_();
            torch::Tensor slow = torch::ones({2, 2}).requires_grad_();
            torch::Tensor held = torch::ones({2, 2}).requires_grad_();
            kiln::train::OptimizerSettings settings;
            settings.name = name;
            settings.momentum = 0.0;
            kiln::train::Optimizer optimizer(settings, {head, slow, held});
            optimizer.set_learning_rate_scale({slow}, 0.5);
            optimizer.set_learning_rate_scale({held}, 0.0);
            for (torch::Tensor* parameter : {&head, &slow, &held}) {
                parameter->mutable_grad() = torch::full({2, 2}, 0.25);
            }
            optimizer.step(0.1);
            // SGD moves by lr x gradient, Adam's first step by lr: either way half as far at 0.5.
            const double moved = 1.0 - head[0][0].item<double>();
            QVERIFY2(moved > 0.02, name);
            QVERIFY(torch::allclose(slow, torch::full({2, 2}, 1.0 - moved / 2)));
            QVERIFY(torch::equal(held, torch::ones({2, 2})));
        }
    }

    void adamCorrectsEachParameterFromItsOwnFirstStep() {
        // A backbone held still through a head-only warm-up starts as Adam starts: its first
        // step moves by the learning rate. Corrected as at the optimizer's step 1001 instead,
        // it would move 2.5 times as far, and up to 6 times in the steps after.
        torch::Tensor head = torch::ones({2, 2}).requires_grad_();
        torch::Tensor backbone = torch::ones({2, 2}).requires_grad_();
        kiln::train::OptimizerSettings adamw;
        adamw.name = "adamw";
        kiln::train::Optimizer optimizer(adamw, {head, backbone});
        optimizer.set_learning_rate_scale({backbone}, 0.0);
        for (int step = 0; step < 1000; ++step) {
            head.mutable_grad() = torch::full({2, 2}, 0.25);
            backbone.mutable_grad() = torch::full({2, 2}, 0.25);
            optimizer.step(0.01);
        }
        QVERIFY(torch::equal(backbone, torch::ones({2, 2})));
        // Saved and loaded on the way, as a resumed run is.
        kiln::models::Archive saved;
        optimizer.save(saved);
        kiln::train::Optimizer resumed(adamw, {head, backbone});
        resumed.load(saved);
        resumed.set_learning_rate_scale({backbone}, 1.0);
        resumed.step(0.01);
        QVERIFY(torch::allclose(backbone, torch::full({2, 2}, 0.99), 1e-5, 1e-6));
    }

    // ---- timing ----

    void dataWaitIsTheShareSpentWaiting() {
        kiln::runtime::StepTimer timer;
        std::this_thread::sleep_for(std::chrono::milliseconds(30)); // the loader
        timer.begin_compute();
        std::this_thread::sleep_for(std::chrono::milliseconds(10)); // the step
        timer.end_compute();
        const auto times = timer.finish_cycle().times();
        QVERIFY2(times.batch_time >= 0.010, qPrintable(QString::number(times.batch_time)));
        QVERIFY2(times.data_time >= 0.030, qPrintable(QString::number(times.data_time)));
        // The share of the cycle spent waiting (75% here unless a loaded machine oversleeps one
        // of the sleeps: no figure of it is asserted, only the share of the times measured).
        QVERIFY2(std::abs(times.data_wait() -
                          times.data_time / (times.data_time + times.batch_time)) < 1e-9,
                 qPrintable(QString::number(times.data_wait())));
        const auto next = timer.finish_cycle().times(); // a new cycle starts at the end of the last
        QVERIFY(next.batch_time == 0.0 && next.data_time < 0.030);
    }

    void gpuTimingIsReadWhenItsEventsComplete() {
        auto events = std::make_shared<FakeEvents>();
        kiln::runtime::StepTimer timer(events);
        timer.begin_compute(); // the forward and backward of a batch
        timer.end_compute();
        timer.begin_compute(); // the optimizer step
        timer.end_compute();
        std::this_thread::sleep_for(std::chrono::milliseconds(50)); // the host waits for data
        const kiln::runtime::StepTimer::Cycle cycle = timer.finish_cycle();
        QCOMPARE(events->recorded.size(), std::size_t{4});
        // The GPU ran 0.010 s and 0.005 s of work; the host went on without waiting for it.
        const double times[] = {1.000, 1.010, 1.020, 1.025};
        for (std::size_t i = 0; i < 4; ++i) {
            events->recorded[i]->time = times[i];
        }
        QVERIFY(!cycle.ready());
        events->recorded[1]->complete = true;
        events->recorded[3]->complete = false;
        QVERIFY(!cycle.ready()); // the step's last event is still queued on the device
        events->recorded[3]->complete = true;
        QVERIFY(cycle.ready());
        const auto measured = cycle.times();
        QVERIFY(std::abs(measured.batch_time - 0.015) < 1e-9);
        // data_time: the cycle's wall time less the GPU's batch time.
        QVERIFY2(measured.data_time >= 0.050 - 0.015 && measured.data_time < 0.5,
                 qPrintable(QString::number(measured.data_time)));
        QVERIFY(std::abs(measured.data_wait() - measured.data_time / (measured.data_time + 0.015)) <
                1e-12);
        // A cycle with no compute is all data time, and is ready at once.
        const auto idle = timer.finish_cycle();
        QVERIFY(idle.ready());
        QCOMPARE(idle.times().batch_time, 0.0);
    }

    void theLoopReportsStepsWhenTheirEventsComplete() {
        // The loop on a device timeline whose events complete only when waited for (as CUDA
        // events a busy GPU has not reached): steps are reported late, at most
        // kMaxPendingSteps behind, each once and in order, and all of them before an epoch
        // ends or a checkpoint is written.
        struct Ordering : kiln::train::TrainObserver {
            const std::int64_t* steps_run = nullptr;
            std::vector<std::int64_t> reported;
            std::vector<std::int64_t> lag; // steps run minus the step reported
            std::vector<std::pair<std::int64_t, std::size_t>> epochs; // epoch, steps reported
            std::vector<std::size_t> checkpoints;                     // steps reported
            void on_step(const kiln::train::StepMetrics& metrics) override {
                reported.push_back(metrics.step);
                lag.push_back(*steps_run - metrics.step);
                QVERIFY(std::isfinite(metrics.loss) && metrics.loss > 0);
                QVERIFY(metrics.batch_time >= 0 && metrics.data_wait >= 0);
            }
            void on_epoch_end(std::int64_t epoch, double) override {
                epochs.emplace_back(epoch, reported.size());
            }
            void before_checkpoint(const fs::path&) override {
                checkpoints.push_back(reported.size());
            }
            std::vector<bool> written; // whether the file was there when on_checkpoint came
            void on_checkpoint(const fs::path& path) override {
                written.push_back(fs::is_regular_file(path));
            }
        };
        struct CountingTask : kiln::train::PretrainingTask {
            using PretrainingTask::PretrainingTask;
            std::int64_t steps_run = 0;
            void before_optimizer_step() override {
                ++steps_run;
                PretrainingTask::before_optimizer_step();
            }
        };
        const fs::path out = root_ / "deferred";
        const auto config = tinyRun(out, data_, "simclr", 2, {{"batch_size", 2}});
        fs::create_directories(out / "checkpoints"); // as the trainer prepares it
        CountingTask task(config);
        kiln::train::SingleDevice strategy(torch::kCPU);
        kiln::runtime::PrecisionPolicy precision(config.precision, c10::kCPU);
        kiln::train::OptimizerSettings settings;
        kiln::train::Optimizer optimizer(settings,
                                         kiln::train::trainable_parameters(task.module()));
        kiln::data::LoaderOptions options;
        options.batch_size = 2;
        const auto loader = task.make_loader(options, {});
        Ordering observer;
        observer.steps_run = &task.steps_run;
        kiln::train::Schedule schedule;
        schedule.total_steps = 2 * loader->batches_per_epoch();
        schedule.epochs = 2;
        schedule.peak_lr = 0.01;
        const auto fit = [&](kiln::train::Position& position) {
            kiln::train::FitLoop loop(config, task, strategy, precision, optimizer, *loader,
                                      observer, {}, schedule, std::make_shared<FakeEvents>());
            return loop.run(position);
        };
        kiln::train::Position position;
        try {
            QCOMPARE(fit(position), kiln::train::RunSummary::Status::Finished);
        } catch (const std::exception& error) {
            QFAIL(error.what());
        }

        const std::int64_t per_epoch = loader->batches_per_epoch();
        QCOMPARE(per_epoch, std::int64_t{16});
        QCOMPARE(observer.reported.size(), std::size_t(2 * per_epoch));
        for (std::size_t i = 0; i < observer.reported.size(); ++i) {
            QCOMPARE(observer.reported[i], std::int64_t(i + 1)); // each once, in order
        }
        const auto late = *std::max_element(observer.lag.begin(), observer.lag.end());
        QCOMPARE(late, std::int64_t(kiln::train::FitLoop::kMaxPendingSteps));
        QCOMPARE(observer.lag.front(), late); // the first step waited until the queue was full
        // Epoch ends and checkpoints come after every step before them was reported.
        QCOMPARE(observer.epochs.size(), std::size_t{2});
        QCOMPARE(observer.epochs[0], (std::pair<std::int64_t, std::size_t>{0, 16}));
        QCOMPARE(observer.epochs[1], (std::pair<std::int64_t, std::size_t>{1, 32}));
        QCOMPARE(observer.checkpoints, (std::vector<std::size_t>{16, 32}));
        QCOMPARE(observer.written, (std::vector<bool>{true, true}));
        QCOMPARE(position.optimizer_step, std::int64_t{32});

        // A checkpoint that cannot be written is announced but never reported written (run.db
        // listed it as an artifact).
        const fs::path checkpoint = out / "checkpoints" / "last.ckpt";
        fs::remove(checkpoint);
        fs::create_directories(checkpoint / "blocked");
        kiln::train::Position again;
        QVERIFY(kiln::test::throwsContaining([&] { fit(again); }, "last.ckpt"));
        QCOMPARE(observer.checkpoints.size(), std::size_t{3});
        QCOMPARE(observer.written.size(), std::size_t{2});
    }

    // ---- precision ----

    void lossScalerSkipsOverflowsBacksOffAndGrows() {
        kiln::runtime::LossScaler::Options options;
        options.initial_scale = 1024.0;
        options.growth_interval = 3;
        kiln::runtime::LossScaler scaler(options);
        torch::Tensor weight = torch::ones({2}, torch::requires_grad());
        const auto backward = [&](double value) {
            weight.mutable_grad() = torch::Tensor();
            const torch::Tensor loss = (weight * value).sum();
            scaler.scale(loss).backward();
        };
        backward(2.0);
        QCOMPARE(weight.grad()[0].item<double>(), 2048.0); // scaled
        QVERIFY(scaler.unscale({weight}));
        QCOMPARE(weight.grad()[0].item<double>(), 2.0); // unscaled before the optimizer sees it
        scaler.update();
        QCOMPARE(scaler.current_scale(), 1024.0);
        // An overflow: the step is skipped and the scale halves.
        weight.mutable_grad() = torch::full({2}, std::numeric_limits<float>::infinity());
        QVERIFY(!scaler.unscale({weight}));
        scaler.update();
        QCOMPARE(scaler.current_scale(), 512.0);
        QCOMPARE(scaler.skipped_steps(), std::int64_t{1});
        // Three good steps in a row double it.
        for (int i = 0; i < 3; ++i) {
            backward(1.0);
            QVERIFY(scaler.unscale({weight}));
            scaler.update();
        }
        QCOMPARE(scaler.current_scale(), 1024.0);
        // Its state survives a checkpoint.
        kiln::models::Archive out;
        scaler.save(out);
        kiln::models::write_archive(root_ / "scaler.pt", out);
        kiln::runtime::LossScaler restored;
        restored.load(kiln::models::read_archive(root_ / "scaler.pt"));
        QCOMPARE(restored.current_scale(), 1024.0);
        QCOMPARE(restored.skipped_steps(), std::int64_t{1});
    }

    void precisionPoliciesHoldTheirDtypes() {
        using kiln::Precision;
        const kiln::runtime::PrecisionPolicy fp16(Precision::FP16Mixed, c10::kCUDA);
        QVERIFY(fp16.scales_loss());
        QCOMPARE(fp16.storage_dtype(), c10::ScalarType::Float);
        QCOMPARE(kiln::runtime::autocast_dtype(Precision::FP16Mixed), c10::ScalarType::Half);
        QCOMPARE(kiln::runtime::autocast_dtype(Precision::BF16Mixed), c10::ScalarType::BFloat16);
        QCOMPARE(kiln::runtime::storage_dtype(Precision::FP16True), c10::ScalarType::Half);
        QCOMPARE(kiln::runtime::storage_dtype(Precision::BF16True), c10::ScalarType::BFloat16);
        QVERIFY(!kiln::runtime::PrecisionPolicy(Precision::BF16Mixed, c10::kCPU).scales_loss());
        // bf16 autocast on the CPU for the scope's lifetime only.
        const kiln::runtime::PrecisionPolicy bf16(Precision::BF16Mixed, c10::kCPU);
        const torch::Tensor a = torch::ones({4, 4});
        {
            const kiln::runtime::AutocastScope scope = bf16.autocast();
            QCOMPARE(torch::mm(a, a).scalar_type(), torch::kBFloat16);
        }
        QCOMPARE(torch::mm(a, a).scalar_type(), torch::kFloat32);
        QCOMPARE(kiln::runtime::memory_format_for(Precision::BF16Mixed),
                 c10::MemoryFormat::ChannelsLast);
        QCOMPARE(kiln::runtime::memory_format_for(Precision::FP16True),
                 c10::MemoryFormat::ChannelsLast);
        QCOMPARE(kiln::runtime::memory_format_for(Precision::Full32),
                 c10::MemoryFormat::Contiguous);
    }

    void movedModulesKeepIntegerBuffers() {
        // A backbone moved to bf16 and channels-last: weights convert, batch norm's counters
        // stay int64 (so its checkpoint loads into a fresh model), convolutions go NHWC.
        const auto backbone = kiln::models::make_backbone("smallcnn");
        kiln::runtime::move_module(*backbone, torch::kCPU, torch::kBFloat16,
                                   c10::MemoryFormat::ChannelsLast);
        bool saw_counter = false;
        bool saw_convolution = false;
        for (const auto& buffer : backbone->named_buffers()) {
            if (buffer.key().find("num_batches_tracked") != std::string::npos) {
                QCOMPARE(buffer.value().scalar_type(), torch::kLong);
                saw_counter = true;
            }
        }
        for (const auto& parameter : backbone->named_parameters()) {
            QCOMPARE(parameter.value().scalar_type(), torch::kBFloat16);
            if (parameter.value().dim() == 4) {
                QVERIFY(parameter.value().is_contiguous(c10::MemoryFormat::ChannelsLast));
                saw_convolution = true;
            }
        }
        QVERIFY(saw_counter && saw_convolution);
    }

    // ---- the trainer ----

    void lossDecreasesForEachMethod_data() {
        QTest::addColumn<QString>("method");
        QTest::newRow("simclr") << "simclr";
        QTest::newRow("dino") << "dino";
        QTest::newRow("distillation") << "distillation";
        QTest::newRow("distillation with a queue") << "distillation-queue";
    }

    void lossDecreasesForEachMethod() {
        QFETCH(QString, method);
        const fs::path out = root_ / ("decrease-" + method.toStdString());
        Recorder recorder;
        // AdamW at 0.05 for a batch of 256 is 1.6e-3 for these batches of 8. DINO's teacher is
        // held still (no EMA, no centring, no warm-up): its targets are fixed, so the student's
        // loss must fall as it learns them. (With a moving teacher DINO's loss first rises as
        // centring spreads the teacher out; its EMA is tested on its own.)
        json extra = {{"optim", "adamw"}, {"optim_args", {{"lr", 0.05}}}};
        if (method == "dino") {
            extra["method_args"] = {
                {"output_dim", 64},       {"hidden_dim", 64},
                {"bottleneck_dim", 32},   {"momentum_start", 1.0},
                {"center_momentum", 1.0}, {"warmup_teacher_temp_fraction", 0.0}};
        }
        std::string name = method.toStdString();
        if (method.startsWith("distillation")) {
            // A teacher with random weights is a fixed function of the image: learnable.
            torch::manual_seed(5);
            const fs::path teacher = root_ / "teacher.pt";
            kiln::models::save_backbone_weights(*kiln::models::make_backbone("smallcnn"), teacher);
            extra["method_args"] = {{"teacher", teacher.string()}};
            if (method.endsWith("queue")) {
                extra["method_args"]["queue_size"] = 16;
            }
            name = "distillation";
        }
        const auto config = tinyRun(out, data_, name, 8, extra);
        const auto summary = kiln::train::train(config, recorder);
        QCOMPARE(summary.status, kiln::train::RunSummary::Status::Finished);
        QCOMPARE(recorder.epoch_losses.size(), std::size_t(8));
        QCOMPARE(recorder.steps.size(), std::size_t(8 * 4));
        const auto& losses = recorder.epoch_losses;
        QVERIFY2(losses.back() < 0.9 * losses.front(),
                 qPrintable(QStringLiteral("%1 -> %2").arg(losses.front()).arg(losses.back())));
        QVERIFY(fs::exists(out / "config.json"));
        QVERIFY(fs::exists(kiln::track::RunDirectory(out).last_checkpoint()));
        QVERIFY(fs::exists(kiln::track::RunDirectory(out).exported_last()));
        const auto& step = recorder.steps.back();
        QCOMPARE(step.step, 32);
        QCOMPARE(step.total_steps, 32);
        QVERIFY(step.batch_time > 0 && step.data_time >= 0 && step.data_wait >= 0 &&
                step.data_wait <= 1);
        QVERIFY(step.images_per_second > 0);
        QVERIFY(summary.advice.has_value()); // 32 steps: 22 after warm-up
        QVERIFY(containsText(trainLog(out), "bottleneck: "));
    }

    // The advisor judges a run only after its warm-up and over a minimum of steps, and knows
    // the files' size from the bytes the loader read per image.
    void adviceWaitsForWarmUpAndAWindow() {
        kiln::train::AdviceWindow window(false, {});
        const auto step = [](std::int64_t number) {
            kiln::track::StepMetrics metrics;
            metrics.step = number;
            metrics.data_wait = 0.6;
            metrics.cpu_util = 0.97;
            metrics.batch_time = 0.1;
            metrics.data_time = 0.15;
            metrics.images_per_second = 64 / 0.25; // batches of 64
            return metrics;
        };
        const std::uint64_t bytes_per_image = 600; // 28 px PNGs
        std::int64_t number = 1;
        for (; number <= 7; ++number) { // a 7-step run: nothing to say
            window.add(step(number), true, std::uint64_t(number) * 64 * bytes_per_image, 64);
        }
        QVERIFY(!window.advise());
        for (; number <= kiln::train::AdviceWindow::kWarmUpSteps +
                             std::int64_t(kiln::train::AdviceWindow::kMinimumSteps) - 1;
             ++number) {
            window.add(step(number), true, std::uint64_t(number) * 64 * bytes_per_image, 64);
        }
        QVERIFY(!window.advise()); // one step short of the window
        window.add(step(number), true, std::uint64_t(number) * 64 * bytes_per_image, 64);
        const auto advice = window.advise();
        QVERIFY(advice.has_value());
        QCOMPARE(advice->bottleneck, kiln::system::Bottleneck::DataloaderCpu);
        QVERIFY2(advice->advice[0].find("already small (0.6 KB") != std::string::npos,
                 advice->advice[0].c_str());
    }

    void distillationKeepsItsTeacherFrozen() {
        torch::manual_seed(6);
        const fs::path teacher_file = root_ / "frozen-teacher.pt";
        const auto teacher = kiln::models::make_backbone("smallcnn");
        kiln::models::save_backbone_weights(*teacher, teacher_file);
        const auto method =
            kiln::methods::make_method("distillation", "smallcnn",
                                       {{"teacher", teacher_file.string()}, {"queue_size", 4}}, 10);
        method->train();
        std::map<std::string, torch::Tensor> before;
        for (const auto& item : method->named_parameters()) {
            before[item.key()] = item.value().clone();
        }
        torch::optim::SGD sgd(method->parameters(), torch::optim::SGDOptions(0.1));
        for (int step = 0; step < 3; ++step) {
            sgd.zero_grad();
            method->training_loss({torch::rand({6, 3, 24, 24})}).backward();
            sgd.step();
            method->after_optimizer_step();
        }
        bool student_moved = false;
        for (const auto& item : method->named_parameters()) {
            const bool same = torch::equal(item.value(), before.at(item.key()));
            if (item.key().rfind("teacher.", 0) == 0) {
                QVERIFY2(same && !item.value().requires_grad(), item.key().c_str());
            } else {
                student_moved = student_moved || !same;
            }
        }
        QVERIFY(student_moved);
        // The queue filled up: 3 batches of 6 into 4 places.
        QCOMPARE(method->named_buffers()["queue_filled"].item<std::int64_t>(), 4);

        try {
            kiln::methods::make_method("distillation", "smallcnn", {{"queue_size", 4}}, 10);
            QFAIL("a distillation without a teacher was made");
        } catch (const kiln::ConfigError& error) {
            QVERIFY2(containsText(error.what(), "method_args.teacher: required"), error.what());
        }
        try {
            kiln::methods::make_method("distillation", "smallcnn",
                                       {{"teacher", (root_ / "nowhere.pt").string()}}, 10);
            QFAIL("a missing teacher was accepted");
        } catch (const kiln::ConfigError& error) {
            QVERIFY2(containsText(error.what(), "does not exist"), error.what());
        }
    }

    void distillationRegressesGlobalAndPatchFeatures() {
        // Rows (3, 4) against (1, 0): unit vectors (0.6, 0.8) and (1, 0), squared distance
        // 0.16 + 0.64 = 0.8; rows (0, 2) and (0, 5): 0. The mean: 0.4, whatever the lengths.
        const torch::Tensor student = torch::tensor({{3.0, 4.0}, {0.0, 2.0}});
        const torch::Tensor teacher = torch::tensor({{1.0, 0.0}, {0.0, 5.0}});
        QVERIFY(std::abs(kiln::methods::normalised_distance(student, teacher).item<double>() -
                         0.4) < 1e-6);
        // Maps: a student map of 1 x 2 locations, (1, 0) and (0, 1); a teacher map of 2 x 4
        // locations all (3, 0), resized to 1 x 2: distances 0 and 2, mean 1.
        const torch::Tensor student_map = torch::tensor({{{{1.0, 0.0}}, {{0.0, 1.0}}}});
        torch::Tensor teacher_map = torch::zeros({1, 2, 2, 4});
        teacher_map.select(1, 0).fill_(3.0);
        QVERIFY(std::abs(kiln::methods::patch_distance(student_map, teacher_map).item<double>() -
                         1.0) < 1e-6);
        // The patch term is there where both backbones have maps and patch_weight is set.
        torch::manual_seed(6);
        const fs::path teacher_file = root_ / "patch-teacher.pt";
        kiln::models::save_backbone_weights(*kiln::models::make_backbone("resnet18"), teacher_file);
        const auto has_patch_head = [](const kiln::methods::Method& method) {
            return method->named_parameters().contains("patch_projection_head.weight");
        };
        const auto with_patches = kiln::methods::make_method(
            "distillation", "smallcnn", {{"teacher", teacher_file.string()}, {"patch_weight", 1.0}},
            10);
        QVERIFY(has_patch_head(with_patches));
        QCOMPARE(with_patches->named_parameters()["patch_projection_head.weight"].size(0), 512);
        const torch::Tensor loss = with_patches->training_loss({torch::rand({2, 3, 32, 32})});
        QVERIFY(std::isfinite(loss.item<double>()) && loss.item<double>() > 0);
        QVERIFY(!has_patch_head(kiln::methods::make_method(
            "distillation", "smallcnn", {{"teacher", teacher_file.string()}}, 10))); // off
    }

    // Distillation's patch term reads the feature vector and the last map of one pass: the
    // same as forward() and feature_maps().back() for every family.
    void onePassGivesTheFeaturesAndTheLastMap() {
        torch::manual_seed(7);
        const torch::Tensor images = torch::rand({2, 3, 32, 32});
        for (const char* name : {"smallcnn", "resnet18", "cspnet_n", "vit_tiny"}) {
            const kiln::models::Backbone backbone = kiln::models::make_backbone(name);
            backbone->eval(); // batch norms on their running statistics: passes agree
            torch::NoGradGuard no_grad;
            const auto [features, map] = backbone->features_and_last_map(images);
            QVERIFY2(torch::allclose(features, backbone->forward(images)), name);
            QVERIFY2(torch::allclose(map, backbone->feature_maps(images).back()), name);
        }
    }

    // The steps that fit a time budget: what is left over the measured step time, less what the
    // last validation and checkpoint took; never fewer than the steps done.
    void timeBudgetsFitTheSteps() {
        QCOMPARE(kiln::train::steps_within(60.0, 10.0, 0.5, 2.0, 20), std::int64_t{116});
        QCOMPARE(kiln::train::steps_within(60.0, 59.0, 0.5, 2.0, 20), std::int64_t{20});
        QCOMPARE(kiln::train::steps_within(60.0, 70.0, 0.5, 0.0, 20), std::int64_t{20});
    }

    // With max_time the run's length is its time: the schedule is fitted once the first steps
    // are measured, far below the epochs' bound, and its cosine decay follows the fit until the
    // run saves and finishes. The time spent is kept in the checkpoint.
    void maxTimeFitsTheScheduleToTheBudget() {
        const fs::path out = root_ / "timed";
        Recorder recorder;
        // A budget the first steps fit in: a loaded machine may spend 3 s before the fit (the run
        // then ends early, as it should), so the budget grows until the fit happens.
        for (const double budget : {3.0, 12.0, 48.0}) {
            recorder.steps.clear();
            const auto summary = kiln::train::train(
                tinyRun(out, data_, "simclr", 1,
                        {{"max_time", budget}, {"epochs", 1}, {"overwrite", true}}),
                recorder);
            QCOMPARE(summary.status, kiln::train::RunSummary::Status::Finished);
            if (recorder.steps.size() > kiln::train::FitLoop::kStepsBeforeTimeFit) {
                break;
            }
        }
        QVERIFY(recorder.steps.size() > kiln::train::FitLoop::kStepsBeforeTimeFit);
        const auto archive =
            kiln::models::read_checkpoint_file(kiln::track::RunDirectory(out).last_checkpoint());
        QVERIFY(archive->real(kiln::models::checkpoint_key::kTrainedSeconds) > 0.0);
        // The fitted schedule ended the run: its last step was the schedule's last as last
        // fitted. (The last step's event may show an earlier fit's length: steps that slow down
        // after a fit, another job starting on a loaded machine, leave the next fit less time,
        // and it ends the run there.)
        const auto& last = recorder.steps.back();
        QCOMPARE(archive->integers(kiln::models::checkpoint_key::kFittedSteps).at(0), last.step);
        QVERIFY2(last.step <= last.total_steps,
                 qPrintable(QString("%1 of %2").arg(last.step).arg(last.total_steps)));
        QVERIFY2(last.epochs < 1000, qPrintable(QString::number(last.epochs)));
        // The fit shortened the schedule that the rate follows.
        QVERIFY2(last.total_steps < recorder.steps.front().total_steps,
                 qPrintable(QString("%1 then %2")
                                .arg(recorder.steps.front().total_steps)
                                .arg(last.total_steps)));
        // Where the fit before the last step foresaw the end, the rate decayed to it. (A loaded
        // machine may spend the budget sooner than the last fit foresaw: the run then ends at
        // the next fit, its rate still high, and this is not asserted.)
        double peak = 0.0;
        for (const auto& step : recorder.steps) {
            peak = std::max(peak, step.lr);
        }
        const auto& before_last = recorder.steps[recorder.steps.size() - 2];
        if (before_last.total_steps == last.step) {
            QVERIFY2(last.lr < 0.05 * peak, qPrintable(QString("%1 of %2").arg(last.lr).arg(peak)));
        }
    }

    // A max_time run stopped after its schedule was fitted goes on with that schedule when
    // resumed: it started again from the thousand-epoch bound (the rate back in warm-up).
    void aResumedMaxTimeRunKeepsItsFittedSchedule() {
        const fs::path out = root_ / "timed-resumed";
        const std::size_t fitted = kiln::train::FitLoop::kStepsBeforeTimeFit + 2;
        Recorder first;
        first.stop_after_steps = fitted;
        const auto stopped = kiln::train::train(
            tinyRun(out, data_, "simclr", 1, {{"max_time", 3600}}), first, first.stop);
        QCOMPARE(stopped.status, kiln::train::RunSummary::Status::Cancelled);
        QCOMPARE(first.steps.size(), fitted);
        const std::int64_t total = first.steps.back().total_steps;
        QVERIFY(total != first.steps.front().total_steps); // fitted
        const auto archive =
            kiln::models::read_checkpoint_file(kiln::track::RunDirectory(out).last_checkpoint());
        QCOMPARE(archive->integers(kiln::models::checkpoint_key::kFittedSteps).at(0), total);
        Recorder second;
        second.stop_after_steps = 2;
        kiln::train::train(
            tinyRun(out, data_, "simclr", 1, {{"max_time", 3600}, {"resume_interrupted", true}}),
            second, second.stop);
        QVERIFY(!second.steps.empty());
        QCOMPARE(second.steps.front().step, first.steps.back().step + 1);
        QCOMPARE(second.steps.front().total_steps, total);
    }

    // A budget shorter than the steps that measure the speed: the run ends when it is spent,
    // finished and saved, rather than overrunning it by the measuring steps.
    void maxTimeShorterThanTheMeasuringStepsEndsOnTime() {
        const fs::path out = root_ / "timed-short";
        Recorder recorder;
        const auto summary =
            kiln::train::train(tinyRun(out, data_, "simclr", 1,
                                       {{"max_time", 1},
                                        {"model", "resnet18"},
                                        {"batch_size", 16},
                                        {"transform_args", {{"image_size", {224, 224}}}}}),
                               recorder);
        QCOMPARE(summary.status, kiln::train::RunSummary::Status::Finished);
        QVERIFY2(summary.steps < kiln::train::FitLoop::kStepsBeforeTimeFit,
                 qPrintable(QString::number(summary.steps)));
        QCOMPARE(static_cast<std::int64_t>(recorder.steps.size()), summary.steps);
        QVERIFY(fs::exists(kiln::track::RunDirectory(out).last_checkpoint()));
    }

    // The weight average: its decay ramps up over a tenth of the run; each update moves it
    // towards the weights by (1 - decay); a swap puts it in the module and back.
    void gradientClippingScalesToTheNorm() {
        at::Tensor a = torch::zeros({1}, torch::requires_grad());
        at::Tensor b = torch::zeros({1}, torch::requires_grad());
        (3 * a + 4 * b).sum().backward(); // gradients 3 and 4: total norm 5
        kiln::train::clip_gradients({a, b}, 10.0);
        QCOMPARE(a.grad().item<float>(), 3.0f); // under the limit: untouched
        kiln::train::clip_gradients({a, b}, 1.0);
        QVERIFY(std::abs(a.grad().item<float>() - 0.6f) < 1e-5);
        QVERIFY(std::abs(b.grad().item<float>() - 0.8f) < 1e-5);
        kiln::train::clip_gradients({a, b}, 0.0); // off
        QVERIFY(std::abs(b.grad().item<float>() - 0.8f) < 1e-5);
    }

    void weightAverageFollowsItsDecay() {
        torch::nn::Linear layer(1, 1);
        {
            torch::NoGradGuard no_grad;
            layer->weight.fill_(0.0);
            layer->bias.fill_(0.0);
        }
        kiln::train::WeightAverage average(*layer, 0.5);
        QCOMPARE(average.decay_at(0, 100), 0.0);
        QVERIFY(std::abs(average.decay_at(10, 100) - 0.5 * (1 - std::exp(-1.0))) < 1e-12);
        // A short run averages a twentieth of its steps at most: 1 - 20 / 30 here.
        QVERIFY(std::abs(average.decay_at(1000, 30) - (1.0 - 20.0 / 30.0)) < 1e-9);
        {
            torch::NoGradGuard no_grad;
            layer->weight.fill_(1.0);
        }
        average.update(1000, 100); // the decay is 0.5 by then
        QCOMPARE(layer->weight.item<double>(), 1.0);
        {
            const kiln::train::WeightAverage::Scope averaged(&average);
            QVERIFY(std::abs(layer->weight.item<double>() - 0.5) < 1e-6);
        }
        QCOMPARE(layer->weight.item<double>(), 1.0);
        // A validation that fails inside the scope (a lost GPU) is the error reported, though
        // swapping back fails too (here the weights changed shape meanwhile).
        QVERIFY(kiln::test::throwsContaining(
            [&] {
                const kiln::train::WeightAverage::Scope averaged(&average);
                layer->weight.set_data(torch::zeros({2, 2}));
                throw kiln::Error("validation failed: CUDA error: an illegal memory access");
            },
            "validation failed"));
    }

    void resumeGivesTheSameWeightsAsOneRun() {
        Recorder straight;
        const fs::path whole = root_ / "whole";
        kiln::train::train(tinyRun(whole, data_, "simclr", 4), straight);

        const fs::path split = root_ / "split";
        Recorder first;
        first.stop_after_epoch = 1; // stop after 2 of the 4 epochs
        const auto stopped =
            kiln::train::train(tinyRun(split, data_, "simclr", 4), first, first.stop);
        QCOMPARE(stopped.status, kiln::train::RunSummary::Status::Cancelled);
        QCOMPARE(stopped.steps, 8);
        QVERIFY(fs::exists(kiln::track::RunDirectory(split).last_checkpoint()));
        QVERIFY(!fs::exists(kiln::track::RunDirectory(split).exported_last()));

        Recorder second;
        const auto resumed = kiln::train::train(
            tinyRun(split, data_, "simclr", 4, {{"resume_interrupted", true}}), second);
        QCOMPARE(resumed.status, kiln::train::RunSummary::Status::Finished);
        QCOMPARE(second.steps.front().step, 9);
        QCOMPARE(second.steps.front().epoch, 2);

        const auto expected = backboneWeights(kiln::track::RunDirectory(whole).exported_last());
        const auto actual = backboneWeights(kiln::track::RunDirectory(split).exported_last());
        QCOMPARE(actual.size(), expected.size());
        for (const auto& [name, tensor] : expected) {
            QVERIFY2(torch::equal(actual.at(name), tensor), name.c_str());
        }
    }

    void runFilesKeepEveryStep() {
        // The resumed run of resumeGivesTheSameWeightsAsOneRun appended to the stopped one.
        const fs::path split = root_ / "split";
        std::ifstream metrics(split / "metrics.jsonl");
        std::vector<json> lines;
        for (std::string line; std::getline(metrics, line);) {
            lines.push_back(json::parse(line));
        }
        QCOMPARE(lines.size(), std::size_t(16));
        for (std::size_t i = 0; i < lines.size(); ++i) {
            QCOMPARE(lines[i]["step"].get<int>(), int(i) + 1);
            for (const char* key : {"epoch", "train_loss", "lr", "profiling/batch_time",
                                    "profiling/data_time", "data_wait", "images_per_second", "time",
                                    "system/cpu_util", "system/mem_rss_mb"}) {
                QVERIFY2(lines[i].contains(key), key);
            }
        }
        std::ifstream log(split / "train.log");
        const std::string text((std::istreambuf_iterator<char>(log)), {});
        QVERIFY(containsText(text, "run started: 32 images, 16 steps; settings:"));
        QVERIFY(containsText(text, "run stopped after 8 steps"));
        QVERIFY(containsText(text, "info: resuming from"));
        QVERIFY(containsText(text, "run finished after 16 steps"));
        // 8 steps per part: too few after warm-up to say where the time went.
        QVERIFY(!containsText(text, "bottleneck: "));

        Recorder recorder;
        kiln::train::train(
            tinyRun(root_ / "no-jsonl", data_, "simclr", 1, {{"loggers", {{"jsonl", nullptr}}}}),
            recorder);
        QVERIFY(!fs::exists(root_ / "no-jsonl" / "metrics.jsonl"));
        QVERIFY(fs::exists(root_ / "no-jsonl" / "train.log"));
    }

    // Studio runs one job after another in its process: a run leaves LibTorch's and OpenCV's
    // thread counts and the default generator as it found them.
    void runsLeaveTheProcessAsTheyFoundIt() {
        torch::set_num_threads(1);
        cv::setNumThreads(3);
        torch::manual_seed(123);
        const at::Tensor expected = torch::rand({4});
        torch::manual_seed(123);
        Recorder recorder;
        kiln::train::train(
            tinyRun(root_ / "process-state", data_, "simclr", 1, {{"num_workers", 2}}), recorder);
        QVERIFY(!recorder.steps.empty());
        QCOMPARE(torch::get_num_threads(), 1);
        QCOMPARE(cv::getNumThreads(), 3);
        QVERIFY(torch::equal(torch::rand({4}), expected));
    }

    // Without an image size, pretraining views take the images' own size (40 px here, in
    // multiples of 32) rather than blowing them up to the method's 224, and the run records it.
    void pretrainingViewsTakeTheImagesSize() {
        const fs::path out = root_ / "auto-size";
        json settings = {{"out", out.string()}, {"data", data_.string()}, {"model", "smallcnn"},
                         {"epochs", 1},         {"batch_size", 8},        {"num_workers", 0},
                         {"accelerator", "cpu"}};
        kiln::ResolveContext context;
        context.hardware.cpu_cores = 2;
        const kiln::TrainConfig config = kiln::resolve_train_config(settings, context);
        QCOMPARE(config.transform_args.value("image_size", json()), json("auto"));
        Recorder recorder;
        kiln::train::train(config, recorder);
        std::ifstream file(kiln::track::RunDirectory(out).config());
        const json recorded = json::parse(file);
        QCOMPARE(recorded["transform_args"]["image_size"], json({32, 32}));
        // optim=auto is recorded as what it chose: SimCLR's recipe for the small CNN.
        QCOMPARE(recorded["optim"], json("sgd"));
        QCOMPARE(recorded["optim_args"]["lr"], json(0.12));
        QCOMPARE(recorded["optim_args"]["weight_decay"], json(5e-4));
        QCOMPARE(recorded["optim_args"]["warmup_epochs"], json(10.0));
        QVERIFY(!recorded["optim_args"].contains("backbone_lr_factor")); // fine-tuning's only
        QCOMPARE(kiln::parse_train_config(recorded).optimizer.chosen.base_lr, 0.12);
        const auto checkpoint =
            kiln::models::read_checkpoint_file(kiln::track::RunDirectory(out).last_checkpoint());
        QCOMPARE(kiln::models::settings_of(*checkpoint)["transform_args"]["image_size"],
                 json({32, 32}));
        const std::string log = trainLog(out);
        QVERIFY2(log.find("info: transform_args.image_size=auto: 32x32 (the training images' "
                          "median 40x40") != std::string::npos,
                 log.c_str());
        // ... and trains with SimCLR's recipe for the small CNN.
        QVERIFY(recorder.started);
        QCOMPARE(recorder.started->optimizer.chosen.name, std::string("sgd"));
    }

    // ---- memory ----

    // A step that cannot fit in the free memory is refused, naming the batch that would; one
    // that leaves under a fifth free is a warning (DINO's views at 224 px: 2 of 224 and 6 of 96).
    void aStepsMemoryIsCheckedAgainstTheFreeMemory() {
        const std::vector<kiln::data::ViewShape> dino = {{3, 224, 224}, {3, 224, 224}, {3, 96, 96},
                                                         {3, 96, 96},   {3, 96, 96},   {3, 96, 96},
                                                         {3, 96, 96},   {3, 96, 96}};
        QCOMPARE(kiln::train::views_text(dino),
                 std::string("2 views of 224 x 224 px and 6 of 96 x 96 px"));
        QCOMPARE(kiln::train::views_text({{1, 32, 32}}), std::string("1 view of 32 x 32 px"));
        QCOMPARE(kiln::train::views_text({{3, 64, 64}, {3, 32, 32}, {3, 16, 16}}),
                 std::string("1 view of 64 x 64 px, 1 of 32 x 32 px and 1 of 16 x 16 px"));

        kiln::train::StepMemory memory{.batch = 128,
                                       .probed = {.per_sample_mb = 70},
                                       .available_mb = 11000,
                                       .views = dino,
                                       .peak_per_probed = {.least = 1.7, .most = 2.5}};
        // At the most a step takes (2.5 x 70 MB a sample), 32 samples leave a fifth free.
        QCOMPARE(memory.largest_comfortable_batch(), 32);
        const auto check = [&memory] { kiln::train::check_step_memory(memory); };
        QVERIFY(kiln::test::throwsContaining(
            check, "batch_size=128 needs at least 14.9 GB for a training step on the CPU (119 MB "
                   "or more a sample of 2 views of 224 x 224 px and 6 of 96 x 96 px), and this "
                   "machine has 10.7 GB free: the system would stop the run at its first step. "
                   "Use batch_size=32 (at most 5.5 GB) or less"));
        QCOMPARE(kiln::train::step_memory_text(memory),
                 std::string("a training step of 128 samples needs 14.9 GB to 21.9 GB on the CPU; "
                             "10.7 GB free"));

        memory.batch = 64; // 7.4 to 10.9 GB of 10.7: may not fit
        const std::string warning = kiln::train::check_step_memory(memory);
        QVERIFY2(containsText(warning, "batch_size=64 may need up to 10.9 GB") &&
                     containsText(warning, "batch_size=32 (at most 5.5 GB) leaves room"),
                 warning.c_str());
        memory.batch = 32;
        QCOMPARE(kiln::train::check_step_memory(memory), std::string());

        memory.available_mb = 50; // not even one sample
        memory.batch = 1;
        QVERIFY(kiln::test::throwsContaining(check, "Use a smaller batch_size, smaller views"));

        // What a step takes whatever its batch (DINO's 1,048,576 prototypes: 1 GiB of weights,
        // their gradients and normalised copies, the optimizer's two moments) is said apart,
        // and where it alone would not fit, no batch is named.
        memory = {
            .batch = 16,
            .probed = {.per_sample_mb = 10, .per_step_mb = 4096, .trained_parameters_mb = 1024},
            .parameter_copies = 2,
            .available_mb = 5000,
            .views = {{3, 64, 64}, {3, 64, 64}},
            .peak_per_probed = {.least = 1, .most = 2}};
        QCOMPARE(memory.per_step_mb(1), 6144.0);
        QCOMPARE(memory.least_mb(16), 6144.0 + 160);
        QCOMPARE(memory.most_mb(16), 2048.0 + 2 * 4096 + 320); // the heap's ratio on the step too
        QVERIFY(kiln::test::throwsContaining(
            check, "batch_size=16 needs at least 6.2 GB for a training step on the CPU (10 MB or "
                   "more a sample of 2 views of 64 x 64 px, and 6.0 GB whatever the batch: the "
                   "gradients, the optimizer's state and the model's own copies of its weights), "
                   "and this machine has 4.9 GB free: the system would stop the run at its first "
                   "step. Use a smaller model (or, pretraining, smaller heads: method_args), "
                   "smaller views"));
        QCOMPARE(kiln::train::parameter_copies({.name = "adamw"}), 2);
        QCOMPARE(kiln::train::parameter_copies({.name = "sgd", .ema_decay = 0.999}), 2);
        QCOMPARE(kiln::train::parameter_copies({.name = "lars"}), 1);
    }

    // Huge views are timed at 512 px and the speed divided by their pixels' ratio (64 at 4096
    // px): timed as they are, a probe would take minutes and their memory. Small samples are timed
    // many at a time, as a run's batch shares a method's per-step work, never more than the
    // batch; large ones 4 at a time.
    void theSpeedProbeTimesSmallSamplesManyAndHugeOnesSmaller() {
        using kiln::train::plan_speed_probe;
        const auto huge = plan_speed_probe({{3, 4096, 4096}, {3, 2048, 4096}}, 128);
        QCOMPARE(huge.timed_views.size(), std::size_t{2});
        QCOMPARE(huge.timed_views[0].height, 512);
        QCOMPARE(huge.timed_views[0].width, 512);
        QCOMPARE(huge.timed_views[1].height, 256);
        QCOMPARE(huge.timed_views[1].width, 512);
        QCOMPARE(huge.pixels_per_timed, 64.0);
        QCOMPARE(huge.samples, std::int64_t{4});
        const auto plain = plan_speed_probe({{3, 224, 224}, {3, 224, 224}}, 128);
        QCOMPARE(plain.pixels_per_timed, 1.0);
        QCOMPARE(plain.samples, std::int64_t{4});
        QCOMPARE(plan_speed_probe({{3, 112, 112}, {3, 112, 112}}, 128).samples, std::int64_t{16});
        QCOMPARE(plan_speed_probe({{3, 32, 32}, {3, 32, 32}}, 128).samples, std::int64_t{64});
        QCOMPARE(plan_speed_probe({{3, 32, 32}, {3, 32, 32}}, 8).samples, std::int64_t{8});
        QCOMPARE(plan_speed_probe({{3, 32, 32}, {3, 32, 32}}, 0).samples, std::int64_t{1});
        // The probe itself steps the huge views' plan and answers a speed.
        QVERIFY(kiln::train::probe_training_speed(kiln::train::probed_backbone("smallcnn"),
                                                  {{3, 4096, 4096}, {3, 4096, 4096}}, 128) > 0);
    }

    // A write that fails (a full disk) is an error for the caller: thrown through LibTorch's
    // archive writer, it unwound into the writer's destructor and ended the process.
    void aTorchFileWriteThatFailsIsAnError() {
        const c10::IValue weights(torch::ones({1024, 256})); // 1 MiB
        std::size_t written = 0;
        const auto fullAfter100Kb = [&written](const char*, std::size_t size) {
            if (written + size > 100000) {
                throw kiln::Error("no space left on device");
            }
            written += size;
        };
        QVERIFY(kiln::test::throwsContaining(
            [&] { kiln::models::write_torch_load_compatible(weights, fullAfter100Kb); },
            "no space left on device"));
        QVERIFY(written > 0 && written <= 100000);
    }

    // The probe measures what one more sample adds to a step: more pixels, more memory.
    void theMemoryProbeGrowsWithTheViews() {
        const auto per_sample_mb = [](const std::vector<kiln::data::ViewShape>& views) {
            const auto probed =
                kiln::train::probe_step_memory(kiln::train::probed_backbone("resnet18"), views);
            return probed ? std::optional<double>(probed->per_sample_mb) : std::nullopt;
        };
        const std::optional<double> small = per_sample_mb({{3, 64, 64}});
        QVERIFY(small); // LibTorch's own CPU allocator is the one in place
        // A ResNet's activations grow with the pixels: 9 times as many at 192 px as at 64.
        const double large = *per_sample_mb({{3, 192, 192}});
        QVERIFY2(large > 6 * *small && large < 12 * *small && large > 5,
                 qPrintable(QString("%1 MB at 64 px, %2 at 192").arg(*small).arg(large)));
        // Views over 448 px are probed at 448 and 224 and scaled by their pixels (22 times
        // 192 px's).
        const double huge = *per_sample_mb({{3, 896, 896}});
        QVERIFY2(huge > 15 * large && huge < 30 * large,
                 qPrintable(QString("%1 MB at 896 px, %2 at 192").arg(huge).arg(large)));
        // The counting allocator is the probe's alone: LibTorch's own is back in place.
        QVERIFY(c10::GetCPUAllocator() == c10::GetDefaultCPUAllocator());
    }

    // A pretraining run's probe steps its method whole: DINO's prototypes (output_dim of them,
    // each a 256-d unit vector) add their scores to every sample and their gradients, the
    // optimizer's state and the normalised copies to every step, whatever its batch.
    void theMemoryProbeCountsAMethodsHeads() {
        const std::vector<kiln::data::ViewShape> views = {{3, 32, 32}, {3, 32, 32}};
        const auto probed = [&views](int prototypes) {
            return *kiln::train::probe_step_memory(
                kiln::train::probed_model(kiln::TaskKind::Pretraining, "smallcnn", "dino",
                                          {{"output_dim", prototypes}}, 1000, {}),
                views);
        };
        const kiln::train::ProbedStepMemory few = probed(1024);
        const kiln::train::ProbedStepMemory many = probed(131072);
        // A sample's scores: 2 views x 130,048 more prototypes x 4 bytes = 1 MiB, held for the
        // backward pass in two forms at least (the student's log-probabilities, the teacher's
        // probabilities).
        const double more_scores_mb = 2.0 * (131072 - 1024) * 4 / (1024.0 * 1024.0);
        // The last layer: 256 x 130,048 more weights, 127 MiB.
        const double more_weights_mb = 256.0 * (131072 - 1024) * 4 / (1024.0 * 1024.0);
        const QString figures = QString("%1 MB a sample and %2 a step at 1,024 prototypes, %3 and "
                                        "%4 at 131,072; %5 and %6 MB of trained parameters")
                                    .arg(few.per_sample_mb)
                                    .arg(few.per_step_mb)
                                    .arg(many.per_sample_mb)
                                    .arg(many.per_step_mb)
                                    .arg(few.trained_parameters_mb)
                                    .arg(many.trained_parameters_mb);
        QVERIFY2(many.per_sample_mb - few.per_sample_mb > 1.5 * more_scores_mb,
                 qPrintable(figures));
        // The gradients and the normalised weights with their gradient: 3 copies at least.
        QVERIFY2(many.per_step_mb - few.per_step_mb > 3 * more_weights_mb, qPrintable(figures));
        QVERIFY2(
            std::abs(many.trained_parameters_mb - few.trained_parameters_mb - more_weights_mb) < 1,
            qPrintable(figures));
        qInfo("%s", qPrintable(figures));
        // A fine-tuning task's probe is its backbone's, whatever the method settings say.
        const kiln::train::ProbedStepMemory backbone = *kiln::train::probe_step_memory(
            kiln::train::probed_model(kiln::TaskKind::ImageClassification, "smallcnn", "dino",
                                      {{"output_dim", 131072}}, 1000, {}),
            views);
        // No head: its hidden layer's 2,048 x 2,048 weights alone are 16 MiB.
        QVERIFY2(backbone.trained_parameters_mb < few.trained_parameters_mb - 16,
                 qPrintable(
                     QString("%1 MB of trained parameters; ").arg(backbone.trained_parameters_mb) +
                     figures));
    }

    // Views over 448 px are extrapolated from 448 and 224: in proportion to the pixels, unless
    // the memory grew faster than them (a ViT's attention is quadratic in its tokens).
    void largeViewsAreExtrapolatedAsTheirMemoryGrows() {
        using kiln::train::extrapolated_mb;
        QCOMPARE(extrapolated_mb(1, 1, 4, 4, 16), 16.0);
        QCOMPARE(extrapolated_mb(1, 1, 4.4, 4, 16), 17.6); // within the allocator's rounding
        QCOMPARE(extrapolated_mb(2, 1, 20, 4, 16), 272.0); // m = P + P^2
        QCOMPARE(extrapolated_mb(0, 1, 4, 4, 16), 16.0);
        const auto vit = kiln::models::make_backbone("vit_tiny");
        vit->eval();
        const auto forward = [&vit](const at::Tensor& images) { vit->forward(images); };
        const double at_224 =
            *kiln::train::probe_inference_memory_per_sample_mb(forward, {3, 224, 224});
        const double at_896 =
            *kiln::train::probe_inference_memory_per_sample_mb(forward, {3, 896, 896});
        // 16 times the pixels, 256 times the attention: far more than 16 times the memory.
        QVERIFY2(at_896 > 40 * at_224,
                 qPrintable(QString("%1 MB at 224 px, %2 at 896").arg(at_224).arg(at_896)));
    }

    // What other threads allocate while a probe runs (a loader filling the next batch) is not
    // the model's.
    void theMemoryProbeCountsOnlyItsOwnThreads() {
        const auto backbone = kiln::models::make_backbone("smallcnn");
        backbone->eval();
        const auto forward = [&backbone](const at::Tensor& images) { backbone->forward(images); };
        const double quiet =
            *kiln::train::probe_inference_memory_per_sample_mb(forward, {3, 224, 224});
        std::atomic<bool> done = false;
        std::thread loader([&done] {
            std::mt19937 draw(3);
            while (!done) { // up to 64 MiB held a moment, now and then
                at::empty({std::int64_t(draw() % (64 << 20))}, at::kByte);
                std::this_thread::sleep_for(std::chrono::microseconds(200));
            }
        });
        std::vector<double> busy;
        for (int i = 0; i < 5; ++i) {
            busy.push_back(
                *kiln::train::probe_inference_memory_per_sample_mb(forward, {3, 224, 224}));
        }
        done = true;
        loader.join();
        for (const double probed : busy) {
            QVERIFY2(std::abs(probed - quiet) <= 0.25 * quiet + 0.1,
                     qPrintable(QString("%1 MB alone, %2 beside a loader").arg(quiet).arg(probed)));
        }
    }

    // Inference at a size a file chose (a checkpoint's image_size) runs in batches that fit,
    // and refuses, naming the setting, where one image would not.
    void inferenceBatchesFitTheMemory() {
        const kiln::data::ViewShape huge{3, 2048, 2048};
        QCOMPARE(kiln::train::inference_batch_that_fits(128, 100, 1000, huge, "image_size"), 8);
        QCOMPARE(kiln::train::inference_batch_that_fits(4, 10, 1000, huge, "image_size"), 4);
        QVERIFY(kiln::test::throwsContaining(
            [&huge] {
                kiln::train::inference_batch_that_fits(128, 2000, 1000, huge, "image_size");
            },
            "one image at 2048 x 2048 px needs about 2.0 GB to go through the model on the CPU, "
            "and this machine has 1.0 GB free; give a smaller image_size"));
        // The probe runs the given forward under no_grad: more pixels, more memory, and a CNN's
        // views over 448 px scaled from 448 (16 times 224 px's at 896).
        const auto backbone = kiln::models::make_backbone("smallcnn");
        backbone->eval();
        const auto forward = [&backbone](const at::Tensor& images) { backbone->forward(images); };
        const std::optional<double> small =
            kiln::train::probe_inference_memory_per_sample_mb(forward, {3, 224, 224});
        QVERIFY(small && *small > 0);
        const double large =
            *kiln::train::probe_inference_memory_per_sample_mb(forward, {3, 896, 896});
        QVERIFY2(large > 12 * *small && large < 20 * *small,
                 qPrintable(QString("%1 MB at 224 px, %2 at 896").arg(*small).arg(large)));
        QVERIFY(c10::GetCPUAllocator() == c10::GetDefaultCPUAllocator());
        // A batch too small to matter is not probed.
        QCOMPARE(kiln::train::cpu_inference_batch(
                     4, [](const at::Tensor&) { QFAIL("probed"); }, {3, 32, 32}, "image_size"),
                 4);
    }

    // The kNN monitor embeds the same folders every few steps: the memory probe runs on its
    // first pass only, so a lowered batch is warned about once, and later passes keep it.
    void theKnnMonitorProbesTheMemoryOnce() {
        kiln::KnnMonitorSettings settings;
        settings.train = root_ / "monitor" / "train";
        settings.val = root_ / "monitor" / "val";
        for (const fs::path& folder : {settings.train, settings.val}) {
            writeTinyDataset(folder / "a", 3);
            writeTinyDataset(folder / "b", 3);
        }
        kiln::data::TransformArgs views;
        views.views.resize(1); // 224 px: a huge batch of it is probed and lowered
        const auto backbone = kiln::models::make_backbone("smallcnn");
        const kiln::train::KnnMonitor monitor(settings, views, kiln::Precision::Full32,
                                              backbone->feature_dim());
        kiln::train::ValidationContext context;
        context.loader.batch_size = 1 << 20;
        std::vector<std::string> warnings;
        const kiln::log::ScopedSink sink(
            [&warnings](kiln::log::Level level, const std::string& message) {
                if (level == kiln::log::Level::Warning) {
                    warnings.push_back(message);
                }
            });
        for (int pass = 0; pass < 3; ++pass) {
            const kiln::train::MetricValues values = monitor.evaluate(*backbone, context);
            QCOMPARE(values.front().first, std::string("val_metric/knn_top1"));
        }
        QCOMPARE(warnings.size(), std::size_t(1));
        QVERIFY2(containsText(warnings.front(), "instead of 1048576"), warnings.front().c_str());
        // Where the memory was probed, the pass says which batch it ran at.
        kiln::train::EmbedOptions options;
        options.batch_size = 1 << 20;
        const kiln::data::DatasetIndex index = kiln::data::DatasetIndex::scan({settings.val});
        const int lowered = kiln::train::compute_embeddings(*backbone, index, options).batch_size;
        QVERIFY(lowered > 0 && lowered < (1 << 20));
        options.batch_fits = true;
        QCOMPARE(kiln::train::compute_embeddings(*backbone, index, options).batch_size, 1 << 20);
    }

    // A CPU run whose step would not fit stops before it starts, with nothing written.
    void aRunTooLargeForTheMemoryStopsBeforeItStarts() {
        const std::optional<double> available = kiln::system::available_memory_mb();
        if (!available || *available > 200'000) {
            QSKIP("the free memory is not known here, or too large to exceed with a tiny dataset");
        }
        const fs::path out = root_ / "too-large";
        Recorder recorder;
        std::string error;
        try {
            kiln::train::train(tinyRun(out, data_, "simclr", 1,
                                       {{"model", "resnet18"},
                                        {"transform_args", {{"image_size", {4096, 4096}}}}}),
                               recorder);
        } catch (const kiln::Error& refused) {
            error = refused.what();
        }
        QVERIFY2(containsText(error, "batch_size=8 needs at least") &&
                     containsText(error, "a sample of 2 views of 4096 x 4096 px") &&
                     containsText(error, "free: the system would stop the run"),
                 error.c_str());
        QVERIFY(recorder.steps.empty());
        QVERIFY(!fs::exists(out));
    }

    void resumingAfterTheDataShrankGoesOn() {
        // Stopped at batch 3 of 4; resumed with half the images (2 batches an epoch), the run
        // goes on from the next epoch rather than waiting for a batch that never comes.
        const auto [data, out, status] = interruptedRun(root_ / "shrinking", 32, 3, 3);
        QCOMPARE(status, kiln::train::RunSummary::Status::Cancelled);
        for (int i = 16; i < 32; ++i) {
            fs::remove(data / (std::to_string(i) + ".png"));
        }
        Recorder second;
        const auto resumed = kiln::train::train(
            tinyRun(out, data, "simclr", 3, {{"resume_interrupted", true}}), second);
        QCOMPARE(resumed.status, kiln::train::RunSummary::Status::Finished);
        QCOMPARE(resumed.steps, std::int64_t{6}); // 3 epochs of 2 batches
        QCOMPARE(second.steps.size(), std::size_t{3});
        const std::string log = trainLog(out);
        QVERIFY2(log.find("the data has 16 training images, the interrupted run had 32") !=
                     std::string::npos,
                 log.c_str());
        QVERIFY2(log.find("resuming at batch 4 of an epoch that now has 2 (the images or "
                          "batch_size changed") != std::string::npos,
                 log.c_str());
    }

    void resumingOnOtherImagesWarns() {
        // The same number of images, one of them renamed: the run goes on, and says so.
        const auto [data, out, status] = interruptedRun(root_ / "renamed", 16, 2, 1);
        QCOMPARE(status, kiln::train::RunSummary::Status::Cancelled);
        Recorder unchanged;
        unchanged.stop_after_steps = 2;
        kiln::train::train(tinyRun(out, data, "simclr", 2, {{"resume_interrupted", true}}),
                           unchanged, unchanged.stop);
        QVERIFY(trainLog(out).find("are not those") == std::string::npos);
        fs::rename(data / "3.png", data / "renamed.png");
        Recorder second;
        const auto resumed = kiln::train::train(
            tinyRun(out, data, "simclr", 2, {{"resume_interrupted", true}}), second);
        QCOMPARE(resumed.status, kiln::train::RunSummary::Status::Finished);
        const std::string log = trainLog(out);
        QVERIFY2(log.find("the data's 16 training images are not those the interrupted run had "
                          "(their names differ)") != std::string::npos,
                 log.c_str());
    }

    void resumingKeepsWhatTheRunStartedWith() {
        // Interrupted at 24 px views with LARS; resumed leaving both on auto, which would pick
        // 32 px and SGD for these images and the small CNN: the run goes on as it started.
        const fs::path out = root_ / "resumed-choices";
        Recorder first;
        first.stop_after_epoch = 0;
        kiln::train::train(tinyRun(out, data_, "simclr", 2,
                                   {{"optim", "lars"}, {"optim_args", {{"weight_decay", 1e-5}}}}),
                           first, first.stop);
        const json resume = {{"resume_interrupted", true},
                             {"transform_args", {{"image_size", "auto"}}},
                             {"optim_args", {{"lr", 0.5}}}}; // set again: it stays
        Recorder second;
        const auto resumed = kiln::train::train(tinyRun(out, data_, "simclr", 2, resume), second);
        QCOMPARE(resumed.status, kiln::train::RunSummary::Status::Finished);
        QVERIFY(second.started);
        QCOMPARE(second.started->transform_args["image_size"], json({24, 24}));
        QCOMPARE(second.started->optimizer.chosen.name, std::string("lars"));
        QCOMPARE(second.started->optimizer.chosen.weight_decay, 1e-5);
        QCOMPARE(second.started->optimizer.chosen.base_lr, 0.5);
        // Damaged recorded settings are refused with the checkpoint and the setting named, and the
        // fix; nothing is trained.
        const fs::path last = kiln::track::RunDirectory(out).last_checkpoint();
        kiln::models::Archive damaged = *kiln::models::read_checkpoint_file(last);
        json recorded = kiln::models::settings_of(damaged);
        recorded["optim_args"]["lr"] = -1;
        damaged.write(kiln::models::checkpoint_key::kConfig, c10::IValue(recorded.dump()));
        kiln::models::write_archive(last, damaged);
        Recorder refused;
        try {
            kiln::train::train(tinyRun(out, data_, "simclr", 3, {{"resume_interrupted", true}}),
                               refused);
            QFAIL("damaged recorded settings were resumed with");
        } catch (const kiln::Error& error) {
            const std::string message = error.what();
            QVERIFY2(message.find(last.string()) != std::string::npos, error.what());
            QVERIFY2(message.find("optim_args.lr") != std::string::npos, error.what());
            QVERIFY2(message.find("set them on the command line") != std::string::npos,
                     error.what());
        }
        QVERIFY(refused.steps.empty());
        // Resumed with another method: named as such, not as a tensor missing from the file.
        recorded["optim_args"]["lr"] = 0.5;
        damaged.write(kiln::models::checkpoint_key::kConfig, c10::IValue(recorded.dump()));
        kiln::models::write_archive(last, damaged);
        QVERIFY(kiln::test::throwsContaining(
            [&] {
                kiln::train::train(tinyRun(out, data_, "dino", 3, {{"resume_interrupted", true}}),
                                   refused);
            },
            "trained method=simclr (\"" + last.string() +
                "\"), and this command gives method=dino; resume with the same method"));
        QVERIFY(refused.steps.empty());
        // Settings that are not JSON at all are refused too, not read past.
        damaged.write(kiln::models::checkpoint_key::kConfig, c10::IValue(std::string("[[{")));
        kiln::models::write_archive(last, damaged);
        QVERIFY(kiln::test::throwsContaining(
            [&] {
                kiln::train::train(tinyRun(out, data_, "simclr", 3, {{"resume_interrupted", true}}),
                                   refused);
            },
            "\"" + last.string() +
                "\" is damaged: the settings it stores (kiln/config) are not a JSON object"));
        QVERIFY(refused.steps.empty());
        // A new run resolves auto from the images and the model.
        Recorder fresh;
        kiln::train::train(tinyRun(root_ / "fresh-choices", data_, "simclr", 1,
                                   {{"transform_args", {{"image_size", "auto"}}}}),
                           fresh);
        QCOMPARE(fresh.started->transform_args["image_size"], json({32, 32}));
        QCOMPARE(fresh.started->optimizer.chosen.name, std::string("sgd"));
    }

    // overwrite=true replaces an earlier run's files and nothing else: `out` may come from a
    // configuration someone else wrote, naming a folder of the user's own files.
    void overwriteReplacesOnlyARunsFiles() {
        const fs::path out = root_ / "overwrite";
        Recorder first;
        kiln::train::train(tinyRun(out, data_, "simclr", 1), first);
        std::ofstream(out / "notes.txt") << "mine";
        fs::create_directories(out / "photos");
        const auto overwriting = [&] {
            Recorder again;
            kiln::train::train(tinyRun(out, data_, "simclr", 1, {{"overwrite", true}}), again);
        };
        QVERIFY(kiln::test::throwsContaining(
            overwriting, "holds 2 file(s) no Kiln run wrote, such as \"notes.txt\"; "
                         "overwrite=true replaces only a run's files"));
        QVERIFY(fs::exists(out / "notes.txt") && fs::exists(out / "photos"));
        // Refused before anything was written there, the lock included.
        const fs::path photos = root_ / "photos-only";
        fs::create_directories(photos);
        std::ofstream(photos / "holiday.jpg") << "mine";
        QVERIFY(kiln::test::throwsContaining(
            [&] {
                Recorder refused;
                kiln::train::train(tinyRun(photos, data_, "simclr", 1, {{"overwrite", true}}),
                                   refused);
            },
            "such as \"holiday.jpg\""));
        QCOMPARE(std::distance(fs::directory_iterator(photos), fs::directory_iterator()), 1);
        QVERIFY(fs::exists(kiln::track::RunDirectory(out).last_checkpoint()));
        // Without them, the earlier run's files go (its log with them) and the new run's come.
        fs::remove(out / "notes.txt");
        fs::remove(out / "photos");
        const kiln::track::RunDirectory run(out);
        std::ofstream(run.train_log(), std::ios::app) << "the earlier run\n";
        overwriting();
        std::ifstream log(run.train_log());
        const std::string text((std::istreambuf_iterator<char>(log)), {});
        QVERIFY(!text.empty() && text.find("the earlier run") == std::string::npos);
        QVERIFY(fs::exists(run.last_checkpoint()));
    }

    // A run folder from someone else may link its files elsewhere: nothing is written through
    // the links.
    void aRunWritesNothingThroughLinksInItsFolder() {
        const fs::path out = root_ / "linked";
        Recorder first;
        kiln::train::train(tinyRun(out, data_, "simclr", 1), first);
        const fs::path victim = root_ / "victim.txt";
        std::ofstream(victim) << "mine\n";
        const kiln::track::RunDirectory run(out);
        const auto resuming = [&] {
            Recorder again;
            kiln::train::train(tinyRun(out, data_, "simclr", 2, {{"resume_interrupted", true}}),
                               again);
        };
        fs::remove(run.lock());
        fs::create_symlink(victim, run.lock());
        QVERIFY(kiln::test::throwsContaining(resuming, ".kiln.lock\" is a symbolic link"));
        fs::remove(run.lock());
        fs::remove(run.train_log());
        fs::create_symlink(victim, run.train_log());
        QVERIFY(kiln::test::throwsContaining(resuming, "train.log\" is a symbolic link"));
        std::ifstream kept(victim);
        QCOMPARE(std::string((std::istreambuf_iterator<char>(kept)), {}), std::string("mine\n"));
        // overwrite=true removes the link with the run's files, and writes a log of its own.
        Recorder again;
        kiln::train::train(tinyRun(out, data_, "simclr", 1, {{"overwrite", true}}), again);
        QVERIFY(!fs::is_symlink(run.train_log()) && fs::is_regular_file(run.train_log()));
        std::ifstream still(victim);
        QCOMPARE(std::string((std::istreambuf_iterator<char>(still)), {}), std::string("mine\n"));
    }

    void checkpointsEveryNStepsAndOnStop() {
        const fs::path out = root_ / "every";
        Recorder recorder;
        kiln::StopToken stop;
        struct StopAtStep : Recorder {
            void on_step(const kiln::train::StepMetrics& metrics) override {
                Recorder::on_step(metrics);
                if (metrics.step == 3) {
                    stop.request_stop();
                }
            }
        } stopper;
        const auto summary = kiln::train::train(
            tinyRun(out, data_, "simclr", 3,
                    {{"callbacks", {{"model_checkpoint", {{"every_n_steps", 2}}}}}}),
            stopper, stopper.stop);
        QCOMPARE(summary.status, kiln::train::RunSummary::Status::Cancelled);
        QCOMPARE(summary.steps, 3);
        // What a kill during a write leaves is cleared by the run that resumes.
        const kiln::track::RunDirectory run(out);
        std::ofstream(run.checkpoints() / ".last.ckpt.kiln-Ab12Cd") << "half a checkpoint";
        std::ofstream(run.root() / ".config.json.kiln-Xy34Zw") << "{";
        Recorder resumed;
        kiln::train::train(tinyRun(out, data_, "simclr", 3, {{"resume_interrupted", true}}),
                           resumed);
        QCOMPARE(resumed.steps.front().step, 4); // the stop saved step 3
        QCOMPARE(resumed.steps.size(), std::size_t(12 - 3));
        QVERIFY(!fs::exists(run.checkpoints() / ".last.ckpt.kiln-Ab12Cd"));
        QVERIFY(!fs::exists(run.root() / ".config.json.kiln-Xy34Zw"));
        QVERIFY(fs::exists(run.lock())); // the lock file stays
    }

    // Weights files come from others: any damage gives a kiln::Error that names the file (never
    // another exception, an empty message or a crash). Uses checkpointsEveryNStepsAndOnStop's run.
    void damagedWeightsFilesAreNamedErrors() {
        const fs::path good = kiln::track::RunDirectory(root_ / "every").last_checkpoint();
        std::ifstream in(good, std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), {});
        QVERIFY(bytes.size() > 1000);
        const fs::path damaged = root_ / "damaged.ckpt";
        std::mt19937 rng(1);
        int refused = 0;
        for (int trial = 0; trial < 150; ++trial) {
            std::string copy = bytes;
            if (trial % 3 == 0) {
                copy.resize(rng() % copy.size()); // truncated
            } else {
                // Anywhere (mostly tensor data, which loads as other numbers), or in the zip's
                // central directory at the end, which the reader must refuse or survive.
                const std::size_t region = trial % 3 == 1 ? copy.size() : 512;
                for (int flip = 0; flip < 1 + trial % 8; ++flip) {
                    copy[copy.size() - 1 - rng() % region] = static_cast<char>(rng());
                }
            }
            std::ofstream(damaged, std::ios::binary | std::ios::trunc) << copy;
            try {
                kiln::models::load_backbone(damaged);
            } catch (const kiln::Error& error) {
                ++refused;
                QVERIFY2(containsText(error.what(), damaged.string()), error.what());
            } catch (const std::exception& other) {
                QFAIL(qPrintable(QStringLiteral("trial %1: not a kiln::Error: %2")
                                     .arg(trial)
                                     .arg(QString::fromUtf8(other.what()))));
            }
        }
        QVERIFY2(refused > 70, qPrintable(QString::number(refused)));
        // A byte changed in tensor data loaded as other numbers until the zip's CRC-32s were
        // checked (LibTorch's reader does not): here in weights of a value found nowhere else.
        const auto backbone = kiln::models::make_backbone("smallcnn");
        {
            const torch::NoGradGuard no_grad;
            backbone->parameters().front().fill_(0.123456f);
        }
        kiln::models::save_backbone_weights(*backbone, damaged);
        std::ifstream saved(damaged, std::ios::binary);
        std::string flipped((std::istreambuf_iterator<char>(saved)), {});
        const float marker = 0.123456f;
        const std::size_t at =
            flipped.find(std::string(reinterpret_cast<const char*>(&marker), sizeof marker));
        QVERIFY(at != std::string::npos);
        kiln::models::load_backbone(damaged); // whole, it loads
        flipped[at] = static_cast<char>(flipped[at] ^ 0x55);
        std::ofstream(damaged, std::ios::binary | std::ios::trunc) << flipped;
        QVERIFY(kiln::test::throwsContaining([&] { kiln::models::load_backbone(damaged); },
                                             "\" is damaged: its data/"));
    }

    void resumeWithoutACheckpointIsAClearError() {
        try {
            kiln::train::train(
                tinyRun(root_ / "nothing", data_, "simclr", 1, {{"resume_interrupted", true}}),
                *std::make_unique<Recorder>());
            QFAIL("resumed from nothing");
        } catch (const kiln::Error& error) {
            QVERIFY(containsText(error.what(), "there is no interrupted run to resume"));
        }
        // A run killed before its first checkpoint: its records are there, and the way on is
        // overwrite=true (dropping resume_interrupted met "out is not empty").
        const fs::path killed = root_ / "killed-early";
        fs::create_directories(killed);
        std::ofstream(killed / "run.db") << "";
        try {
            kiln::train::train(tinyRun(killed, data_, "simclr", 1, {{"resume_interrupted", true}}),
                               *std::make_unique<Recorder>());
            QFAIL("resumed from nothing");
        } catch (const kiln::Error& error) {
            QVERIFY2(containsText(error.what(), "stopped before its first checkpoint") &&
                         containsText(error.what(), "start it again with overwrite=true"),
                     error.what());
        }
    }

    void divergedRunsKeepOnlyFiniteWeightsAndSaySo() {
        const fs::path out = root_ / "nan";
        Recorder recorder;
        std::string error_text;
        try {
            kiln::train::train(
                tinyRun(out, data_, "simclr", 3,
                        {{"optim", "sgd"},
                         {"optim_args", {{"lr", 1e9}, {"momentum", 0.0}}},
                         {"callbacks", {{"model_checkpoint", {{"every_n_steps", 1}}}}}}),
                recorder);
            QFAIL("trained through an exploding loss");
        } catch (const kiln::Error& error) {
            error_text = error.what();
        }
        QVERIFY2(containsText(error_text, "the loss became") ||
                     containsText(error_text, "the weights became NaN or infinite"),
                 error_text.c_str());
        QVERIFY(containsText(error_text, "optim_args.lr"));
        std::ifstream log(out / "train.log");
        const std::string text((std::istreambuf_iterator<char>(log)), {});
        QVERIFY(containsText(text, "error: " + error_text.substr(0, 20)));
        QVERIFY(!recorder.steps.empty());
        // The last checkpoint is the last good step's, and it still loads.
        Recorder resumed;
        QVERIFY(fs::exists(kiln::track::RunDirectory(out).last_checkpoint()));
        const auto archive =
            kiln::models::read_checkpoint_file(kiln::track::RunDirectory(out).last_checkpoint());
        QVERIFY(archive.has_value());
        const std::int64_t saved = archive->integer(kiln::models::checkpoint_key::kOptimizerStep);
        QVERIFY(saved <= static_cast<std::int64_t>(recorder.steps.size()));
        QVERIFY2(containsText(error_text, "holds the weights of step " + std::to_string(saved)),
                 error_text.c_str());
        QVERIFY2(!containsText(error_text, "precision=32-true"), error_text.c_str()); // it is
        std::function<bool(const c10::IValue&)> finite = [&](const c10::IValue& value) {
            if (value.isTensor()) {
                return value.toTensor().isfinite().all().item<bool>();
            }
            if (value.isGenericDict()) {
                for (const auto& entry : value.toGenericDict()) {
                    if (!finite(entry.value())) {
                        return false;
                    }
                }
            }
            return true;
        };
        QVERIFY(finite(archive->child(kiln::models::checkpoint_key::kModel).to_ivalue()));

        // Without periodic checkpoints, the message says that none exists.
        try {
            kiln::train::train(
                tinyRun(root_ / "nan-unsaved", data_, "simclr", 3,
                        {{"optim", "sgd"}, {"optim_args", {{"lr", 1e9}, {"momentum", 0.0}}}}),
                *std::make_unique<Recorder>());
            QFAIL("trained through an exploding loss");
        } catch (const kiln::Error& error) {
            QVERIFY2(containsText(error.what(), "No checkpoint was written before"), error.what());
        }
        QVERIFY(!fs::exists(kiln::track::RunDirectory(root_ / "nan-unsaved").last_checkpoint()));
    }

    // One reading answers every question a command asks of a model file: a checkpoint's
    // settings and backbone (as often as asked, e.g. once per embedding device), or a state_dict's
    // tensors; a missing or damaged file is an error naming it.
    void aWeightsFileIsReadOnceAndAskedMany() {
        const fs::path out = root_ / "weights-file";
        Recorder recorder;
        kiln::train::train(tinyRun(out, data_, "simclr", 1), recorder);
        const auto checkpoint =
            kiln::models::WeightsFile::read(kiln::track::RunDirectory(out).last_checkpoint());
        QVERIFY(checkpoint.checkpoint().has_value());
        QVERIFY(checkpoint.state_dict().empty());
        QCOMPARE(checkpoint.settings().value("model", ""), std::string("smallcnn"));
        std::string model;
        const auto first = kiln::models::load_backbone(checkpoint, &model);
        QCOMPARE(model, std::string("smallcnn"));
        // Two more from the same reading at once, as the devices of `kiln embed` build theirs.
        std::vector<kiln::models::Backbone> copies(2, nullptr);
        {
            std::thread one([&] { copies[0] = kiln::models::load_backbone(checkpoint); });
            std::thread two([&] { copies[1] = kiln::models::load_backbone(checkpoint); });
            one.join();
            two.join();
        }
        const auto untrained = kiln::models::make_backbone("smallcnn");
        for (std::size_t i = 0; i < first->state().size(); ++i) {
            const at::Tensor& trained = first->state()[i].second;
            QVERIFY(torch::equal(trained, copies[0]->state()[i].second));
            QVERIFY(torch::equal(trained, copies[1]->state()[i].second));
        }
        QVERIFY(!torch::equal(first->state().front().second, untrained->state().front().second));

        // A checkpoint of a run on a TorchScript module: its settings are refused (a file never
        // names code to run), its weights are still taken by name (backbone_weights=).
        kiln::models::Archive on_torchscript = *checkpoint.checkpoint();
        nlohmann::json settings = checkpoint.settings();
        settings["model"] = "torchscript:/elsewhere/module.pt";
        on_torchscript.write(kiln::models::checkpoint_key::kConfig, c10::IValue(settings.dump()));
        const fs::path torchscript_run = root_ / "weights-file-torchscript.ckpt";
        kiln::models::write_archive(torchscript_run, on_torchscript);
        const auto refused = kiln::models::WeightsFile::read(torchscript_run);
        QVERIFY_THROWS_EXCEPTION(kiln::Error, refused.settings());
        // A distillation student's checkpoint that names a TorchScript teacher: embedding,
        // export and fine-tuning load only the student, so its settings are read.
        nlohmann::json distilled = checkpoint.settings();
        distilled["method"] = "distillation";
        distilled["method_args"] = {{"teacher", "torchscript:/elsewhere/teacher.pt"}};
        kiln::models::Archive on_teacher = *checkpoint.checkpoint();
        on_teacher.write(kiln::models::checkpoint_key::kConfig, c10::IValue(distilled.dump()));
        const fs::path student = root_ / "weights-file-student.ckpt";
        kiln::models::write_archive(student, on_teacher);
        QCOMPARE(kiln::models::WeightsFile::read(student).settings().value("method", ""),
                 std::string("distillation"));
        kiln::models::load_backbone_weights(*untrained, torchscript_run);
        QVERIFY(torch::equal(first->state().front().second, untrained->state().front().second));

        const fs::path exported = root_ / "weights-file.pt";
        kiln::models::save_backbone_weights(*first, exported);
        const auto state_dict = kiln::models::WeightsFile::read(exported);
        QVERIFY(!state_dict.checkpoint().has_value());
        QVERIFY(state_dict.settings().is_null());
        QCOMPARE(state_dict.state_dict().size(), first->state().size());

        // A torch.save file of something else: read, but neither a checkpoint nor a state_dict,
        // and a fine-tuning checkpoint is asked for with the fix.
        const auto number = kiln::models::torch_load_compatible(c10::IValue(std::int64_t{7}));
        const fs::path other = root_ / "weights-file-number.pt";
        std::ofstream(other, std::ios::binary).write(number.data(), std::streamsize(number.size()));
        const auto neither = kiln::models::WeightsFile::read(other);
        QVERIFY(!neither.checkpoint().has_value());
        QVERIFY_THROWS_EXCEPTION(kiln::Error, neither.state_dict());
        QVERIFY(kiln::test::throwsContaining([&] { kiln::train::load_finetuning_task(other); },
                                             "is not a Kiln checkpoint"));
        // Settings no run could have had (a hand-edited file) are named with the file.
        nlohmann::json odd_task = checkpoint.settings();
        odd_task["task"] = "image_classification";
        odd_task["model_args"] = {{"width", -3}};
        kiln::models::Archive odd_settings = *checkpoint.checkpoint();
        odd_settings.write(kiln::models::checkpoint_key::kConfig, c10::IValue(odd_task.dump()));
        const fs::path odd = root_ / "weights-file-odd-settings.ckpt";
        kiln::models::write_archive(odd, odd_settings);
        QVERIFY(kiln::test::throwsContaining(
            [&] { kiln::train::load_finetuning_task(odd); },
            "weights-file-odd-settings.ckpt\" records settings Kiln cannot use"));

        const fs::path text = root_ / "weights-file.txt";
        std::ofstream(text) << "not weights";
        for (const fs::path& bad : {root_ / "no-such.ckpt", text}) {
            try {
                kiln::models::WeightsFile::read(bad);
                QFAIL("read a file that holds no weights");
            } catch (const kiln::Error& error) {
                QVERIFY2(containsText(error.what(), bad.string()), error.what());
            }
        }
    }

    // Checkpoints of Kiln's first format (LibTorch archives, which TorchScript would load by
    // running their code) are read as data by Kiln's own reader: same weights, same settings,
    // and a run resumes from one.
    void firstFormatCheckpointsStillLoad() {
        const fs::path out = root_ / "first-format";
        Recorder first;
        kiln::train::train(tinyRun(out, data_, "simclr", 1), first);
        const fs::path current = kiln::track::RunDirectory(out).last_checkpoint();
        const auto archive = kiln::models::read_checkpoint_file(current);
        QVERIFY(archive.has_value());
        QCOMPARE(archive->integer(kiln::models::checkpoint_key::kFormat), std::int64_t{2});
        kiln::models::Archive first_format = *archive;
        first_format.write(kiln::models::checkpoint_key::kFormat, c10::IValue(std::int64_t{1}));
        torch::serialize::OutputArchive legacy;
        write_first_format(first_format, legacy);
        const fs::path old = root_ / "first-format.ckpt";
        legacy.save_to(old.string());

        std::string model;
        const auto from_old = kiln::models::load_backbone(old, &model);
        const auto from_current = kiln::models::load_backbone(current);
        QCOMPARE(model, std::string("smallcnn"));
        const auto old_state = from_old->state();
        const auto current_state = from_current->state();
        QCOMPARE(old_state.size(), current_state.size());
        for (std::size_t i = 0; i < old_state.size(); ++i) {
            QVERIFY2(torch::equal(old_state[i].second, current_state[i].second),
                     old_state[i].first.c_str());
        }
        QCOMPARE(kiln::models::WeightsFile::read(old).settings(),
                 kiln::models::WeightsFile::read(current).settings());

        fs::copy_file(old, current, fs::copy_options::overwrite_existing);
        Recorder resumed;
        const auto summary = kiln::train::train(
            tinyRun(out, data_, "simclr", 2, {{"resume_interrupted", true}}), resumed);
        QCOMPARE(summary.status, kiln::train::RunSummary::Status::Finished);
        QCOMPARE(resumed.steps.front().step, first.steps.back().step + 1);
    }

    void checkpointLoadsWeightsOnly() {
        Recorder first;
        kiln::train::train(tinyRun(root_ / "pretrained", data_, "simclr", 1), first);
        const fs::path weights = kiln::track::RunDirectory(root_ / "pretrained").exported_last();
        Recorder second; // learning rate 0: the weights stay what was loaded
        kiln::train::train(tinyRun(root_ / "from-weights", data_, "simclr", 1,
                                   {{"checkpoint", weights.string()},
                                    {"seed", 99},
                                    {"optim", "sgd"},
                                    {"optim_args", {{"lr", 0.0}}}}),
                           second);
        QCOMPARE(second.steps.front().step, 1); // a new run, not a resumed one
        const auto loaded = backboneWeights(weights);
        const auto after =
            backboneWeights(kiln::track::RunDirectory(root_ / "from-weights").exported_last());
        QVERIFY(torch::equal(after.at("features.0.weight"), loaded.at("features.0.weight")));
        QVERIFY(torch::equal(after.at("features.9.weight"), loaded.at("features.9.weight")));
    }

    // What Python's torch.save writes, read without Python: torchvision's state_dict (an
    // OrderedDict with _metadata), a training checkpoint holding one beside an optimizer's
    // state and hyperparameters, and tensors that view shared or strided storage in several
    // dtypes. A ResNet-18 loaded from it computes torchvision's features.
    void pytorchStateDictsLoad() {
        if (!kiln::test::pythonHas("torch, torchvision")) {
            QSKIP(kiln::test::pythonMissing("torch, torchvision"));
        }
        const fs::path folder = root_ / "state-dicts";
        fs::create_directories(folder);
        const auto made = kiln::test::runPython(
            QStringLiteral(
                "import argparse, collections, json, sys, torch, torchvision\n"
                "folder = sys.argv[1]\n"
                "torch.manual_seed(0)\n"
                "model = torchvision.models.resnet18()\n"
                "model.fc = torch.nn.Identity()\n"
                "with torch.no_grad():\n"
                "    for name, buffer in model.named_buffers():\n"
                "        if name.endswith('running_var'): buffer.uniform_(0.5, 1.5)\n"
                "        elif name.endswith('running_mean'): buffer.uniform_(-0.1, 0.1)\n"
                "model.eval()\n"
                "torch.save(model.state_dict(), folder + '/torchvision.pth')\n"
                "images = torch.rand(2, 3, 64, 64)\n"
                "torch.save({'images': images, 'features': model(images).detach()},\n"
                "           folder + '/io.pt')\n"
                "base = torch.arange(24, dtype=torch.float64).reshape(4, 6)\n"
                "odd = collections.OrderedDict(\n"
                "    [('a.t', base.t()), ('a.row', base[2]), ('h', base.half()[1:3, ::2]),\n"
                "     ('b', base.bfloat16()), ('i', torch.tensor([-7, 2**40])),\n"
                "     ('flag', torch.tensor([True, False])), ('p', torch.nn.Parameter(base[0]))])\n"
                "torch.save({'epoch': 3, 'global_step': -12, 'lr': 0.25, 'state_dict': odd,\n"
                "            'rng_state': torch.zeros(5, dtype=torch.uint8),\n"
                "            'optimizer_states': [{'state': {}, 'param_groups': [{'lr': 0.1}]}],\n"
                "            'hyper_parameters': {'b': b'x',\n"
                "                                 'none': None, 'big': 2**70, 'seed': 2**63,\n"
                "                                 'tags': {'a', 'b'}, 'frozen': frozenset([1])}},\n"
                "           folder + '/checkpoint.ckpt', pickle_protocol=4)\n"
                "torch.save({'state_dict': odd, 'args': argparse.Namespace(a=1)},\n"
                "           folder + '/namespace.ckpt')\n"
                "cycle = {}\n"
                "cycle['state'] = cycle\n"
                "torch.save(cycle, folder + '/cycle.pt')\n"
                "torch.save(odd, folder + '/legacy.pt', _use_new_zipfile_serialization=False)\n"
                "import zipfile\n"
                "# one dict of 2**20 entries (DUPs: no new values) built into 8 objects\n"
                "copies = (b'\\x80\\x02c__torch__\\nX\\nq\\x010}q\\x02(X\\x01\\x00\\x00\\x00k'\n"
                "          + b'2' * (2 * 2**20 - 1) + b'u0' + b'h\\x01)\\x81h\\x02b0' * 8 + "
                "b'}.')\n"
                "with zipfile.ZipFile(folder + '/copies.pt', 'w') as archive:\n"
                "    archive.writestr('archive/data.pkl', copies)\n"
                "    archive.writestr('archive/version', '3\\n')\n"
                "print(json.dumps({k: [list(v.shape), v.double().flatten().tolist()]\n"
                "                  for k, v in odd.items()}))\n"),
            {QString::fromStdString(folder.string())});
        QVERIFY2(made.exit_code == 0, qPrintable(made.errors));
        const nlohmann::json expected = nlohmann::json::parse(made.output.toStdString());

        const auto tensors = kiln::models::read_state_dict(folder / "checkpoint.ckpt");
        QCOMPARE(tensors.size(), expected.size());
        for (const auto& [name, tensor] : tensors) {
            const nlohmann::json& want = expected.at(name);
            QCOMPARE(tensor.sizes().vec(), want[0].get<std::vector<std::int64_t>>());
            const torch::Tensor values = tensor.to(torch::kFloat64).flatten().contiguous();
            const auto wanted = want[1].get<std::vector<double>>();
            QCOMPARE(static_cast<std::size_t>(values.numel()), wanted.size());
            for (std::size_t i = 0; i < wanted.size(); ++i) {
                QVERIFY2(values[static_cast<std::int64_t>(i)].item<double>() == wanted[i],
                         name.c_str());
            }
        }

        std::string model;
        const auto backbone = kiln::models::load_backbone(folder / "torchvision.pth", &model);
        QCOMPARE(model, std::string("resnet18"));
        backbone->eval();
        const auto io = kiln::models::read_state_dict(folder / "io.pt");
        QCOMPARE(io.size(), std::size_t{2});
        const torch::Tensor images = io[0].first == "images" ? io[0].second : io[1].second;
        const torch::Tensor features = io[0].first == "images" ? io[1].second : io[0].second;
        torch::NoGradGuard no_grad;
        const double difference = (backbone->forward(images) - features).abs().max().item<double>();
        QVERIFY2(difference < 1e-4 * features.abs().max().item<double>(),
                 qPrintable(QString::number(difference)));

        // What it cannot read is named, with the fix.
        try {
            kiln::models::read_state_dict(folder / "legacy.pt");
            QFAIL("a legacy file was read");
        } catch (const kiln::Error& error) {
            QVERIFY2(QString(error.what()).contains("legacy.pt") &&
                         QString(error.what()).contains("save it again"),
                     error.what());
        }
        QVERIFY_THROWS_EXCEPTION(kiln::Error, kiln::models::load_backbone(folder / "io.pt"));
        // An object of a Python class: refused, as torch.load(weights_only=True) refuses it.
        try {
            kiln::models::read_state_dict(folder / "namespace.ckpt");
            QFAIL("a pickled object was read");
        } catch (const kiln::Error& error) {
            QVERIFY2(
                QString(error.what()).contains("\"argparse.Namespace\", which Kiln never runs"),
                error.what());
        }
        // A dict that holds itself: a clear error, not a stack overflow.
        QVERIFY_THROWS_EXCEPTION(kiln::Error, kiln::models::read_state_dict(folder / "cycle.pt"));
        // One dict copied into many objects: refused before its copies take gigabytes.
        try {
            kiln::models::read_torch_file(folder / "copies.pt");
            QFAIL("8 copies of 2**20 attributes were read");
        } catch (const kiln::Error& error) {
            QVERIFY2(QString(error.what()).contains("attributes in all"), error.what());
        }
    }

    void torchScriptModulesAreBackbones() {
        if (!kiln::test::pythonHas("torch, torchvision")) {
            QSKIP(kiln::test::pythonMissing("torch, torchvision"));
        }
        const fs::path module = root_ / "resnet18-script.pt";
        const auto scripted = kiln::test::runPython("import sys, torch, torchvision\n"
                                                    "m = torchvision.models.resnet18()\n"
                                                    "m.fc = torch.nn.Identity()\n"
                                                    "torch.jit.script(m).save(sys.argv[1])\n",
                                                    {QString::fromStdString(module.string())});
        QVERIFY2(scripted.exit_code == 0, qPrintable(scripted.errors));
        const std::string named = "torchscript:" + module.string();
        const auto backbone = kiln::models::make_backbone(named);
        QCOMPARE(backbone->feature_dim(), 512); // probed
        // Named without the prefix, the same file is never run as TorchScript.
        try {
            kiln::models::make_backbone(module.string());
            QFAIL("a .pt path was loaded as TorchScript");
        } catch (const kiln::Error& error) {
            QVERIFY2(containsText(error.what(), "model=" + named), error.what());
        }
        Recorder recorder;
        const auto summary = kiln::train::train(
            tinyRun(root_ / "script", data_, "simclr", 1, {{"model", named}}), recorder);
        QCOMPARE(summary.status, kiln::train::RunSummary::Status::Finished);
        // Its warning, raised while the task was made (before the run's files existed), is in
        // train.log.
        QVERIFY2(
            containsText(trainLog(root_ / "script"), "warning: loading the TorchScript module"),
            trainLog(root_ / "script").c_str());
        const auto weights = backboneWeights(summary.exported_model);
        QCOMPARE(weights.size(), std::size_t(120)); // torchvision's names, as in the module
        QVERIFY(weights.count("layer1.0.conv1.weight") == 1);
        QVERIFY(weights.count("bn1.running_mean") == 1);
        QVERIFY_THROWS_EXCEPTION(kiln::Error,
                                 kiln::models::make_backbone(
                                     "torchscript:" + (root_ / "tiny" / "0.png").string() + ".pt"));
        // Its checkpoint names the module, but no file decides that code runs: embedding from it
        // is refused, naming why.
        try {
            kiln::models::load_backbone(
                kiln::track::RunDirectory(root_ / "script").last_checkpoint());
            QFAIL("a TorchScript model named in a checkpoint was loaded");
        } catch (const kiln::Error& error) {
            QVERIFY2(containsText(error.what(), "never from a name stored in a file"),
                     error.what());
        }
    }

    void bf16MixedPrecisionTrains() {
        Recorder recorder;
        const auto summary = kiln::train::train(
            tinyRun(root_ / "bf16", data_, "simclr", 1, {{"precision", "bf16-mixed"}}), recorder);
        QCOMPARE(summary.status, kiln::train::RunSummary::Status::Finished);
        QVERIFY(summary.last_loss && std::isfinite(*summary.last_loss));
    }

    void exportedWeightsLoadInPyTorch() {
        const fs::path out = root_ / "export";
        Recorder recorder;
        kiln::train::train(tinyRun(out, data_, "simclr", 1, {{"model", "resnet18"}}), recorder);
        const auto weights = backboneWeights(kiln::track::RunDirectory(out).exported_last());
        QCOMPARE(weights.size(), std::size_t(120));
        if (!kiln::test::pythonHas("torch, torchvision")) {
            QSKIP(kiln::test::pythonMissing("torch, torchvision"));
        }
        const QString script =
            QStringLiteral("import sys, torch, torchvision\n"
                           "state = torch.load(sys.argv[1])\n"
                           "model = torchvision.models.resnet18()\n"
                           "missing, unexpected = model.load_state_dict(state, strict=False)\n"
                           "assert sorted(missing) == ['fc.bias', 'fc.weight'], missing\n"
                           "assert not unexpected, unexpected\n"
                           "print(float(state['conv1.weight'].sum()))\n");
        const auto read = kiln::test::runPython(
            script,
            {QString::fromStdString(kiln::track::RunDirectory(out).exported_last().string())});
        QVERIFY2(read.exit_code == 0, qPrintable(read.errors));
        const double sum = read.output.trimmed().toDouble();
        QVERIFY(std::abs(sum - weights.at("conv1.weight").sum().item<double>()) < 1e-3);
    }

    // Every model family's export computes, in the model PyTorch users have for it
    // (torchvision's ResNet and VisionTransformer; torch.nn for the small CNN), what it
    // computed in Kiln. Norm statistics and biases are randomised so that each tensor counts.
    void exportedBackbonesOfEveryFamilyRunInPyTorch() {
        if (!kiln::test::pythonHas("torch, torchvision")) {
            QSKIP(kiln::test::pythonMissing("torch, torchvision"));
        }
        torch::manual_seed(3);
        const torch::Tensor images = torch::rand({2, 3, 224, 224});
        QStringList arguments;
        std::map<std::string, double> scales;
        for (const std::string& name : kiln::models::backbone_names()) {
            const auto backbone = kiln::models::make_backbone(name);
            {
                torch::NoGradGuard no_grad;
                for (auto& item : backbone->named_buffers()) {
                    if (item.key().find("running_var") != std::string::npos) {
                        item.value().uniform_(0.5, 1.5);
                    } else if (item.value().is_floating_point()) {
                        item.value().uniform_(-0.1, 0.1);
                    }
                }
                for (auto& parameter : backbone->parameters()) {
                    if (parameter.dim() == 1) {
                        parameter.add_(torch::randn_like(parameter) * 0.1);
                    }
                }
            }
            backbone->eval();
            torch::Tensor features;
            {
                torch::NoGradGuard no_grad;
                features = backbone->forward(images);
            }
            scales[name] = features.abs().max().item<double>();
            const fs::path weights = root_ / ("family-" + name + ".pt");
            const fs::path io = root_ / ("family-" + name + "-io.pt");
            kiln::models::save_backbone_weights(*backbone, weights);
            c10::Dict<std::string, at::Tensor> expected;
            expected.insert("input", images);
            expected.insert("features", features);
            const std::vector<char> bytes =
                kiln::models::torch_load_compatible(c10::IValue(expected));
            std::ofstream(io, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
            arguments << QString::fromStdString(name) << QString::fromStdString(weights.string())
                      << QString::fromStdString(io.string());
        }
        QFile script(QStringLiteral(KILN_SOURCE_DIR "/tests/train/torchvision_backbones.py"));
        QVERIFY(script.open(QIODevice::ReadOnly));
        const auto run = kiln::test::runPython(QString::fromUtf8(script.readAll()), arguments);
        QVERIFY2(run.exit_code == 0, qPrintable(run.errors));
        const QStringList lines = run.output.trimmed().split(QLatin1Char('\n'));
        QCOMPARE(std::size_t(lines.size()), kiln::models::backbone_names().size());
        for (const QString& line : lines) {
            qInfo("largest difference from Kiln's features: %s", qPrintable(line));
            const QStringList fields = line.split(QLatin1Char(' '));
            QCOMPARE(fields.size(), 2);
            const std::string name = fields[0].toStdString();
            QVERIFY2(scales.count(name) == 1, qPrintable(line));
            QVERIFY2(scales[name] > 0, qPrintable(line));
            QVERIFY2(fields[1].toDouble() <= 1e-4 * scales[name], qPrintable(line));
        }
    }
};

QTEST_GUILESS_MAIN(TrainTest)
#include "tst_train.moc"
