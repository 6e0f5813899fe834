#include "data/detection_data.h"

#include "core/error.h"
#include "core/input_file.h"
#include "core/log.h"
#include "core/parallel_for.h"
#include "core/paths.h"
#include "core/text.h"
#include "data/data_yaml.h"
#include "data/dataset_index.h"
#include "data/image_decode.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>

namespace kiln::data {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

std::string in_quotes(const fs::path& path) {
    return "\"" + path.string() + "\"";
}

[[noreturn]] void bad_setting(const std::string& key, const std::string& message) {
    throw ConfigError(std::vector<ConfigIssue>{{key, message}});
}

// Counts of what was fixed while reading, turned into warnings at the end.
struct Fixes {
    std::int64_t clipped = 0;
    std::int64_t empty = 0;
    std::int64_t crowd = 0;
};

// The training objects and files of one split, from its ground truth; `path_of` gives the file
// of each image (in the ground truth's order).
DetectionImages split_images(std::shared_ptr<const coco::GroundTruth> truth,
                             const std::vector<fs::path>& paths,
                             const std::vector<std::int64_t>& category_ids, bool masks,
                             Fixes& fixes) {
    DetectionImages split;
    const std::vector<coco::Image>& images = truth->images();
    std::vector<std::string> missing;
    for (std::size_t i = 0; i < images.size(); ++i) {
        const coco::Image& image = images[i];
        std::error_code error;
        if (!fs::is_regular_file(paths[i], error)) {
            missing.push_back(paths[i].string());
        }
        if (image.width == 0 || image.height == 0) {
            throw Error(truth->source() + ": images[" + std::to_string(i) + "] (id " +
                        std::to_string(image.id) +
                        ") has no width and height; add them, as COCO files have them");
        }
        split.paths.push_back(paths[i]);
        split.image_ids.push_back(image.id);
        split.sizes.push_back({int(image.width), int(image.height)});
    }
    if (!missing.empty()) {
        throw Error(truth->source() + ": " + std::to_string(missing.size()) + " of " +
                    std::to_string(images.size()) + " images are missing, the first " +
                    in_quotes(missing.front()) +
                    "; give the folder their file_names are relative to as the split's images");
    }
    split.objects.resize(images.size());
    const std::vector<coco::Annotation>& annotations = truth->annotations();
    for (std::size_t a = 0; a < annotations.size(); ++a) {
        const coco::Annotation& annotation = annotations[a];
        const std::int64_t image = truth->image_index(annotation.image_id);
        if (image < 0) {
            throw Error(truth->describe_annotation(a) + " names image id " +
                        std::to_string(annotation.image_id) +
                        ", which is not among the file's images; add the image or remove the "
                        "annotation");
        }
        const auto category =
            std::find(category_ids.begin(), category_ids.end(), annotation.category_id);
        if (category == category_ids.end()) {
            throw Error(truth->describe_annotation(a) + " has category id " +
                        std::to_string(annotation.category_id) +
                        ", which is not among the training split's categories; add it to its "
                        "categories or fix the id");
        }
        if (!annotation.has_box) {
            throw Error(truth->describe_annotation(a) + " has no bbox; give [x, y, w, h]");
        }
        if (masks && annotation.segmentation.kind == coco::Segmentation::Kind::None) {
            throw Error(truth->describe_annotation(a) +
                        " has no segmentation; instance segmentation needs polygons or RLE for "
                        "every object (or train-object-detection for boxes alone)");
        }
        if (annotation.crowd) {
            ++fixes.crowd;
            continue;
        }
        const auto [width, height] = split.sizes[std::size_t(image)];
        const coco::Box& box = annotation.box;
        if (box[2] < 0 || box[3] < 0) { // as for YOLO: damaged, not merely empty
            throw Error(truth->describe_annotation(a) + " has a bbox of width " +
                        number_text(box[2]) + " and height " + number_text(box[3]) +
                        "; COCO's bbox is [x, y, width, height], both at least 0");
        }
        const std::array<double, 4> given = {box[0], box[1], box[0] + box[2], box[1] + box[3]};
        const std::array<double, 4> inside = {
            std::clamp(given[0], 0.0, double(width)), std::clamp(given[1], 0.0, double(height)),
            std::clamp(given[2], 0.0, double(width)), std::clamp(given[3], 0.0, double(height))};
        if (!(inside[2] > inside[0] && inside[3] > inside[1])) {
            ++fixes.empty;
            continue;
        }
        // Compared before the conversion to float, which alone is no clipping, and beyond the
        // rounding of YOLO's normalised coordinates (a thousandth of a pixel).
        bool clipped_here = false;
        for (int k = 0; k < 4; ++k) {
            clipped_here = clipped_here || std::abs(inside[k] - given[k]) > 1e-3;
        }
        fixes.clipped += clipped_here ? 1 : 0;
        const std::array<float, 4> clipped = {float(inside[0]), float(inside[1]), float(inside[2]),
                                              float(inside[3])};
        split.objects[std::size_t(image)].push_back(
            {std::int64_t(category - category_ids.begin()), clipped, a});
    }
    split.ground_truth = std::move(truth);
    return split;
}

const json& require_key(const json& object, const char* key, const std::string& where) {
    if (!object.is_object() || !object.contains(key) || object[key].is_null()) {
        bad_setting(where + "." + key, "is required");
    }
    return object[key];
}

fs::path path_value(const json& value, const std::string& where) {
    if (!value.is_string()) {
        bad_setting(where, "must be a path");
    }
    if (value.get<std::string>().empty()) { // it was said not to exist, as ""
        bad_setting(where, "is empty; give its path");
    }
    return fs::path(value.get<std::string>());
}

// --- COCO -----------------------------------------------------------------------------------

// A category's class name: its name, or its id where it has none.
std::string class_name(const coco::Category& category) {
    return category.name.empty() ? std::to_string(category.id) : category.name;
}

// A class name as people compare them: without surrounding spaces, in lower case.
std::string folded(const std::string& name) {
    std::string text = trimmed(name);
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return text;
}

// Validation scores the model's detections of every training category against the validation
// file's: one it does not list would fail the first validation, after an epoch of training, and
// one it names otherwise would score one class's detections against another's objects (files
// exported with different class orders). Names that differ only in case or spaces, or a
// category named in one file only, are the same class with a warning.
void require_training_categories(const coco::GroundTruth& val, const coco::GroundTruth& train) {
    for (const coco::Category& trained : train.categories()) {
        const auto listed =
            std::find_if(val.categories().begin(), val.categories().end(),
                         [&](const coco::Category& category) { return category.id == trained.id; });
        const std::string id = "category id " + std::to_string(trained.id);
        if (listed == val.categories().end()) {
            throw Error(val.source() + " does not list the training split's " + id + " (" +
                        in_quotes(class_name(trained)) +
                        ") under \"categories\"; list every training category there, with or "
                        "without annotations");
        }
        if (listed->name == trained.name) {
            continue;
        }
        const std::string names = val.source() + " names " + id + " " +
                                  in_quotes(class_name(*listed)) + " and " + train.source() +
                                  " names it " + in_quotes(class_name(trained));
        if (!listed->name.empty() && !trained.name.empty() &&
            folded(listed->name) != folded(trained.name)) {
            throw Error(names + ": one id must be one class in both files (were they exported with "
                                "different class orders?); make the names and ids agree");
        }
        log::warning(names + ": read as one class, named as in the training file");
    }
}

// COCOeval leaves an object of negative area out of every area range: validation would score
// the model as if it were not there.
void require_areas(const coco::GroundTruth& val) {
    const std::vector<coco::Annotation>& annotations = val.annotations();
    for (std::size_t a = 0; a < annotations.size(); ++a) {
        if (!(annotations[a].area >= 0)) {
            throw Error(val.describe_annotation(a) + " has area " +
                        number_text(annotations[a].area) +
                        ", which validation would leave out of every area range; give its "
                        "pixels (0 or more)");
        }
    }
}

// Instance masks are drawn at the annotations' size: one far beyond its image's own is refused
// as the data is read, not at the image's first step. Headers alone are read; an image whose
// header is unreadable is left to the loader, which skips it with a warning.
void require_annotated_sizes(const DetectionImages& images, int threads) {
    parallel_for(images.paths.size(), threads, 64, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            std::optional<std::array<std::int64_t, 2>> stored;
            try {
                stored = declared_image_size(images.paths[i]);
            } catch (const Error&) {
                continue;
            }
            if (stored) {
                require_annotated_size(images, i, *stored);
            }
        }
    });
}

// The splits read: train and val for training, train alone for statistics.
constexpr const char* kSplits[2] = {"train", "val"};

DetectionData load_coco(const json& data, bool masks, int threads, int split_count, Fixes& fixes) {
    DetectionData result;
    std::shared_ptr<const coco::GroundTruth> truths[2];
    fs::path folders[2];
    const char* const* splits = kSplits;
    for (int s = 0; s < split_count; ++s) {
        const std::string where = std::string("data.") + splits[s];
        const json& split = require_key(data, splits[s], "data");
        const fs::path file =
            path_value(require_key(split, "annotations", where), where + ".annotations");
        folders[s] = path_value(require_key(split, "images", where), where + ".images");
        std::error_code error;
        if (!fs::is_regular_file(file, error)) {
            bad_setting(where + ".annotations",
                        in_quotes(file) + " does not exist; give a COCO JSON");
        }
        if (!fs::is_directory(folders[s], error)) {
            bad_setting(where + ".images", in_quotes(folders[s]) + " is not a folder of images");
        }
        truths[s] = std::make_shared<const coco::GroundTruth>(coco::GroundTruth::load(file));
    }
    for (const coco::Category& category : truths[0]->categories()) {
        result.category_ids.push_back(category.id);
        result.classes.push_back(class_name(category));
    }
    if (result.classes.empty()) {
        throw Error(truths[0]->source() + " has no categories; list the classes under "
                                          "\"categories\"");
    }
    if (const std::optional<std::string> twice = repeated_name(result.classes)) {
        const bool unnamed =
            std::any_of(truths[0]->categories().begin(), truths[0]->categories().end(),
                        [&](const coco::Category& category) {
                            return category.name.empty() && class_name(category) == *twice;
                        });
        throw Error(truths[0]->source() + ": two categories are named " + in_quotes(*twice) +
                    (unnamed ? " (category id " + *twice + " has no name, so its id names it)"
                             : std::string()) +
                    "; their metrics would share one key: give each its own name");
    }
    if (const std::string many = too_many_classes(result.classes.size()); !many.empty()) {
        throw Error(truths[0]->source() + " " + many);
    }
    if (split_count == 2) {
        require_training_categories(*truths[1], *truths[0]);
        require_areas(*truths[1]);
    }
    DetectionImages* targets[2] = {&result.train, &result.val};
    for (int s = 0; s < split_count; ++s) {
        std::vector<fs::path> paths;
        for (std::size_t i = 0; i < truths[s]->images().size(); ++i) {
            const coco::Image& image = truths[s]->images()[i];
            paths.push_back(image_in_folder(folders[s], image.file_name,
                                            truths[s]->source() + ": images[" + std::to_string(i) +
                                                "] (id " + std::to_string(image.id) + ")"));
        }
        *targets[s] = split_images(truths[s], paths, result.category_ids, masks, fixes);
        if (masks) {
            require_annotated_sizes(*targets[s], threads);
        }
    }
    return result;
}

// --- YOLO -----------------------------------------------------------------------------------

// Where Ultralytics looks for an image's labels: the last "images" folder on its path
// becomes "labels", the extension .txt.
fs::path label_file(const fs::path& image) {
    std::vector<fs::path> parts(image.begin(), image.end());
    for (std::size_t i = parts.size(); i-- > 0;) {
        if (parts[i] == "images") {
            parts[i] = "labels";
            break;
        }
    }
    fs::path result;
    for (const fs::path& part : parts) {
        result /= part;
    }
    return result.replace_extension(".txt");
}

// YOLO coordinates are shares of the image's size: a point or box a whole image beyond it, or
// a box of negative size, is a damaged or unnormalised label (clipping would hide it).
void check_normalised(const std::vector<double>& values, bool polygon, const std::string& where) {
    for (const double value : values) {
        if (!(value >= -1.0 && value <= 2.0)) { // NaN too
            throw Error(where + ": " + number_text(value) +
                        " is not a coordinate normalised to the image's size (0 to 1, as "
                        "Ultralytics writes them); normalise the labels");
        }
    }
    if (!polygon && (values[2] < 0 || values[3] < 0)) {
        throw Error(where + ": a box of width " + number_text(values[2]) + " and height " +
                    number_text(values[3]) + "; neither may be negative");
    }
}

// The first field of a label line that is not a finite number ("nan", "inf", "person"), to
// name in its error.
std::string first_field_not_a_number(const std::string& line) {
    std::istringstream fields(line);
    std::string field;
    while (fields >> field) {
        double value = 0; // from_chars: the C locale whatever Studio's is
        const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
        if (error != std::errc() || end != field.data() + field.size() || !std::isfinite(value)) {
            return field;
        }
    }
    return {};
}

double polygon_area(const std::vector<double>& xy) {
    double twice = 0;
    const std::size_t points = xy.size() / 2;
    for (std::size_t i = 0; i < points; ++i) {
        const std::size_t j = (i + 1) % points;
        twice += xy[2 * i] * xy[2 * j + 1] - xy[2 * j] * xy[2 * i + 1];
    }
    return std::abs(twice) / 2;
}

// Bounds on one image's label file, which someone else may have made: each object is held as a
// COCO annotation (about 2 KB), and 2 million lines (36 MB) took 4 GB. The most crowded common
// datasets have a few thousand objects an image.
constexpr int kMostObjectsPerImage = 10'000;
constexpr std::uintmax_t kMostLabelFileBytes = 64 << 20;

// One split's images and labels as a COCO ground truth (image ids 1.., category id =
// class + 1), so that training and validation read both layouts the same way.
std::shared_ptr<const coco::GroundTruth> yolo_ground_truth(const std::vector<fs::path>& paths,
                                                           const ClassNames& names, bool masks,
                                                           int threads, const std::string& source) {
    const std::size_t classes = names.size();
    std::vector<std::array<int, 2>> sizes(paths.size());
    std::vector<json> objects(paths.size());
    parallel_for(paths.size(), threads, 16, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            const cv::Size size = stored_image_size(read_file(paths[i]), paths[i].string());
            sizes[i] = {size.width, size.height};
            objects[i] = json::array();
            const fs::path labels = label_file(paths[i]);
            refuse_unless_regular_file(labels, "YOLO label file");
            std::error_code unknown;
            if (const std::uintmax_t bytes = fs::file_size(labels, unknown);
                !unknown && bytes > kMostLabelFileBytes) {
                throw Error("YOLO label file \"" + labels.string() + "\" holds " +
                            std::to_string(bytes >> 20) + " MB, more than the " +
                            std::to_string(kMostLabelFileBytes >> 20) +
                            " MB one image's labels can take; is it a label file?");
            }
            std::ifstream in(labels);
            std::string line;
            int number = 0;
            while (in && std::getline(in, line)) {
                ++number;
                if (number == 1 && line.rfind("\xEF\xBB\xBF", 0) == 0) {
                    line.erase(0, 3); // a byte order mark, as Windows editors write
                }
                std::istringstream fields(line);
                const std::string where = labels.string() + ":" + std::to_string(number);
                if (line.find_first_not_of(" \t\r") == std::string::npos) {
                    continue; // a blank line
                }
                double class_id = -1;
                const bool numbered = bool(fields >> class_id); // not "person", "nan"
                std::vector<double> values;
                double value = 0;
                while (fields >> value) {
                    values.push_back(value);
                }
                if (!numbered || !fields.eof() || class_id < 0 ||
                    class_id != std::floor(class_id) || class_id >= double(classes)) {
                    const std::string bad = first_field_not_a_number(line);
                    throw Error(where + ": " +
                                (bad.empty() ? "" : "\"" + bad + "\" is not a number; ") +
                                "expected a class id below " + std::to_string(classes) +
                                " followed by numbers");
                }
                const bool polygon = values.size() != 4;
                if (polygon && (values.size() < 6 || values.size() % 2 != 0)) {
                    throw Error(where + ": " + std::to_string(values.size()) +
                                " coordinates are neither a box (cx cy w h) nor a polygon (3 or "
                                "more x y pairs)");
                }
                if (masks && !polygon) {
                    throw Error(where + ": a box without a polygon; instance segmentation "
                                        "needs \"class x1 y1 x2 y2 ...\" segments");
                }
                check_normalised(values, polygon, where);
                if (objects[i].size() >= std::size_t(kMostObjectsPerImage)) {
                    throw Error(where + ": more than " + std::to_string(kMostObjectsPerImage) +
                                " objects for one image, more than Kiln reads (each is held in "
                                "memory); is the file damaged, or are they one object's points?");
                }
                json annotation = {{"image_id", i + 1},
                                   {"category_id", std::int64_t(class_id) + 1},
                                   {"iscrowd", 0}};
                if (polygon) {
                    std::vector<double> xy(values.size());
                    double x0 = 1e18, y0 = 1e18, x1 = -1e18, y1 = -1e18;
                    for (std::size_t k = 0; k < values.size(); k += 2) {
                        xy[k] = values[k] * size.width;
                        xy[k + 1] = values[k + 1] * size.height;
                        x0 = std::min(x0, xy[k]);
                        x1 = std::max(x1, xy[k]);
                        y0 = std::min(y0, xy[k + 1]);
                        y1 = std::max(y1, xy[k + 1]);
                    }
                    annotation["bbox"] = {x0, y0, x1 - x0, y1 - y0};
                    annotation["area"] = polygon_area(xy);
                    annotation["segmentation"] = json::array({xy});
                } else {
                    const double w = values[2] * size.width;
                    const double h = values[3] * size.height;
                    annotation["bbox"] = {values[0] * size.width - w / 2,
                                          values[1] * size.height - h / 2, w, h};
                    annotation["area"] = w * h;
                }
                objects[i].push_back(std::move(annotation));
            }
        }
    });
    json coco = {
        {"images", json::array()}, {"annotations", json::array()}, {"categories", json::array()}};
    for (std::size_t c = 0; c < classes; ++c) {
        coco["categories"].push_back({{"id", c + 1}, {"name", names[c]}});
    }
    std::int64_t id = 0;
    for (std::size_t i = 0; i < paths.size(); ++i) {
        coco["images"].push_back({{"id", i + 1},
                                  {"file_name", paths[i].filename().string()},
                                  {"width", sizes[i][0]},
                                  {"height", sizes[i][1]}});
        for (json& annotation : objects[i]) {
            annotation["id"] = ++id;
            coco["annotations"].push_back(std::move(annotation));
        }
    }
    // A file name in another encoding than UTF-8 (Latin-1) is only named there, never matched:
    // shown with a replacement character rather than failing the load.
    return std::make_shared<const coco::GroundTruth>(coco::GroundTruth::parse(
        coco.dump(-1, ' ', false, json::error_handler_t::replace), source));
}

DetectionData load_yolo(const json& given, bool masks, int threads, int split_count, Fixes& fixes) {
    json data = given;
    fs::path base = ".";
    if (given.is_string()) {
        const fs::path yaml = given.get<std::string>();
        data = read_data_yaml(yaml);
        base = yaml.parent_path();
    }
    const fs::path root = base / path_value(data.value("path", json(".")), "data.path");
    DetectionData result;
    result.classes = parse_class_names(require_key(data, "names", "data"), "data.names");
    // Ultralytics refuses a count that disagrees with the names: one of them is wrong. (A
    // data.yaml's scalars are read as text.)
    if (const auto count = data.find("nc"); count != data.end()) {
        const std::string text = count->is_string() ? count->get<std::string>() : count->dump();
        if (text != std::to_string(result.classes.size())) {
            throw Error("data.nc is " + text + " but data.names names " +
                        std::to_string(result.classes.size()) +
                        " classes; give as many names as classes (or drop nc)");
        }
    }
    for (std::size_t c = 0; c < result.classes.size(); ++c) {
        result.category_ids.push_back(std::int64_t(c) + 1);
    }
    DetectionImages* targets[2] = {&result.train, &result.val};
    const char* const* splits = kSplits;
    for (int s = 0; s < split_count; ++s) {
        const fs::path folder = root / path_value(require_key(data, splits[s], "data"),
                                                  std::string("data.") + splits[s]);
        std::error_code error;
        if (!fs::is_directory(folder, error)) {
            bad_setting(std::string("data.") + splits[s],
                        in_quotes(folder) + " is not a folder of images (Kiln reads "
                                            "folders, not lists of files)");
        }
        const DatasetIndex index = DatasetIndex::scan({folder});
        std::vector<fs::path> paths;
        for (std::size_t i = 0; i < index.size(); ++i) {
            paths.push_back(index.path(i));
        }
        if (paths.empty()) {
            bad_setting(std::string("data.") + splits[s], in_quotes(folder) + " holds no images");
        }
        auto truth = yolo_ground_truth(paths, result.classes, masks, threads,
                                       folder.string() + " (YOLO labels)");
        *targets[s] = split_images(std::move(truth), paths, result.category_ids, masks, fixes);
    }
    return result;
}

DetectionData load_splits(const json& data, bool masks, int threads, int split_count) {
    Fixes fixes;
    const bool coco = data.is_object() && data.contains("train") && data["train"].is_object();
    threads = std::max(1, threads);
    DetectionData result = coco ? load_coco(data, masks, threads, split_count, fixes)
                                : load_yolo(data, masks, threads, split_count, fixes);
    if (result.train.paths.empty()) {
        bad_setting("data.train", "holds no images");
    }
    if (split_count > 1 && result.val.paths.empty()) {
        bad_setting("data.val", "holds no images");
    }
    if (fixes.clipped > 0) {
        result.warnings.push_back(std::to_string(fixes.clipped) +
                                  " boxes reached outside their image and were clipped to it");
    }
    if (fixes.empty > 0) {
        result.warnings.push_back(std::to_string(fixes.empty) +
                                  " boxes had no area inside their image and were left out");
    }
    if (fixes.crowd > 0) {
        result.warnings.push_back(std::to_string(fixes.crowd) +
                                  " crowd annotations are left out of training (validation "
                                  "treats them as COCO does)");
    }
    for (const DetectionImages* split : {&result.train, &result.val}) {
        if (split->ground_truth != nullptr) {
            for (const std::string& warning : split->ground_truth->warnings()) {
                result.warnings.push_back(warning);
            }
        }
    }
    return result;
}

} // namespace

fs::path image_in_folder(const fs::path& folder, const std::string& file_name,
                         const std::string& entry) {
    if (file_name.empty()) {
        throw Error(entry + " has no file_name");
    }
    if (leaves_folder(file_name)) {
        throw Error(entry + " has file_name " + in_quotes(file_name) +
                    ", which leaves the images folder; file_names must be relative to it, "
                    "without \"..\"");
    }
    return folder / fs::path(file_name).lexically_normal();
}

void require_annotated_size(const DetectionImages& images, std::size_t image,
                            std::array<std::int64_t, 2> stored) {
    constexpr std::int64_t kMostPixelsRatio = 256;
    const auto [width, height] = images.sizes[image];
    // Saturating: a header may declare 2^32 x 2^32.
    if (pixel_count({width, height}) / kMostPixelsRatio <= pixel_count(stored)) {
        return;
    }
    throw Error(in_quotes(images.paths[image]) + " is " + std::to_string(stored[0]) + " x " +
                std::to_string(stored[1]) + " pixels, but " +
                (images.ground_truth ? in_quotes(images.ground_truth->source())
                                     : std::string("its annotations")) +
                " gives it " + std::to_string(width) + " x " + std::to_string(height) +
                "; give the annotations the images' own width and height");
}

namespace {

// A split without a single object trains nothing, or validates to an mAP of -1.
void require_objects(const DetectionImages& split, const std::string& key) {
    for (const auto& objects : split.objects) {
        if (!objects.empty()) {
            return;
        }
    }
    throw Error(key + ": none of its " + std::to_string(split.paths.size()) +
                " images has an object (an empty \"annotations\" list, or a YOLO folder "
                "without labels/); give the split's annotations or labels");
}

} // namespace

DetectionData load_detection_data(const json& data, bool masks, int threads) {
    DetectionData result = load_splits(data, masks, threads, 2);
    require_objects(result.train, "data.train");
    require_objects(result.val, "data.val");
    return result;
}

DetectionData load_detection_train_split(const json& data, int threads) {
    return load_splits(data, false, threads, 1);
}

} // namespace kiln::data
