#include "onnx/graph.h"

#include "core/atomic_file.h"
#include "core/error.h"

#include <ATen/ATen.h>
#include <onnx/onnx_pb.h>

namespace kiln::onnx {
namespace {

::onnx::TensorProto_DataType element_type(const at::Tensor& tensor) {
    switch (tensor.scalar_type()) {
    case at::kFloat:
        return ::onnx::TensorProto_DataType_FLOAT;
    case at::kHalf:
        return ::onnx::TensorProto_DataType_FLOAT16;
    case at::kLong:
        return ::onnx::TensorProto_DataType_INT64;
    case at::kBool:
        return ::onnx::TensorProto_DataType_BOOL;
    default:
        throw Error(std::string("ONNX export: no element type for tensors of ") +
                    c10::toString(tensor.scalar_type()));
    }
}

} // namespace

struct Graph::Proto {
    ::onnx::ModelProto model;
    ::onnx::GraphProto* graph = model.mutable_graph();

    // The declared type of a graph input or output: element type and sizes, the first one
    // symbolic for a dynamic batch.
    void describe(::onnx::ValueInfoProto* info, const std::string& name, const at::Tensor& example,
                  at::ScalarType type, bool dynamic_batch) const {
        info->set_name(name);
        auto* tensor = info->mutable_type()->mutable_tensor_type();
        tensor->set_elem_type(element_type(at::empty({0}, at::TensorOptions().dtype(type))));
        auto* shape = tensor->mutable_shape();
        for (std::int64_t d = 0; d < example.dim(); ++d) {
            auto* dimension = shape->add_dim();
            if (d == 0 && dynamic_batch) {
                dimension->set_dim_param("batch");
            } else {
                dimension->set_dim_value(example.size(d));
            }
        }
    }
};

Graph::Graph(Precision precision) : proto_(std::make_unique<Proto>()), precision_(precision) {
    proto_->model.set_ir_version(8); // the IR of opset 17
    proto_->model.set_producer_name("kiln");
    auto* opset = proto_->model.add_opset_import();
    opset->set_domain("");
    opset->set_version(kOpset);
    proto_->graph->set_name("kiln");
}

Graph::~Graph() = default;

std::string Graph::fresh_name(const std::string& op) {
    const int n = used_names_[op]++;
    return op + "_" + std::to_string(n);
}

Value Graph::input(const std::string& name, const at::Tensor& example, std::int64_t batch) {
    dynamic_batch_ = batch == 0;
    proto_->describe(proto_->graph->add_input(), name, example,
                     precision_ == Precision::Float16 ? at::kHalf : at::kFloat, dynamic_batch_);
    return {name, example};
}

void Graph::output(const Value& value, const std::string& name) {
    auto* identity = proto_->graph->add_node();
    identity->set_op_type("Identity");
    identity->set_name(name);
    identity->add_input(value.name);
    identity->add_output(name);
    const at::ScalarType type = value.example.is_floating_point()
                                    ? (precision_ == Precision::Float16 ? at::kHalf : at::kFloat)
                                    : value.example.scalar_type();
    proto_->describe(proto_->graph->add_output(), name, value.example, type, dynamic_batch_);
}

void Graph::metadata(const std::string& key, const std::string& value) {
    auto* entry = proto_->model.add_metadata_props();
    entry->set_key(key);
    entry->set_value(value);
}

std::string Graph::weight(const std::string& name, const at::Tensor& tensor) {
    at::Tensor stored = tensor.detach().to(at::kCPU);
    if (stored.is_floating_point()) {
        stored = stored.to(precision_ == Precision::Float16 ? at::kHalf : at::kFloat);
    }
    stored = stored.contiguous();
    std::string unique = name;
    for (int n = 1; !initializer_names_.insert(unique).second; ++n) {
        unique = name + "_" + std::to_string(n);
    }
    auto* proto = proto_->graph->add_initializer();
    proto->set_name(unique);
    proto->set_data_type(element_type(stored));
    for (const std::int64_t size : stored.sizes()) {
        proto->add_dims(size);
    }
    proto->set_raw_data(stored.data_ptr(), static_cast<std::size_t>(stored.nbytes()));
    return unique;
}

std::string Graph::int64s(const std::vector<std::int64_t>& values) {
    return weight(fresh_name("const"), at::tensor(values, at::TensorOptions().dtype(at::kLong)));
}

std::string Graph::float32(float value) {
    const Precision kept = precision_;
    precision_ = Precision::Float32;
    const std::string name = weight(fresh_name("float32"), at::scalar_tensor(value, at::kFloat));
    precision_ = kept;
    return name;
}

std::string Graph::scalar(float value) {
    return weight(fresh_name("scalar"), at::scalar_tensor(value, at::kFloat));
}

Value Graph::node(const std::string& op, const std::vector<std::string>& inputs,
                  const at::Tensor& example, const Attributes& attributes) {
    return nodes(op, inputs, {example}, attributes).front();
}

std::vector<Value> Graph::nodes(const std::string& op, const std::vector<std::string>& inputs,
                                const std::vector<at::Tensor>& examples,
                                const Attributes& attributes) {
    auto* node = proto_->graph->add_node();
    node->set_op_type(op);
    node->set_name(fresh_name(op));
    for (const std::string& input : inputs) {
        node->add_input(input);
    }
    std::vector<Value> outputs;
    for (std::size_t i = 0; i < examples.size(); ++i) {
        const std::string output =
            node->name() + (examples.size() > 1 ? "_" + std::to_string(i) : "");
        node->add_output(output);
        outputs.push_back({output, examples[i]});
    }
    for (const auto& [key, value] : attributes) {
        auto* attribute = node->add_attribute();
        attribute->set_name(key);
        if (const auto* integer = std::get_if<std::int64_t>(&value)) {
            attribute->set_type(::onnx::AttributeProto_AttributeType_INT);
            attribute->set_i(*integer);
        } else if (const auto* real = std::get_if<float>(&value)) {
            attribute->set_type(::onnx::AttributeProto_AttributeType_FLOAT);
            attribute->set_f(*real);
        } else if (const auto* text = std::get_if<std::string>(&value)) {
            attribute->set_type(::onnx::AttributeProto_AttributeType_STRING);
            attribute->set_s(*text);
        } else {
            attribute->set_type(::onnx::AttributeProto_AttributeType_INTS);
            for (const std::int64_t integer : std::get<std::vector<std::int64_t>>(value)) {
                attribute->add_ints(integer);
            }
        }
    }
    return outputs;
}

void Graph::save(const std::filesystem::path& file, const std::string& producer_version) const {
    proto_->model.set_producer_version(producer_version);
    std::string bytes;
    if (proto_->model.ByteSizeLong() > (std::size_t(1) << 31) - 1 ||
        !proto_->model.SerializeToString(&bytes)) {
        throw Error("\"" + file.string() +
                    "\": the model is too large for one ONNX file (2 GB, protobuf's limit); "
                    "export a smaller model");
    }
    write_file_atomically(file, bytes);
}

} // namespace kiln::onnx
