#include "core/input_file.h"

#include "core/error.h"

namespace kiln {

void refuse_special_file(const std::filesystem::path& path, const std::string& what) {
    namespace fs = std::filesystem;
    std::error_code error;
    const fs::file_status status = fs::status(path, error);
    const char* kind = fs::is_directory(status)        ? "a folder"
                       : fs::is_character_file(status) ? "a character device"
                       : fs::is_block_file(status)     ? "a block device"
                       : fs::is_socket(status)         ? "a socket"
                                                       : nullptr;
    if (kind != nullptr) {
        throw Error(what + " \"" + path.string() + "\" is " + kind +
                    ", not a file (a link in a folder from someone else may lead there); give a "
                    "file");
    }
}

} // namespace kiln
