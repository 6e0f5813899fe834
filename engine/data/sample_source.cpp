#include "data/sample_source.h"

#include "core/error.h"

namespace kiln::data {

ViewSource::ViewSource(const DatasetIndex& index, TransformArgs transform)
    : index_(index), transform_(std::move(transform)) {
    if (transform_.views.empty()) {
        throw Error("a view source needs at least one view");
    }
}

std::filesystem::path ViewSource::image_path(std::int64_t index) const {
    return index_.path(static_cast<std::size_t>(index));
}

std::vector<ViewShape> ViewSource::view_shapes() const {
    std::vector<ViewShape> shapes;
    for (const ViewArgs& view : transform_.views) {
        shapes.push_back({transform_.num_channels, view.height, view.width});
    }
    return shapes;
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
