#pragma once

#include <ATen/core/Tensor.h>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <variant>
#include <vector>

namespace kiln::onnx {

// The numeric type of an exported model's weights, inputs and floating-point outputs.
enum class Precision { Float32, Float16 };

// A value flowing through the graph: its name there, and the tensor LibTorch computes for it on
// the example batch the model is exported with. The example gives every later node its static
// sizes, and lets the export compare the graph's mirror with the model's own forward pass.
struct Value {
    std::string name;
    at::Tensor example;
};

using Attribute = std::variant<std::int64_t, float, std::string, std::vector<std::int64_t>>;
using Attributes = std::map<std::string, Attribute>;

// An ONNX model under construction (opset 17, which ONNX Runtime and TensorRT 8.6 and newer
// load), written through ONNX's own protobuf schema. Models add their layers through the
// operations below; each emits the ONNX nodes and computes the same operation in LibTorch on
// the example. The first dimension of every value is the batch: symbolic ("batch") when the
// export asks for a dynamic batch, so no node may bake the example's batch size in; reshapes
// say 0 for it (copy the input's batch).
class Graph {
public:
    static constexpr std::int64_t kOpset = 17;

    explicit Graph(Precision precision);
    ~Graph();
    Graph(const Graph&) = delete;
    Graph& operator=(const Graph&) = delete;

    Precision precision() const { return precision_; }
    // ONNX's code of the floating-point type of this export, for Cast's `to`.
    std::int64_t float_type() const { return precision_ == Precision::Float16 ? 10 : 1; }

    // The graph input: images [batch, C, H, W] of the example's C, H and W; `batch` 0 means a
    // dynamic batch.
    Value input(const std::string& name, const at::Tensor& example, std::int64_t batch);
    // Marks `value` as a graph output named `name` (an Identity node renames it).
    void output(const Value& value, const std::string& name);
    void metadata(const std::string& key, const std::string& value);

    // A constant weight (floating point ones in the export's precision), named after the
    // module that owns it, e.g. "backbone.layer1.0.conv1.weight".
    std::string weight(const std::string& name, const at::Tensor& tensor);
    std::string int64s(const std::vector<std::int64_t>& values);
    std::string scalar(float value); // a floating-point scalar in the export's precision
    // A float32 scalar whatever the export's precision (NonMaxSuppression's thresholds).
    std::string float32(float value);

    // One node with one output, whose LibTorch counterpart gave `example`.
    Value node(const std::string& op, const std::vector<std::string>& inputs,
               const at::Tensor& example, const Attributes& attributes = {});
    // One node with several outputs.
    std::vector<Value> nodes(const std::string& op, const std::vector<std::string>& inputs,
                             const std::vector<at::Tensor>& examples,
                             const Attributes& attributes = {});

    // Writes the model atomically. A graph ONNX's protobuf cannot serialise (over 2 GB) is a
    // kiln::Error.
    void save(const std::filesystem::path& file, const std::string& producer_version) const;

private:
    std::string fresh_name(const std::string& op);

    struct Proto;
    std::unique_ptr<Proto> proto_;
    Precision precision_;
    bool dynamic_batch_ = false;
    std::map<std::string, int> used_names_; // per op type, for node names
    std::set<std::string> initializer_names_;
};

} // namespace kiln::onnx
