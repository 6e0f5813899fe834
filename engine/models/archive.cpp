#include "models/archive.h"

#include "models/torch_file.h"

#include <ATen/ops/zeros.h>
#include <c10/util/irange.h>
#include <torch/nn/module.h>
#include <torch/types.h>
#include <unordered_set>

namespace kiln::models {

Archive::Archive(std::filesystem::path file, std::string prefix)
    : file_(std::move(file)), prefix_(std::move(prefix)) {}

// A copy: the archive keeps the values they had when written, whatever the module does next.
void Archive::write(const std::string& key, const at::Tensor& tensor) {
    write(key, c10::IValue(tensor.detach().to(at::kCPU, /*non_blocking=*/false, /*copy=*/true)));
}

void Archive::write(const std::string& key, const c10::IValue& value) {
    for (auto& entry : entries_) {
        if (entry.first == key) {
            entry.second = value;
            return;
        }
    }
    entries_.emplace_back(key, value);
}

void Archive::write(const std::string& key, const Archive& child) {
    write(key, child.to_ivalue());
}

bool Archive::contains(const std::string& key) const {
    return find(key).has_value();
}

std::optional<c10::IValue> Archive::find(const std::string& key) const {
    for (const auto& entry : entries_) {
        if (entry.first == key) {
            return entry.second;
        }
    }
    return std::nullopt;
}

Error Archive::problem(const std::string& key, const std::string& what) const {
    return Error("\"" + file_.string() + "\": \"" + prefix_ + key + "\" " + what +
                 "; the file was not written by this Kiln for this model, or is damaged");
}

namespace {

c10::IValue required(const Archive& archive, const std::string& key) {
    std::optional<c10::IValue> value = archive.find(key);
    if (!value) {
        throw archive.problem(key, "is missing");
    }
    return *value;
}

std::string shape_text(at::IntArrayRef sizes) {
    std::string text = "[";
    for (const auto i : c10::irange(sizes.size())) {
        text += (i > 0 ? ", " : "") + std::to_string(sizes[i]);
    }
    return text + "]";
}

} // namespace

bool all_finite(const at::Tensor& tensor) {
    // Kiln never saves a non-finite weight (a run stops first), so one is damage, or a trap:
    // every output computed from it would be NaN, written as if it were not.
    return !tensor.is_floating_point() || tensor.isfinite().all().item<bool>();
}

at::Tensor Archive::tensor(const std::string& key) const {
    const c10::IValue value = required(*this, key);
    if (!value.isTensor()) {
        throw problem(key, "is not a tensor");
    }
    return value.toTensor();
}

void Archive::read(const std::string& key, at::Tensor& target) const {
    const at::Tensor source = tensor(key);
    if (!target.defined()) {
        target = source.clone();
        return;
    }
    if (source.sizes() != target.sizes()) {
        throw problem(key, "has the shape " + shape_text(source.sizes()) + " where the model has " +
                               shape_text(target.sizes()));
    }
    if (!all_finite(source)) {
        throw problem(key, "holds values that are not finite numbers (NaN or infinite)");
    }
    torch::NoGradGuard no_grad;
    target.copy_(source);
}

std::int64_t Archive::integer(const std::string& key) const {
    const c10::IValue value = required(*this, key);
    if (value.isInt()) {
        return value.toInt();
    }
    if (value.isTensor() && value.toTensor().numel() == 1 &&
        !value.toTensor().is_floating_point()) {
        return value.toTensor().item<std::int64_t>();
    }
    throw problem(key, "is not an integer");
}

double Archive::real(const std::string& key) const {
    const c10::IValue value = required(*this, key);
    if (value.isDouble() || value.isInt()) {
        return value.isDouble() ? value.toDouble() : double(value.toInt());
    }
    if (value.isTensor() && value.toTensor().numel() == 1) {
        return value.toTensor().item<double>();
    }
    throw problem(key, "is not a number");
}

std::string Archive::text(const std::string& key) const {
    const c10::IValue value = required(*this, key);
    if (!value.isString()) {
        throw problem(key, "is not a string");
    }
    return value.toStringRef();
}

std::vector<std::string> Archive::texts(const std::string& key) const {
    const c10::IValue value = required(*this, key);
    std::vector<std::string> items;
    if (value.isList()) {
        // A pickle names a string once and refers to it again in two bytes: the copies made
        // here may not outgrow what the file stores by much (1 MB of names became 5 GB).
        constexpr std::size_t kCopiesAllowed = std::size_t(64) << 20;
        std::unordered_set<const void*> stored_strings;
        std::size_t stored = 0, copied = 0;
        for (const c10::IValue& item : value.toListRef()) {
            if (!item.isString()) {
                throw problem(key, "holds something that is not a string");
            }
            const std::string& text = item.toStringRef();
            stored += stored_strings.insert(item.internalToPointer()).second ? text.size() : 0;
            copied += text.size();
            if (copied > kCopiesAllowed && copied > 16 * stored) {
                throw problem(key, "repeats its " + std::to_string(stored) +
                                       " bytes of strings into more than " +
                                       std::to_string(copied) +
                                       " bytes, as a file made to exhaust memory would");
            }
            items.push_back(text);
        }
        return items;
    }
    throw problem(key, "is not a list of strings");
}

std::vector<std::int64_t> Archive::integers(const std::string& key) const {
    const c10::IValue value = required(*this, key);
    std::vector<std::int64_t> items;
    if (value.isList()) {
        for (const c10::IValue& item : value.toListRef()) {
            if (!item.isInt()) {
                throw problem(key, "holds something that is not an integer");
            }
            items.push_back(item.toInt());
        }
        return items;
    }
    throw problem(key, "is not a list of integers");
}

Archive Archive::child(const std::string& key) const {
    std::optional<Archive> found = find_child(key);
    if (!found) {
        throw contains(key) ? problem(key, "is not a group of tensors")
                            : problem(key, "is missing");
    }
    return *found;
}

std::optional<Archive> Archive::find_child(const std::string& key) const {
    const std::optional<c10::IValue> value = find(key);
    if (!value || !value->isGenericDict()) {
        return std::nullopt;
    }
    return from_ivalue(*value, file_, prefix_ + key + "/");
}

c10::IValue Archive::to_ivalue() const {
    c10::impl::GenericDict dict(c10::StringType::get(), c10::AnyType::get());
    for (const auto& [key, value] : entries_) {
        dict.insert(key, value);
    }
    return dict;
}

Archive Archive::from_ivalue(const c10::IValue& value, std::filesystem::path file,
                             std::string prefix) {
    Archive archive(std::move(file), std::move(prefix));
    if (!value.isGenericDict()) {
        throw Error("\"" + archive.file_.string() + "\" holds no dict of tensors and settings");
    }
    for (const auto& entry : value.toGenericDict()) {
        if (entry.key().isString()) {
            archive.entries_.emplace_back(entry.key().toStringRef(), entry.value());
        }
    }
    return archive;
}

void save_module(const torch::nn::Module& module, Archive& archive) {
    for (const auto& parameter : module.named_parameters(/*recurse=*/false)) {
        archive.write(parameter.key(), parameter.value());
    }
    for (const auto& buffer : module.named_buffers(/*recurse=*/false)) {
        archive.write(buffer.key(), buffer.value());
    }
    for (const auto& child : module.named_children()) {
        if (child.value()->is_serializable()) {
            Archive part(archive.file());
            save_module(*child.value(), part);
            archive.write(child.key(), part);
        }
    }
}

void load_module(torch::nn::Module& module, const Archive& archive) {
    for (auto& parameter : module.named_parameters(/*recurse=*/false)) {
        archive.read(parameter.key(), parameter.value());
    }
    for (auto& buffer : module.named_buffers(/*recurse=*/false)) {
        archive.read(buffer.key(), buffer.value());
    }
    for (const auto& child : module.named_children()) {
        if (child.value()->is_serializable()) {
            load_module(*child.value(), archive.child(child.key()));
        }
    }
}

void write_archive(const std::filesystem::path& path, const Archive& archive) {
    write_torch_file(path, archive.to_ivalue());
}

Archive read_archive(const std::filesystem::path& path) {
    return Archive::from_ivalue(read_torch_file(path), path);
}

} // namespace kiln::models
