#include "embed/writers.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/input_file.h"
#include "core/log.h"
#include "core/paths.h"
#include "core/text.h"
#include "models/archive.h"
#include "models/torch_file.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <string_view>
#include <torch/types.h>
#include <unordered_map>

namespace kiln::embed {
namespace {

// The first row (image) of `rows_ok` ([N, ...] per value) holding a false, if one does.
std::optional<std::size_t> first_failing_row(const at::Tensor& rows_ok) {
    const at::Tensor ok = rows_ok.flatten(1).all(1);
    if (ok.all().item<bool>()) {
        return std::nullopt;
    }
    return static_cast<std::size_t>(ok.logical_not().nonzero()[0].item<std::int64_t>());
}

// The first image whose embedding holds a NaN or an infinity: every distance to it would be
// NaN, and selections, maps and duplicates nonsense written as if they were not.
std::optional<std::size_t> first_not_finite(const at::Tensor& values) {
    return first_failing_row(values.isfinite());
}

// Beyond this, a row's squared length can overflow float (3.4e38) and its cosines read as 0 or
// NaN; embeddings are of order 1 to 100.
constexpr double kLargestEmbeddingValue = 1e15;

std::optional<std::size_t> first_too_large(const at::Tensor& values) {
    return first_failing_row(values.abs().le(kLargestEmbeddingValue));
}

// Rows of zeros (or too small for float to give a length) have no direction: every cosine to
// them is 0, so they are nobody's neighbour or near-duplicate, not even each other's.
constexpr double kSmallestLength = 1e-30;

void warn_about_directionless_rows(const EmbeddingFile& file, const std::filesystem::path& path) {
    if (file.embeddings.numel() == 0) {
        return;
    }
    const at::Tensor directionless =
        file.embeddings.flatten(1).abs().amax(1).lt(kSmallestLength).nonzero();
    if (directionless.size(0) > 0) {
        const auto first = static_cast<std::size_t>(directionless[0][0].item<std::int64_t>());
        log::warning("\"" + path.string() + "\" holds " + std::to_string(directionless.size(0)) +
                     " embedding(s) of zeros, " + quoted_excerpt(file.filenames[first]) +
                     " first: with no direction, cosine measures (neighbours, near-duplicates, "
                     "picks) cannot place them; the model may see nothing in those images");
    }
}

// One line per image, or with per-location values [N, rows, columns, D] one per location,
// its row and column after the file name.
std::string csv(const std::vector<std::string>& filenames, const at::Tensor& values, bool lightly) {
    const bool patches = values.dim() == 4;
    const std::int64_t rows = patches ? values.size(1) : 1;
    const std::int64_t columns = patches ? values.size(2) : 1;
    const std::int64_t dimension = values.size(-1);
    std::string text = lightly ? "filenames" : patches ? "filename,row,column" : "filename";
    for (std::int64_t c = 0; c < dimension; ++c) {
        text += ",embedding_" + std::to_string(c);
    }
    text += lightly ? ",labels\n" : "\n";
    const float* data = values.data_ptr<float>();
    char number[32];
    for (std::size_t image = 0; image < filenames.size(); ++image) {
        for (std::int64_t location = 0; location < rows * columns; ++location) {
            text += csv_field(filenames[image]);
            if (patches) {
                text += "," + std::to_string(location / columns) + "," +
                        std::to_string(location % columns);
            }
            for (std::int64_t c = 0; c < dimension; ++c, ++data) {
                // %.9g round-trips every float exactly.
                std::snprintf(number, sizeof number, ",%.9g", *data);
                text += number;
            }
            text += lightly ? ",0\n" : "\n";
        }
    }
    return text;
}

std::string npy(const at::Tensor& values) {
    // NumPy format 1.0: magic, version, header length, a Python dict literal padded to 64 bytes.
    std::string shape;
    for (const std::int64_t size : values.sizes()) {
        shape += (shape.empty() ? "" : ", ") + std::to_string(size);
    }
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + shape + "), }";
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
    if ((values.dim() != 2 && values.dim() != 4) ||
        values.size(0) != static_cast<std::int64_t>(filenames.size())) {
        throw Error("embeddings and filenames do not match: " + std::to_string(filenames.size()) +
                    " names for a tensor of " + std::to_string(values.size(0)) + " rows");
    }
    if (const std::optional<std::string> problem = unusable_names(filenames)) {
        throw Error("nothing was written to \"" + out.string() + "\": " + *problem +
                    "; rename the image so that its name is one line");
    }
    if (const std::optional<std::size_t> row = first_not_finite(values)) {
        throw Error("the embedding of \"" + filenames[*row] +
                    "\" is not a finite number (NaN or infinite), so nothing was written to \"" +
                    out.string() +
                    "\"; a half-precision run overflows so: embed with precision=32-true");
    }
    if (const std::optional<std::size_t> row = first_too_large(values)) {
        throw Error("the embedding of \"" + filenames[*row] + "\" holds a value beyond " +
                    number_text(kLargestEmbeddingValue) + ", so nothing was written to \"" +
                    out.string() + "\"; the model's features have diverged: train it again");
    }
    if (values.dim() == 4 && format == "lightly_csv") {
        throw Error("lightly_csv holds one vector per image; write per-location embeddings as "
                    "torch, npy or csv");
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
        models::write_torch_file(out, c10::IValue(dict));
    } else if (format == "npy") {
        std::string lines;
        for (const std::string& name : filenames) {
            lines += name + "\n";
        }
        // The names first: the .npy that a reader opens appears once they are there.
        const std::string array = npy(values);
        write_files_atomically({{npy_filenames_path(out), lines}, {out, array}});
    } else {
        throw Error("embedding format \"" + format +
                    "\" is not supported; use csv, lightly_csv, "
                    "torch or npy");
    }
}

namespace {

std::string read_all(const std::filesystem::path& path) {
    refuse_special_file(path, "embeddings file");
    std::ifstream file(path, std::ios::binary);
    std::error_code missing;
    if (!file) {
        throw Error("cannot read embeddings file \"" + path.string() + "\"" +
                    (std::filesystem::exists(path, missing)
                         ? ": " + std::string(std::strerror(errno))
                         : ": it does not exist"));
    }
    return {std::istreambuf_iterator<char>(file), {}};
}

// Files of embedding=patch have no single vector per image for the readers' users.
Error per_location_file(const std::filesystem::path& path) {
    return Error("\"" + path.string() +
                 "\" holds an embedding per location (kiln embed embedding=patch); this needs "
                 "one per image: embed again without embedding=patch");
}

// The columns a CSV header names: its count, and the few a reader looks at.
struct CsvHeader {
    std::size_t columns = 0;
    std::string first, second, last;
};

CsvHeader read_header(CsvFieldReader& reader) {
    CsvHeader header;
    std::string field;
    while (reader.next(field)) {
        if (header.columns == 0) {
            header.first = field;
        } else if (header.columns == 1) {
            header.second = field;
        }
        header.last = field;
        ++header.columns;
        if (reader.record_ended()) {
            break;
        }
    }
    return header;
}

// Checks the header of an embeddings CSV and returns its dimension.
std::size_t embedding_columns(const CsvHeader& header, const std::filesystem::path& path) {
    const bool lightly = header.first == "filenames";
    if (header.first != "filename" && !lightly) {
        throw Error("\"" + path.string() + "\" is not an embeddings file (its first column is " +
                    quoted_excerpt(header.first) + ", not filename or filenames)");
    }
    if (header.columns > 1 && header.second == "row") {
        throw per_location_file(path);
    }
    // A name column, the values, and in LightlyTrain's layout a labels column last.
    const std::size_t other_columns = lightly ? 2 : 1;
    if (header.columns <= other_columns) {
        throw Error("\"" + path.string() + "\" has no embedding columns beside its " +
                    (lightly ? "filenames and labels" : "filename") +
                    " column; write it with kiln embed format=csv");
    }
    // LightlyTrain's layout ends in labels, Kiln's has none: read the other way, a labels
    // column is taken for a dimension, or the last dimension for the labels.
    if (lightly != (header.last == "labels")) {
        throw Error("\"" + path.string() + "\" " +
                    (lightly ? "starts with filenames (LightlyTrain's layout) but does not end "
                               "with a labels column"
                             : "starts with filename (Kiln's csv) but ends with a labels column") +
                    "; write it with kiln embed format=csv or format=lightly_csv");
    }
    return header.columns - other_columns;
}

// Read field by field: a file of millions of columns costs its values, not a string for each.
EmbeddingFile read_csv(const std::filesystem::path& path, const std::string& text) {
    CsvFieldReader reader(text);
    const CsvHeader header = read_header(reader);
    const std::size_t dimension = embedding_columns(header, path);
    EmbeddingFile file;
    std::vector<float> values;
    std::string field;
    for (std::size_t line = 2; reader.next(field); ++line) {
        if (reader.record_ended() && field.empty()) {
            continue;
        }
        file.filenames.push_back(field);
        std::size_t fields = 1;
        while (!reader.record_ended() && reader.next(field)) {
            if (++fields > dimension + 1) {
                continue; // LightlyTrain's labels, or a field too many (counted below)
            }
            char* end = nullptr;
            values.push_back(std::strtof(field.c_str(), &end));
            if (end == field.c_str() || *end != '\0') {
                throw Error("\"" + path.string() + "\" line " + std::to_string(line) + ": " +
                            quoted_excerpt(field) + " is not a number");
            }
        }
        if (fields != header.columns) {
            throw Error("\"" + path.string() + "\" line " + std::to_string(line) + " has " +
                        std::to_string(fields) + " fields, the header " +
                        std::to_string(header.columns));
        }
    }
    file.embeddings = torch::from_blob(values.data(),
                                       {static_cast<std::int64_t>(file.filenames.size()),
                                        static_cast<std::int64_t>(dimension)},
                                       torch::kFloat32)
                          .clone();
    return file;
}

// The dictionary a .npy header holds, as numpy writes it: {'descr': '<f4', 'fortran_order':
// False, 'shape': (3, 4), }. Read as a literal of its own: a key hidden in another's value
// is not taken for it.
struct NpyHeader {
    std::string descr;
    std::optional<bool> fortran_order;
    std::optional<std::vector<long long>> shape;
};

class NpyHeaderReader {
public:
    explicit NpyHeaderReader(std::string_view text) : text_(text) {}

    std::optional<NpyHeader> read() {
        NpyHeader header;
        if (!take('{')) {
            return std::nullopt;
        }
        while (!take('}')) {
            const std::optional<std::string> key = quoted();
            if (!key || !take(':')) {
                return std::nullopt;
            }
            const bool known = *key == "descr"           ? assign(header.descr, quoted())
                               : *key == "fortran_order" ? assign(header.fortran_order, boolean())
                               : *key == "shape"         ? assign(header.shape, tuple())
                                                         : false;
            if (!known || (!take(',') && !peek('}'))) {
                return std::nullopt;
            }
        }
        skip_spaces();
        return at_ < text_.size() || header.descr.empty() || !header.fortran_order || !header.shape
                   ? std::nullopt
                   : std::optional(header);
    }

private:
    template <class Field, class Value> static bool assign(Field& field, Value value) {
        if (!value) {
            return false;
        }
        field = *value;
        return true;
    }
    void skip_spaces() {
        while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\n')) {
            ++at_;
        }
    }
    bool peek(char c) {
        skip_spaces();
        return at_ < text_.size() && text_[at_] == c;
    }
    bool take(char c) {
        if (!peek(c)) {
            return false;
        }
        ++at_;
        return true;
    }
    std::optional<std::string> quoted() {
        skip_spaces();
        if (at_ >= text_.size() || (text_[at_] != '\'' && text_[at_] != '"')) {
            return std::nullopt;
        }
        const std::size_t close = text_.find(text_[at_], at_ + 1);
        if (close == std::string_view::npos) {
            return std::nullopt;
        }
        std::string value(text_.substr(at_ + 1, close - at_ - 1));
        at_ = close + 1;
        return value;
    }
    std::optional<bool> boolean() {
        skip_spaces();
        for (const auto& [word, value] : {std::pair{"True", true}, std::pair{"False", false}}) {
            if (text_.substr(at_).starts_with(word)) {
                at_ += std::string_view(word).size();
                return value;
            }
        }
        return std::nullopt;
    }
    std::optional<std::vector<long long>> tuple() {
        if (!take('(')) {
            return std::nullopt;
        }
        std::vector<long long> values;
        while (!take(')')) {
            skip_spaces();
            long long value = 0;
            const auto [end, error] =
                std::from_chars(text_.data() + at_, text_.data() + text_.size(), value);
            if (error != std::errc() || value < 0) {
                return std::nullopt;
            }
            at_ = std::size_t(end - text_.data());
            values.push_back(value);
            if (!take(',') && !peek(')')) {
                return std::nullopt;
            }
        }
        return values;
    }

    std::string_view text_;
    std::size_t at_ = 0;
};

EmbeddingFile read_npy(const std::filesystem::path& path, const std::string& bytes) {
    const int version = bytes.size() > 6 ? bytes[6] : 0;
    if (version < 1 || version > 3 || bytes.size() < 12) {
        throw Error("\"" + path.string() + "\" is not a NumPy file of version 1, 2 or 3 (" +
                    std::to_string(bytes.size()) +
                    " bytes); write it with numpy.save or kiln embed format=npy");
    }
    // Version 1 gives the header's length in two bytes, versions 2 and 3 in four.
    const std::size_t start = version == 1 ? 10 : 12;
    std::size_t header_size = 0;
    for (std::size_t i = start; i-- > 8;) {
        header_size = (header_size << 8) | static_cast<unsigned char>(bytes[i]);
    }
    const std::string header = bytes.substr(start, std::min(header_size, bytes.size() - start));
    const std::size_t data_bytes = bytes.size() - std::min(bytes.size(), start + header_size);
    const std::optional<NpyHeader> parsed = NpyHeaderReader(header).read();
    if (parsed && parsed->shape->size() == 4) {
        throw per_location_file(path);
    }
    if (!parsed || parsed->descr != "<f4" || *parsed->fortran_order || parsed->shape->size() != 2 ||
        parsed->shape->at(1) < 1) {
        // Its header says what it is instead: the element type, the order and the shape.
        throw Error("\"" + path.string() +
                    "\" is not a float32 matrix in NumPy format (as kiln embed format=npy "
                    "writes: {'descr': '<f4', 'fortran_order': False, 'shape': (rows, columns)}); "
                    "its header is " +
                    quoted_excerpt(header.substr(0, header.find_last_not_of(" \n") + 1), 200) +
                    "; convert it with numpy.ascontiguousarray(a, dtype='<f4')");
    }
    const long long rows = parsed->shape->at(0);
    const long long columns = parsed->shape->at(1);
    // Compared by division first: a header's shape must not overflow the product.
    const auto values = static_cast<unsigned long long>(data_bytes / sizeof(float));
    if (static_cast<unsigned long long>(rows) > values / static_cast<unsigned long long>(columns) ||
        static_cast<unsigned long long>(rows * columns) * sizeof(float) != data_bytes) {
        throw Error("\"" + path.string() + "\" declares " + std::to_string(rows) + " x " +
                    std::to_string(columns) + " float32 values but holds " +
                    std::to_string(data_bytes) +
                    " bytes of them: it is truncated or damaged; embed the images again");
    }
    EmbeddingFile file;
    file.embeddings = torch::empty({rows, columns}, torch::kFloat32);
    std::memcpy(file.embeddings.data_ptr<float>(), bytes.data() + start + header_size,
                std::size_t(rows * columns) * sizeof(float));
    std::error_code unreadable;
    if (!std::filesystem::exists(npy_filenames_path(path), unreadable) && !unreadable) {
        throw Error("\"" + path.string() + "\" has its images' names in \"" +
                    npy_filenames_path(path).string() +
                    "\", which does not exist; kiln embed format=npy writes the two together");
    }
    std::istringstream names(read_all(npy_filenames_path(path)));
    for (std::string name; std::getline(names, name);) {
        file.filenames.push_back(name);
    }
    if (static_cast<long long>(file.filenames.size()) != rows) {
        throw Error("\"" + npy_filenames_path(path).string() + "\" lists " +
                    std::to_string(file.filenames.size()) + " files for " + std::to_string(rows) +
                    " embeddings");
    }
    return file;
}

// Read by Kiln's own reader of torch.save files, which runs nothing of what the file names.
EmbeddingFile read_torch(const std::filesystem::path& path) {
    EmbeddingFile file;
    const models::Archive archive = models::read_archive(path);
    if (!archive.contains("filenames") || !archive.contains("embeddings")) {
        throw Error("\"" + path.string() +
                    "\" is not a torch embeddings file "
                    "({\"filenames\": [...], \"embeddings\": Tensor})");
    }
    file.filenames = archive.texts("filenames");
    file.embeddings = archive.tensor("embeddings").to(torch::kFloat32);
    if (file.embeddings.dim() == 4) {
        throw per_location_file(path);
    }
    if (file.embeddings.dim() != 2 ||
        file.embeddings.size(0) != static_cast<std::int64_t>(file.filenames.size())) {
        throw Error("\"" + path.string() + "\": the embeddings do not match the filenames");
    }
    if (file.embeddings.size(1) == 0) {
        throw Error("\"" + path.string() +
                    "\" holds embeddings of no dimensions; embed the images again with kiln "
                    "embed format=torch");
    }
    return file;
}

} // namespace

std::optional<std::string> unusable_names(const std::vector<std::string>& filenames) {
    for (std::size_t row = 0; row < filenames.size(); ++row) {
        const std::string& name = filenames[row];
        const bool control = std::any_of(name.begin(), name.end(), [](char c) {
            return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
        });
        if (control || name.empty()) {
            return "the name on row " + std::to_string(row + 1) + " (\"" + escaped_text(name) +
                   "\") is empty or holds a control character such as a line break; give it "
                   "a name of one line";
        }
        if (!is_utf8(name)) {
            return "the name on row " + std::to_string(row + 1) + " (\"" + escaped_text(name) +
                   "\")" + kNotUtf8 + "; torch.load and Python's csv cannot read it";
        }
        if (leaves_folder(name)) {
            return "the name on row " + std::to_string(row + 1) + " (\"" + escaped_text(name) +
                   "\") leaves the images folder (absolute, or through \"..\"); names are "
                   "relative to the folder that was embedded";
        }
    }
    return std::nullopt;
}

void refuse_repeated_names(const EmbeddingFile& file, const std::filesystem::path& path) {
    if (const auto repeat = first_repeat(file.filenames)) {
        throw Error("\"" + terminal_text(path.string()) + "\" names " +
                    quoted_excerpt(file.filenames[repeat->second]) + " twice (rows " +
                    std::to_string(repeat->first + 1) + " and " +
                    std::to_string(repeat->second + 1) +
                    "), so a list of names would not say which image; embed each data "
                    "folder into its own file and use one, or rename the images");
    }
}

EmbeddingFile read_embeddings(const std::filesystem::path& path) {
    const std::string bytes = read_all(path);
    EmbeddingFile file = bytes.rfind("\x93NUMPY", 0) == 0 ? read_npy(path, bytes)
                         : bytes.rfind("PK", 0) == 0      ? read_torch(path)
                                                          : read_csv(path, bytes);
    if (file.filenames.empty()) {
        throw Error("\"" + terminal_text(path.string()) +
                    "\" holds no embeddings; embed a folder of images into it first (kiln embed)");
    }
    if (const std::optional<std::string> problem = unusable_names(file.filenames)) {
        throw Error("\"" + path.string() + "\" cannot be used: " + *problem +
                    "; Kiln writes each name on one line: embed the images again");
    }
    if (const std::optional<std::size_t> row = first_not_finite(file.embeddings)) {
        throw Error("\"" + path.string() +
                    "\" holds a value that is not a finite number (NaN or "
                    "infinite) in the embedding of " +
                    quoted_excerpt(file.filenames[*row]) +
                    "; Kiln never writes one: embed the images again");
    }
    if (const std::optional<std::size_t> row = first_too_large(file.embeddings)) {
        throw Error("\"" + path.string() + "\" holds a value beyond " +
                    number_text(kLargestEmbeddingValue) + " in the embedding of " +
                    quoted_excerpt(file.filenames[*row]) +
                    ": lengths and distances of such values overflow float; no model writes "
                    "them: embed the images again");
    }
    warn_about_directionless_rows(file, path);
    return file;
}

} // namespace kiln::embed
