#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

namespace kiln::test {

// An IDX image and label file (as Fashion-MNIST's, uncompressed) of two shapes that a small
// CNN tells apart at once, 28 x 28: label 0 a filled square, label 1 a ring, in varying sizes
// and brightness. `kiln generate-scenes` makes detection sets of them.
inline void write_shapes_idx(const std::filesystem::path& images,
                             const std::filesystem::path& labels, int count) {
    const auto big_endian = [](std::ofstream& out, std::uint32_t value) {
        const char bytes[4] = {char(value >> 24), char(value >> 16), char(value >> 8), char(value)};
        out.write(bytes, 4);
    };
    std::ofstream image_file(images, std::ios::binary);
    std::ofstream label_file(labels, std::ios::binary);
    big_endian(image_file, 0x803);
    big_endian(image_file, std::uint32_t(count));
    big_endian(image_file, 28);
    big_endian(image_file, 28);
    big_endian(label_file, 0x801);
    big_endian(label_file, std::uint32_t(count));
    for (int i = 0; i < count; ++i) {
        cv::Mat shape = cv::Mat::zeros(28, 28, CV_8U);
        const int label = i % 2;
        const int brightness = 160 + (i * 37) % 96;
        const int side = 14 + (i * 5) % 12;
        const int corner = (28 - side) / 2;
        if (label == 0) {
            shape(cv::Rect(corner, corner, side, side)).setTo(brightness);
        } else {
            cv::circle(shape, {14, 14}, side / 2, cv::Scalar(brightness), 3);
        }
        image_file.write(reinterpret_cast<const char*>(shape.data), 28 * 28);
        label_file.put(char(label));
    }
}

} // namespace kiln::test
