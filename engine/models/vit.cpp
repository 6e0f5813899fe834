#include "models/vit.h"

#include "core/error.h"
#include "models/onnx_modules.h"
#include "onnx/ops.h"

#include <cmath>
#include <torch/nn.h>

namespace kiln::models {
namespace {

namespace nn = torch::nn;

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
        return {patch_grid(tokens(images), images)};
    }

    std::pair<torch::Tensor, torch::Tensor>
    features_and_last_map(const torch::Tensor& images) override {
        const torch::Tensor all = tokens(images);
        return {all.select(1, 0), patch_grid(all, images)};
    }

    std::int64_t feature_dim() const override { return dim_; }
    std::vector<std::int64_t> feature_map_channels() const override { return {dim_}; }

protected:
    // The embeddings (patches, class token, positions), each block, the last norm: timm's
    // groups for layer-wise decay.
    std::string layer_of(const std::string& parameter) const override {
        if (parameter.rfind("blocks.", 0) == 0) {
            return leading_parts(parameter, 2);
        }
        return parameter.rfind("norm.", 0) == 0 ? "norm" : "embeddings";
    }

public:
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
    // LibTorch's own words for it name the convolution's padded input and kernel.
    static void refuse_smaller_than_a_patch(std::int64_t height, std::int64_t width) {
        if (height < kPatch || width < kPatch) {
            throw Error("a ViT sees images in patches of " + std::to_string(kPatch) + " x " +
                        std::to_string(kPatch) + " px, and these are " + std::to_string(height) +
                        " x " + std::to_string(width) + " px; give an image_size of at least " +
                        std::to_string(kPatch));
        }
    }

    torch::Tensor patch_grid(const torch::Tensor& all_tokens, const torch::Tensor& images) const {
        const std::int64_t rows = images.size(2) / kPatch, columns = images.size(3) / kPatch;
        const torch::Tensor patches = all_tokens.narrow(1, 1, rows * columns);
        return patches.transpose(1, 2).reshape({images.size(0), dim_, rows, columns});
    }

    onnx::Value onnx_tokens(onnx::Graph& graph, const onnx::Value& images,
                            const std::string& name) {
        refuse_smaller_than_a_patch(images.example.size(2), images.example.size(3));
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
        refuse_smaller_than_a_patch(images.size(2), images.size(3));
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

Backbone make_vision_transformer(std::int64_t dim, std::int64_t depth, std::int64_t heads,
                                 std::int64_t in_channels) {
    return std::make_shared<VisionTransformerImpl>(dim, depth, heads, in_channels);
}

} // namespace kiln::models
