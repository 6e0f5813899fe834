#pragma once

#include "models/archive.h"
#include "models/backbone.h"

#include <torch/nn/module.h>
#include <torch/nn/modules/container/sequential.h>
#include <torch/nn/pimpl.h>

namespace kiln::models {

// Linear: one linear layer. Mlp: a hidden layer of the feature size (BN, ReLU) first.
// Projection: a SimCLR projection head's first layer (linear with bias, BN, ReLU) of
// `projection_width`, kept from pretraining (load_projection_layer), as SimCLRv2 fine-tunes
// from the middle of the projection head, then a new linear layer.
enum class ClassifierHead { Linear, Mlp, Projection };

// Image classification: a backbone's feature vector into class logits through one of the heads
// above. With a frozen backbone (linear probing) the backbone's weights take no gradient and its
// batch norms keep their statistics.
class ClassifierImpl : public torch::nn::Module {
public:
    ClassifierImpl(Backbone backbone, std::int64_t classes, ClassifierHead head,
                   bool freeze_backbone, std::int64_t projection_width = 0);

    torch::Tensor forward(const torch::Tensor& images);                 // [B, classes] logits
    onnx::Value to_onnx(onnx::Graph& graph, const onnx::Value& images); // the logits
    void train(bool on = true) override;

    BackboneImpl& backbone() { return *backbone_; }
    // Copies a pretraining's projection head (its children "0", the linear layer, and "1", the
    // batch norm) into a Projection head's first layer; shapes checked.
    void load_projection_layer(const Archive& projection_head);

private:
    Backbone backbone_;
    torch::nn::Sequential head_{nullptr};
    bool frozen_;
};
TORCH_MODULE(Classifier);

} // namespace kiln::models
