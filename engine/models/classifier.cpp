#include "models/classifier.h"

#include "models/batch_norm.h"
#include "models/onnx_modules.h"

#include <torch/nn/modules/activation.h>
#include <torch/nn/modules/linear.h>

namespace kiln::models {

ClassifierImpl::ClassifierImpl(Backbone backbone, std::int64_t classes, ClassifierHead head,
                               bool freeze_backbone)
    : backbone_(register_module("backbone", std::move(backbone))), frozen_(freeze_backbone) {
    const std::int64_t features = backbone_->feature_dim();
    head_ = torch::nn::Sequential();
    if (head == ClassifierHead::Mlp) {
        head_->push_back(
            torch::nn::Linear(torch::nn::LinearOptions(features, features).bias(false)));
        head_->push_back(BatchNorm(features));
        head_->push_back(torch::nn::ReLU());
    }
    head_->push_back(torch::nn::Linear(features, classes));
    register_module("head", head_);
    if (frozen_) {
        for (torch::Tensor& parameter : backbone_->parameters()) {
            parameter.set_requires_grad(false);
        }
    }
}

torch::Tensor ClassifierImpl::forward(const torch::Tensor& images) {
    return head_->forward(backbone_->forward(images));
}

onnx::Value ClassifierImpl::to_onnx(onnx::Graph& graph, const onnx::Value& images) {
    return onnx_sequential(graph, backbone_->onnx_features(graph, images, "backbone"), *head_,
                           "head");
}

void ClassifierImpl::train(bool on) {
    torch::nn::Module::train(on);
    if (frozen_) {
        backbone_->eval();
    }
}

} // namespace kiln::models
