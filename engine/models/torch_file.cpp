#include "models/torch_file.h"

#include <caffe2/serialize/inline_container.h>
#include <cstring>
#include <torch/csrc/jit/serialization/export.h>
#include <torch/csrc/jit/serialization/pickler.h>

namespace kiln::models {

std::vector<char> torch_load_compatible(const c10::IValue& value) {
    std::vector<char> pickled;
    torch::jit::Pickler pickler(
        [&](const char* bytes, std::size_t size) {
            pickled.insert(pickled.end(), bytes, bytes + size);
        },
        /*tensor_table=*/nullptr, /*type_renamer=*/nullptr, /*memoized_class_types=*/nullptr,
        /*get_tensor_id=*/nullptr, /*tag_aggregates=*/false);
    pickler.protocol();
    pickler.pushIValue(value);
    pickler.stop();
    std::vector<char> file;
    caffe2::serialize::PyTorchStreamWriter writer([&](const void* bytes, std::size_t size) {
        const auto* begin = static_cast<const char*>(bytes);
        file.insert(file.end(), begin, begin + size);
        return size;
    });
    torch::jit::writeArchiveAndTensors("data", pickled.data(), pickled.size(), pickler.tensorData(),
                                       writer);
    writer.writeEndOfFile();
    return file;
}

} // namespace kiln::models
