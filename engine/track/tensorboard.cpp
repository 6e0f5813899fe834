#include "track/tensorboard.h"

#include "core/error.h"
#include "tensorboard_event.pb.h"

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <unistd.h>

namespace kiln::track {
namespace {

const std::array<std::uint32_t, 256>& crc32c_table() {
    static const std::array<std::uint32_t, 256> table = [] {
        std::array<std::uint32_t, 256> entries{};
        for (std::uint32_t i = 0; i < 256; ++i) {
            std::uint32_t crc = i;
            for (int bit = 0; bit < 8; ++bit) {
                crc = (crc & 1) ? (crc >> 1) ^ 0x82f63b78u : crc >> 1; // reflected Castagnoli
            }
            entries[i] = crc;
        }
        return entries;
    }();
    return table;
}

std::string little_endian(std::uint64_t value, int bytes) {
    std::string text(static_cast<std::size_t>(bytes), '\0');
    for (int i = 0; i < bytes; ++i) {
        text[static_cast<std::size_t>(i)] = static_cast<char>((value >> (8 * i)) & 0xff);
    }
    return text;
}

std::uint64_t read_little_endian(const std::string& bytes, std::size_t offset, int count) {
    std::uint64_t value = 0;
    for (int i = count - 1; i >= 0; --i) {
        value =
            (value << 8) | static_cast<unsigned char>(bytes[offset + static_cast<std::size_t>(i)]);
    }
    return value;
}

} // namespace

std::uint32_t crc32c(std::string_view bytes) {
    const auto& table = crc32c_table();
    std::uint32_t crc = 0xffffffffu;
    for (char byte : bytes) {
        crc = table[(crc ^ static_cast<unsigned char>(byte)) & 0xff] ^ (crc >> 8);
    }
    return crc ^ 0xffffffffu;
}

std::uint32_t masked_crc32c(std::string_view bytes) {
    const std::uint32_t crc = crc32c(bytes);
    return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

std::vector<std::string> read_tfrecords(const std::filesystem::path& file) {
    std::ifstream stream(file, std::ios::binary);
    if (!stream) {
        throw Error("cannot read \"" + file.string() + "\"");
    }
    const std::string bytes((std::istreambuf_iterator<char>(stream)), {});
    std::vector<std::string> records;
    std::size_t offset = 0;
    while (offset < bytes.size()) {
        const auto damaged = [&](const std::string& what) {
            return Error("\"" + file.string() + "\" is damaged at byte " + std::to_string(offset) +
                         ": " + what);
        };
        if (bytes.size() - offset < 12) {
            throw damaged("a truncated record header");
        }
        const std::string header = bytes.substr(offset, 8);
        if (read_little_endian(bytes, offset + 8, 4) != masked_crc32c(header)) {
            throw damaged("the length's CRC does not match");
        }
        const std::uint64_t length = read_little_endian(bytes, offset, 8);
        if (length > bytes.size() - offset - 12 || bytes.size() - offset - 12 - length < 4) {
            throw damaged("a truncated record");
        }
        std::string data = bytes.substr(offset + 12, length);
        if (read_little_endian(bytes, offset + 12 + length, 4) != masked_crc32c(data)) {
            throw damaged("the data's CRC does not match");
        }
        records.push_back(std::move(data));
        offset += 16 + length;
    }
    return records;
}

TensorBoardWriter::TensorBoardWriter(const std::filesystem::path& directory) {
    const double now = unix_seconds();
    file_ = directory / ("events.out.tfevents." + std::to_string(static_cast<long long>(now)) +
                         "." + host_name() + "." + std::to_string(getpid()));
    stream_ = std::fopen(file_.c_str(), "ab");
    if (stream_ == nullptr) {
        throw Error("cannot write \"" + file_.string() + "\": " + std::strerror(errno) +
                    "; check the run directory, or turn TensorBoard off with "
                    "loggers.tensorboard=null");
    }
    tensorboard::Event event;
    event.set_wall_time(now);
    event.set_file_version("brain.Event:2");
    write_record(event.SerializeAsString());
}

TensorBoardWriter::~TensorBoardWriter() {
    std::fclose(stream_);
}

void TensorBoardWriter::write_record(const std::string& data) {
    const std::string length = little_endian(data.size(), 8);
    const std::string record = length + little_endian(masked_crc32c(length), 4) + data +
                               little_endian(masked_crc32c(data), 4);
    const std::lock_guard<std::mutex> lock(mutex_);
    if (std::fwrite(record.data(), 1, record.size(), stream_) != record.size() ||
        std::fflush(stream_) != 0) {
        throw Error("cannot write \"" + file_.string() + "\": " + std::strerror(errno) +
                    "; free some disk space and resume the run");
    }
}

void TensorBoardWriter::add_scalars(std::int64_t step, double wall_time,
                                    const MetricValues& values) {
    tensorboard::Event event;
    event.set_wall_time(wall_time);
    event.set_step(step);
    tensorboard::Summary* summary = event.mutable_summary();
    for (const auto& [key, value] : values) {
        tensorboard::Summary::Value* scalar = summary->add_value();
        scalar->set_tag(key);
        scalar->set_simple_value(static_cast<float>(value));
    }
    write_record(event.SerializeAsString());
}

void TensorBoardWriter::on_resume(std::int64_t step) {
    tensorboard::Event event;
    event.set_wall_time(unix_seconds());
    event.set_step(step + 1);
    event.mutable_session_log()->set_status(tensorboard::SessionLog::START);
    write_record(event.SerializeAsString());
}

void TensorBoardWriter::on_step(const StepMetrics& metrics) {
    add_scalars(metrics.step, unix_seconds(), step_values(metrics));
}

void TensorBoardWriter::on_validation(const ValidationMetrics& metrics) {
    add_scalars(metrics.step, unix_seconds(), metrics.values);
}

} // namespace kiln::track
