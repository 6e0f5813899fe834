#include "data/sample_source.h"

#include "core/error.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace kiln::data {

std::vector<std::int64_t> SampleSource::preview_indices(std::size_t count) const {
    std::vector<std::int64_t> first(std::min<std::size_t>(count, std::size_t(size())));
    std::iota(first.begin(), first.end(), 0);
    return first;
}

std::vector<std::int64_t> stratified_picks(const std::vector<std::int64_t>& class_of,
                                           std::size_t count) {
    std::vector<std::vector<std::int64_t>> by_class; // in order of each class's first sample
    std::map<std::int64_t, std::size_t> slot_of;
    for (std::size_t i = 0; i < class_of.size(); ++i) {
        const auto [slot, added] = slot_of.try_emplace(class_of[i], by_class.size());
        if (added) {
            by_class.emplace_back();
        }
        by_class[slot->second].push_back(std::int64_t(i));
    }
    std::vector<std::int64_t> picks;
    for (std::size_t round = 0; picks.size() < std::min(count, class_of.size()); ++round) {
        for (const std::vector<std::int64_t>& samples : by_class) {
            if (round < samples.size() && picks.size() < count) {
                picks.push_back(samples[round]);
            }
        }
    }
    return picks;
}

ViewSource::ViewSource(const DatasetIndex& index, TransformArgs transform)
    : index_(index), transform_(std::move(transform)) {
    if (transform_.views.empty()) {
        throw Error("a view source needs at least one view");
    }
}

std::filesystem::path ViewSource::image_path(std::int64_t index) const {
    return index_.path(static_cast<std::size_t>(index));
}

std::vector<ViewShape> view_shapes(const TransformArgs& transform) {
    std::vector<ViewShape> shapes;
    for (const ViewArgs& view : transform.views) {
        shapes.push_back({transform.num_channels, view.height, view.width});
    }
    return shapes;
}

std::vector<ViewShape> ViewSource::view_shapes() const {
    return data::view_shapes(transform_);
}

void ViewSource::make(std::int64_t, const cv::Mat& image, Rng& rng,
                      const std::vector<float*>& views, std::int64_t*) const {
    for (std::size_t v = 0; v < transform_.views.size(); ++v) {
        const cv::Mat view = make_view(image, transform_.views[v], transform_.num_channels, rng);
        write_normalized(view, transform_.num_channels, transform_.mean.data(),
                         transform_.std.data(), views[v]);
    }
}

} // namespace kiln::data
