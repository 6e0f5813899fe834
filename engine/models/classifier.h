#pragma once

#include "models/backbone.h"

#include <torch/nn/module.h>
#include <torch/nn/modules/container/sequential.h>
#include <torch/nn/pimpl.h>

namespace kiln::models {

enum class ClassifierHead { Linear, Mlp };

// Image classification: a backbone's feature vector into class logits through a linear layer,
// or an MLP (hidden layer of the feature size, BN, ReLU). With a frozen backbone (linear
// probing) the backbone's weights take no gradient and its batch norms keep their statistics.
class ClassifierImpl : public torch::nn::Module {
public:
    ClassifierImpl(Backbone backbone, std::int64_t classes, ClassifierHead head,
                   bool freeze_backbone);

    torch::Tensor forward(const torch::Tensor& images);                 // [B, classes] logits
    onnx::Value to_onnx(onnx::Graph& graph, const onnx::Value& images); // the logits
    void train(bool on = true) override;

    BackboneImpl& backbone() { return *backbone_; }

private:
    Backbone backbone_;
    torch::nn::Sequential head_{nullptr};
    bool frozen_;
};
TORCH_MODULE(Classifier);

} // namespace kiln::models
