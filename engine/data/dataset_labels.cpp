#include "data/dataset_labels.h"

#include "core/error.h"
#include "core/log.h"
#include "data/dataset_index.h"
#include "data/image_decode.h"
#include "data/labelled_data.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <future>
#include <mutex>
#include <opencv2/core.hpp>

namespace kiln::data {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

constexpr std::array<std::string_view, 5> kKindNames = {"images", "class_folders", "masks", "coco",
                                                        "yolo"};
constexpr int kIgnoreIndex = 255;

bool folder_exists(const fs::path& path) {
    std::error_code error;
    return fs::is_directory(path, error);
}

bool file_exists(const fs::path& path) {
    std::error_code error;
    return fs::is_regular_file(path, error);
}

// Whether a JSON file starts as a COCO file does: an "images" key in its first 64 KiB.
bool looks_like_coco(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::string head(64 * 1024, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    return head.find("\"images\"") != std::string::npos;
}

// The COCO file of a folder: among those in it and in annotations/, one named for training
// first, then by name.
fs::path find_coco_file(const fs::path& folder) {
    std::vector<fs::path> found;
    for (const fs::path& place : {folder, folder / "annotations"}) {
        std::error_code error;
        for (fs::directory_iterator it(place, error), end; !error && it != end;
             it.increment(error)) {
            if (it->path().extension() == ".json" && file_exists(it->path()) &&
                looks_like_coco(it->path())) {
                found.push_back(it->path());
            }
        }
    }
    const auto for_training = [](const fs::path& file) {
        return file.filename().string().find("train") != std::string::npos;
    };
    std::sort(found.begin(), found.end(), [&](const fs::path& a, const fs::path& b) {
        return std::pair(!for_training(a), a) < std::pair(!for_training(b), b);
    });
    return found.empty() ? fs::path() : found.front();
}

bool has_images_only_in_subfolders(const fs::path& folder) {
    int subfolders = 0;
    std::error_code error;
    for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
        if (folder_exists(it->path())) {
            ++subfolders;
        } else if (has_image_extension(it->path().filename().string())) {
            return false;
        }
    }
    return subfolders >= 2;
}

// Runs `work(index)` for 0 .. count-1 on `threads` threads, reporting progress from the
// calling thread; false when `progress` asked to stop.
bool for_each_index(std::int64_t count, int threads, const std::function<void(std::int64_t)>& work,
                    const std::function<bool(std::int64_t, std::int64_t)>& progress) {
    std::atomic<std::int64_t> next{0};
    std::atomic<std::int64_t> done{0};
    std::atomic<bool> stop{false};
    const auto take_indices = [&] {
        for (std::int64_t i = next++; i < count && !stop; i = next++) {
            work(i);
            ++done;
        }
    };
    std::vector<std::future<void>> workers;
    for (int t = 0; t < std::max(1, threads); ++t) {
        workers.push_back(std::async(std::launch::async, log::for_this_job(take_indices)));
    }
    for (std::future<void>& worker : workers) {
        while (worker.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
            if (progress && !stop && !progress(done, count)) {
                stop = true;
            }
        }
        worker.get();
    }
    if (progress && !stop) {
        progress(done, count);
    }
    return !stop;
}

void read_class_folders(const DatasetLayout& layout, LabelStatistics& statistics) {
    const DatasetIndex index = DatasetIndex::scan({layout.images});
    std::vector<std::string> names;
    for (std::size_t i = 0; i < index.size(); ++i) {
        const std::string folder(index.top_level_folder(i));
        ++statistics.images;
        if (folder.empty()) {
            ++statistics.unlabelled_images;
            continue;
        }
        auto found = std::find(names.begin(), names.end(), folder);
        if (found == names.end()) {
            names.push_back(folder);
            statistics.classes.push_back({folder, 0, 0});
            found = names.end() - 1;
        }
        ClassLabelCount& count = statistics.classes[std::size_t(found - names.begin())];
        ++count.images;
        ++count.objects;
        statistics.labelled.push_back({index.path(i), {}, {}, {}});
    }
    std::sort(statistics.classes.begin(), statistics.classes.end(),
              [](const ClassLabelCount& a, const ClassLabelCount& b) { return a.name < b.name; });
}

void read_masks(const DatasetLayout& layout, int threads,
                const std::function<bool(std::int64_t, std::int64_t)>& progress,
                LabelStatistics& statistics) {
    if (!folder_exists(layout.labels)) {
        statistics.problems.push_back(
            (layout.labels.empty()
                 ? std::string("no folder of masks is named")
                 : "\"" + layout.labels.string() + "\" is not a folder of masks") +
            "; choose the folder of PNG masks named as the images");
        return;
    }
    const DatasetIndex index = DatasetIndex::scan({layout.images});
    const auto count = static_cast<std::int64_t>(index.size());
    statistics.images = count;
    statistics.labelled.resize(index.size());
    std::mutex merge;
    std::vector<std::int64_t> pixels(65536, 0);
    std::vector<std::int64_t> images_with(65536, 0);
    std::vector<std::pair<std::int64_t, std::string>> problems;
    const auto work = [&](std::int64_t i) {
        const fs::path image = index.path(std::size_t(i));
        const fs::path mask =
            layout.labels /
            fs::path(std::string(index.filename(std::size_t(i)))).replace_extension(".png");
        statistics.labelled[std::size_t(i)] = {image, {}, {}, mask};
        std::string problem;
        cv::Mat classes;
        try {
            if (!file_exists(mask)) {
                throw Error("\"" + image.string() + "\" has no mask \"" + mask.string() +
                            "\"; add it, named as the image with .png");
            }
            classes = read_mask_of(mask, image);
        } catch (const std::exception& error) {
            std::lock_guard lock(merge);
            problems.emplace_back(i, error.what());
            return;
        }
        std::vector<std::int64_t> counts(classes.depth() == CV_8U ? 256 : 65536, 0);
        for (int y = 0; y < classes.rows; ++y) {
            if (classes.depth() == CV_8U) {
                const auto* row = classes.ptr<std::uint8_t>(y);
                for (int x = 0; x < classes.cols; ++x) {
                    ++counts[row[x]];
                }
            } else {
                const auto* row = classes.ptr<std::uint16_t>(y);
                for (int x = 0; x < classes.cols; ++x) {
                    ++counts[row[x]];
                }
            }
        }
        std::lock_guard lock(merge);
        bool labelled = false;
        for (std::size_t value = 0; value < counts.size(); ++value) {
            if (counts[value] > 0) {
                pixels[value] += counts[value];
                ++images_with[value];
                labelled = labelled || value != kIgnoreIndex;
            }
        }
        statistics.unlabelled_images += labelled ? 0 : 1;
    };
    for_each_index(count, threads, work, progress);
    std::sort(problems.begin(), problems.end());
    for (auto& [index_of, problem] : problems) {
        statistics.problems.push_back(std::move(problem));
    }
    statistics.ignored_pixels = pixels[kIgnoreIndex];
    // Class names from a classes.json beside the masks folder, as LightlyTrain's `classes`.
    ClassNames names;
    const fs::path names_file = layout.labels.parent_path() / "classes.json";
    if (file_exists(names_file)) {
        try {
            names = parse_class_names(json(names_file.string()), "classes.json");
        } catch (const std::exception& error) {
            statistics.warnings.push_back(error.what());
        }
    }
    for (std::size_t value = 0; value < pixels.size(); ++value) {
        if (value != kIgnoreIndex && (pixels[value] > 0 || value < names.size())) {
            statistics.classes.push_back(
                {value < names.size() ? names[value] : std::to_string(value), images_with[value],
                 pixels[value]});
        }
    }
}

void read_boxes(const DatasetLayout& layout, int threads, LabelStatistics& statistics) {
    const json data =
        layout.kind == LabelKind::Coco
            ? json{{"train",
                    {{"annotations", layout.labels.string()}, {"images", layout.images.string()}}}}
            : json(layout.labels.string());
    DetectionData detection;
    try {
        detection = load_detection_train_split(data, threads);
    } catch (const ConfigError& error) {
        for (const ConfigIssue& issue : error.issues()) {
            statistics.problems.push_back(issue.message);
        }
        return;
    } catch (const std::exception& error) {
        statistics.problems.push_back(error.what());
        return;
    }
    statistics.warnings = detection.warnings;
    for (const std::string& name : detection.classes) {
        statistics.classes.push_back({name, 0, 0});
    }
    const DetectionImages& split = detection.train;
    statistics.images = static_cast<std::int64_t>(split.paths.size());
    std::vector<bool> shown(detection.classes.size());
    for (std::size_t i = 0; i < split.paths.size(); ++i) {
        std::fill(shown.begin(), shown.end(), false);
        for (const LabelledObject& object : split.objects[i]) {
            ClassLabelCount& count = statistics.classes[std::size_t(object.class_id)];
            ++count.objects;
            if (!shown[std::size_t(object.class_id)]) {
                shown[std::size_t(object.class_id)] = true;
                ++count.images;
            }
            const auto size =
                object_size(object.box[2] - object.box[0], object.box[3] - object.box[1]);
            ++statistics.object_sizes[std::size_t(size)];
        }
        statistics.unlabelled_images += split.objects[i].empty() ? 1 : 0;
        statistics.labelled.push_back({split.paths[i], split.sizes[i], split.objects[i], {}});
    }
}

} // namespace

std::string_view label_kind_name(LabelKind kind) {
    return kKindNames[static_cast<std::size_t>(kind)];
}

std::optional<LabelKind> parse_label_kind(std::string_view name) {
    const auto found = std::find(kKindNames.begin(), kKindNames.end(), name);
    if (found == kKindNames.end()) {
        return std::nullopt;
    }
    return static_cast<LabelKind>(found - kKindNames.begin());
}

DatasetLayout detect_dataset_layout(const fs::path& folder) {
    const fs::path images = folder_exists(folder / "images") ? folder / "images" : folder;
    for (const char* name : {"data.yaml", "dataset.yaml"}) {
        if (file_exists(folder / name)) {
            return {LabelKind::Yolo, images, folder / name};
        }
    }
    if (folder_exists(folder / "images") && folder_exists(folder / "masks")) {
        return {LabelKind::Masks, folder / "images", folder / "masks"};
    }
    if (const fs::path coco = find_coco_file(folder); !coco.empty()) {
        return {LabelKind::Coco, images, coco};
    }
    if (has_images_only_in_subfolders(folder)) {
        return {LabelKind::ClassFolders, folder, {}};
    }
    return {LabelKind::Images, folder, {}};
}

ObjectSize object_size(float width, float height) {
    const float area = width * height;
    return area < 32.0F * 32.0F   ? ObjectSize::Small
           : area < 96.0F * 96.0F ? ObjectSize::Medium
                                  : ObjectSize::Large;
}

LabelStatistics
read_label_statistics(const DatasetLayout& layout, int threads,
                      const std::function<bool(std::int64_t, std::int64_t)>& progress) {
    LabelStatistics statistics;
    statistics.kind = layout.kind;
    try {
        switch (layout.kind) {
        case LabelKind::Images:
            break;
        case LabelKind::ClassFolders:
            read_class_folders(layout, statistics);
            break;
        case LabelKind::Masks:
            read_masks(layout, threads, progress, statistics);
            break;
        case LabelKind::Coco:
        case LabelKind::Yolo:
            read_boxes(layout, threads, statistics);
            break;
        }
    } catch (const std::exception& error) { // a folder with no images, say
        statistics.problems.push_back(error.what());
    }
    return statistics;
}

} // namespace kiln::data
