#include "data/augment.h"

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

std::uint8_t saturate(double value) {
    return static_cast<std::uint8_t>(std::clamp(std::lround(value), 0L, 255L));
}

double grayscale_mean(const cv::Mat& image) {
    cv::Mat gray;
    cv::cvtColor(image, gray, cv::COLOR_BGR2GRAY);
    return cv::mean(gray)[0];
}

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
    if (image.rows == height && image.cols == width) {
        return image.clone();
    }
    cv::Mat resized;
    const bool shrinking = height < image.rows && width < image.cols;
    cv::resize(image, resized, cv::Size(width, height), 0, 0,
               shrinking ? cv::INTER_AREA : cv::INTER_LINEAR);
    return resized;
}

void horizontal_flip(cv::Mat& image) {
    cv::flip(image, image, 1);
}

void vertical_flip(cv::Mat& image) {
    cv::flip(image, image, 0);
}

void adjust_brightness(cv::Mat& image, double factor) {
    std::array<std::uint8_t, 256> table{};
    for (int v = 0; v < 256; ++v) {
        table[v] = saturate(v * factor);
    }
    apply_lut(image, table);
}

void adjust_contrast(cv::Mat& image, double factor) {
    const double mean = grayscale_mean(image);
    std::array<std::uint8_t, 256> table{};
    for (int v = 0; v < 256; ++v) {
        table[v] = saturate(factor * v + (1.0 - factor) * mean);
    }
    apply_lut(image, table);
}

void adjust_saturation(cv::Mat& image, double factor) {
    cv::Mat gray;
    cv::cvtColor(image, gray, cv::COLOR_BGR2GRAY);
    cv::cvtColor(gray, gray, cv::COLOR_GRAY2BGR);
    cv::addWeighted(image, factor, gray, 1.0 - factor, 0.0, image);
}

void adjust_hue(cv::Mat& image, double shift) {
    // OpenCV's 8-bit hue runs over [0, 180): one unit is two degrees.
    cv::Mat hsv;
    cv::cvtColor(image, hsv, cv::COLOR_BGR2HSV);
    const int offset = static_cast<int>(std::lround(shift * 180.0));
    std::array<std::uint8_t, 256> table{};
    for (int v = 0; v < 256; ++v) {
        table[v] = static_cast<std::uint8_t>(v < 180 ? ((v + offset) % 180 + 180) % 180 : v);
    }
    cv::Mat channels[3];
    cv::split(hsv, channels);
    apply_lut(channels[0], table);
    cv::merge(channels, 3, hsv);
    cv::cvtColor(hsv, image, cv::COLOR_HSV2BGR);
}

void color_jitter(cv::Mat& image, Rng& rng, const ColorJitter& jitter) {
    std::array<int, 4> order{0, 1, 2, 3};
    std::shuffle(order.begin(), order.end(), rng);
    const auto factor = [&](double x) { return uniform(rng, std::max(0.0, 1.0 - x), 1.0 + x); };
    for (const int op : order) {
        switch (op) {
        case 0:
            if (jitter.brightness > 0) {
                adjust_brightness(image, factor(jitter.brightness));
            }
            break;
        case 1:
            if (jitter.contrast > 0) {
                adjust_contrast(image, factor(jitter.contrast));
            }
            break;
        case 2:
            if (jitter.saturation > 0) {
                adjust_saturation(image, factor(jitter.saturation));
            }
            break;
        default:
            if (jitter.hue > 0) {
                adjust_hue(image, uniform(rng, -jitter.hue, jitter.hue));
            }
            break;
        }
    }
}

void to_grayscale(cv::Mat& image) {
    cv::Mat gray;
    cv::cvtColor(image, gray, cv::COLOR_BGR2GRAY);
    cv::cvtColor(gray, image, cv::COLOR_GRAY2BGR);
}

void gaussian_blur(cv::Mat& image, double sigma) {
    cv::GaussianBlur(image, image, cv::Size(0, 0), sigma, sigma, cv::BORDER_REFLECT_101);
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
    const int height = image.rows;
    const int width = image.cols;
    const std::size_t plane = static_cast<std::size_t>(height) * width;
    if (channels == 1) {
        cv::Mat gray;
        cv::cvtColor(image, gray, cv::COLOR_BGR2GRAY);
        const float scale = 1.0f / (255.0f * std[0]);
        const float shift = -mean[0] / std[0];
        for (int y = 0; y < height; ++y) {
            const std::uint8_t* row = gray.ptr<std::uint8_t>(y);
            float* destination = out + static_cast<std::size_t>(y) * width;
            for (int x = 0; x < width; ++x) {
                destination[x] = row[x] * scale + shift;
            }
        }
        return;
    }
    // BGR pixels in, RGB planes out: plane c reads source channel 2 - c.
    float scale[3];
    float shift[3];
    for (int c = 0; c < 3; ++c) {
        scale[c] = 1.0f / (255.0f * std[c]);
        shift[c] = -mean[c] / std[c];
    }
    float* red = out;
    float* green = out + plane;
    float* blue = out + 2 * plane;
    for (int y = 0; y < height; ++y) {
        const std::uint8_t* row = image.ptr<std::uint8_t>(y);
        const std::size_t base = static_cast<std::size_t>(y) * width;
        for (int x = 0; x < width; ++x) {
            const std::uint8_t* pixel = row + 3 * x;
            red[base + x] = pixel[2] * scale[0] + shift[0];
            green[base + x] = pixel[1] * scale[1] + shift[1];
            blue[base + x] = pixel[0] * scale[2] + shift[2];
        }
    }
}

} // namespace kiln::data
