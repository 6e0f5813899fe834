#include "data/labelled_data.h"

#include "core/error.h"
#include "core/input_file.h"
#include "core/json_text.h"
#include "core/log.h"
#include "core/parallel_for.h"
#include "core/text.h"
#include "data/dataset_index.h"
#include "data/image_decode.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <mutex>
#include <opencv2/imgcodecs.hpp>
#include <random>
#include <set>
#include <sstream>

namespace kiln::data {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Collects the problems of a data setting, to report them all at once.
class Problems {
public:
    void add(const std::string& key, const std::string& message) {
        issues_.push_back({key, message});
    }
    bool empty() const { return issues_.empty(); }
    void throw_if_any() const {
        if (!issues_.empty()) {
            throw ConfigError(issues_);
        }
    }

private:
    std::vector<ConfigIssue> issues_;
};

std::string quoted(const fs::path& path) {
    return "\"" + path.string() + "\"";
}

// A required path setting: `data.<key>` as a string naming something that exists.
std::optional<fs::path> path_setting(const json& data, const std::string& key, Problems& problems,
                                     const std::string& what) {
    const json* value = &data;
    std::string dotted = "data";
    std::size_t start = 0;
    while (start <= key.size()) {
        const std::size_t dot = std::min(key.find('.', start), key.size());
        const std::string part = key.substr(start, dot - start);
        dotted += "." + part;
        if (!value->is_object() || !value->contains(part)) {
            problems.add(dotted, "missing: give " + what);
            return std::nullopt;
        }
        value = &(*value)[part];
        start = dot + 1;
    }
    if (!value->is_string() || value->get<std::string>().empty()) {
        problems.add(dotted, "expected a path: " + what);
        return std::nullopt;
    }
    const fs::path path = value->get<std::string>();
    std::error_code error;
    if (!fs::exists(path, error)) {
        problems.add(dotted, quoted(path) + " does not exist; give " + what);
        return std::nullopt;
    }
    return path;
}

void check_keys(const json& data, const std::vector<std::string>& known, const std::string& path,
                Problems& problems) {
    if (!data.is_object()) {
        problems.add(path, "expected a dictionary of settings");
        return;
    }
    for (const auto& [key, value] : data.items()) {
        if (std::find(known.begin(), known.end(), key) == known.end()) {
            std::string list;
            for (const std::string& name : known) {
                list += (list.empty() ? "" : ", ") + name;
            }
            problems.add(path + "." + key, "unknown setting; valid: " + list);
        }
    }
}

// One CSV line split into fields; double quotes enclose fields holding commas.
std::vector<std::string> csv_fields(const std::string& line) {
    std::vector<std::string> fields(1);
    bool quoted_field = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (c == '"') {
            if (quoted_field && i + 1 < line.size() && line[i + 1] == '"') {
                fields.back() += '"';
                ++i;
            } else {
                quoted_field = !quoted_field;
            }
        } else if (c == ',' && !quoted_field) {
            fields.emplace_back();
        } else if (c != '\r') {
            fields.back() += c;
        }
    }
    for (std::string& field : fields) {
        field = trimmed(field);
    }
    return fields;
}

// An image with the label texts it was given (its class folder, or a CSV line's labels).
struct LabelledFile {
    fs::path path;
    std::string name;
    std::vector<std::string> labels;
};

// A CSV label field: one label, or several separated by ';' or '|' (multilabel).
std::vector<std::string> split_labels(const std::string& field) {
    std::vector<std::string> labels;
    std::size_t start = 0;
    while (start <= field.size()) {
        const std::size_t end = std::min(field.find_first_of(";|", start), field.size());
        const std::string label = trimmed(field.substr(start, end - start));
        if (!label.empty()) {
            labels.push_back(label);
        }
        start = end + 1;
    }
    return labels;
}

std::vector<LabelledFile> scan_class_folders(const fs::path& root, const std::string& key,
                                             Problems& problems) {
    std::vector<LabelledFile> files;
    DatasetIndex index;
    try {
        index = DatasetIndex::scan({root});
    } catch (const Error& error) {
        problems.add(key, error.what());
        return files;
    }
    std::size_t outside = 0;
    std::string first_outside;
    for (std::size_t i = 0; i < index.size(); ++i) {
        const std::string_view folder = index.top_level_folder(i);
        if (folder.empty()) {
            if (outside++ == 0) {
                first_outside = std::string(index.filename(i));
            }
            continue;
        }
        files.push_back({index.path(i), std::string(index.filename(i)), {std::string(folder)}});
    }
    if (outside > 0) {
        problems.add(key, std::to_string(outside) + " image(s) of " + quoted(root) +
                              " are not inside a class folder, e.g. \"" + first_outside +
                              "\"; put each image in a folder named after its class");
    }
    return files;
}

std::vector<LabelledFile> read_label_csv(const fs::path& csv, const std::string& key,
                                         Problems& problems) {
    std::vector<LabelledFile> files;
    refuse_special_file(csv, key);
    std::ifstream in(csv);
    std::string line;
    if (!in || !std::getline(in, line)) {
        problems.add(key, quoted(csv) + " cannot be read or is empty; give a CSV with a header "
                                        "line \"image,label\"");
        return files;
    }
    const std::vector<std::string> header = csv_fields(line);
    const auto column = [&header](std::initializer_list<const char*> names) -> int {
        for (std::size_t i = 0; i < header.size(); ++i) {
            for (const char* name : names) {
                if (header[i] == name) {
                    return static_cast<int>(i);
                }
            }
        }
        return -1;
    };
    const int image_column = column({"image", "image_path", "filename"});
    const int label_column = column({"label", "labels"});
    if (image_column < 0 || label_column < 0) {
        problems.add(key, quoted(csv) + " has no \"image\" and \"label\" columns in its header "
                                        "line; start the file with \"image,label\"");
        return files;
    }
    const fs::path folder = csv.parent_path();
    std::size_t line_number = 1;
    while (std::getline(in, line)) {
        ++line_number;
        if (trimmed(line).empty()) {
            continue;
        }
        const std::vector<std::string> fields = csv_fields(line);
        const std::string where = quoted(csv) + " line " + std::to_string(line_number);
        if (static_cast<int>(fields.size()) <= std::max(image_column, label_column)) {
            problems.add(key, where + " has " + std::to_string(fields.size()) +
                                  " field(s); give an image and a label on every line");
            continue;
        }
        const std::string& field = fields[static_cast<std::size_t>(label_column)];
        const fs::path image = fields[static_cast<std::size_t>(image_column)];
        const fs::path path = image.is_absolute() ? image : folder / image;
        std::error_code error;
        if (!fs::is_regular_file(path, error)) {
            problems.add(key, where + ": image " + quoted(path) +
                                  " does not exist; fix the path (relative to the CSV's folder)");
            continue;
        }
        files.push_back({path, image.string(), split_labels(field)});
    }
    return files;
}

std::vector<LabelledFile> read_split(const fs::path& location, const std::string& key,
                                     Problems& problems) {
    std::error_code error;
    if (fs::is_directory(location, error)) {
        return scan_class_folders(location, key, problems);
    }
    if (location.extension() == ".csv") {
        return read_label_csv(location, key, problems);
    }
    problems.add(key, quoted(location) +
                          " is neither a folder of class folders nor a .csv file of image,label");
    return {};
}

bool is_class_id(const std::string& text, std::size_t classes) {
    return !text.empty() && text.size() < 10 &&
           std::all_of(
               text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); }) &&
           std::stoul(text) < classes;
}

ClassifiedImages assign_labels(const std::vector<LabelledFile>& files, const ClassNames& classes,
                               const std::string& key, Problems& problems) {
    std::map<std::string, std::int64_t> ids;
    for (std::size_t i = 0; i < classes.size(); ++i) {
        ids.emplace(classes[i], static_cast<std::int64_t>(i));
    }
    ClassifiedImages images;
    std::map<std::string, std::string> unknown; // label -> first file
    for (const LabelledFile& file : files) {
        std::vector<std::int64_t> labels;
        for (const std::string& text : file.labels) {
            if (const auto found = ids.find(text); found != ids.end()) {
                labels.push_back(found->second);
            } else if (is_class_id(text, classes.size())) {
                labels.push_back(static_cast<std::int64_t>(std::stoul(text)));
            } else {
                unknown.emplace(text, file.name);
            }
        }
        if (labels.size() != file.labels.size()) {
            continue;
        }
        images.paths.push_back(file.path);
        images.names.push_back(file.name);
        images.labels.push_back(std::move(labels));
    }
    for (const auto& [label, name] : unknown) {
        problems.add(key, "class \"" + label + "\" (e.g. \"" + name +
                              "\") is not one of the training classes; add it to data.classes "
                              "and the training data, or remove its images");
    }
    if (images.paths.empty() && unknown.empty() && problems.empty()) {
        problems.add(key, "no labelled images found; give a folder of class folders of images "
                          "or a CSV of image,label");
    }
    return images;
}

ClassNames classes_from(const json& data, const std::vector<LabelledFile>& train,
                        Problems& problems) {
    if (data.contains("classes") && !data["classes"].is_null()) {
        try {
            return parse_class_names(data["classes"], "data.classes");
        } catch (const ConfigError& error) {
            for (const ConfigIssue& issue : error.issues()) {
                problems.add(issue.path, issue.message);
            }
            return {};
        }
    }
    std::set<std::string> names;
    for (const LabelledFile& file : train) {
        names.insert(file.labels.begin(), file.labels.end());
    }
    return ClassNames(names.begin(), names.end());
}

// Each image of an images folder with the mask of the same relative name (extension .png).
SegmentedImages pair_masks(const fs::path& images_root, const fs::path& masks_root,
                           const std::string& key, Problems& problems) {
    SegmentedImages split;
    DatasetIndex index;
    try {
        index = DatasetIndex::scan({images_root});
    } catch (const Error& error) {
        problems.add(key + ".images", error.what());
        return split;
    }
    std::size_t missing = 0;
    std::string first_missing;
    for (std::size_t i = 0; i < index.size(); ++i) {
        const fs::path name(index.filename(i));
        const fs::path mask = masks_root / fs::path(name).replace_extension(".png");
        std::error_code error;
        const fs::file_type type = fs::status(mask, error).type();
        if (type != fs::file_type::regular) {
            if (type != fs::file_type::not_found && type != fs::file_type::none) {
                // Read, a FIFO would wait for a writer forever, a device would never end.
                problems.add(key + ".masks",
                             quoted(mask) + " is " +
                                 (type == fs::file_type::directory
                                      ? "a folder"
                                      : "not a file (a FIFO, socket or device)") +
                                 ", not the PNG of class ids of " + quoted(index.path(i)) +
                                 "; put the mask there");
                return split;
            }
            if (missing++ == 0) {
                first_missing = quoted(index.path(i)) + " has no mask " + quoted(mask);
            }
            continue;
        }
        split.paths.push_back(index.path(i));
        split.masks.push_back(mask);
        split.names.emplace_back(index.filename(i));
    }
    if (missing > 0) {
        problems.add(key + ".masks", std::to_string(missing) + " image(s) have no mask, e.g. " +
                                         first_missing +
                                         "; give every image a PNG of class ids with its name");
    }
    return split;
}

// Reads every mask of a split, checking size and values; reports the first five problems.
void check_masks(const SegmentedImages& split, const SegmentationData& data, const std::string& key,
                 int threads, Problems& problems) {
    std::mutex mutex;
    std::vector<std::pair<std::size_t, std::string>> failures;
    const int classes = static_cast<int>(data.classes.size());
    parallel_for(split.paths.size(), threads, 16, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            std::string failure;
            try {
                cv::Mat values;
                read_mask_of(split.masks[i], split.paths[i], data.max_mask_pixels)
                    .convertTo(values, CV_32S);
                for (auto it = values.begin<int>(); it != values.end<int>(); ++it) {
                    if (*it >= classes && *it != data.ignore_index) {
                        failure = "mask " + quoted(split.masks[i]) + " holds class id " +
                                  std::to_string(*it) + " but data.classes has " +
                                  std::to_string(classes) + " classes (0 to " +
                                  std::to_string(classes - 1) + ") and ignore_index is " +
                                  std::to_string(data.ignore_index) +
                                  "; add the class to data.classes or fix the mask";
                        break;
                    }
                }
            } catch (const Error& error) {
                failure = error.what();
            }
            if (!failure.empty()) {
                const std::lock_guard<std::mutex> lock(mutex);
                failures.emplace_back(i, failure);
            }
        }
    });
    std::sort(failures.begin(), failures.end());
    constexpr std::size_t kShown = 5;
    for (std::size_t i = 0; i < std::min(kShown, failures.size()); ++i) {
        problems.add(key + ".masks", failures[i].second);
    }
    if (failures.size() > kShown) {
        problems.add(key + ".masks", "and " + std::to_string(failures.size() - kShown) +
                                         " more mask(s) with problems");
    }
}

} // namespace

std::string too_many_classes(std::size_t classes) {
    if (classes <= kMaxClasses) {
        return "";
    }
    return "names " + std::to_string(classes) + " classes; Kiln trains at most " +
           std::to_string(kMaxClasses) + " (check the file: a list this long is not a dataset's)";
}

ClassNames parse_class_names(const json& classes, const std::string& key) {
    std::vector<ConfigIssue> issues;
    json value = classes;
    if (classes.is_string()) {
        refuse_special_file(classes.get<std::string>(), key);
        std::ifstream in(classes.get<std::string>());
        if (!in) {
            throw ConfigError({{key, "\"" + classes.get<std::string>() +
                                         "\" cannot be read; give a JSON file of class names, "
                                         "{\"0\": \"name\", ...}"}});
        }
        try {
            value = parse_json(in, "\"" + classes.get<std::string>() + "\"");
        } catch (const Error& error) {
            throw ConfigError(
                {{key, std::string(error.what()) +
                           "; give a JSON file of class names, {\"0\": \"name\", ...}"}});
        }
    }
    ClassNames names;
    if (value.is_array()) {
        for (const json& name : value) {
            names.push_back(name.is_string() ? name.get<std::string>() : name.dump());
        }
    } else if (value.is_object()) {
        std::map<long, std::string> by_id;
        for (const auto& [id, name] : value.items()) {
            char* end = nullptr;
            const long number = std::strtol(id.c_str(), &end, 10);
            if (id.empty() || *end != '\0' || number < 0) {
                issues.push_back({key + "." + id, "class ids are whole numbers from 0"});
                continue;
            }
            if (by_id.count(number) > 0) { // "0" and "00"
                issues.push_back({key + "." + id, "class id " + std::to_string(number) +
                                                      " is given twice; give each id once"});
            }
            by_id[number] = name.is_string() ? name.get<std::string>() : name.dump();
        }
        long expected = 0;
        for (const auto& [id, name] : by_id) {
            if (id != expected++) {
                issues.push_back({key, "class ids must run 0, 1, 2, ... without gaps; id " +
                                           std::to_string(expected - 1) + " is missing"});
                break;
            }
            names.push_back(name);
        }
    } else {
        issues.push_back({key, "expected {\"0\": \"name\", ...}, a list of names or a JSON file"});
    }
    if (names.empty() && issues.empty()) {
        issues.push_back({key, "no classes given; name at least one"});
    }
    if (const std::string many = too_many_classes(names.size()); !many.empty()) {
        issues.push_back({key, many});
    }
    if (const std::string garbled = non_utf8_class(names); !garbled.empty()) {
        issues.push_back({key, garbled});
    }
    if (const std::optional<std::string> twice = repeated_name(names)) {
        issues.push_back({key, "\"" + *twice +
                                   "\" names two classes; their metrics would share "
                                   "one key: give each class its own name"});
    }
    if (!issues.empty()) {
        throw ConfigError(issues);
    }
    return names;
}

std::string non_utf8_class(const ClassNames& names) {
    for (const std::string& name : names) {
        if (!is_utf8(name)) {
            return "class " + quoted_excerpt(name) + kNotUtf8 +
                   "; class names key the metrics, run records and exported models";
        }
    }
    return "";
}

std::optional<std::string> repeated_name(const ClassNames& names) {
    std::set<std::string> seen;
    for (const std::string& name : names) {
        if (!seen.insert(name).second) {
            return name;
        }
    }
    return std::nullopt;
}

// data.val_split: each class's share held out of the training files, seeded.
void hold_out(ClassifiedImages& train, ClassifiedImages& val, double share, std::uint64_t seed) {
    std::map<std::int64_t, std::vector<std::size_t>> by_class;
    for (std::size_t i = 0; i < train.paths.size(); ++i) {
        by_class[train.labels[i].empty() ? -1 : train.labels[i].front()].push_back(i);
    }
    std::mt19937_64 rng(seed);
    std::vector<bool> held(train.paths.size(), false);
    for (auto& [label, files] : by_class) {
        std::shuffle(files.begin(), files.end(), rng);
        auto count = static_cast<std::size_t>(std::llround(share * double(files.size())));
        if (files.size() >= 2) { // every class validated, and every class trained on
            count = std::clamp<std::size_t>(count, 1, files.size() - 1);
        }
        for (std::size_t k = 0; k < count && k < files.size(); ++k) {
            held[files[k]] = true;
        }
    }
    ClassifiedImages kept;
    for (std::size_t i = 0; i < train.paths.size(); ++i) {
        ClassifiedImages& to = held[i] ? val : kept;
        to.paths.push_back(train.paths[i]);
        to.names.push_back(train.names[i]);
        to.labels.push_back(train.labels[i]);
    }
    train = std::move(kept);
}

// Validating on training images measures memory, not generalisation: said, not refused (a
// quick check on one folder is legitimate).
void warn_about_overlap(const ClassifiedImages& train, const ClassifiedImages& val) {
    std::set<fs::path> seen;
    for (const fs::path& path : train.paths) {
        seen.insert(fs::weakly_canonical(path));
    }
    std::size_t shared = 0;
    for (const fs::path& path : val.paths) {
        shared += seen.count(fs::weakly_canonical(path));
    }
    if (shared > 0) {
        log::warning("data.val shares " + std::to_string(shared) + " of its " +
                     std::to_string(val.paths.size()) +
                     " images with data.train: its metrics measure memory, not how the model "
                     "does on new images; use data.val_split=0.1 or a separate folder");
    }
}

ClassificationData load_classification_data(const json& data, std::uint64_t seed) {
    Problems problems;
    check_keys(data, {"train", "val", "val_split", "classes"}, "data", problems);
    ClassificationData result;
    const auto train_path =
        path_setting(data, "train", problems, "a folder of class folders or a CSV of image,label");
    const bool split = data.is_object() && data.contains("val_split");
    const double share =
        split && data["val_split"].is_number() ? data["val_split"].get<double>() : 0.0;
    if (split && (share <= 0.0 || share >= 1.0)) {
        problems.add("data.val_split", "expected a share between 0 and 1, e.g. 0.1");
    }
    if (split && data.contains("val")) {
        problems.add("data.val_split", "cannot be combined with data.val: choose one of them");
    }
    const auto val_path =
        split ? std::nullopt
              : path_setting(data, "val", problems,
                             "a folder of class folders or a CSV of image,label, or "
                             "data.val_split=0.1 to hold out a tenth of data.train");
    const std::vector<LabelledFile> train =
        train_path ? read_split(*train_path, "data.train", problems) : std::vector<LabelledFile>{};
    const std::vector<LabelledFile> val =
        val_path ? read_split(*val_path, "data.val", problems) : std::vector<LabelledFile>{};
    result.classes = classes_from(data, train, problems);
    if (const std::string garbled = non_utf8_class(result.classes); !garbled.empty()) {
        problems.add("data.train", garbled);
    }
    for (const std::vector<LabelledFile>* split : {&train, &val}) {
        for (const LabelledFile& file : *split) {
            if (file.labels.size() != 1 && !result.multilabel) {
                result.multilabel = true;
                log::info("multilabel classification: \"" + file.name + "\" has " +
                          std::to_string(file.labels.size()) +
                          " labels (binary cross-entropy per class, validated by F1 and mAP)");
            }
        }
    }
    if (!result.classes.empty()) {
        if (train_path) {
            result.train = assign_labels(train, result.classes, "data.train", problems);
        }
        if (val_path) {
            result.val = assign_labels(val, result.classes, "data.val", problems);
        }
    }
    problems.throw_if_any();
    if (split) {
        hold_out(result.train, result.val, share, seed);
        log::info("data.val_split=" + std::to_string(share).substr(0, 4) + ": " +
                  std::to_string(result.val.paths.size()) + " of the training images validate, " +
                  std::to_string(result.train.paths.size()) + " train");
    } else {
        warn_about_overlap(result.train, result.val);
    }
    return result;
}

SegmentationData load_segmentation_data(const json& data, int threads, std::int64_t max_pixels) {
    Problems problems;
    check_keys(data, {"train", "val", "classes", "ignore_index"}, "data", problems);
    for (const char* split : {"train", "val"}) {
        if (data.contains(split)) {
            check_keys(data[split], {"images", "masks"}, std::string("data.") + split, problems);
        }
    }
    SegmentationData result;
    result.max_mask_pixels = max_pixels;
    if (data.contains("ignore_index")) {
        const json& ignore = data["ignore_index"];
        if (!ignore.is_number_integer() || ignore.get<long>() < 0 || ignore.get<long>() > 65535) {
            problems.add("data.ignore_index", "expected a mask value from 0 to 65535");
        } else {
            result.ignore_index = ignore.get<int>();
        }
    }
    if (!data.contains("classes") || data["classes"].is_null()) {
        problems.add("data.classes", "missing: name the classes of the mask ids, e.g. "
                                     "data.classes='{\"0\": \"background\", \"1\": \"shirt\"}'");
    } else {
        try {
            result.classes = parse_class_names(data["classes"], "data.classes");
        } catch (const ConfigError& error) {
            for (const ConfigIssue& issue : error.issues()) {
                problems.add(issue.path, issue.message);
            }
        }
    }
    if (!result.classes.empty() && result.ignore_index < static_cast<int>(result.classes.size())) {
        problems.add("data.ignore_index", std::to_string(result.ignore_index) +
                                              " is a class id; choose a value above the last "
                                              "class (the default is 255)");
    }
    const auto split = [&](const std::string& name, SegmentedImages& images) {
        const auto image_root =
            path_setting(data, name + ".images", problems, "a folder of images");
        const auto mask_root =
            path_setting(data, name + ".masks", problems, "a folder of PNG masks of class ids");
        if (image_root && mask_root) {
            images = pair_masks(*image_root, *mask_root, "data." + name, problems);
            if (images.paths.empty() && problems.empty()) {
                problems.add("data." + name + ".images", "no images with masks found");
            }
        }
    };
    split("train", result.train);
    split("val", result.val);
    if (problems.empty()) {
        check_masks(result.train, result, "data.train", threads, problems);
        check_masks(result.val, result, "data.val", threads, problems);
    }
    problems.throw_if_any();
    return result;
}

namespace {

// A palette PNG's class ids (its indices, PASCAL VOC's format) from the colours OpenCV decoded
// it to: each colour is one palette entry's.
cv::Mat palette_indices(const cv::Mat& colours, const PngLayout& layout, const fs::path& path) {
    const auto packed = [](unsigned char red, unsigned char green, unsigned char blue) {
        return std::uint32_t(red) << 16 | std::uint32_t(green) << 8 | blue;
    };
    // A colour listed twice is its first entry's: tools pad a palette to 256 entries with
    // black after the classes' colours.
    std::map<std::uint32_t, int> index_of;
    for (std::size_t i = 0; i < layout.palette.size(); ++i) {
        const auto& [red, green, blue] = layout.palette[i];
        index_of.emplace(packed(red, green, blue), int(i));
    }
    if (colours.depth() != CV_8U || colours.channels() < 3 || index_of.empty()) {
        throw Error("mask " + quoted(path) +
                    " is a palette PNG without a palette OpenCV could "
                    "read; save class ids as a single-channel 8-bit PNG");
    }
    cv::Mat ids(colours.size(), CV_8U);
    std::uint32_t last_colour = 0;
    int last_id = -1; // regions of one class: most pixels repeat the last colour
    for (int row = 0; row < colours.rows; ++row) {
        const unsigned char* pixel = colours.ptr<unsigned char>(row);
        for (int column = 0; column < colours.cols; ++column, pixel += colours.channels()) {
            const std::uint32_t colour = packed(pixel[2], pixel[1], pixel[0]); // BGR
            if (last_id < 0 || colour != last_colour) {
                const auto found = index_of.find(colour);
                if (found == index_of.end()) {
                    throw Error("mask " + quoted(path) +
                                " holds a colour its palette does not "
                                "list; save class ids as a single-channel 8-bit PNG");
                }
                last_colour = colour;
                last_id = found->second;
            }
            ids.at<unsigned char>(row, column) = static_cast<unsigned char>(last_id);
        }
    }
    return ids;
}

cv::Mat decode_mask(const std::vector<unsigned char>& bytes, const fs::path& path,
                    std::int64_t max_pixels) {
    // A 250 KB PNG declared 16000 x 16000 pixels: a gigabyte decoded, per loader thread.
    const auto size = declared_image_size(bytes);
    if (!size) {
        throw Error("mask " + quoted(path) + " is not a readable image; save masks as PNGs");
    }
    if (pixel_count(*size) > max_pixels) {
        throw Error("mask " + quoted(path) + " declares " + std::to_string((*size)[0]) + " x " +
                    std::to_string((*size)[1]) +
                    " pixels, more than loader_args.max_image_pixels (" +
                    std::to_string(max_pixels) + "); raise that setting to read it");
    }
    if (png_cut_short(bytes)) {
        throw Error("mask " + quoted(path) +
                    " is a PNG cut short or damaged: its chunks end before IEND; copy it again");
    }
    cv::Mat mask;
    try {
        mask = cv::imdecode(bytes, cv::IMREAD_UNCHANGED);
    } catch (const cv::Exception& error) {
        throw Error("mask " + quoted(path) + " cannot be decoded: " + error.err);
    }
    if (mask.empty()) {
        throw Error("mask " + quoted(path) + " is not a readable image; save masks as PNGs");
    }
    if (const std::optional<PngLayout> layout = png_layout(bytes); layout) {
        if (layout->colour_type == 3) {
            mask = palette_indices(mask, *layout, path);
        } else if (layout->colour_type == 0 && layout->bit_depth < 8 && mask.depth() == CV_8U) {
            // OpenCV scaled the samples to 8 bits: a 1-bit mask's 1 became 255, the ignore id.
            mask /= 255 / ((1 << layout->bit_depth) - 1);
        }
    }
    if (mask.channels() != 1 || (mask.depth() != CV_8U && mask.depth() != CV_16U)) {
        throw Error("mask " + quoted(path) + " has " + std::to_string(mask.channels()) +
                    " channel(s); save class ids as a single-channel 8- or 16-bit PNG");
    }
    return mask;
}

} // namespace

cv::Mat read_mask(const fs::path& path, std::int64_t max_pixels) {
    return decode_mask(read_file(path), path, max_pixels);
}

cv::Mat read_mask_of(const fs::path& path, const fs::path& image, std::int64_t max_pixels) {
    const std::vector<unsigned char> bytes = read_file(path);
    const cv::Size mask_size = stored_image_size(bytes, path.string());
    const cv::Size image_size = stored_image_size(read_file(image), image.string());
    if (mask_size != image_size) {
        throw Error("mask " + quoted(path) + " is " + std::to_string(mask_size.width) + "x" +
                    std::to_string(mask_size.height) + " but its image " + quoted(image) + " is " +
                    std::to_string(image_size.width) + "x" + std::to_string(image_size.height) +
                    "; masks must have their image's size");
    }
    return decode_mask(bytes, path, max_pixels);
}

} // namespace kiln::data
