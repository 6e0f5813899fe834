#include "eval/coco/coco_data.h"

#include "core/error.h"
#include "core/parallel_for.h"

#include <cmath>
#include <mutex>
#include <simdjson.h>
#include <unordered_set>

namespace kiln::coco {
namespace {

namespace dom = simdjson::dom;

// Names one entry of a JSON file in messages, e.g. "gt.json: annotations[12] (id 40)" or
// "dt.json: [3] (image_id 1, category_id 5)". Built only when a message needs it.
struct Where {
    const std::string& source;
    const char* array;
    std::size_t index;
    bool has_id = false;
    std::int64_t id = 0;
    bool has_image_and_category = false;
    std::int64_t image_id = 0;
    std::int64_t category_id = 0;

    std::string str() const {
        std::string text = source + ": " + array + "[" + std::to_string(index) + "]";
        if (has_id) {
            text += " (id " + std::to_string(id) + ")";
        } else if (has_image_and_category) {
            text += " (image_id " + std::to_string(image_id) + ", category_id " +
                    std::to_string(category_id) + ")";
        }
        return text;
    }

    void set_id(std::int64_t value) {
        has_id = true;
        id = value;
    }
};

[[noreturn]] void fail(const Where& where, const std::string& what) {
    throw Error(where.str() + " " + what);
}

const char* json_type_name(dom::element_type type) {
    switch (type) {
    case dom::element_type::ARRAY:
        return "a list";
    case dom::element_type::OBJECT:
        return "an object";
    case dom::element_type::INT64:
    case dom::element_type::UINT64:
    case dom::element_type::DOUBLE:
        return "a number";
    case dom::element_type::STRING:
        return "a string";
    case dom::element_type::BOOL:
        return "a boolean";
    case dom::element_type::NULL_VALUE:
        return "null";
    }
    return "something else";
}

// A key given twice takes its last value, as in Python's json, which pycocotools reads with.
bool find(dom::object object, std::string_view key, dom::element& value) {
    bool found = false;
    for (const dom::key_value_pair field : object) {
        if (field.key == key) {
            value = field.value;
            found = true;
        }
    }
    return found;
}

dom::element require(dom::object object, const char* key, const Where& where) {
    dom::element value;
    if (!find(object, key, value)) {
        fail(where, std::string("has no '") + key + "'");
    }
    return value;
}

std::int64_t integer_of(dom::element value, const char* key, const Where& where) {
    std::int64_t number = 0;
    if (value.get(number) != simdjson::SUCCESS) {
        fail(where, std::string("has '") + key + "' as " + json_type_name(value.type()) +
                        "; it must be an integer");
    }
    return number;
}

double number_of(dom::element value, const char* key, const Where& where) {
    double number = 0;
    if (value.get(number) != simdjson::SUCCESS) {
        fail(where, std::string("has '") + key + "' as " + json_type_name(value.type()) +
                        "; it must be a number");
    }
    return number;
}

std::uint32_t size_of(dom::element value, const char* key, const Where& where) {
    const std::int64_t number = integer_of(value, key, where);
    if (number < 0 || number > (std::int64_t{1} << 30)) {
        fail(where, std::string("has '") + key + "' " + std::to_string(number) +
                        "; it must be between 0 and 2^30");
    }
    return static_cast<std::uint32_t>(number);
}

dom::array array_of(dom::element value, const char* key, const Where& where) {
    dom::array array;
    if (value.get(array) != simdjson::SUCCESS) {
        fail(where, std::string("has '") + key + "' as " + json_type_name(value.type()) +
                        "; it must be a list");
    }
    return array;
}

Box box_of(dom::element value, const Where& where) {
    const dom::array numbers = array_of(value, "bbox", where);
    if (numbers.size() != 4) {
        fail(where, "has a 'bbox' of " + std::to_string(numbers.size()) +
                        " numbers; it must be [x, y, width, height]");
    }
    Box box{};
    std::size_t i = 0;
    for (dom::element number : numbers) {
        box[i++] = number_of(number, "bbox", where);
    }
    return box;
}

dom::object object_of(dom::element element, const Where& where) {
    dom::object object;
    if (element.get(object) != simdjson::SUCCESS) {
        fail(where, "is not an object");
    }
    return object;
}

// The entry's "id", which must not repeat: `seen` records the ids so far.
template <class IdSet>
std::int64_t unique_id_of(dom::object object, Where& where, IdSet& seen, const char* what) {
    const std::int64_t id = integer_of(require(object, "id", where), "id", where);
    where.set_id(id);
    if (!seen.emplace(id).second) {
        fail(where, std::string("repeats the ") + what + " id " + std::to_string(id) +
                        "; ids must be unique");
    }
    return id;
}

bool flag_of(dom::element value, const char* key, const Where& where) {
    bool flag = false;
    if (value.get(flag) == simdjson::SUCCESS) {
        return flag;
    }
    return integer_of(value, key, where) != 0;
}

Rle rle_of(dom::object object, const Where& where) {
    const dom::array size = array_of(require(object, "size", where), "segmentation.size", where);
    if (size.size() != 2) {
        fail(where, "has a segmentation 'size' that is not [height, width]");
    }
    const std::uint32_t height = size_of(size.at(0).value_unsafe(), "segmentation.size", where);
    const std::uint32_t width = size_of(size.at(1).value_unsafe(), "segmentation.size", where);
    const dom::element counts = require(object, "counts", where);
    try {
        std::string_view text;
        if (counts.get(text) == simdjson::SUCCESS) {
            return decode_counts_string(text, height, width);
        }
        const dom::array list = array_of(counts, "segmentation.counts", where);
        std::vector<std::uint32_t> runs;
        runs.reserve(list.size());
        for (dom::element run : list) {
            const std::int64_t value = integer_of(run, "segmentation.counts", where);
            if (value < 0 || value > std::numeric_limits<std::uint32_t>::max()) {
                fail(where, "has the run length " + std::to_string(value) +
                                " in 'segmentation.counts'; runs are between 0 and 2^32-1");
            }
            runs.push_back(static_cast<std::uint32_t>(value));
        }
        return rle_from_counts(std::move(runs), height, width);
    } catch (const Error& error) {
        const std::string message = error.what();
        if (message.rfind(where.source, 0) == 0) {
            throw;
        }
        fail(where, "has a malformed RLE segmentation: " + message);
    }
}

Segmentation segmentation_of(dom::element value, const Where& where) {
    Segmentation segmentation;
    dom::object object;
    if (value.get(object) == simdjson::SUCCESS) {
        segmentation.kind = Segmentation::Kind::Mask;
        segmentation.mask = rle_of(object, where);
        return segmentation;
    }
    const dom::array parts = array_of(value, "segmentation", where);
    if (parts.size() == 0) {
        fail(where, "has an empty 'segmentation'; give polygons or an RLE object");
    }
    for (dom::element part : parts) {
        const dom::array numbers = array_of(part, "segmentation", where);
        std::vector<double> coordinates;
        coordinates.reserve(numbers.size());
        for (dom::element number : numbers) {
            const double coordinate = number_of(number, "segmentation", where);
            if (!(std::fabs(coordinate) <= kLargestPolygonCoordinate)) {
                fail(where, "has the polygon coordinate " + std::to_string(coordinate) +
                                "; coordinates must be within +-1e6 pixels");
            }
            coordinates.push_back(coordinate);
        }
        segmentation.parts.push_back(std::move(coordinates));
    }
    const std::size_t first = segmentation.parts[0].size();
    if (first == 4) {
        segmentation.kind = Segmentation::Kind::Boxes;
        for (const std::vector<double>& part : segmentation.parts) {
            if (part.size() != 4) {
                fail(where, "has a segmentation whose first polygon has 4 numbers (read as a box, "
                            "as pycocotools does) but another has " +
                                std::to_string(part.size()));
            }
        }
    } else if (first > 4) {
        segmentation.kind = Segmentation::Kind::Polygons;
        for (std::size_t i = 0; i < segmentation.parts.size(); ++i) {
            if (segmentation.parts[i].size() < 2) {
                fail(where, "has polygon " + std::to_string(i) + " without a point");
            }
        }
    } else {
        fail(where, "has a first polygon of " + std::to_string(first) +
                        " numbers; polygons need at least 3 points (6 numbers)");
    }
    return segmentation;
}

struct Document {
    simdjson::padded_string text;
    dom::parser parser;
    dom::element root;
};

// Whether `text` holds NaN or Infinity outside its strings: Python's json.dumps writes them for
// float('nan') and float('inf'), and no JSON reader takes them.
bool holds_nan_or_infinity(std::string_view text) {
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (in_string) {
            if (text[i] == '\\') {
                ++i; // the character it escapes
            } else if (text[i] == '"') {
                in_string = false;
            }
        } else if (text[i] == '"') {
            in_string = true;
        } else if (text.compare(i, 3, "NaN") == 0 || text.compare(i, 8, "Infinity") == 0) {
            return true;
        }
    }
    return false;
}

void parse_document(Document& document, const std::string& source) {
    // A byte order mark (Windows editors write one) is no JSON: simdjson called the file's
    // structure improper.
    const std::string_view text(document.text.data(), document.text.size());
    const std::size_t bom = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
    const simdjson::error_code error =
        document.parser.parse(text.data() + bom, text.size() - bom, false).get(document.root);
    if (error != simdjson::SUCCESS) {
        const bool python_numbers =
            holds_nan_or_infinity(std::string_view(document.text.data(), document.text.size()));
        throw Error(source + " is not valid JSON: " + simdjson::error_message(error) +
                    (python_numbers ? "; it holds NaN or Infinity, which JSON has no numbers "
                                      "for: leave such detections out, or write the file with "
                                      "json.dump(..., allow_nan=False) to find them"
                                    : ""));
    }
}

void load_text(Document& document, const std::filesystem::path& file) {
    const simdjson::error_code error =
        simdjson::padded_string::load(file.string()).get(document.text);
    if (error != simdjson::SUCCESS) {
        throw Error("cannot read " + file.string() + ": " + simdjson::error_message(error) +
                    "; check the path");
    }
}

// The elements of a top-level list; empty when an optional list is absent.
std::vector<dom::element> top_level_list(dom::object root, const char* key,
                                         const std::string& source, bool required) {
    std::vector<dom::element> elements;
    dom::element value;
    if (!find(root, key, value)) {
        if (required) {
            throw Error(source + " has no '" + key + "' list; is it a COCO annotation file?");
        }
        return elements;
    }
    dom::array array;
    if (value.get(array) != simdjson::SUCCESS) {
        throw Error(source + " has '" + key + "' as " + json_type_name(value.type()) +
                    "; it must be a list");
    }
    elements.reserve(array.size());
    for (dom::element element : array) {
        elements.push_back(element);
    }
    return elements;
}

// The objects of a top-level list ("images", "categories"), each with an id unique among
// them: `fill` reads the rest of each.
template <class Record, class Fill>
std::vector<Record> records_of(dom::object root, const char* key, const std::string& source,
                               std::unordered_set<std::int64_t>& ids, const char* kind,
                               const Fill& fill) {
    std::vector<Record> records;
    std::size_t index = 0;
    for (dom::element element : top_level_list(root, key, source, true)) {
        Where where{source, key, index++};
        const dom::object object = object_of(element, where);
        Record record;
        record.id = unique_id_of(object, where, ids, kind);
        fill(object, where, record);
        records.push_back(std::move(record));
    }
    return records;
}

std::vector<Image> images_of(dom::object root, const std::string& source,
                             std::unordered_set<std::int64_t>& ids) {
    return records_of<Image>(root, "images", source, ids, "image",
                             [](dom::object object, const Where& where, Image& image) {
                                 dom::element value;
                                 if (find(object, "height", value)) {
                                     image.height = size_of(value, "height", where);
                                 }
                                 if (find(object, "width", value)) {
                                     image.width = size_of(value, "width", where);
                                 }
                                 std::string_view file_name;
                                 if (find(object, "file_name", value) &&
                                     value.get(file_name) == simdjson::SUCCESS) {
                                     image.file_name = std::string(file_name);
                                 }
                             });
}

std::vector<Category> categories_of(dom::object root, const std::string& source,
                                    std::unordered_set<std::int64_t>& ids) {
    return records_of<Category>(
        root, "categories", source, ids, "category",
        [](dom::object object, const Where& where, Category& category) {
            // Without a name (or with null, as pycocotools takes it) a category is named by
            // its id.
            dom::element value;
            if (find(object, "name", value) && !value.is_null()) {
                std::string_view name;
                if (value.get(name) != simdjson::SUCCESS) {
                    fail(where, "has a name that is " + std::string(json_type_name(value.type())) +
                                    "; give it as a string, or leave it out to name it by its id");
                }
                category.name = std::string(name);
            }
        });
}

Annotation annotation_of(dom::object object, const Where& where,
                         const std::unordered_set<std::int64_t>& image_ids,
                         const std::unordered_set<std::int64_t>& category_ids) {
    Annotation annotation;
    annotation.image_id = integer_of(require(object, "image_id", where), "image_id", where);
    if (image_ids.count(annotation.image_id) == 0) {
        fail(where,
             "has image_id " + std::to_string(annotation.image_id) + ", which is not in 'images'");
    }
    annotation.category_id =
        integer_of(require(object, "category_id", where), "category_id", where);
    if (category_ids.count(annotation.category_id) == 0) {
        fail(where, "has category_id " + std::to_string(annotation.category_id) +
                        ", which is not in 'categories'");
    }
    annotation.area = number_of(require(object, "area", where), "area", where);
    dom::element value;
    if (find(object, "bbox", value)) {
        annotation.box = box_of(value, where);
        annotation.has_box = true;
    }
    if (find(object, "iscrowd", value)) {
        annotation.crowd = flag_of(value, "iscrowd", where);
    }
    if (find(object, "segmentation", value)) {
        annotation.segmentation = segmentation_of(value, where);
    }
    return annotation;
}

// The annotations, with warnings about what pycocotools reads differently from how it looks.
std::vector<Annotation> annotations_of(dom::object root, const std::string& source,
                                       const std::unordered_set<std::int64_t>& image_ids,
                                       const std::unordered_set<std::int64_t>& category_ids,
                                       std::vector<std::string>& warnings) {
    dom::element value;
    if (!find(root, "annotations", value)) {
        warnings.push_back(source + " has no 'annotations' list: there is no ground truth "
                                    "to evaluate against");
    }
    std::vector<Annotation> annotations;
    std::unordered_set<std::int64_t> ids;
    bool zero_id = false;
    bool ignore_fields = false;
    std::size_t index = 0;
    for (dom::element element : top_level_list(root, "annotations", source, false)) {
        Where where{source, "annotations", index++};
        const dom::object object = object_of(element, where);
        const std::int64_t id = unique_id_of(object, where, ids, "annotation");
        annotations.push_back(annotation_of(object, where, image_ids, category_ids));
        annotations.back().id = id;
        zero_id = zero_id || id == 0;
        ignore_fields = ignore_fields || find(object, "ignore", value);
    }
    if (zero_id) {
        warnings.push_back(
            source + ": an annotation has id 0; pycocotools treats a match with it as no match, "
                     "so a detection of that object counts as a false positive (kept here to give "
                     "pycocotools' numbers; renumber ids from 1 to avoid it)");
    }
    if (ignore_fields) {
        warnings.push_back(source + ": 'ignore' fields are not used; as in pycocotools, "
                                    "an annotation is ignored when it is 'iscrowd'");
    }
    return annotations;
}

} // namespace

IouType parse_iou_type(std::string_view name) {
    if (name == "bbox") {
        return IouType::Box;
    }
    if (name == "segm") {
        return IouType::Mask;
    }
    throw Error("unknown IoU type '" + std::string(name) + "'; use bbox or segm");
}

const char* iou_type_name(IouType type) {
    return type == IouType::Box ? "bbox" : "segm";
}

Rle mask_of(const Segmentation& segmentation, const Image& image, const std::string& where) {
    switch (segmentation.kind) {
    case Segmentation::Kind::Mask:
        // Decoding one takes height x width bytes: a 65536 x 65536 mask on a 10 x 10 image
        // took 4 GiB per sample. A size that differs within reason is pycocotools' unmatched
        // mask (IoU -1), and a training image decoded smaller takes it resized.
        if (image.height != 0 && image.width != 0 &&
            std::uint64_t{segmentation.mask.height} * segmentation.mask.width >
                64 * std::uint64_t{image.height} * image.width) {
            throw Error(where + " has an RLE mask of " + std::to_string(segmentation.mask.height) +
                        " x " + std::to_string(segmentation.mask.width) +
                        " (height x width), far larger than its image " + std::to_string(image.id) +
                        " (" + std::to_string(image.height) + " x " + std::to_string(image.width) +
                        "); a mask's 'size' is its image's [height, width]");
        }
        return segmentation.mask;
    case Segmentation::Kind::None:
        throw Error(where + " has no 'segmentation'; segm evaluation needs one");
    case Segmentation::Kind::Polygons:
    case Segmentation::Kind::Boxes:
        break;
    }
    if (image.height == 0 || image.width == 0) {
        throw Error(where + " has polygons, but its image " + std::to_string(image.id) +
                    " has no 'height' and 'width' to rasterise them at");
    }
    std::vector<Rle> parts;
    parts.reserve(segmentation.parts.size());
    try {
        for (const std::vector<double>& part : segmentation.parts) {
            if (segmentation.kind == Segmentation::Kind::Boxes) {
                parts.push_back(
                    rle_from_box({part[0], part[1], part[2], part[3]}, image.height, image.width));
            } else {
                parts.push_back(
                    rle_from_polygon(part.data(), part.size() / 2, image.height, image.width));
            }
        }
    } catch (const Error& error) {
        throw Error(where + " " + error.what());
    }
    if (parts.size() == 1) {
        return std::move(parts[0]);
    }
    return merge_union(parts);
}

struct GroundTruth::MaskCache {
    std::once_flag once;
    MaskSet set;
};

GroundTruth::GroundTruth() : mask_cache_(std::make_unique<MaskCache>()) {}
GroundTruth::GroundTruth(GroundTruth&&) noexcept = default;
GroundTruth& GroundTruth::operator=(GroundTruth&&) noexcept = default;
GroundTruth::~GroundTruth() = default;

GroundTruth GroundTruth::load(const std::filesystem::path& file) {
    Document document;
    load_text(document, file);
    return parse(std::string_view(document.text.data(), document.text.size()), file.string());
}

GroundTruth GroundTruth::parse(std::string_view json, const std::string& source) {
    Document document;
    document.text = simdjson::padded_string(json);
    parse_document(document, source);
    dom::object root;
    if (document.root.get(root) != simdjson::SUCCESS) {
        throw Error(
            source + " is " + json_type_name(document.root.type()) +
            "; a COCO annotation file is an object with images, annotations and categories");
    }
    GroundTruth truth;
    truth.source_ = source;
    std::unordered_set<std::int64_t> image_ids;
    std::unordered_set<std::int64_t> category_ids;
    truth.images_ = images_of(root, source, image_ids);
    truth.categories_ = categories_of(root, source, category_ids);
    truth.annotations_ = annotations_of(root, source, image_ids, category_ids, truth.warnings_);
    std::sort(truth.images_.begin(), truth.images_.end(),
              [](const Image& a, const Image& b) { return a.id < b.id; });
    std::sort(truth.categories_.begin(), truth.categories_.end(),
              [](const Category& a, const Category& b) { return a.id < b.id; });
    for (std::size_t i = 0; i < truth.images_.size(); ++i) {
        truth.image_index_[truth.images_[i].id] = static_cast<std::int64_t>(i);
    }
    for (std::size_t i = 0; i < truth.categories_.size(); ++i) {
        truth.category_index_[truth.categories_[i].id] = static_cast<std::int64_t>(i);
    }
    return truth;
}

std::int64_t GroundTruth::image_index(std::int64_t image_id) const {
    const auto found = image_index_.find(image_id);
    return found == image_index_.end() ? -1 : found->second;
}

std::int64_t GroundTruth::category_index(std::int64_t category_id) const {
    const auto found = category_index_.find(category_id);
    return found == category_index_.end() ? -1 : found->second;
}

std::string GroundTruth::describe_annotation(std::size_t index) const {
    return source_ + ": annotations[" + std::to_string(index) + "] (id " +
           std::to_string(annotations_[index].id) + ")";
}

const MaskSet& GroundTruth::masks(int threads) const {
    std::call_once(mask_cache_->once, [&] {
        MaskSet set;
        set.masks.resize(annotations_.size());
        set.boxes.resize(annotations_.size());
        parallel_for(annotations_.size(), threads, 256, [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i) {
                const Annotation& annotation = annotations_[i];
                set.masks[i] =
                    mask_of(annotation.segmentation, images_[image_index(annotation.image_id)],
                            describe_annotation(i));
                set.boxes[i] = bounding_box(set.masks[i]);
            }
        });
        mask_cache_->set = std::move(set);
    });
    return mask_cache_->set;
}

namespace {

// loadRes()'s rules, applied to detections however they arrived.
void prepare_detections(std::vector<Annotation>& detections, const GroundTruth& truth,
                        const std::string& source, int threads) {
    const bool areas_from_boxes = !detections.empty() && detections[0].has_box;
    for (std::size_t i = 0; i < detections.size() && areas_from_boxes; ++i) {
        if (!detections[i].has_box) {
            throw Error(source + ": [" + std::to_string(i) +
                        "] has no 'bbox', but the first detection has one; give every "
                        "detection a box or none");
        }
    }
    parallel_for(detections.size(), threads, 4096, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            Annotation& detection = detections[i];
            detection.id = static_cast<std::int64_t>(i) + 1;
            detection.crowd = false;
            if (areas_from_boxes) {
                detection.area = detection.box[2] * detection.box[3];
                continue;
            }
            const Image& image = truth.images()[truth.image_index(detection.image_id)];
            const std::string where = source + ": [" + std::to_string(i) + "]";
            if (detection.segmentation.kind != Segmentation::Kind::Mask) {
                detection.segmentation.mask = mask_of(detection.segmentation, image, where);
                detection.segmentation.kind = Segmentation::Kind::Mask;
                detection.segmentation.parts.clear();
            }
            detection.area = static_cast<double>(area(detection.segmentation.mask));
            if (!detection.has_box) {
                detection.box = bounding_box(detection.segmentation.mask);
                detection.has_box = true;
            }
        }
    });
}

} // namespace

Detections Detections::load(const std::filesystem::path& file, const GroundTruth& ground_truth,
                            IouType iou_type, int threads) {
    Document document;
    load_text(document, file);
    return parse(std::string_view(document.text.data(), document.text.size()), file.string(),
                 ground_truth, iou_type, threads);
}

namespace {

bool has_nonempty_box(dom::element element) {
    dom::object object;
    dom::element value;
    dom::array numbers;
    if (element.get(object) != simdjson::SUCCESS || !find(object, "bbox", value)) {
        return false;
    }
    return !(value.get(numbers) == simdjson::SUCCESS && numbers.size() == 0);
}

Annotation parse_detection(dom::element element, std::size_t index, bool boxes_define_area,
                           const std::string& source, const GroundTruth& ground_truth,
                           IouType iou_type) {
    Where where{source, "", index};
    const dom::object object = object_of(element, where);
    Annotation detection;
    detection.image_id = integer_of(require(object, "image_id", where), "image_id", where);
    detection.category_id = integer_of(require(object, "category_id", where), "category_id", where);
    where.has_image_and_category = true;
    where.image_id = detection.image_id;
    where.category_id = detection.category_id;
    if (ground_truth.image_index(detection.image_id) < 0) {
        fail(where, "is for an image that is not in " + ground_truth.source() +
                        "; results must use the ground truth's image ids");
    }
    if (ground_truth.category_index(detection.category_id) < 0) {
        fail(where, "has a category that is not in " + ground_truth.source() + "'s categories");
    }
    detection.score = number_of(require(object, "score", where), "score", where);
    dom::element value;
    if (find(object, "bbox", value) && has_nonempty_box(element)) {
        detection.box = box_of(value, where);
        detection.has_box = true;
    }
    const bool needs_mask = iou_type == IouType::Mask || !boxes_define_area;
    if (needs_mask && find(object, "segmentation", value)) {
        detection.segmentation = segmentation_of(value, where);
    } else if (!boxes_define_area) {
        fail(where, index == 0 ? "has neither 'bbox' nor 'segmentation'"
                               : "has no 'segmentation', but the first detection has one "
                                 "and no box; give every detection the same fields");
    }
    return detection;
}

} // namespace

Detections Detections::parse(std::string_view json, const std::string& source,
                             const GroundTruth& ground_truth, IouType iou_type, int threads) {
    Document document;
    document.text = simdjson::padded_string(json);
    parse_document(document, source);
    dom::array entries;
    if (document.root.get(entries) != simdjson::SUCCESS) {
        throw Error(source + " is " + json_type_name(document.root.type()) +
                    "; a results file is a list of detections");
    }
    std::vector<dom::element> elements;
    elements.reserve(entries.size());
    for (dom::element element : entries) {
        elements.push_back(element);
    }
    const bool boxes_define_area = !elements.empty() && has_nonempty_box(elements[0]);
    Detections result;
    result.source_ = source;
    result.annotations_.resize(elements.size());
    auto parse_range = [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            result.annotations_[i] =
                parse_detection(elements[i], i, boxes_define_area, source, ground_truth, iou_type);
        }
    };
    try {
        parallel_for(elements.size(), threads, 4096, parse_range);
    } catch (const Error&) {
        // Report the first bad entry in file order, whichever thread met one first.
        parse_range(0, elements.size());
        throw;
    }
    prepare_detections(result.annotations_, ground_truth, source, threads);
    return result;
}

Detections Detections::from_annotations(std::vector<Annotation> detections,
                                        const GroundTruth& ground_truth, const std::string& source,
                                        int threads) {
    for (std::size_t i = 0; i < detections.size(); ++i) {
        const Annotation& detection = detections[i];
        if (ground_truth.image_index(detection.image_id) < 0 ||
            ground_truth.category_index(detection.category_id) < 0) {
            throw Error(source + ": [" + std::to_string(i) + "] (image_id " +
                        std::to_string(detection.image_id) + ", category_id " +
                        std::to_string(detection.category_id) +
                        ") is not an image and category of " + ground_truth.source());
        }
    }
    Detections result;
    result.source_ = source;
    result.annotations_ = std::move(detections);
    prepare_detections(result.annotations_, ground_truth, source, threads);
    return result;
}

std::string Detections::describe_annotation(std::size_t index) const {
    const Annotation& detection = annotations_[index];
    return source_ + ": [" + std::to_string(index) + "] (image_id " +
           std::to_string(detection.image_id) + ", category_id " +
           std::to_string(detection.category_id) + ")";
}

} // namespace kiln::coco
