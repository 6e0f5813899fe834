#include "core/atomic_file.h"
#include "core/error.h"
#include "core/text.h"
#include "models/backbone.h"
#include "models/batch_norm.h"
#include "models/checkpoint_file.h"
#include "models/cspnet.h"
#include "models/onnx_modules.h"
#include "models/torch_file.h"
#include "models/torchscript_backbone.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <torch/nn.h>
#include <unordered_map>

namespace kiln::models {
namespace {

namespace nn = torch::nn;

nn::Conv2d conv(std::int64_t in, std::int64_t out, std::int64_t kernel, std::int64_t stride = 1) {
    return nn::Conv2d(
        nn::Conv2dOptions(in, out, kernel).stride(stride).padding(kernel / 2).bias(false));
}

// torchvision's BasicBlock (ResNet-18/34) and Bottleneck (ResNet-50), with its parameter names:
// conv1, bn1, conv2, bn2[, conv3, bn3][, downsample.0, downsample.1].
class ResidualBlockImpl : public nn::Module {
public:
    ResidualBlockImpl(std::int64_t in, std::int64_t width, std::int64_t stride, bool bottleneck)
        : bottleneck_(bottleneck) {
        const std::int64_t out = bottleneck ? width * 4 : width;
        if (bottleneck) {
            conv1_ = register_module("conv1", conv(in, width, 1));
            bn1_ = register_module("bn1", BatchNorm(width));
            conv2_ = register_module("conv2", conv(width, width, 3, stride));
            bn2_ = register_module("bn2", BatchNorm(width));
            conv3_ = register_module("conv3", conv(width, out, 1));
            bn3_ = register_module("bn3", BatchNorm(out));
        } else {
            conv1_ = register_module("conv1", conv(in, width, 3, stride));
            bn1_ = register_module("bn1", BatchNorm(width));
            conv2_ = register_module("conv2", conv(width, width, 3));
            bn2_ = register_module("bn2", BatchNorm(width));
        }
        if (stride != 1 || in != out) {
            downsample_ = register_module("downsample",
                                          nn::Sequential(conv(in, out, 1, stride), BatchNorm(out)));
        }
    }

    torch::Tensor forward(const torch::Tensor& x) {
        torch::Tensor y = torch::relu(bn1_(conv1_(x)));
        y = bn2_(conv2_(y));
        if (bottleneck_) {
            y = bn3_(conv3_(torch::relu(y)));
        }
        return torch::relu(y + (downsample_ ? downsample_->forward(x) : x));
    }

    onnx::Value to_onnx(onnx::Graph& graph, const onnx::Value& x, const std::string& name) {
        const auto conv_bn = [&](const onnx::Value& in, const nn::Conv2d& conv,
                                 const BatchNorm& norm, const std::string& conv_name) {
            const onnx::BatchNormParameters folded = batch_norm_parameters(*norm);
            return onnx::conv2d(graph, in, *conv, onnx_name(name, conv_name), &folded);
        };
        onnx::Value y = onnx::relu(graph, conv_bn(x, conv1_, bn1_, "conv1"));
        y = conv_bn(y, conv2_, bn2_, "conv2");
        if (bottleneck_) {
            y = conv_bn(onnx::relu(graph, y), conv3_, bn3_, "conv3");
        }
        const onnx::Value shortcut =
            downsample_ ? onnx_sequential(graph, x, *downsample_, onnx_name(name, "downsample"))
                        : x;
        return onnx::relu(graph, onnx::add(graph, y, shortcut));
    }

private:
    bool bottleneck_;
    nn::Conv2d conv1_{nullptr}, conv2_{nullptr}, conv3_{nullptr};
    BatchNorm bn1_{nullptr}, bn2_{nullptr}, bn3_{nullptr};
    nn::Sequential downsample_{nullptr};
};
TORCH_MODULE(ResidualBlock);

class ResNetImpl : public BackboneImpl {
public:
    ResNetImpl(const std::vector<int>& blocks, bool bottleneck, std::int64_t in_channels) {
        conv1_ = register_module(
            "conv1",
            nn::Conv2d(nn::Conv2dOptions(in_channels, 64, 7).stride(2).padding(3).bias(false)));
        bn1_ = register_module("bn1", BatchNorm(64));
        std::int64_t channels = 64;
        for (std::size_t stage = 0; stage < blocks.size(); ++stage) {
            const std::int64_t width = 64 << stage;
            nn::Sequential layer;
            for (int b = 0; b < blocks[stage]; ++b) {
                const std::int64_t stride = (stage > 0 && b == 0) ? 2 : 1;
                layer->push_back(ResidualBlock(channels, width, stride, bottleneck));
                channels = bottleneck ? width * 4 : width;
            }
            layers_.push_back(register_module("layer" + std::to_string(stage + 1), layer));
            stage_channels_.push_back(channels);
        }
        feature_dim_ = channels;
        // torchvision's initialisation: He for convolutions, BN weight 1 and bias 0.
        for (auto& module : modules(false)) {
            if (auto* convolution = module->as<nn::Conv2d>()) {
                nn::init::kaiming_normal_(convolution->weight, 0.0, torch::kFanOut, torch::kReLU);
            }
        }
    }

    torch::Tensor forward(const torch::Tensor& images) override {
        return torch::adaptive_avg_pool2d(feature_maps(images).back(), {1, 1}).flatten(1);
    }

    // The output of each stage: strides 4, 8, 16 and 32.
    std::vector<torch::Tensor> feature_maps(const torch::Tensor& images) override {
        torch::Tensor x = torch::relu(bn1_(conv1_(images)));
        x = torch::max_pool2d(x, 3, 2, 1);
        std::vector<torch::Tensor> maps;
        for (nn::Sequential& layer : layers_) {
            x = layer->forward(x);
            maps.push_back(x);
        }
        return maps;
    }

    std::int64_t feature_dim() const override { return feature_dim_; }
    std::vector<std::int64_t> feature_map_channels() const override { return stage_channels_; }

    onnx::Value onnx_features(onnx::Graph& graph, const onnx::Value& images,
                              const std::string& name) override {
        return onnx::global_average_pool(graph, onnx_feature_maps(graph, images, name).back());
    }

    std::vector<onnx::Value> onnx_feature_maps(onnx::Graph& graph, const onnx::Value& images,
                                               const std::string& name) override {
        const onnx::BatchNormParameters folded = batch_norm_parameters(*bn1_);
        onnx::Value x = onnx::relu(
            graph, onnx::conv2d(graph, images, *conv1_, onnx_name(name, "conv1"), &folded));
        x = onnx::max_pool2d(graph, x, 3, 2, 1);
        std::vector<onnx::Value> maps;
        for (std::size_t stage = 0; stage < layers_.size(); ++stage) {
            const std::string layer = onnx_name(name, "layer" + std::to_string(stage + 1));
            for (std::size_t b = 0; b < layers_[stage]->size(); ++b) {
                x = layers_[stage][b]->as<ResidualBlock>()->to_onnx(
                    graph, x, onnx_name(layer, std::to_string(b)));
            }
            maps.push_back(x);
        }
        return maps;
    }

private:
    nn::Conv2d conv1_{nullptr};
    BatchNorm bn1_{nullptr};
    std::vector<nn::Sequential> layers_;
    std::vector<std::int64_t> stage_channels_;
    std::int64_t feature_dim_ = 0;
};

// Four conv-BN-ReLU blocks halving the resolution, then global average pooling: 256 features,
// fast enough to pretrain on a laptop CPU in minutes.
class SmallCnnImpl : public BackboneImpl {
public:
    explicit SmallCnnImpl(std::int64_t in_channels) {
        std::int64_t channels = in_channels;
        for (const std::int64_t width : {32, 64, 128, 256}) {
            features_->push_back(conv(channels, width, 3, 2));
            features_->push_back(BatchNorm(width));
            features_->push_back(nn::ReLU(nn::ReLUOptions(true)));
            channels = width;
        }
        register_module("features", features_);
    }

    torch::Tensor forward(const torch::Tensor& images) override {
        return torch::adaptive_avg_pool2d(features_->forward(images), {1, 1}).flatten(1);
    }

    // The output of each block (after its ReLU): strides 2, 4, 8 and 16.
    std::vector<torch::Tensor> feature_maps(const torch::Tensor& images) override {
        std::vector<torch::Tensor> maps;
        torch::Tensor x = images;
        std::size_t layer = 0;
        for (auto& module : *features_) {
            x = module.forward(x);
            if (++layer % 3 == 0) {
                maps.push_back(x);
            }
        }
        return maps;
    }

    std::int64_t feature_dim() const override { return 256; }
    std::vector<std::int64_t> feature_map_channels() const override { return {32, 64, 128, 256}; }

    onnx::Value onnx_features(onnx::Graph& graph, const onnx::Value& images,
                              const std::string& name) override {
        return onnx::global_average_pool(graph, onnx_feature_maps(graph, images, name).back());
    }

    std::vector<onnx::Value> onnx_feature_maps(onnx::Graph& graph, const onnx::Value& images,
                                               const std::string& name) override {
        // Block by block (conv, batch norm, ReLU), keeping each block's output.
        std::vector<onnx::Value> maps;
        onnx::Value x = images;
        for (std::size_t first = 0; first < features_->size(); first += 3) {
            const onnx::BatchNormParameters folded =
                batch_norm_parameters(*features_[first + 1]->as<BatchNorm>());
            x = onnx::relu(graph, onnx::conv2d(graph, x, *features_[first]->as<nn::Conv2d>(),
                                               onnx_name(name, "features." + std::to_string(first)),
                                               &folded));
            maps.push_back(x);
        }
        return maps;
    }

private:
    nn::Sequential features_;
};

// Vision Transformer (ViT) with 16 x 16 patches, with timm's parameter names (patch_embed.proj,
// cls_token, pos_embed, blocks.N.{norm1, attn.qkv, attn.proj, norm2, mlp.fc1, mlp.fc2}, norm),
// so that exported weights load into timm's vit_tiny/small_patch16_224 (without the head). The
// class token's final embedding is the feature. Position embeddings are made for 224 px and
// interpolated (bicubic, as DINO does) for other sizes, so multi-crop views of 96 px work.
class AttentionImpl : public nn::Module {
public:
    AttentionImpl(std::int64_t dim, std::int64_t heads) : heads_(heads) {
        qkv_ = register_module("qkv", nn::Linear(dim, dim * 3));
        proj_ = register_module("proj", nn::Linear(dim, dim));
    }

    torch::Tensor forward(const torch::Tensor& x) {
        const std::int64_t batch = x.size(0), tokens = x.size(1), dim = x.size(2);
        const torch::Tensor qkv = qkv_->forward(x)
                                      .reshape({batch, tokens, 3, heads_, dim / heads_})
                                      .permute({2, 0, 3, 1, 4});
        const torch::Tensor q = qkv[0], k = qkv[1], v = qkv[2];
        const double scale = 1.0 / std::sqrt(double(dim / heads_));
        const torch::Tensor attention = torch::softmax(q.matmul(k.transpose(-2, -1)) * scale, -1);
        return proj_->forward(attention.matmul(v).transpose(1, 2).reshape({batch, tokens, dim}));
    }

    onnx::Value to_onnx(onnx::Graph& graph, const onnx::Value& x, const std::string& name) {
        const std::int64_t tokens = x.example.size(1), dim = x.example.size(2);
        const onnx::Value qkv = onnx::transpose(
            graph,
            onnx::reshape(graph, onnx::linear(graph, x, *qkv_, onnx_name(name, "qkv")),
                          {tokens, 3, heads_, dim / heads_}),
            {2, 0, 3, 1, 4});
        const onnx::Value q = onnx::select(graph, qkv, 0, 0);
        const onnx::Value k = onnx::select(graph, qkv, 0, 1);
        const onnx::Value v = onnx::select(graph, qkv, 0, 2);
        const float scale = static_cast<float>(1.0 / std::sqrt(double(dim / heads_)));
        const onnx::Value scores = onnx::multiply(
            graph, onnx::matmul(graph, q, onnx::transpose(graph, k, {0, 1, 3, 2})), scale);
        const onnx::Value mixed =
            onnx::matmul(graph, onnx::softmax(graph, scores, -1), v); // [B, heads, T, d]
        return onnx::linear(
            graph, onnx::reshape(graph, onnx::transpose(graph, mixed, {0, 2, 1, 3}), {tokens, dim}),
            *proj_, onnx_name(name, "proj"));
    }

private:
    std::int64_t heads_;
    nn::Linear qkv_{nullptr}, proj_{nullptr};
};
TORCH_MODULE(Attention);

class TransformerBlockImpl : public nn::Module {
public:
    TransformerBlockImpl(std::int64_t dim, std::int64_t heads) {
        norm1_ = register_module("norm1", nn::LayerNorm(nn::LayerNormOptions({dim}).eps(1e-6)));
        attn_ = register_module("attn", Attention(dim, heads));
        norm2_ = register_module("norm2", nn::LayerNorm(nn::LayerNormOptions({dim}).eps(1e-6)));
        mlp_ = register_module("mlp", nn::Sequential());
        mlp_->push_back("fc1", nn::Linear(dim, dim * 4));
        mlp_->push_back("act", nn::GELU());
        mlp_->push_back("fc2", nn::Linear(dim * 4, dim));
    }

    torch::Tensor forward(torch::Tensor x) {
        x = x + attn_->forward(norm1_->forward(x));
        return x + mlp_->forward(norm2_->forward(x));
    }

    onnx::Value to_onnx(onnx::Graph& graph, onnx::Value x, const std::string& name) {
        x = onnx::add(graph, x,
                      attn_->to_onnx(graph,
                                     onnx::layer_norm(graph, x, *norm1_, onnx_name(name, "norm1")),
                                     onnx_name(name, "attn")));
        return onnx::add(
            graph, x,
            onnx_sequential(graph, onnx::layer_norm(graph, x, *norm2_, onnx_name(name, "norm2")),
                            *mlp_, onnx_name(name, "mlp")));
    }

private:
    nn::LayerNorm norm1_{nullptr}, norm2_{nullptr};
    Attention attn_{nullptr};
    nn::Sequential mlp_{nullptr};
};
TORCH_MODULE(TransformerBlock);

class VisionTransformerImpl : public BackboneImpl {
public:
    static constexpr std::int64_t kPatch = 16;
    static constexpr std::int64_t kGrid = 224 / kPatch; // position embeddings made for 224 px

    VisionTransformerImpl(std::int64_t dim, std::int64_t depth, std::int64_t heads,
                          std::int64_t in_channels)
        : dim_(dim) {
        patch_embed_ = register_module("patch_embed", nn::Sequential());
        patch_embed_->push_back(
            "proj", nn::Conv2d(nn::Conv2dOptions(in_channels, dim, kPatch).stride(kPatch)));
        cls_token_ = register_parameter("cls_token", torch::zeros({1, 1, dim}));
        pos_embed_ = register_parameter("pos_embed", torch::zeros({1, 1 + kGrid * kGrid, dim}));
        blocks_ = register_module("blocks", nn::ModuleList());
        for (std::int64_t i = 0; i < depth; ++i) {
            blocks_->push_back(TransformerBlock(dim, heads));
        }
        norm_ = register_module("norm", nn::LayerNorm(nn::LayerNormOptions({dim}).eps(1e-6)));
        // timm's initialisation: truncated normal (std 0.02) for embeddings and linear weights,
        // zero biases; its truncation at +-2 (absolute) never bites at this std.
        torch::NoGradGuard no_grad;
        pos_embed_.normal_(0.0, 0.02);
        cls_token_.normal_(0.0, 1e-6);
        for (auto& module : modules(false)) {
            if (auto* linear = module->as<nn::Linear>()) {
                linear->weight.normal_(0.0, 0.02);
                linear->bias.zero_();
            }
        }
    }

    torch::Tensor forward(const torch::Tensor& images) override {
        return tokens(images).select(1, 0);
    }

    // The patch tokens as a grid: one map at stride 16.
    std::vector<torch::Tensor> feature_maps(const torch::Tensor& images) override {
        const std::int64_t rows = images.size(2) / kPatch, columns = images.size(3) / kPatch;
        const torch::Tensor patches = tokens(images).narrow(1, 1, rows * columns);
        return {patches.transpose(1, 2).reshape({images.size(0), dim_, rows, columns})};
    }

    std::int64_t feature_dim() const override { return dim_; }
    std::vector<std::int64_t> feature_map_channels() const override { return {dim_}; }

    onnx::Value onnx_features(onnx::Graph& graph, const onnx::Value& images,
                              const std::string& name) override {
        return onnx::select(graph, onnx_tokens(graph, images, name), 1, 0);
    }

    std::vector<onnx::Value> onnx_feature_maps(onnx::Graph& graph, const onnx::Value& images,
                                               const std::string& name) override {
        const std::int64_t rows = images.example.size(2) / kPatch;
        const std::int64_t columns = images.example.size(3) / kPatch;
        const onnx::Value patches =
            onnx::narrow(graph, onnx_tokens(graph, images, name), 1, 1, rows * columns);
        return {onnx::reshape(graph, onnx::transpose(graph, patches, {0, 2, 1}),
                              {dim_, rows, columns})};
    }

private:
    onnx::Value onnx_tokens(onnx::Graph& graph, const onnx::Value& images,
                            const std::string& name) {
        onnx::Value x =
            onnx_sequential(graph, images, *patch_embed_, onnx_name(name, "patch_embed"));
        const std::int64_t rows = x.example.size(2), columns = x.example.size(3);
        x = onnx::transpose(graph, onnx::reshape(graph, x, {dim_, rows * columns}), {0, 2, 1});
        const onnx::Value cls =
            onnx::batch_constant(graph, onnx_name(name, "cls_token"), cls_token_, x);
        x = onnx::concat(graph, {cls, x}, 1);
        // Interpolated for this image size once, at export.
        const torch::Tensor positions = position_embeddings(rows, columns).detach();
        x = onnx::add(graph, x, {graph.weight(onnx_name(name, "pos_embed"), positions), positions});
        for (std::size_t i = 0; i < blocks_->size(); ++i) {
            x = blocks_[i]->as<TransformerBlock>()->to_onnx(
                graph, x, onnx_name(name, "blocks." + std::to_string(i)));
        }
        return onnx::layer_norm(graph, x, *norm_, onnx_name(name, "norm"));
    }

    // The normalised class token followed by the patch tokens, [B, 1 + h * w, D].
    torch::Tensor tokens(const torch::Tensor& images) {
        torch::Tensor x = patch_embed_->forward(images); // [B, D, h, w]
        const std::int64_t rows = x.size(2), columns = x.size(3);
        x = x.flatten(2).transpose(1, 2);
        x = torch::cat({cls_token_.expand({x.size(0), -1, -1}), x}, 1);
        x = x + position_embeddings(rows, columns);
        for (const auto& block : *blocks_) {
            x = block->as<TransformerBlock>()->forward(x);
        }
        return norm_->forward(x);
    }

    torch::Tensor position_embeddings(std::int64_t rows, std::int64_t columns) const {
        if (rows == kGrid && columns == kGrid) {
            return pos_embed_;
        }
        const torch::Tensor grid = pos_embed_.narrow(1, 1, kGrid * kGrid)
                                       .reshape({1, kGrid, kGrid, dim_})
                                       .permute({0, 3, 1, 2});
        // Named, not a temporary: GCC 12 warns about the temporary's optional members.
        torch::nn::functional::InterpolateFuncOptions bicubic;
        bicubic.size(std::vector<std::int64_t>{rows, columns})
            .mode(torch::kBicubic)
            .align_corners(false);
        const torch::Tensor resized = torch::nn::functional::interpolate(grid, bicubic)
                                          .permute({0, 2, 3, 1})
                                          .reshape({1, rows * columns, dim_});
        return torch::cat({pos_embed_.narrow(1, 0, 1), resized}, 1);
    }

    std::int64_t dim_;
    nn::Sequential patch_embed_{nullptr};
    torch::Tensor cls_token_, pos_embed_;
    nn::ModuleList blocks_{nullptr};
    nn::LayerNorm norm_{nullptr};
};

} // namespace

std::vector<torch::Tensor> BackboneImpl::feature_maps(const torch::Tensor&) {
    throw Error("this backbone gives one feature vector per image, not feature maps; dense "
                "tasks such as segmentation need one of Kiln's own backbones (" +
                join_alternatives(backbone_names()) + ")");
}

onnx::Value BackboneImpl::onnx_features(onnx::Graph&, const onnx::Value&, const std::string&) {
    throw Error("ONNX export: this backbone (" + this->name() +
                ") is a TorchScript module, which Kiln cannot export; export Kiln's own "
                "backbones (" +
                join_alternatives(backbone_names()) + ") or use torch.onnx in Python");
}

std::vector<onnx::Value> BackboneImpl::onnx_feature_maps(onnx::Graph& graph,
                                                         const onnx::Value& images,
                                                         const std::string& name) {
    onnx_features(graph, images, name); // throws, naming the fix
    return {};
}

std::vector<std::pair<std::string, torch::Tensor>> BackboneImpl::state() {
    std::vector<std::pair<std::string, torch::Tensor>> tensors;
    for (const auto& item : named_parameters()) {
        tensors.emplace_back(item.key(), item.value());
    }
    for (const auto& item : named_buffers()) {
        tensors.emplace_back(item.key(), item.value());
    }
    return tensors;
}

Backbone make_backbone(const std::string& name, std::int64_t in_channels) {
    if (is_torchscript_model(name)) {
        return make_torchscript_backbone(torchscript_file(name));
    }
    if (name == "resnet18") {
        return std::make_shared<ResNetImpl>(std::vector<int>{2, 2, 2, 2}, false, in_channels);
    }
    if (name == "resnet34") {
        return std::make_shared<ResNetImpl>(std::vector<int>{3, 4, 6, 3}, false, in_channels);
    }
    if (name == "resnet50") {
        return std::make_shared<ResNetImpl>(std::vector<int>{3, 4, 6, 3}, true, in_channels);
    }
    if (name == "smallcnn") {
        return std::make_shared<SmallCnnImpl>(in_channels);
    }
    if (name.rfind("cspnet_", 0) == 0) {
        return make_cspnet(name, in_channels);
    }
    if (name == "vit_tiny") {
        return std::make_shared<VisionTransformerImpl>(192, 12, 3, in_channels);
    }
    if (name == "vit_small") {
        return std::make_shared<VisionTransformerImpl>(384, 12, 6, in_channels);
    }
    std::string message = "unknown model \"" + name + "\"";
    const std::string suggestion = closest_match(name, backbone_names());
    if (!suggestion.empty()) {
        message += "; did you mean \"" + suggestion + "\"?";
    }
    if (looks_like_torchscript_file(name)) {
        message += "; a TorchScript file runs its own code when it loads, so Kiln loads one only "
                   "when named so: model=" +
                   std::string(kTorchScriptPrefix) + name + " (only for files you trust)";
    }
    throw Error(message + " (Kiln has " + join_alternatives(backbone_names()) +
                "; `kiln list-models` prints them)");
}

namespace {

// The backbone's tensors from `state`, each by its name and shape.
void assign_state(BackboneImpl& backbone,
                  const std::vector<std::pair<std::string, torch::Tensor>>& tensors,
                  const std::filesystem::path& path) {
    std::unordered_map<std::string, torch::Tensor> state(tensors.begin(), tensors.end());
    torch::NoGradGuard no_grad;
    for (auto& [name, target] : backbone.state()) {
        const auto found = state.find(name);
        if (found == state.end()) {
            throw Error("\"" + path.string() + "\" has no tensor \"" + name +
                        "\"; it was exported from another model");
        }
        if (found->second.sizes() != target.sizes()) {
            throw Error("\"" + path.string() + "\": tensor \"" + name +
                        "\" has another shape than this model's; it was exported from another "
                        "model");
        }
        target.copy_(found->second);
    }
}

// How many of `backbone`'s tensors `tensors` holds under the same name, of the same shape.
std::size_t matching_tensors(BackboneImpl& backbone,
                             const std::vector<std::pair<std::string, torch::Tensor>>& tensors) {
    std::unordered_map<std::string, torch::Tensor> state(tensors.begin(), tensors.end());
    std::size_t matching = 0;
    for (const auto& [name, target] : backbone.state()) {
        const auto found = state.find(name);
        matching += found != state.end() && found->second.sizes() == target.sizes() ? 1 : 0;
    }
    return matching;
}

// What a weights file holds: a checkpoint's backbone, or the tensors of a state_dict.
struct WeightsFile {
    std::optional<Archive> checkpoint;
    std::vector<std::pair<std::string, torch::Tensor>> state_dict;
};

WeightsFile read_weights_file(const std::filesystem::path& path) {
    if (!std::filesystem::is_regular_file(path)) {
        throw Error("weights file \"" + path.string() + "\" does not exist");
    }
    try {
        const c10::IValue content = read_torch_file(path);
        WeightsFile weights;
        weights.checkpoint = checkpoint_in(content, path);
        if (!weights.checkpoint) {
            weights.state_dict = state_dict_in(content, path);
        }
        return weights;
    } catch (...) {
        rethrow_naming(path);
    }
}

void load_weights(BackboneImpl& backbone, const WeightsFile& weights,
                  const std::filesystem::path& path) {
    try {
        if (weights.checkpoint) {
            load_module(
                backbone,
                weights.checkpoint->child(checkpoint_key::kModel).child(checkpoint_key::kBackbone));
        } else {
            assign_state(backbone, weights.state_dict, path);
        }
    } catch (...) {
        rethrow_naming(path);
    }
}

} // namespace

void load_backbone_weights(BackboneImpl& backbone, const std::filesystem::path& path) {
    load_weights(backbone, read_weights_file(path), path);
}

void save_backbone_weights(BackboneImpl& backbone, const std::filesystem::path& path) {
    c10::Dict<std::string, at::Tensor> state;
    for (const auto& [name, tensor] : backbone.state()) {
        const torch::Tensor value = tensor.detach().cpu(); // readable where there is no GPU
        state.insert(name,
                     (value.is_floating_point() ? value.to(torch::kFloat32) : value).contiguous());
    }
    const std::vector<char> bytes = torch_load_compatible(c10::IValue(state));
    write_file_atomically(path, std::string_view(bytes.data(), bytes.size()));
}

nlohmann::json checkpoint_settings(const std::filesystem::path& path) {
    const std::optional<Archive> checkpoint = read_checkpoint_file(path);
    return checkpoint ? settings_of(*checkpoint) : nlohmann::json();
}

std::string checkpoint_model(const std::filesystem::path& path) {
    const nlohmann::json settings = checkpoint_settings(path);
    return settings.is_object() && settings.contains("model") && settings["model"].is_string()
               ? settings["model"].get<std::string>()
               : "";
}

Backbone load_backbone(const std::filesystem::path& path, std::string* model) {
    const WeightsFile weights = read_weights_file(path);
    const nlohmann::json settings =
        weights.checkpoint ? settings_of(*weights.checkpoint) : nlohmann::json();
    const std::string named = settings.is_object() ? settings.value("model", "") : "";
    const std::vector<std::string> candidates =
        named.empty() ? backbone_names() : std::vector<std::string>{named};
    // Said of the model whose tensors the file matches best: the one it most likely came from.
    std::string closest;
    std::string mismatch;
    std::size_t best_matching = 0;
    for (const std::string& name : candidates) {
        Backbone backbone = make_backbone(name);
        try {
            load_weights(*backbone, weights, path);
        } catch (const Error& error) {
            if (candidates.size() == 1) {
                throw;
            }
            const std::size_t matching = matching_tensors(*backbone, weights.state_dict);
            if (closest.empty() || matching > best_matching) {
                closest = name + " (" + std::to_string(matching) + " of its " +
                          std::to_string(backbone->state().size()) + " tensors match)";
                mismatch = error.what();
                best_matching = matching;
            }
            continue;
        }
        if (model != nullptr) {
            *model = name;
        }
        return backbone;
    }
    throw Error("\"" + path.string() + "\" holds the weights of none of Kiln's models (" +
                join_alternatives(backbone_names()) + "); the closest is " + closest + ": " +
                mismatch);
}

} // namespace kiln::models
