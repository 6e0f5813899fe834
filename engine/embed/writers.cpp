#include "embed/writers.h"

#include "core/atomic_file.h"
#include "core/error.h"

#include <cstdio>
#include <cstring>
#include <torch/serialize.h>
#include <torch/types.h>

namespace kiln::embed {
namespace {

// CSV-quotes a filename when it holds a comma, a quote or a line break.
std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\n\r") == std::string::npos) {
        return text;
    }
    std::string quoted = "\"";
    for (const char c : text) {
        quoted += c == '"' ? "\"\"" : std::string(1, c);
    }
    return quoted + "\"";
}

std::string csv(const std::vector<std::string>& filenames, const at::Tensor& values, bool lightly) {
    const std::int64_t rows = values.size(0);
    const std::int64_t columns = values.size(1);
    std::string text = lightly ? "filenames" : "filename";
    for (std::int64_t c = 0; c < columns; ++c) {
        text += ",embedding_" + std::to_string(c);
    }
    text += lightly ? ",labels\n" : "\n";
    const float* data = values.data_ptr<float>();
    char number[32];
    for (std::int64_t r = 0; r < rows; ++r) {
        text += csv_field(filenames[static_cast<std::size_t>(r)]);
        for (std::int64_t c = 0; c < columns; ++c) {
            // %.9g round-trips every float exactly.
            std::snprintf(number, sizeof number, ",%.9g", data[r * columns + c]);
            text += number;
        }
        text += lightly ? ",0\n" : "\n";
    }
    return text;
}

std::string npy(const at::Tensor& values) {
    // NumPy format 1.0: magic, version, header length, a Python dict literal padded to 64 bytes.
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" +
                         std::to_string(values.size(0)) + ", " + std::to_string(values.size(1)) +
                         "), }";
    const std::size_t unpadded = 10 + header.size() + 1;
    header += std::string((64 - unpadded % 64) % 64, ' ') + "\n";
    std::string bytes = "\x93NUMPY";
    bytes += '\x01';
    bytes += '\x00';
    bytes += static_cast<char>(header.size() & 0xFF);
    bytes += static_cast<char>(header.size() >> 8);
    bytes += header;
    bytes.append(reinterpret_cast<const char*>(values.data_ptr<float>()),
                 static_cast<std::size_t>(values.numel()) * sizeof(float));
    return bytes;
}

} // namespace

std::filesystem::path npy_filenames_path(const std::filesystem::path& out) {
    return out.parent_path() / (out.stem().string() + "_filenames.txt");
}

void write_embeddings(const std::filesystem::path& out, const std::string& format,
                      const std::vector<std::string>& filenames, const at::Tensor& embeddings) {
    const at::Tensor values = embeddings.to(torch::kFloat32).contiguous();
    if (values.dim() != 2 || values.size(0) != static_cast<std::int64_t>(filenames.size())) {
        throw Error("embeddings and filenames do not match: " + std::to_string(filenames.size()) +
                    " names for a tensor of " + std::to_string(values.size(0)) + " rows");
    }
    if (format == "csv" || format == "lightly_csv") {
        write_file_atomically(out, csv(filenames, values, format == "lightly_csv"));
    } else if (format == "torch") {
        c10::List<std::string> names;
        for (const std::string& name : filenames) {
            names.push_back(name);
        }
        c10::impl::GenericDict dict(c10::StringType::get(), c10::AnyType::get());
        dict.insert("filenames", names);
        dict.insert("embeddings", values);
        const std::vector<char> bytes = torch::pickle_save(c10::IValue(dict));
        write_file_atomically(out, std::string_view(bytes.data(), bytes.size()));
    } else if (format == "npy") {
        std::string lines;
        for (const std::string& name : filenames) {
            lines += name + "\n";
        }
        write_file_atomically(npy_filenames_path(out), lines);
        write_file_atomically(out, npy(values));
    } else {
        throw Error("embedding format \"" + format +
                    "\" is not supported; use csv, lightly_csv, "
                    "torch or npy");
    }
}

} // namespace kiln::embed
