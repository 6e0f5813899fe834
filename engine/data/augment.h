#pragma once

#include <cstdint>
#include <opencv2/core/mat.hpp>
#include <random>
#include <vector>

namespace kiln::data {

// Images travel through decoding and augmentation as 8-bit, 3-channel BGR (OpenCV's order,
// which spares a conversion); the tensors the loader writes are RGB.

using Rng = std::mt19937_64;

// The random stream of one sample in one epoch: the same (seed, epoch, index) always gives the
// same augmentations, whichever worker thread draws them.
Rng sample_rng(std::uint64_t seed, std::uint64_t epoch, std::uint64_t index);

double uniform(Rng& rng, double low, double high);
bool chance(Rng& rng, double probability);

// torchvision's RandomResizedCrop box: covering a fraction of the area drawn from
// [min_scale, max_scale], with an aspect ratio drawn log-uniformly from [min_ratio, max_ratio];
// ten tries, then a centre crop with the ratio clamped into range.
cv::Rect random_crop_box(cv::Size image, Rng& rng, double min_scale, double max_scale,
                         double min_ratio = 3.0 / 4.0, double max_ratio = 4.0 / 3.0);

// The box above, cut out and resized to height x width.
cv::Mat random_resized_crop(const cv::Mat& image, Rng& rng, int height, int width, double min_scale,
                            double max_scale, double min_ratio = 3.0 / 4.0,
                            double max_ratio = 4.0 / 3.0);

// Resize with area averaging when shrinking by 2x or more (no aliasing), bilinear otherwise.
cv::Mat resize(const cv::Mat& image, int height, int width);

void horizontal_flip(cv::Mat& image);
void vertical_flip(cv::Mat& image);

// One colour adjustment with a fixed factor, as torchvision defines it: brightness scales,
// contrast blends with the mean grey, saturation blends with each pixel's grey (factor 0: grey,
// 1: unchanged), hue turns the colour wheel by `factor` turns (in [-0.5, 0.5]).
struct ColorOp {
    enum class Kind { Brightness, Contrast, Saturation, Hue };
    Kind kind;
    double factor;
};

// Applies `ops` in order. All four are affine in the colour channels, so they compose into one
// 3x4 matrix applied in a single pass, clipping to [0, 255] once at the end (torchvision clips
// after each op; the two differ only where an intermediate value leaves that range). Hue turns
// about the grey diagonal of the colour cube: exact for thirds of a turn (red -> green ->
// blue), close to an HSV hue shift between, and keeps grey grey.
void apply_color_ops(cv::Mat& image, const std::vector<ColorOp>& ops);

// torchvision's ColorJitter: factors drawn from [max(0, 1 - x), 1 + x] for brightness,
// contrast and saturation and from [-hue, hue] for hue, applied in a random order.
struct ColorJitter {
    double brightness = 0.0;
    double contrast = 0.0;
    double saturation = 0.0;
    double hue = 0.0; // at most 0.5
};
std::vector<ColorOp> draw_color_jitter(Rng& rng, const ColorJitter& jitter);

// Grey, as a colour op to chain with others: saturation 0 (three equal channels).
constexpr ColorOp kGrayscale{ColorOp::Kind::Saturation, 0.0};

// Below this sigma the smallest kernel's side taps weigh exp(-1 / (2 sigma^2)) < 1/2900 of its
// centre: no 8-bit value would move by half a level, so the blur (at small view sizes, where the
// default sigmas shrink with the view) costs time and changes nothing, and is skipped.
inline constexpr double kSmallestVisibleSigma = 0.25;
void gaussian_blur(cv::Mat& image, double sigma);
void solarize(cv::Mat& image, int threshold = 128); // inverts pixels >= threshold

// Writes `image` as planar float (RGB order for colour, one plane for grayscale),
// (value / 255 - mean) / std, to `out` (channels x height x width floats).
void write_normalized(const cv::Mat& image, int channels, const float mean[3], const float std[3],
                      float* out);

} // namespace kiln::data
