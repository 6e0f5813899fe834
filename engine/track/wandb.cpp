#include "track/wandb.h"

#include "core/error.h"
#include "core/input_file.h"
#include "track/run_directory.h"
#include "track/step_values.h"
#include "wandb_record.pb.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <unistd.h>
#include <zlib.h>

namespace kiln::track {
namespace {

namespace fs = std::filesystem;

constexpr std::uint64_t kBlockSize = 32768;
constexpr std::uint64_t kChunkHeaderSize = 7;
constexpr char kFileHeader[] = {':', 'W', '&', 'B', '\xe1', '\xbe', '\0'}; // magic 0xBEE1 LE
enum ChunkType : std::uint8_t { Full = 1, First = 2, Middle = 3, Last = 4 };
constexpr int kExitStopped = 130; // as the CLI's exit code for a stopped run

std::uint32_t chunk_crc(std::uint8_t type, const char* payload, std::size_t size) {
    uLong crc = crc32(0L, &type, 1);
    return static_cast<std::uint32_t>(
        crc32(crc, reinterpret_cast<const Bytef*>(payload), static_cast<uInt>(size)));
}

// JSON text for a metric, with W&B's spelling of the numbers JSON has none for.
std::string value_json(double value) {
    if (std::isnan(value)) {
        return "NaN";
    }
    if (std::isinf(value)) {
        return value > 0 ? "Infinity" : "-Infinity";
    }
    return nlohmann::json(value).dump();
}

void add_item(google::protobuf::RepeatedPtrField<wandb::Item>& items, const std::string& key,
              const std::string& json) {
    wandb::Item* item = items.Add();
    item->add_nested_key(key);
    item->set_value_json(json);
}

wandb::Timestamp timestamp(double unix_time) {
    wandb::Timestamp stamp;
    const double seconds = std::floor(unix_time);
    stamp.set_seconds(static_cast<std::int64_t>(seconds));
    stamp.set_nanos(static_cast<std::int32_t>((unix_time - seconds) * 1e9));
    return stamp;
}

std::string new_run_id() {
    static constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    std::random_device device;
    std::uniform_int_distribution<std::size_t> pick(0, sizeof kAlphabet - 2);
    std::string id;
    for (int i = 0; i < 8; ++i) {
        id += kAlphabet[pick(device)];
    }
    return id;
}

// The id in an offline run folder's name: offline-run-YYYYMMDD_HHMMSS-<id>.
std::string folder_run_id(const fs::path& folder) {
    const std::string name = folder.filename().string();
    constexpr std::size_t kIdStart = std::char_traits<char>::length("offline-run-YYYYMMDD_HHMMSS-");
    return name.rfind("offline-run-", 0) == 0 && name.size() > kIdStart ? name.substr(kIdStart)
                                                                        : std::string();
}

std::vector<fs::path> offline_runs(const fs::path& wandb_dir) {
    std::vector<fs::path> folders;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(wandb_dir, error)) {
        if (entry.is_directory() && !folder_run_id(entry.path()).empty()) {
            folders.push_back(entry.path());
        }
    }
    std::sort(folders.begin(), folders.end()); // by start time, as the names begin with it
    return folders;
}

// The row after the last that the earlier parts of run `id` logged.
std::int64_t next_row(const fs::path& wandb_dir, const std::string& id) {
    std::int64_t next = 0;
    for (const fs::path& folder : offline_runs(wandb_dir)) {
        const fs::path file = folder / ("run-" + id + ".wandb");
        if (folder_run_id(folder) != id || !fs::exists(file)) {
            continue;
        }
        for (const std::string& bytes : read_wandb_records(file)) {
            wandb::Record record;
            if (!record.ParseFromString(bytes) || !record.has_history()) {
                continue;
            }
            for (const wandb::Item& item : record.history().item()) {
                std::int64_t step = 0;
                const std::string& value = item.value_json();
                const char* end = value.data() + value.size();
                const auto [stop, error] = std::from_chars(value.data(), end, step);
                // Another writer's log may hold anything: a step that is no number is no step.
                if (item.nested_key_size() == 1 && item.nested_key(0) == "_step" &&
                    error == std::errc() && stop == end && step >= 0 &&
                    step < std::numeric_limits<std::int64_t>::max()) {
                    next = std::max(next, step + 1);
                }
            }
        }
    }
    return next;
}

std::string local_time_stamp(std::time_t time) {
    std::tm local{};
    localtime_r(&time, &local);
    char text[32];
    std::strftime(text, sizeof text, "%Y%m%d_%H%M%S", &local);
    return text;
}

} // namespace

WandbTransactionLog::WandbTransactionLog(const fs::path& file) : file_(file) {
    stream_ = std::fopen(file.c_str(), "wbx");
    if (stream_ == nullptr) {
        throw Error("cannot create \"" + file.string() + "\": " + std::strerror(errno) +
                    "; check the run directory, or turn W&B off with loggers.wandb=null");
    }
    try {
        write(kFileHeader, sizeof kFileHeader);
    } catch (...) {
        std::fclose(stream_); // the destructor does not run for a throwing constructor
        throw;
    }
    std::fflush(stream_);
}

WandbTransactionLog::~WandbTransactionLog() {
    std::fclose(stream_);
}

void WandbTransactionLog::write(const void* bytes, std::size_t size) {
    if (std::fwrite(bytes, 1, size, stream_) != size) {
        throw Error("cannot write \"" + file_.string() + "\": " + std::strerror(errno));
    }
    offset_ += size;
}

void WandbTransactionLog::append(const std::string& record) {
    std::size_t done = 0;
    do {
        std::uint64_t left = kBlockSize - offset_ % kBlockSize;
        if (left < kChunkHeaderSize) {
            static constexpr char kZeros[kChunkHeaderSize] = {};
            write(kZeros, left);
            left = kBlockSize;
        }
        const std::size_t size =
            std::min<std::size_t>(left - kChunkHeaderSize, record.size() - done);
        const bool first = done == 0;
        const bool last = done + size == record.size();
        const std::uint8_t type = first ? (last ? Full : First) : (last ? Last : Middle);
        const std::uint32_t crc = chunk_crc(type, record.data() + done, size);
        const unsigned char header[kChunkHeaderSize] = {static_cast<unsigned char>(crc),
                                                        static_cast<unsigned char>(crc >> 8),
                                                        static_cast<unsigned char>(crc >> 16),
                                                        static_cast<unsigned char>(crc >> 24),
                                                        static_cast<unsigned char>(size),
                                                        static_cast<unsigned char>(size >> 8),
                                                        type};
        write(header, sizeof header);
        write(record.data() + done, size);
        done += size;
    } while (done < record.size());
    if (std::fflush(stream_) != 0) {
        throw Error("cannot write \"" + file_.string() + "\": " + std::strerror(errno));
    }
}

std::vector<std::string> read_wandb_records(const fs::path& file) {
    refuse_unless_regular_file(file, "W&B transaction log");
    std::ifstream stream(file, std::ios::binary);
    if (!stream) {
        throw Error("cannot read \"" + file.string() + "\"");
    }
    const std::string bytes((std::istreambuf_iterator<char>(stream)), {});
    if (bytes.compare(0, sizeof kFileHeader, kFileHeader, sizeof kFileHeader) != 0) {
        throw Error("\"" + file.string() +
                    "\" is not a W&B transaction log (its first bytes are not \":W&B\" version "
                    "0)");
    }
    std::vector<std::string> records;
    std::string pending;
    std::uint64_t offset = sizeof kFileHeader;
    while (offset + kChunkHeaderSize <= bytes.size()) {
        const std::uint64_t left = kBlockSize - offset % kBlockSize;
        if (left < kChunkHeaderSize) {
            offset += left;
            continue;
        }
        const auto byte = [&](std::uint64_t at) {
            return static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[offset + at]));
        };
        const std::uint32_t crc = byte(0) | byte(1) << 8 | byte(2) << 16 | byte(3) << 24;
        const std::uint32_t size = byte(4) | byte(5) << 8;
        const std::uint8_t type = static_cast<std::uint8_t>(byte(6));
        if (offset + kChunkHeaderSize + size > bytes.size()) {
            break; // cut short by a killed writer
        }
        const char* payload = bytes.data() + offset + kChunkHeaderSize;
        if (type < Full || type > Last || chunk_crc(type, payload, size) != crc) {
            throw Error("\"" + file.string() + "\" is damaged at byte " + std::to_string(offset) +
                        ": the chunk's CRC or type does not match");
        }
        if (type == Full || type == First) {
            pending.clear();
        }
        pending.append(payload, size);
        if (type == Full || type == Last) {
            records.push_back(std::move(pending));
            pending.clear();
        }
        offset += kChunkHeaderSize + size;
    }
    return records;
}

WandbLogger::WandbLogger(const config::WandbSettings& settings, const fs::path& out)
    : settings_(settings), wandb_dir_(RunDirectory(out).wandb()) {}

WandbLogger::~WandbLogger() = default;

void WandbLogger::on_resume(std::int64_t) {
    resumed_ = true;
}

void WandbLogger::on_start(const TrainConfig& config, std::int64_t, std::int64_t) {
    std::string id = settings_.run_id;
    if (id.empty() && resumed_) {
        const std::vector<fs::path> earlier = offline_runs(wandb_dir_);
        if (!earlier.empty()) {
            id = folder_run_id(earlier.back());
        }
    }
    if (id.empty()) {
        id = new_run_id();
    }
    row_ = next_row(wandb_dir_, id);
    start_time_ = unix_seconds();
    // A resumed part that starts within the same second as its first gets the next second.
    std::time_t started = static_cast<std::time_t>(start_time_);
    do {
        run_folder_ = wandb_dir_ / ("offline-run-" + local_time_stamp(started++) + "-" + id);
    } while (fs::exists(run_folder_));
    std::error_code error;
    fs::create_directories(run_folder_ / "files", error);
    if (error) {
        throw Error("cannot create \"" + run_folder_.string() + "\": " + error.message());
    }
    log_ = std::make_unique<WandbTransactionLog>(run_folder_ / ("run-" + id + ".wandb"));
    const fs::path latest = wandb_dir_ / "latest-run";
    fs::remove(latest, error);
    fs::create_directory_symlink(run_folder_.filename(), latest, error);

    wandb::Record record;
    wandb::RunRecord& run = *record.mutable_run();
    run.set_run_id(id);
    run.set_entity(settings_.entity);
    run.set_project(settings_.project);
    run.set_display_name(settings_.name);
    run.set_notes(settings_.notes);
    for (const std::string& tag : settings_.tags) {
        run.add_tags(tag);
    }
    run.set_host(host_name());
    run.set_starting_step(row_);
    run.set_resumed(resumed_);
    *run.mutable_start_time() = timestamp(start_time_);
    const nlohmann::json resolved = to_json(config);
    for (const auto& [key, value] : resolved.items()) {
        wandb::Item* item = run.mutable_config()->add_update();
        item->set_key(key);
        item->set_value_json(value.dump());
    }
    record.mutable_info()->set_stream_id(id);
    record.set_num(++record_number_);
    log_->append(record.SerializeAsString());
}

void WandbLogger::log_row(std::int64_t step, std::int64_t epoch,
                          const std::vector<std::pair<std::string, double>>& values) {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (!log_) {
        return;
    }
    const double now = unix_seconds();
    wandb::Record history;
    auto& items = *history.mutable_history()->mutable_item();
    add_item(items, "_step", std::to_string(row_));
    add_item(items, "_runtime", value_json(now - start_time_));
    add_item(items, "_timestamp", value_json(now));
    add_item(items, "trainer/global_step", std::to_string(step));
    add_item(items, "epoch", std::to_string(epoch));
    for (const auto& [name, value] : values) {
        // Lightning's WandbLogger joins a prefix with "-".
        add_item(items, settings_.prefix.empty() ? name : settings_.prefix + "-" + name,
                 value_json(value));
    }
    history.mutable_history()->mutable_step()->set_num(row_++);
    // The summary first, as W&B's SDK writes it: `wandb sync` does not derive one from history.
    wandb::Record summary;
    *summary.mutable_summary()->mutable_update() = items;
    summary.set_num(++record_number_);
    log_->append(summary.SerializeAsString());
    history.set_num(++record_number_);
    log_->append(history.SerializeAsString());
}

void WandbLogger::on_step(const StepMetrics& metrics) {
    log_row(metrics.step, metrics.epoch, step_values(metrics));
}

void WandbLogger::on_validation(const ValidationMetrics& metrics) {
    log_row(metrics.step, metrics.epoch, metrics.values);
}

void WandbLogger::finish(int exit_code) {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (!log_) {
        return;
    }
    wandb::Record record;
    record.mutable_exit()->set_exit_code(exit_code);
    record.mutable_exit()->set_runtime(static_cast<std::int32_t>(unix_seconds() - start_time_));
    record.mutable_info()->set_stream_id(folder_run_id(run_folder_));
    record.set_num(++record_number_);
    log_->append(record.SerializeAsString());
    log_.reset();
}

void WandbLogger::on_end(const RunSummary& summary) {
    finish(summary.status == RunSummary::Status::Finished ? 0 : kExitStopped);
}

void WandbLogger::on_failure(const std::string&) {
    finish(1);
}

} // namespace kiln::track
