#include "models/checkpoint_file.h"

#include "core/json_text.h"
#include "models/backbone_names.h"
#include "models/torch_file.h"

#include <c10/util/Exception.h>

namespace kiln::models {

std::optional<Archive> checkpoint_in(const c10::IValue& content,
                                     const std::filesystem::path& path) {
    if (!content.isGenericDict()) {
        return std::nullopt;
    }
    Archive archive = Archive::from_ivalue(content, path);
    if (!archive.contains(checkpoint_key::kFormat)) {
        return std::nullopt;
    }
    const std::int64_t format = archive.integer(checkpoint_key::kFormat);
    if (format < 1 || format > kCheckpointFormat) {
        throw Error("checkpoint \"" + path.string() + "\" has format " + std::to_string(format) +
                    ", which this Kiln does not know; it was written by a newer Kiln");
    }
    return archive;
}

std::optional<Archive> read_checkpoint_file(const std::filesystem::path& path) {
    try {
        return checkpoint_in(read_torch_file(path), path);
    } catch (...) {
        rethrow_naming(path);
    }
}

void rethrow_naming(const std::filesystem::path& path) {
    const std::string file = "\"" + path.string() + "\"";
    try {
        throw;
    } catch (const Error&) {
        throw;
    } catch (const c10::Error& error) {
        throw Error(file +
                    " is damaged or not what it should be: " + error.what_without_backtrace());
    } catch (const std::exception& error) {
        const std::string cause = error.what();
        throw Error(file + " is damaged or not what it should be" +
                    (cause.empty() ? std::string(" (it could not be read)") : ": " + cause));
    }
}

nlohmann::json settings_of(const Archive& checkpoint) {
    const std::optional<c10::IValue> config = checkpoint.find(checkpoint_key::kConfig);
    if (!config) {
        return nullptr;
    }
    // Read past, a damaged entry would resume a run or embed at other settings without a word.
    nlohmann::json settings =
        config->isString() ? parse_json_or_discarded(config->toStringRef()) : nlohmann::json();
    if (!settings.is_object()) {
        throw Error("\"" + checkpoint.file().string() + "\" is damaged: the settings it stores (" +
                    checkpoint_key::kConfig + ") are not a JSON object of at most " +
                    std::to_string(kMaxJsonDepth) +
                    " levels; take the checkpoint again from its run");
    }
    refuse_recorded_torchscript(settings, RecordedModels::Backbone,
                                "\"" + checkpoint.file().string() + "\"",
                                "a TorchScript backbone's run cannot be embedded, exported or "
                                "predicted with from its checkpoint");
    return settings;
}

namespace {

// Inside a catch block: the exception in flight as rethrow_naming makes it, kept for later.
std::exception_ptr error_naming(const std::filesystem::path& path) {
    try {
        rethrow_naming(path);
    } catch (...) {
        return std::current_exception();
    }
}

} // namespace

WeightsFile WeightsFile::read(const std::filesystem::path& path) {
    if (!std::filesystem::is_regular_file(path)) {
        throw Error("weights file \"" + path.string() + "\" does not exist");
    }
    WeightsFile file;
    file.path_ = path;
    try {
        const c10::IValue content = read_torch_file(path);
        file.checkpoint_ = checkpoint_in(content, path);
        if (!file.checkpoint_) {
            try {
                file.state_dict_ = state_dict_in(content, path);
            } catch (...) {
                file.not_a_state_dict_ = error_naming(path);
            }
        }
    } catch (...) {
        rethrow_naming(path);
    }
    return file;
}

const std::vector<std::pair<std::string, at::Tensor>>& WeightsFile::state_dict() const {
    if (not_a_state_dict_) {
        std::rethrow_exception(not_a_state_dict_);
    }
    return state_dict_;
}

nlohmann::json WeightsFile::settings() const {
    return checkpoint_ ? settings_of(*checkpoint_) : nlohmann::json();
}

} // namespace kiln::models
