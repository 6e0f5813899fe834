#pragma once

#include "eval/coco/rle.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

// COCO ground truth and detection results, read as pycocotools' COCO() and loadRes() read them.
namespace kiln::coco {

enum class IouType { Box, Mask };

// "bbox" or "segm"; anything else is a kiln::Error naming both.
IouType parse_iou_type(std::string_view name);
const char* iou_type_name(IouType type);

struct Image {
    std::int64_t id = 0;
    std::uint32_t height = 0; // 0 when the file does not say; only masks from polygons need it
    std::uint32_t width = 0;
    std::string file_name; // relative to the images folder; empty when the file does not say
};

struct Category {
    std::int64_t id = 0;
    std::string name;
};

// A segmentation as the JSON gives it; ground-truth polygons become masks only when masks are
// evaluated, because they need the image size and cost time that box evaluation does not.
struct Segmentation {
    enum class Kind {
        None,     // no segmentation; detections then use their box
        Polygons, // parts of one object, merged
        Boxes,    // pycocotools reads a list whose first entry has 4 numbers as x, y, w, h boxes
        Mask,     // compressed or uncompressed RLE, decoded at load
    };
    Kind kind = Kind::None;
    std::vector<std::vector<double>> parts;
    Rle mask;
};

struct Annotation {
    std::int64_t id = 0;
    std::int64_t image_id = 0;
    std::int64_t category_id = 0;
    double area = 0;
    Box box{};
    bool has_box = false;
    bool crowd = false;
    double score = 0; // detections only
    Segmentation segmentation;
};

struct MaskSet {
    std::vector<Rle> masks;
    std::vector<Box> boxes; // bounding_box() of each mask
};

// The mask an annotation stands for: polygons and boxes rasterised at the image's size and
// merged, RLE as given. `where` names the annotation in the error when there is none.
Rle mask_of(const Segmentation& segmentation, const Image& image, const std::string& where);

// Ground truth: loaded once, evaluated against any number of detection sets (one per validation
// run of a training job). Images and categories are sorted by id, annotations keep file order.
class GroundTruth {
public:
    // Throws kiln::Error naming the file and the offending entry (array, index and id).
    static GroundTruth load(const std::filesystem::path& file);
    static GroundTruth parse(std::string_view json, const std::string& source);

    GroundTruth(GroundTruth&&) noexcept;
    GroundTruth& operator=(GroundTruth&&) noexcept;
    ~GroundTruth();

    const std::string& source() const { return source_; }
    const std::vector<Image>& images() const { return images_; }
    const std::vector<Category>& categories() const { return categories_; }
    const std::vector<Annotation>& annotations() const { return annotations_; }
    // Things pycocotools accepts silently but that change results (ids of 0, ignored fields).
    const std::vector<std::string>& warnings() const { return warnings_; }

    // Index into images() / categories(), or -1.
    std::int64_t image_index(std::int64_t image_id) const;
    std::int64_t category_index(std::int64_t category_id) const;

    // The mask of every annotation (and its maskApi bounding box), built on first use with up
    // to `threads` threads and kept. Thread-safe.
    const MaskSet& masks(int threads) const;

    // Where annotation `index` is described in messages: "file: annotations[index] (id N)".
    std::string describe_annotation(std::size_t index) const;

private:
    GroundTruth();

    struct MaskCache;
    std::string source_;
    std::vector<Image> images_;
    std::vector<Category> categories_;
    std::vector<Annotation> annotations_;
    std::vector<std::string> warnings_;
    std::unordered_map<std::int64_t, std::int64_t> image_index_;
    std::unordered_map<std::int64_t, std::int64_t> category_index_;
    std::unique_ptr<MaskCache> mask_cache_;
};

// Detections of one evaluation, as pycocotools' loadRes() prepares them: ids renumbered 1..N in
// order, iscrowd 0; when the first detection has a box every area is the box's w*h, otherwise
// the mask's pixel count (and a missing box is the mask's bounding box).
class Detections {
public:
    // A results file: a JSON array of {image_id, category_id, score, bbox | segmentation}.
    // Masks are decoded only when `iou_type` needs them or they define the area.
    // Entries are read on up to `threads` threads; an error names the first bad entry.
    static Detections load(const std::filesystem::path& file, const GroundTruth& ground_truth,
                           IouType iou_type, int threads = 1);
    static Detections parse(std::string_view json, const std::string& source,
                            const GroundTruth& ground_truth, IouType iou_type, int threads = 1);
    // Detections made in memory (a validation loop); ids, crowd flags and areas are set here.
    static Detections from_annotations(std::vector<Annotation> detections,
                                       const GroundTruth& ground_truth,
                                       const std::string& source = "detections", int threads = 1);

    const std::string& source() const { return source_; }
    const std::vector<Annotation>& annotations() const { return annotations_; }
    std::string describe_annotation(std::size_t index) const;

private:
    std::string source_;
    std::vector<Annotation> annotations_;
};

} // namespace kiln::coco
