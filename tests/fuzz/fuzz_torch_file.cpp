// libFuzzer target for Kiln's torch.save reader (models/torch_file.h), which reads weights files
// users are given by others. The first byte chooses the way in: 0, the rest is a whole file
// (the zip container and what it holds); otherwise the rest is the pickle of a well-formed file
// whose storages "0" (64 bytes) and "1" (4 bytes) exist, so the unpickler itself is explored.
// Any kiln::Error is a clean refusal; a crash, a sanitizer report, a leak or another exception
// is a finding.

#include "core/error.h"
#include "models/torch_file.h"

#include <caffe2/serialize/inline_container.h>
#include <cstddef>
#include <cstdint>
#include <string>

namespace {

std::string with_pickle(const std::string& pickle) {
    std::string file;
    caffe2::serialize::PyTorchStreamWriter writer([&](const void* bytes, std::size_t size) {
        file.append(static_cast<const char*>(bytes), size);
        return size;
    });
    const std::string storage0(64, '\x01');
    const std::string storage1(4, '\x02');
    writer.writeRecord("data.pkl", pickle.data(), pickle.size());
    writer.writeRecord("data/0", storage0.data(), storage0.size());
    writer.writeRecord("data/1", storage1.data(), storage1.size());
    writer.writeEndOfFile();
    return file;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) {
        return 0;
    }
    const std::string rest(reinterpret_cast<const char*>(data) + 1, size - 1);
    try {
        const std::string file = data[0] == 0 ? rest : with_pickle(rest);
        kiln::models::read_torch_bytes(file, "fuzzed.pt");
    } catch (const kiln::Error&) {
    }
    return 0;
}
