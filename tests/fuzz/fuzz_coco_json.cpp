// Any bytes as a COCO annotation file and as a results file: either a kiln::Error or a result,
// never a crash, a leak or undefined behaviour. Inputs that parse are evaluated both ways.

#include "core/error.h"
#include "eval/coco/coco_eval.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace {

const kiln::coco::GroundTruth& small_ground_truth() {
    static const kiln::coco::GroundTruth truth = kiln::coco::GroundTruth::parse(
        R"({"images": [{"id": 1, "height": 20, "width": 30}, {"id": 2, "height": 8, "width": 8}],
            "categories": [{"id": 1, "name": "a"}, {"id": 3, "name": "b"}],
            "annotations": [
              {"id": 1, "image_id": 1, "category_id": 1, "area": 40, "bbox": [1, 1, 8, 5],
               "segmentation": [[1, 1, 9, 1, 9, 6, 1, 6]], "iscrowd": 0},
              {"id": 2, "image_id": 2, "category_id": 3, "area": 64, "bbox": [0, 0, 8, 8],
               "segmentation": {"size": [8, 8], "counts": [0, 64]}, "iscrowd": 1}]})",
        "fuzz-gt.json");
    return truth;
}

void evaluate_both_ways(const kiln::coco::GroundTruth& truth,
                        const kiln::coco::Detections& detections) {
    for (auto type : {kiln::coco::IouType::Box, kiln::coco::IouType::Mask}) {
        kiln::coco::EvalParams params;
        params.iou_type = type;
        try {
            kiln::coco::summary_table(kiln::coco::evaluate(truth, detections, params));
        } catch (const kiln::Error&) {
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view json(reinterpret_cast<const char*>(data), size);
    try {
        // The file's own boxed annotations as detections of it.
        const auto truth = kiln::coco::GroundTruth::parse(json, "fuzz.json");
        std::vector<kiln::coco::Annotation> detections;
        for (const auto& annotation : truth.annotations()) {
            if (annotation.has_box) {
                detections.push_back(annotation);
            }
        }
        try {
            evaluate_both_ways(truth, kiln::coco::Detections::from_annotations(detections, truth));
        } catch (const kiln::Error&) {
        }
    } catch (const kiln::Error&) {
    }
    for (auto type : {kiln::coco::IouType::Box, kiln::coco::IouType::Mask}) {
        try {
            const auto detections =
                kiln::coco::Detections::parse(json, "fuzz.json", small_ground_truth(), type, 2);
            evaluate_both_ways(small_ground_truth(), detections);
        } catch (const kiln::Error&) {
        }
    }
    return 0;
}
