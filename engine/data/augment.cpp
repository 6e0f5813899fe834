#include "data/augment.h"

#include "core/error.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

namespace kiln::data {
namespace {

std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

void apply_lut(cv::Mat& image, const std::array<std::uint8_t, 256>& table) {
    const cv::Mat lut(1, 256, CV_8U, const_cast<std::uint8_t*>(table.data()));
    cv::LUT(image, lut, image);
}

// ITU-R 601 luma weights, in B, G, R order, as OpenCV's and PIL's grayscale conversion.
constexpr float kLumaB = 0.114f;
constexpr float kLumaG = 0.587f;
constexpr float kLumaR = 0.299f;

} // namespace

Rng sample_rng(std::uint64_t seed, std::uint64_t epoch, std::uint64_t index) {
    return Rng(splitmix64(splitmix64(splitmix64(seed) ^ epoch) ^ index));
}

double uniform(Rng& rng, double low, double high) {
    return std::uniform_real_distribution<double>(low, high)(rng);
}

bool chance(Rng& rng, double probability) {
    return probability > 0.0 && uniform(rng, 0.0, 1.0) < probability;
}

cv::Rect random_crop_box(cv::Size image, Rng& rng, double min_scale, double max_scale,
                         double min_ratio, double max_ratio) {
    const double area = static_cast<double>(image.height) * image.width;
    const double log_min = std::log(min_ratio);
    const double log_max = std::log(max_ratio);
    for (int attempt = 0; attempt < 10; ++attempt) {
        const double target_area = area * uniform(rng, min_scale, max_scale);
        const double aspect = std::exp(uniform(rng, log_min, log_max));
        const int w = static_cast<int>(std::lround(std::sqrt(target_area * aspect)));
        const int h = static_cast<int>(std::lround(std::sqrt(target_area / aspect)));
        if (w > 0 && h > 0 && w <= image.width && h <= image.height) {
            const int top = std::uniform_int_distribution<int>(0, image.height - h)(rng);
            const int left = std::uniform_int_distribution<int>(0, image.width - w)(rng);
            return {left, top, w, h};
        }
    }
    const double image_ratio = static_cast<double>(image.width) / image.height;
    int w = image.width;
    int h = image.height;
    if (image_ratio < min_ratio) {
        h = static_cast<int>(std::lround(w / min_ratio));
    } else if (image_ratio > max_ratio) {
        w = static_cast<int>(std::lround(h * max_ratio));
    }
    h = std::clamp(h, 1, image.height);
    w = std::clamp(w, 1, image.width);
    return {(image.width - w) / 2, (image.height - h) / 2, w, h};
}

cv::Mat random_resized_crop(const cv::Mat& image, Rng& rng, int height, int width, double min_scale,
                            double max_scale, double min_ratio, double max_ratio) {
    const cv::Rect box =
        random_crop_box(image.size(), rng, min_scale, max_scale, min_ratio, max_ratio);
    return resize(image(box), height, width);
}

cv::Mat resize(const cv::Mat& image, int height, int width) {
    if (height < 1 || width < 1) {
        throw Error("cannot resize an image to " + std::to_string(width) + "x" +
                    std::to_string(height) + " pixels");
    }
    if (image.rows == height && image.cols == width) {
        return image.clone();
    }
    // Area averaging prevents aliasing when shrinking, but OpenCV is fast at it only for whole
    // factors: shrink by the largest whole factor first (trimming at most factor - 1 pixels),
    // then finish with bilinear interpolation, which is then at most a 2x reduction.
    const int factor = std::min(image.cols / width, image.rows / height);
    cv::Mat source = image;
    if (factor >= 2) {
        const cv::Mat trimmed =
            image(cv::Rect(0, 0, image.cols / factor * factor, image.rows / factor * factor));
        cv::resize(trimmed, source, cv::Size(trimmed.cols / factor, trimmed.rows / factor), 0, 0,
                   cv::INTER_AREA);
        if (source.rows == height && source.cols == width) {
            return source;
        }
    }
    cv::Mat resized;
    cv::resize(source, resized, cv::Size(width, height), 0, 0, cv::INTER_LINEAR);
    return resized;
}

void horizontal_flip(cv::Mat& image) {
    cv::flip(image, image, 1);
}

void vertical_flip(cv::Mat& image) {
    cv::flip(image, image, 0);
}

namespace {

using Affine = cv::Matx34f; // B, G, R rows: out = M * (b, g, r) + t

cv::Matx33f linear_part(const Affine& affine) {
    return affine.get_minor<3, 3>(0, 0);
}

// `op` after `current`, as one affine map.
Affine then(const Affine& current, const cv::Matx33f& matrix, const cv::Vec3f& offset) {
    const cv::Matx33f linear = matrix * linear_part(current);
    const cv::Vec3f shift =
        matrix * cv::Vec3f(current(0, 3), current(1, 3), current(2, 3)) + offset;
    return Affine(linear(0, 0), linear(0, 1), linear(0, 2), shift[0], //
                  linear(1, 0), linear(1, 1), linear(1, 2), shift[1], //
                  linear(2, 0), linear(2, 1), linear(2, 2), shift[2]);
}

cv::Matx33f saturation_matrix(float factor) {
    const float f = factor;
    const float g = 1.0f - f;
    return {f + g * kLumaB, g * kLumaG,     g * kLumaR, //
            g * kLumaB,     f + g * kLumaG, g * kLumaR, //
            g * kLumaB,     g * kLumaG,     f + g * kLumaR};
}

// Rodrigues' rotation about (1, 1, 1) / sqrt(3), in B, G, R order.
cv::Matx33f hue_matrix(double turns) {
    const double angle = 2.0 * CV_PI * turns;
    const auto c = static_cast<float>(std::cos(angle));
    const auto s = static_cast<float>(std::sin(angle) / std::sqrt(3.0));
    const float t = (1.0f - c) / 3.0f;
    return {c + t, t + s, t - s, //
            t - s, c + t, t + s, //
            t + s, t - s, c + t};
}

} // namespace

void apply_color_ops(cv::Mat& image, const std::vector<ColorOp>& ops) {
    if (ops.empty()) {
        return;
    }
    const bool needs_mean = std::any_of(ops.begin(), ops.end(), [](const ColorOp& op) {
        return op.kind == ColorOp::Kind::Contrast;
    });
    const cv::Scalar mean = needs_mean ? cv::mean(image) : cv::Scalar();
    const cv::Vec3f mean_bgr(static_cast<float>(mean[0]), static_cast<float>(mean[1]),
                             static_cast<float>(mean[2]));
    const cv::Vec3f luma(kLumaB, kLumaG, kLumaR);
    Affine affine = Affine::eye();
    for (const ColorOp& op : ops) {
        const auto f = static_cast<float>(op.factor);
        switch (op.kind) {
        case ColorOp::Kind::Brightness:
            affine = then(affine, cv::Matx33f::eye() * f, cv::Vec3f());
            break;
        case ColorOp::Kind::Contrast: {
            // The grey mean of the image as it is at this point of the chain.
            const cv::Vec3f current_mean = linear_part(affine) * mean_bgr +
                                           cv::Vec3f(affine(0, 3), affine(1, 3), affine(2, 3));
            const float grey = luma.dot(current_mean);
            affine = then(affine, cv::Matx33f::eye() * f, cv::Vec3f::all((1.0f - f) * grey));
            break;
        }
        case ColorOp::Kind::Saturation:
            affine = then(affine, saturation_matrix(f), cv::Vec3f());
            break;
        case ColorOp::Kind::Hue:
            affine = then(affine, hue_matrix(op.factor), cv::Vec3f());
            break;
        }
    }
    cv::transform(image, image, affine);
}

std::vector<ColorOp> draw_color_jitter(Rng& rng, const ColorJitter& jitter) {
    std::array<ColorOp::Kind, 4> order{ColorOp::Kind::Brightness, ColorOp::Kind::Contrast,
                                       ColorOp::Kind::Saturation, ColorOp::Kind::Hue};
    std::shuffle(order.begin(), order.end(), rng);
    const auto factor = [&](double x) { return uniform(rng, std::max(0.0, 1.0 - x), 1.0 + x); };
    std::vector<ColorOp> ops;
    for (const ColorOp::Kind kind : order) {
        switch (kind) {
        case ColorOp::Kind::Brightness:
            if (jitter.brightness > 0) {
                ops.push_back({kind, factor(jitter.brightness)});
            }
            break;
        case ColorOp::Kind::Contrast:
            if (jitter.contrast > 0) {
                ops.push_back({kind, factor(jitter.contrast)});
            }
            break;
        case ColorOp::Kind::Saturation:
            if (jitter.saturation > 0) {
                ops.push_back({kind, factor(jitter.saturation)});
            }
            break;
        case ColorOp::Kind::Hue:
            if (jitter.hue > 0) {
                ops.push_back({kind, uniform(rng, -jitter.hue, jitter.hue)});
            }
            break;
        }
    }
    return ops;
}

void gaussian_blur(cv::Mat& image, double sigma) {
    if (sigma < kSmallestVisibleSigma) {
        return;
    }
    // The kernel reaches 2 sigma each side (95% of the weight; OpenCV's default reaches 3):
    // 13 taps shrink to 9 at sigma 2, with no visible difference.
    const int radius = std::max(1, static_cast<int>(std::ceil(2.0 * sigma)));
    cv::GaussianBlur(image, image, cv::Size(2 * radius + 1, 2 * radius + 1), sigma, sigma,
                     cv::BORDER_REFLECT_101);
}

void solarize(cv::Mat& image, int threshold) {
    std::array<std::uint8_t, 256> table{};
    for (int v = 0; v < 256; ++v) {
        table[v] = static_cast<std::uint8_t>(v >= threshold ? 255 - v : v);
    }
    apply_lut(image, table);
}

void write_normalized(const cv::Mat& image, int channels, const float mean[3], const float std[3],
                      float* out) {
    // Split into byte planes, then let OpenCV's vectorised convertTo scale each plane straight
    // into the output: twice as fast as one interleaved scalar loop.
    const int height = image.rows;
    const int width = image.cols;
    const std::size_t plane = static_cast<std::size_t>(height) * width;
    const auto write_plane = [&](const cv::Mat& source, int c) {
        cv::Mat destination(height, width, CV_32FC1, out + c * plane);
        source.convertTo(destination, CV_32F, 1.0 / (255.0 * std[c]), -mean[c] / std[c]);
    };
    if (channels == 1) {
        cv::Mat gray;
        cv::cvtColor(image, gray, cv::COLOR_BGR2GRAY);
        write_plane(gray, 0);
        return;
    }
    cv::Mat bgr[3];
    cv::split(image, bgr);
    for (int c = 0; c < 3; ++c) {
        write_plane(bgr[2 - c], c); // RGB planes from BGR pixels
    }
}

} // namespace kiln::data
