// Data pipeline: dataset index, decoding, augmentations, views, the loader and dataset tools.

#include "core/error.h"
#include "core/log.h"
#include "data/augment.h"
#include "data/dataset_index.h"
#include "data/dataset_labels.h"
#include "data/dataset_optimizer.h"
#include "data/idx_import.h"
#include "data/image_decode.h"
#include "data/image_sizes.h"
#include "data/labelled_data.h"
#include "data/labelled_samples.h"
#include "data/loader.h"
#include "data/sample_source.h"
#include "data/scene_generator.h"
#include "data/view_transform.h"
#include "eval/coco/rle.h"
#include "support/error_text.h"
#include "support/file_size_limit.h"
#include "support/peak_memory.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>
#include <fstream>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <sys/stat.h>
#include <thread>
#include <torch/types.h>
#include <zlib.h>

using nlohmann::json;

namespace fs = std::filesystem;
using kiln::data::Rng;

namespace {

// A colourful image whose content depends on `seed`, so that every file differs.
cv::Mat syntheticImage(int height, int width, int seed) {
    cv::Mat image(height, width, CV_8UC3);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            image.at<cv::Vec3b>(y, x) =
                cv::Vec3b((x * 255 / width + seed * 37) % 256, (y * 255 / height + seed * 11) % 256,
                          ((x + y) * 3 + seed * 5) % 256);
        }
    }
    cv::circle(image, {width / 3, height / 2}, std::min(width, height) / 4,
               cv::Scalar(seed % 256, 255 - seed % 256, 128), -1);
    return image;
}

void writeImage(const fs::path& path, const cv::Mat& image) {
    fs::create_directories(path.parent_path());
    QVERIFY(cv::imwrite(path.string(), image));
}

void writeImage(const fs::path& path, int height, int width) {
    writeImage(path, syntheticImage(height, width, static_cast<int>(path.string().size())));
}

std::string readAll(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), {});
}

void writeBytes(const fs::path& path, const std::string& bytes) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << bytes;
}

std::string readBytes(const fs::path& path) {
    std::ifstream file(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(file), {}};
}

std::vector<std::string> filenames(const kiln::data::DatasetIndex& index) {
    std::vector<std::string> names;
    for (std::size_t i = 0; i < index.size(); ++i) {
        names.emplace_back(index.filename(i));
    }
    return names;
}

// Gzip-compressed IDX file with the given magic, dimensions and payload.
void writeIdx(const fs::path& path, std::uint32_t magic, const std::vector<std::uint32_t>& dims,
              const std::vector<unsigned char>& payload) {
    std::vector<unsigned char> bytes;
    const auto put = [&](std::uint32_t v) {
        for (int shift = 24; shift >= 0; shift -= 8) {
            bytes.push_back(static_cast<unsigned char>(v >> shift));
        }
    };
    put(magic);
    for (std::uint32_t d : dims) {
        put(d);
    }
    bytes.insert(bytes.end(), payload.begin(), payload.end());
    gzFile file = gzopen(path.c_str(), "wb");
    gzwrite(file, bytes.data(), static_cast<unsigned>(bytes.size()));
    gzclose(file);
}

// A PNG of `width` x `height` samples of `bit_depth` bits (rows packed as PNG packs them),
// grey (colour type 0) or palette-indexed (3, with `palette`'s RGB triples): layouts OpenCV
// reads but cannot write.
void writeRawPng(const fs::path& path, int width, int height, int bit_depth, int colour_type,
                 const std::vector<int>& samples, const std::vector<unsigned char>& palette = {}) {
    std::vector<unsigned char> out = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    const auto put32 = [](std::vector<unsigned char>& bytes, std::uint32_t v) {
        for (int shift = 24; shift >= 0; shift -= 8) {
            bytes.push_back(static_cast<unsigned char>(v >> shift));
        }
    };
    const auto chunk = [&](const char* type, const std::vector<unsigned char>& data) {
        put32(out, static_cast<std::uint32_t>(data.size()));
        std::vector<unsigned char> typed(type, type + 4);
        typed.insert(typed.end(), data.begin(), data.end());
        out.insert(out.end(), typed.begin(), typed.end());
        put32(out, static_cast<std::uint32_t>(crc32(0, typed.data(), typed.size())));
    };
    std::vector<unsigned char> header;
    put32(header, width);
    put32(header, height);
    header.insert(header.end(), {static_cast<unsigned char>(bit_depth),
                                 static_cast<unsigned char>(colour_type), 0, 0, 0});
    chunk("IHDR", header);
    if (!palette.empty()) {
        chunk("PLTE", palette);
    }
    std::vector<unsigned char> rows;
    const int per_byte = 8 / bit_depth;
    for (int y = 0; y < height; ++y) {
        rows.push_back(0); // no filter
        for (int x = 0; x < width; x += per_byte) {
            unsigned char packed = 0;
            for (int i = 0; i < per_byte && x + i < width; ++i) {
                packed |= static_cast<unsigned char>(samples[y * width + x + i]
                                                     << (8 - bit_depth * (i + 1)));
            }
            rows.push_back(packed);
        }
    }
    uLongf size = compressBound(static_cast<uLong>(rows.size()));
    std::vector<unsigned char> compressed(size);
    compress(compressed.data(), &size, rows.data(), static_cast<uLong>(rows.size()));
    compressed.resize(size);
    chunk("IDAT", compressed);
    chunk("IEND", {});
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(out.data()), std::streamsize(out.size()));
}

kiln::data::TransformArgs smallSimclr(int size = 32) {
    std::vector<kiln::ConfigIssue> issues;
    return kiln::data::simclr_transform({{"image_size", {size, size}}}, issues);
}

std::string index_name(const kiln::data::DatasetIndex& index, std::int64_t sample) {
    return std::string(index.filename(static_cast<std::size_t>(sample)));
}

std::vector<kiln::data::Batch> wholeEpoch(kiln::data::Loader& loader, std::int64_t epoch) {
    std::vector<kiln::data::Batch> batches;
    loader.start_epoch(epoch);
    while (auto batch = loader.next()) {
        batches.push_back(std::move(*batch));
    }
    return batches;
}

} // namespace

class DataTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir temp_;
    fs::path root_;
    fs::path images_; // 24 JPEG and PNG images in two class folders

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(temp_.isValid());
        root_ = temp_.path().toStdString();
        images_ = root_ / "images";
        for (int i = 0; i < 24; ++i) {
            const std::string folder = i % 2 == 0 ? "cats" : "dogs";
            const std::string extension = i % 3 == 0 ? ".png" : ".jpg";
            char name[32];
            std::snprintf(name, sizeof name, "%02d", i);
            writeImage(images_ / folder / (name + extension), syntheticImage(60 + i, 80 - i, i));
        }
    }

    // ---- dataset index ----

    // Previews show the classes in turn, each class's samples in order; a class short of
    // samples leaves its turn to the others.
    void stratifiedPicksTakeTheClassesInTurn() {
        using kiln::data::stratified_picks;
        const std::vector<std::int64_t> class_of = {3, 3, 3, 3, 1, 1, -1, 3, 1};
        QCOMPARE(stratified_picks(class_of, 6), (std::vector<std::int64_t>{0, 4, 6, 1, 5, 2}));
        QCOMPARE(stratified_picks(class_of, 100),
                 (std::vector<std::int64_t>{0, 4, 6, 1, 5, 2, 8, 3, 7}));
        QCOMPARE(stratified_picks(class_of, 0), std::vector<std::int64_t>{});
        QCOMPARE(stratified_picks({}, 8), std::vector<std::int64_t>{});
    }

    void indexIsRecursiveSortedAndRelative() {
        const fs::path data = root_ / "index";
        writeImage(data / "b.JPG", syntheticImage(8, 8, 1));
        writeImage(data / "a" / "z.png", syntheticImage(8, 8, 2));
        writeImage(data / "a" / "deep" / "y.jpeg", syntheticImage(8, 8, 3));
        writeBytes(data / "notes.txt", "not an image");
        writeBytes(data / "a" / "no_extension", "x");
        writeBytes(data / "c.WebP", "");
        writeBytes(data / "d.tiff", "");
        const auto index = kiln::data::DatasetIndex::scan({data});
        QCOMPARE(filenames(index), (std::vector<std::string>{"a/deep/y.jpeg", "a/z.png", "b.JPG",
                                                             "c.WebP", "d.tiff"}));
        QCOMPARE(index.path(2), data / "b.JPG");
        QCOMPARE(std::string(index.top_level_folder(0)), std::string("a"));
        QCOMPARE(std::string(index.top_level_folder(2)), std::string(""));
        // The names' fingerprint: the same set in any order gives the same, another set not.
        const auto fingerprint = [](const std::vector<std::string>& names) {
            kiln::data::NamesFingerprint digest;
            for (const std::string& name : names) {
                digest.add(name);
            }
            return digest.value();
        };
        const std::vector<std::string> names = filenames(index);
        QCOMPARE(index.fingerprint(), fingerprint(names));
        QCOMPARE(fingerprint({"a.png", "b.png"}), fingerprint({"b.png", "a.png"}));
        QVERIFY(fingerprint({"a.png", "b.png"}) != fingerprint({"a.png", "c.png"}));
        QVERIFY(fingerprint({"ab.png"}) != fingerprint({"ba.png"}));
        QVERIFY(fingerprint({}) != fingerprint({""})); // an empty name still counts
    }

    void indexTakesListsOfFoldersAndFiles() {
        const auto index = kiln::data::DatasetIndex::scan(
            {images_ / "dogs", root_ / "index" / "b.JPG", images_ / "cats"});
        QCOMPARE(index.size(), std::size_t(25));
        QCOMPARE(std::string(index.filename(0)), std::string("01.jpg")); // dogs first, as given
        QCOMPARE(std::string(index.filename(12)), std::string("b.JPG"));
        QCOMPARE(index.path(12), root_ / "index" / "b.JPG");
        QCOMPARE(std::string(index.filename(13)), std::string("00.png"));
        // A folder listed twice, under another spelling too: its images would count twice.
        QVERIFY(kiln::test::throwsContaining(
            [&] { kiln::data::DatasetIndex::scan({images_ / "dogs", images_ / "dogs"}); },
            "data lists \"" + (images_ / "dogs").string() +
                "\" twice; each of its images would "
                "count twice: list it once"));
        QVERIFY(kiln::test::throwsContaining(
            [&] {
                kiln::data::DatasetIndex::scan(
                    {images_ / "dogs", images_ / "cats" / ".." / "dogs/"});
            },
            "the same place,"));
    }

    void indexFollowsLinksWithoutLooping() {
        const fs::path data = root_ / "links";
        writeImage(data / "real" / "x.png", syntheticImage(8, 8, 4));
        fs::create_directory_symlink(data, data / "real" / "loop");       // back to an ancestor
        fs::create_directory_symlink(data / "real", data / "alias");      // a second way in
        fs::create_symlink(data / "real" / "x.png", data / "linked.png"); // a file link
        fs::create_symlink(data / "missing.png", data / "dangling.png");
        // Links above the folder given: to its parent, and to the root of the disk (which
        // walked every image on it).
        fs::create_directory_symlink(root_, data / "real" / "parent");
        fs::create_directory_symlink("/", data / "everything");
        fs::create_symlink("/dev/zero", data / "real" / "device.jpg");
        fs::create_symlink(data / "gone.png", data / "\x1b[31mred.png"); // a terminal escape
        std::vector<std::string> warnings;
        const kiln::log::ScopedSink sink([&](kiln::log::Level level, const std::string& message) {
            if (level == kiln::log::Level::Warning) {
                warnings.push_back(message);
            }
        });
        const auto index = kiln::data::DatasetIndex::scan({data});
        QCOMPARE(filenames(index), (std::vector<std::string>{"alias/x.png", "linked.png"}));
        // What is passed over that looks like data is said, once a scan.
        QCOMPARE(warnings.size(), std::size_t(1));
        QVERIFY2(warnings[0].find("skipped 3 entries named as images that are no files") !=
                         std::string::npos &&
                     warnings[0].find("the first \"\\x1b[31mred.png\"") != std::string::npos,
                 warnings[0].c_str());
        kiln::data::DatasetIndex::scan({data}); // the same again, in the same job: said once
        QCOMPARE(warnings.size(), std::size_t(1));
    }

    void indexErrorsNameThePath() {
        QVERIFY(kiln::test::throwsContaining(
            [&] { kiln::data::DatasetIndex::scan({root_ / "nowhere"}); },
            "\"" + (root_ / "nowhere").string() + "\" does not exist"));
        fs::create_directories(root_ / "empty" / "sub");
        QVERIFY(
            kiln::test::throwsContaining([&] { kiln::data::DatasetIndex::scan({root_ / "empty"}); },
                                         "no images found in \"" + (root_ / "empty").string()));
        writeBytes(root_ / "readme.md", "#");
        QVERIFY(kiln::test::throwsContaining(
            [&] { kiln::data::DatasetIndex::scan({root_ / "readme.md"}); },
            "is not an image file"));
    }

    // ---- decoding ----

    void decodeGivesEightBitThreeChannels() {
        const fs::path gray = root_ / "decode" / "gray.png";
        writeImage(gray, cv::Mat(4, 6, CV_8UC1, cv::Scalar(77)));
        cv::Mat image = kiln::data::decode_image(gray);
        QCOMPARE(image.type(), CV_8UC3);
        QCOMPARE(image.at<cv::Vec3b>(2, 3), cv::Vec3b(77, 77, 77));

        const fs::path deep = root_ / "decode" / "deep.png";
        cv::Mat sixteen(2, 2, CV_16UC3, cv::Scalar(65535, 32768, 0));
        writeImage(deep, sixteen);
        image = kiln::data::decode_image(deep);
        QCOMPARE(image.type(), CV_8UC3);
        QCOMPARE(image.at<cv::Vec3b>(0, 0), cv::Vec3b(255, 128, 0));

        const fs::path alpha = root_ / "decode" / "alpha.png";
        writeImage(alpha, cv::Mat(3, 3, CV_8UC4, cv::Scalar(10, 20, 30, 0)));
        image = kiln::data::decode_image(alpha);
        QCOMPARE(image.type(), CV_8UC3);
        QCOMPARE(image.at<cv::Vec3b>(1, 1), cv::Vec3b(10, 20, 30));
    }

    void unreadableFilesAreNamedErrors() {
        const fs::path folder = root_ / "broken";
        writeBytes(folder / "empty.jpg", "");
        writeBytes(folder / "text.png", "this is not a png");
        writeImage(folder / "whole.jpg", syntheticImage(64, 64, 9));
        const std::string jpeg = readBytes(folder / "whole.jpg");
        writeBytes(folder / "truncated.jpg", jpeg.substr(0, jpeg.size() / 2));
        const std::string png = readBytes(images_ / "cats" / "00.png");
        writeBytes(folder / "truncated.png", png.substr(0, png.size() / 2));
        QVERIFY(kiln::test::throwsContaining(
            [&] { kiln::data::decode_image(folder / "empty.jpg"); }, "empty.jpg\" is empty"));
        QVERIFY(kiln::test::throwsContaining([&] { kiln::data::decode_image(folder / "text.png"); },
                                             "text.png\" is not a readable image"));
        QVERIFY(kiln::test::throwsContaining(
            [&] { kiln::data::decode_image(folder / "truncated.jpg"); },
            "truncated.jpg\" is not a readable JPEG: Premature end"));
        QVERIFY(kiln::test::throwsContaining(
            [&] { kiln::data::decode_image(folder / "truncated.png"); },
            "truncated.png\" is a PNG cut short or damaged")); // not libpng's line on stderr
        QVERIFY(kiln::test::throwsContaining(
            [&] { kiln::data::read_mask(folder / "truncated.png"); }, "is a PNG cut short"));
        QVERIFY(kiln::test::throwsContaining(
            [&] { kiln::data::decode_image(folder / "absent.png"); }, "cannot open"));
        QVERIFY(!kiln::data::decode_image(folder / "whole.jpg").empty());
    }

    void imagesDeclaringTooManyPixelsAreRefusedBeforeDecoding() {
        const fs::path folder = root_ / "huge";
        // A real PNG's header patched to declare 30000 x 30000 pixels: 2.7 GB if decoded.
        std::string png = readBytes(images_ / "cats" / "00.png");
        for (const std::size_t at : {16, 20}) {
            png.replace(at, 4, std::string("\x00\x00\x75\x30", 4));
        }
        writeBytes(folder / "bomb.png", png);
        QVERIFY(kiln::test::throwsContaining([&] { kiln::data::decode_image(folder / "bomb.png"); },
                                             "declares 30000 x 30000 pixels, more than "
                                             "loader_args.max_image_pixels"));
        // As a mask, compared with its image's size from both headers: it was decoded whole
        // (1.3 GB) before the sizes were compared.
        QVERIFY(kiln::test::throwsContaining(
            [&] { kiln::data::read_mask_of(folder / "bomb.png", images_ / "cats" / "00.png"); },
            "bomb.png\" is 30000x30000 but its image"));
        // Every format whose header Kiln reads: its size without decoding, and the cap.
        for (const std::string name :
             {"a.png", "a.jpg", "a.bmp", "a.webp", "a.tif", "a.ppm", "a.ras"}) {
            writeImage(folder / name, syntheticImage(30, 50, 3));
            const auto bytes = kiln::data::read_file(folder / name);
            QCOMPARE(kiln::data::stored_image_size(bytes, name), cv::Size(50, 30));
            QVERIFY(!kiln::data::decode_image(bytes, name, 0, 1500).empty());
            QVERIFY2(kiln::test::throwsContaining(
                         [&] { kiln::data::decode_image(bytes, name, 0, 1499); },
                         "declares 50 x 30 pixels"),
                     name.c_str());
        }
    }

    // TIFF, Netpbm and PAM files of a few bytes declaring 30000 x 30000 pixels (a 16 KB TIFF
    // whose strips share their bytes decoded to 3.5 GB), a mask and its image both declaring
    // it, and formats whose sizes Kiln does not read.
    void everyDecodedFormatsSizeIsCheckedFirst() {
        const fs::path folder = root_ / "huge-formats";
        const std::string side("\x00\x00\x75\x30", 4);
        // Big-endian BigTIFF: header, first directory at 16, two LONG entries.
        std::string tiff("MM\x00\x2b\x00\x08\x00\x00", 8);
        tiff += std::string("\x00\x00\x00\x00\x00\x00\x00\x10", 8) + std::string(7, '\0') + '\x02';
        for (const char tag : {'\x00', '\x01'}) {
            tiff += std::string("\x01", 1) + tag + std::string("\x00\x04", 2) +
                    std::string(7, '\0') + '\x01' + side + std::string(4, '\0');
        }
        const std::vector<std::pair<std::string, std::string>> files = {
            {"bomb.tif", tiff},
            {"bomb.ppm", "P6\n# made by hand\n30000 30000\n255\n"},
            {"bomb.pam", "P7\nWIDTH 30000\nHEIGHT 30000\nDEPTH 3\nMAXVAL 255\nENDHDR\n"}};
        for (const auto& [name, bytes] : files) {
            writeBytes(folder / name, bytes);
            QVERIFY2(kiln::test::throwsContaining(
                         [&] { kiln::data::decode_image(folder / name); },
                         "declares 30000 x 30000 pixels, more than loader_args.max_image_pixels"),
                     name.c_str());
        }
        writeBytes(folder / "image.ppm", "P6 30000 30000 255\n");
        QVERIFY(kiln::test::throwsContaining(
            [&] { kiln::data::read_mask_of(folder / "bomb.tif", folder / "image.ppm"); },
            "bomb.tif\" declares 30000 x 30000 pixels, more than loader_args.max_image_pixels"));
        writeBytes(folder / "scene.exr", std::string("\x76\x2f\x31\x01\x02\x00\x00\x00", 8));
        writeBytes(folder / "scene.hdr",
                   "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 30000 +X 30000\n");
        for (const char* name : {"scene.exr", "scene.hdr"}) {
            QVERIFY2(kiln::test::throwsContaining([&] { kiln::data::decode_image(folder / name); },
                                                  "convert it to PNG or JPEG"),
                     name);
        }
    }

    void reducedJpegDecodingKeepsEnoughPixels() {
        const fs::path path = root_ / "decode" / "large.jpg";
        writeImage(path, syntheticImage(1200, 1600, 5));
        const std::vector<unsigned char> bytes = kiln::data::read_file(path);
        QCOMPARE(kiln::data::jpeg_size(bytes), cv::Size(1600, 1200));
        QCOMPARE(kiln::data::decode_image(path).size(), cv::Size(1600, 1200));
        QCOMPARE(kiln::data::decode_image(path, 224).size(), cv::Size(400, 300));   // 1/4
        QCOMPARE(kiln::data::decode_image(path, 100).size(), cv::Size(200, 150));   // 1/8
        QCOMPARE(kiln::data::decode_image(path, 700).size(), cv::Size(1600, 1200)); // none fits
        QCOMPARE(kiln::data::jpeg_size(kiln::data::read_file(images_ / "cats" / "00.png")),
                 cv::Size(0, 0));
    }

    // A file's declared size is read from its start: a few KB, more for a JPEG whose frame
    // header follows much metadata (an ICC profile, an EXIF thumbnail), never past 1 MB.
    void aFilesDeclaredSizeIsReadFromItsStart() {
        const fs::path folder = root_ / "headers";
        const fs::path plain = folder / "plain.jpg";
        writeImage(plain, syntheticImage(120, 160, 3));
        std::vector<unsigned char> jpeg = kiln::data::read_file(plain);
        QCOMPARE(kiln::data::read_file(plain, 100).size(), std::size_t{100});
        QCOMPARE(kiln::data::read_file(plain, jpeg.size() + 5), jpeg);
        using Size = std::array<std::int64_t, 2>;
        QCOMPARE(kiln::data::declared_image_size(plain), std::optional<Size>(Size{160, 120}));
        // APP segments of 64 KB after the start of image, before the frame header.
        const auto withMetadata = [&jpeg](int segments) {
            std::vector<unsigned char> bytes(jpeg.begin(), jpeg.begin() + 2);
            for (int i = 0; i < segments; ++i) {
                const std::vector<unsigned char> app = {0xFF, 0xE2, 0xFF, 0xFF};
                bytes.insert(bytes.end(), app.begin(), app.end());
                bytes.insert(bytes.end(), 0xFFFF - 2, 0);
            }
            bytes.insert(bytes.end(), jpeg.begin() + 2, jpeg.end());
            return std::string(bytes.begin(), bytes.end());
        };
        writeBytes(folder / "profiled.jpg", withMetadata(3)); // 192 KB before its frame
        QCOMPARE(kiln::data::declared_image_size(folder / "profiled.jpg"),
                 std::optional<Size>(Size{160, 120}));
        writeBytes(folder / "buried.jpg", withMetadata(17)); // over 1 MB
        QCOMPARE(kiln::data::declared_image_size(folder / "buried.jpg"), std::optional<Size>());
        writeBytes(folder / "short.ppm", "P6 30000 20000 255\n");
        QCOMPARE(kiln::data::declared_image_size(folder / "short.ppm"),
                 std::optional<Size>(Size{30000, 20000}));
        writeBytes(folder / "notes.png", std::string(20000, 'x'));
        QCOMPARE(kiln::data::declared_image_size(folder / "notes.png"), std::optional<Size>());
    }

    // ---- augmentations ----

    void cropBoxesStayWithinTheirBounds() {
        Rng rng = kiln::data::sample_rng(1, 2, 3);
        const cv::Size size(500, 375);
        for (int i = 0; i < 2000; ++i) {
            const cv::Rect box = kiln::data::random_crop_box(size, rng, 0.08, 1.0);
            QVERIFY((box & cv::Rect(0, 0, 500, 375)) == box);
            const double scale = box.area() / double(size.area());
            const double ratio = box.width / double(box.height);
            const bool fallback = box == cv::Rect(0, 0, 500, 375);
            if (!fallback) { // rounding of width and height loosens the bounds slightly
                QVERIFY2(scale > 0.075 && scale <= 1.0, qPrintable(QString::number(scale)));
                QVERIFY2(ratio > 0.74 && ratio < 1.35, qPrintable(QString::number(ratio)));
            }
        }
        const cv::Rect narrow = kiln::data::random_crop_box(cv::Size(1000, 10), rng, 0.9, 1.0);
        QVERIFY(narrow.width <= 14 && narrow.height == 10); // centre crop, ratio clamped to 4/3
        const cv::Mat view =
            kiln::data::random_resized_crop(syntheticImage(50, 70, 1), rng, 24, 32, 0.2, 0.5);
        QCOMPARE(view.size(), cv::Size(32, 24));
    }

    void aFlipIsAFlip() {
        const cv::Mat original = syntheticImage(5, 7, 3);
        cv::Mat image = original.clone();
        kiln::data::horizontal_flip(image);
        QCOMPARE(image.at<cv::Vec3b>(1, 0), original.at<cv::Vec3b>(1, 6));
        kiln::data::horizontal_flip(image);
        QCOMPARE(cv::norm(image, original, cv::NORM_INF), 0.0);
        kiln::data::vertical_flip(image);
        QCOMPARE(image.at<cv::Vec3b>(0, 2), original.at<cv::Vec3b>(4, 2));
    }

    void colourOpsFollowTheirDefinitions() {
        const cv::Mat original = syntheticImage(16, 16, 7);
        using Op = kiln::data::ColorOp;
        const auto applied = [&](std::vector<Op> ops) {
            cv::Mat image = original.clone();
            kiln::data::apply_color_ops(image, ops);
            return image;
        };
        QCOMPARE(cv::countNonZero(applied({{Op::Kind::Brightness, 0.0}}).reshape(1)), 0);
        QCOMPARE(cv::norm(applied({{Op::Kind::Brightness, 1.0}}), original, cv::NORM_INF), 0.0);
        const cv::Mat brighter = applied({{Op::Kind::Brightness, 1.5}});
        QCOMPARE(brighter.at<cv::Vec3b>(3, 4)[1],
                 cv::saturate_cast<uchar>(original.at<cv::Vec3b>(3, 4)[1] * 1.5));

        double low = 0;
        double high = 0;
        cv::minMaxLoc(applied({{Op::Kind::Contrast, 0.0}}).reshape(1), &low, &high);
        QVERIFY(high - low <= 1.0); // everything becomes the grey mean

        std::vector<cv::Mat> planes;
        cv::split(applied({{Op::Kind::Saturation, 0.0}}), planes); // grey: equal channels
        QVERIFY(cv::norm(planes[0], planes[1], cv::NORM_INF) <= 1.0);
        QVERIFY(cv::norm(planes[1], planes[2], cv::NORM_INF) <= 1.0);

        cv::Mat red(1, 1, CV_8UC3, cv::Scalar(0, 0, 255));              // BGR
        kiln::data::apply_color_ops(red, {{Op::Kind::Hue, 1.0 / 3.0}}); // a third turn: green
        QVERIFY(cv::norm(red.at<cv::Vec3b>(0, 0), cv::Vec3b(0, 255, 0), cv::NORM_INF) <= 1);
        QVERIFY(cv::norm(applied({{Op::Kind::Hue, 0.0}}), original, cv::NORM_INF) == 0.0);
        cv::Mat grey(1, 1, CV_8UC3, cv::Scalar(90, 90, 90));
        kiln::data::apply_color_ops(grey, {{Op::Kind::Hue, 0.27}});
        QCOMPARE(grey.at<cv::Vec3b>(0, 0), cv::Vec3b(90, 90, 90));

        // Composed: brightness then contrast 0 gives the grey mean of the brightened image.
        const cv::Mat chained = applied({{Op::Kind::Brightness, 0.5}, {Op::Kind::Contrast, 0.0}});
        const cv::Scalar mean = cv::mean(original);
        const double expected = 0.5 * (0.114 * mean[0] + 0.587 * mean[1] + 0.299 * mean[2]);
        QVERIFY(std::abs(chained.at<cv::Vec3b>(0, 0)[0] - expected) <= 1.0);

        cv::split(applied({kiln::data::kGrayscale}), planes);
        QVERIFY(cv::norm(planes[0], planes[2], cv::NORM_INF) <= 1.0);
        cv::Mat image;

        cv::Mat levels(1, 3, CV_8UC3);
        levels.at<cv::Vec3b>(0, 0) = cv::Vec3b(0, 127, 128);
        levels.at<cv::Vec3b>(0, 1) = cv::Vec3b(200, 255, 10);
        levels.at<cv::Vec3b>(0, 2) = cv::Vec3b(129, 1, 254);
        kiln::data::solarize(levels);
        QCOMPARE(levels.at<cv::Vec3b>(0, 0), cv::Vec3b(0, 127, 127));
        QCOMPARE(levels.at<cv::Vec3b>(0, 1), cv::Vec3b(55, 0, 10));
        QCOMPARE(levels.at<cv::Vec3b>(0, 2), cv::Vec3b(126, 1, 1));

        image = original.clone();
        kiln::data::gaussian_blur(image, 2.0);
        cv::Mat edgesBefore;
        cv::Mat edgesAfter;
        cv::Laplacian(original, edgesBefore, CV_32F);
        cv::Laplacian(image, edgesAfter, CV_32F);
        QVERIFY(cv::norm(edgesAfter) < 0.5 * cv::norm(edgesBefore));

        // Below the smallest visible sigma a blur changes no 8-bit value, so it is skipped.
        const double faint = 0.99 * kiln::data::kSmallestVisibleSigma;
        cv::Mat blurred;
        cv::GaussianBlur(original, blurred, cv::Size(3, 3), faint, faint, cv::BORDER_REFLECT_101);
        QCOMPARE(cv::norm(blurred, original, cv::NORM_INF), 0.0);
        image = original.clone();
        kiln::data::gaussian_blur(image, faint);
        QCOMPARE(cv::norm(image, original, cv::NORM_INF), 0.0);
    }

    void jitterDrawsFromItsRanges() {
        const cv::Mat original(8, 8, CV_8UC3, cv::Scalar(100, 100, 100));
        for (int i = 0; i < 50; ++i) {
            Rng rng = kiln::data::sample_rng(4, 0, static_cast<std::uint64_t>(i));
            cv::Mat image = original.clone();
            const auto ops = kiln::data::draw_color_jitter(rng, {0.5, 0.0, 0.0, 0.0});
            QCOMPARE(ops.size(), std::size_t(1));
            kiln::data::apply_color_ops(image, ops);
            const double value = image.at<cv::Vec3b>(0, 0)[0];
            QVERIFY(value >= 50 && value <= 150); // brightness factor in [0.5, 1.5]
        }
    }

    void normalizationWritesRgbPlanes() {
        cv::Mat pixel(1, 2, CV_8UC3);
        pixel.at<cv::Vec3b>(0, 0) = cv::Vec3b(0, 128, 255); // B G R
        pixel.at<cv::Vec3b>(0, 1) = cv::Vec3b(255, 255, 255);
        const float mean[3] = {0.5f, 0.5f, 0.5f};
        const float std[3] = {0.5f, 0.25f, 1.0f};
        float out[6];
        kiln::data::write_normalized(pixel, 3, mean, std, out);
        QCOMPARE(out[0], 1.0f); // R of pixel 0: (1 - 0.5) / 0.5
        QVERIFY(qAbs(out[2] - (128 / 255.0f - 0.5f) / 0.25f) < 1e-6f); // G plane
        QCOMPARE(out[4], -0.5f); // B of pixel 0: (0 - 0.5) / 1
        QCOMPARE(out[5], 0.5f);
        float gray[2];
        kiln::data::write_normalized(pixel, 1, mean, std, gray);
        QCOMPARE(gray[1], 1.0f);
    }

    // ---- views ----

    void simclrViewsHaveLightlyTrainsDefaults() {
        std::vector<kiln::ConfigIssue> issues;
        const auto transform = kiln::data::simclr_transform(nullptr, issues);
        QVERIFY(issues.empty());
        QCOMPARE(transform.views.size(), std::size_t(2));
        const auto& view = transform.views[0];
        QCOMPARE(view.height, 224);
        QCOMPARE(view.min_scale, 0.08);
        QCOMPARE(view.horizontal_flip_prob, 0.5);
        QCOMPARE(view.color_jitter_prob, 0.8);
        QCOMPARE(view.color_jitter.brightness, 0.8);
        QCOMPARE(view.color_jitter.hue, 0.2);
        QCOMPARE(view.gray_prob, 0.2);
        QCOMPARE(view.blur_prob, 0.5);
        QCOMPARE(view.solarize_prob, 0.0);
    }

    void dinoViewsHaveLightlyTrainsDefaults() {
        std::vector<kiln::ConfigIssue> issues;
        const auto transform = kiln::data::dino_transform(nullptr, issues);
        QVERIFY(issues.empty());
        QCOMPARE(transform.views.size(), std::size_t(8));
        QCOMPARE(transform.views[0].height, 224);
        QCOMPARE(transform.views[0].min_scale, 0.14);
        QCOMPARE(transform.views[0].blur_prob, 1.0);
        QCOMPARE(transform.views[1].blur_prob, 0.1);
        QCOMPARE(transform.views[1].solarize_prob, 0.2);
        QCOMPARE(transform.views[0].solarize_prob, 0.0);
        for (std::size_t v = 2; v < 8; ++v) {
            QCOMPARE(transform.views[v].height, 96);
            QCOMPARE(transform.views[v].min_scale, 0.05);
            QCOMPARE(transform.views[v].max_scale, 0.14);
            QCOMPARE(transform.views[v].blur_prob, 0.5);
        }
    }

    void transformArgsUseLightlyTrainsKeys() {
        const nlohmann::json args = {
            {"image_size", {64, 48}},
            {"random_resize", {{"min_scale", 0.3}}},
            {"random_flip", {{"vertical_prob", 0.25}}},
            {"color_jitter", {{"strength", 0.5}, {"prob", 1.0}}},
            {"random_gray_scale", 0.0},
            {"gaussian_blur", {{"prob", 0.0}, {"sigmas", {0.5, 1.0}}}},
            {"local_view", {{"num_views", 2}, {"view_size", {32, 32}}}},
            {"global_view_2", {{"solarize", {{"prob", 0.5}}}}},
            {"normalize", {{"mean", {0.0, 0.0, 0.0}}, {"std", {1.0, 1.0, 1.0}}}}};
        std::vector<kiln::ConfigIssue> issues;
        const auto transform = kiln::data::dino_transform(args, issues);
        QVERIFY(issues.empty());
        QCOMPARE(transform.views.size(), std::size_t(4));
        QCOMPARE(transform.views[0].height, 64);
        QCOMPARE(transform.views[0].width, 48);
        QCOMPARE(transform.views[0].min_scale, 0.3);
        QCOMPARE(transform.views[0].vertical_flip_prob, 0.25);
        QCOMPARE(transform.views[0].color_jitter.brightness, 0.2); // DINO's 0.4 x strength 0.5
        QCOMPARE(transform.views[1].solarize_prob, 0.5);
        QCOMPARE(transform.views[3].height, 32);
        QCOMPARE(transform.min_decode_side(), 64);
        QCOMPARE(transform.mean[0], 0.0f);
    }

    void viewSizesScaleTheBlurAndDinosLocalViews() {
        std::vector<kiln::ConfigIssue> issues;
        const auto small = kiln::data::simclr_transform({{"image_size", 32}}, issues);
        QVERIFY(issues.empty());
        // LightlyTrain's 0.1-2 px at 224 px become the same share of a 32 px view.
        QCOMPARE(small.views[0].blur_sigma_min, 0.1 * 32 / 224);
        QCOMPARE(small.views[0].blur_sigma_max, 2.0 * 32 / 224);
        const auto given = kiln::data::simclr_transform(
            {{"image_size", 32}, {"gaussian_blur", {{"sigmas", {0.5, 1.0}}}}}, issues);
        QCOMPARE(given.views[0].blur_sigma_max, 1.0); // what is given is kept
        const auto large = kiln::data::simclr_transform({{"image_size", 448}}, issues);
        QCOMPARE(large.views[0].blur_sigma_max, 4.0);

        const auto dino_at = [&](int side, nlohmann::json local_view = nlohmann::json::object()) {
            return kiln::data::dino_transform(
                {{"image_size", side}, {"local_view", std::move(local_view)}}, issues);
        };
        QCOMPARE(dino_at(112).views.size(), std::size_t(8));
        QCOMPARE(dino_at(112).views[2].height, 48); // 96 x 112 / 224
        QCOMPARE(dino_at(112).views[0].blur_sigma_max, 1.0);
        QCOMPARE(dino_at(224).views[2].height, 96);
        // Local views narrower than 32 px are left out unless asked for.
        QCOMPARE(dino_at(64).views.size(), std::size_t(2)); // 27 px
        QCOMPARE(dino_at(32).views.size(), std::size_t(2));
        const nlohmann::json two = {{"num_views", 2}};
        QCOMPARE(dino_at(32, two).views.size(), std::size_t(4));
        QCOMPARE(dino_at(32, two).views[2].height, 16); // 14, raised to 16 px
        QCOMPARE(dino_at(12, two).views[2].height, 12); // never above the global view
        QCOMPARE(dino_at(32, {{"view_size", 32}}).views.size(), std::size_t(8)); // wide enough
        QVERIFY(issues.empty());
        // The count resolved is what a run records, for resuming with the same views.
        using kiln::data::ViewRecipe;
        const auto recorded_views = [&](ViewRecipe recipe, int side) {
            const nlohmann::json args = {{"image_size", side}};
            return kiln::data::with_resolved_view_counts(
                recipe, args, kiln::data::recipe_transform(recipe, args));
        };
        QCOMPARE(recorded_views(ViewRecipe::MultiCrop, 32)["local_view"]["num_views"],
                 nlohmann::json(0));
        QCOMPARE(recorded_views(ViewRecipe::MultiCrop, 224)["local_view"]["num_views"],
                 nlohmann::json(6));
        QCOMPARE(recorded_views(ViewRecipe::Pair, 32), nlohmann::json({{"image_size", 32}}));
        QCOMPARE(kiln::data::recipe_transform(ViewRecipe::Single, nullptr).views.size(),
                 std::size_t(1));
    }

    void classifierCropsKeepSmallImagesRecognisable() {
        // ImageNet's crops from 8% of the area, but never under 28 px a side.
        QCOMPARE(kiln::data::classification_min_scale(224, 224), 0.08);
        QCOMPARE(kiln::data::classification_min_scale(640, 480), 0.08);
        QCOMPARE(kiln::data::classification_min_scale(32, 32), 28.0 * 28.0 / (32.0 * 32.0));
        QCOMPARE(kiln::data::classification_min_scale(64, 96), 28.0 * 28.0 / (64.0 * 64.0));
        QCOMPARE(kiln::data::classification_min_scale(16, 16), 1.0); // the whole image
        // What it defaults is a default: the user's min_scale is taken as given.
        const auto transform = kiln::data::finetune_transform(
            {{"image_size", 32}, {"random_resize", {{"min_scale", 0.1}}}}, true,
            kiln::data::classification_min_scale(32, 32));
        QCOMPARE(transform.views[0].min_scale, 0.1);
        QCOMPARE(kiln::data::finetune_transform({{"image_size", 32}}, true,
                                                kiln::data::classification_min_scale(32, 32))
                     .views[0]
                     .min_scale,
                 0.765625);
    }

    void autoViewSizesNeverBlowUpSmallImages() {
        const std::vector<std::array<int, 2>> garments(5, {28, 28});
        const auto small = kiln::data::auto_view_size(garments, 224);
        QCOMPARE(small.height, 32);
        QCOMPARE(small.width, 32);
        QVERIFY(small.explanation().find("median 28x28") != std::string::npos);
        QVERIFY(small.explanation().find("at most 224") != std::string::npos);
        // Square views of the shorter side; photos keep the method's 224 px.
        QCOMPARE(kiln::data::auto_view_size({{96, 64}, {100, 70}, {90, 60}}, 224).height, 64);
        const auto photos = kiln::data::auto_view_size({{640, 480}, {500, 375}, {800, 600}}, 224);
        QCOMPARE(photos.height, 224);
        QCOMPARE(photos.width, 224);
        QVERIFY_THROWS_EXCEPTION(kiln::Error, kiln::data::auto_view_size({}, 224));

        int resolved = 0;
        const auto resolve = [&] {
            ++resolved;
            return small;
        };
        const nlohmann::json given = {{"image_size", 48}, {"random_gray_scale", 0.0}};
        QCOMPARE(kiln::data::with_resolved_image_size(given, resolve), given);
        QCOMPARE(kiln::data::with_resolved_image_size(nullptr, resolve), nlohmann::json::object());
        QCOMPARE(resolved, 0); // the images are only read for auto
        const nlohmann::json sized = kiln::data::with_resolved_image_size(
            {{"image_size", "auto"}, {"random_gray_scale", 0.0}}, resolve);
        QCOMPARE(sized, nlohmann::json({{"image_size", {32, 32}}, {"random_gray_scale", 0.0}}));
        QCOMPARE(resolved, 1);
        // Checking the settings before the images are read takes auto at the method's size.
        QCOMPARE(
            kiln::data::recipe_transform(kiln::data::ViewRecipe::Pair, {{"image_size", "auto"}})
                .views[0]
                .height,
            224);
    }

    void badTransformArgsAreNamed() {
        const nlohmann::json args = {{"color_jiter", {{"prob", 1.0}}},
                                     {"random_flip", {{"horizontal_prob", 1.5}}},
                                     {"normalize", {{"mean", {0.5}}}},
                                     {"num_channels", 2}};
        try {
            kiln::data::recipe_transform(kiln::data::ViewRecipe::Pair, args);
            QFAIL("accepted bad transform_args");
        } catch (const kiln::ConfigError& error) {
            const std::string text = error.what();
            QVERIFY(
                text.find(
                    "transform_args.color_jiter: unknown key; did you mean \"color_jitter\"?") !=
                std::string::npos);
            QVERIFY(
                text.find("transform_args.random_flip.horizontal_prob: must be between 0 and 1") !=
                std::string::npos);
            QVERIFY(text.find("transform_args.normalize.mean: expected a list of 3 numbers") !=
                    std::string::npos);
            QVERIFY(text.find("transform_args.num_channels: must be 1 (grayscale) or 3") !=
                    std::string::npos);
            QCOMPARE(error.issues().size(), std::size_t(4));
        }
    }

    void grayscaleViewsSkipColourOps() {
        kiln::data::ViewArgs view;
        view.height = view.width = 16;
        view.color_jitter_prob = 1.0;
        view.color_jitter = {0.0, 0.0, 0.0, 0.5};
        Rng rng = kiln::data::sample_rng(0, 0, 0);
        const cv::Mat image = syntheticImage(32, 32, 1);
        const cv::Mat once = kiln::data::make_view(image, view, 1, rng);
        QCOMPARE(once.size(), cv::Size(16, 16));
        kiln::data::ViewArgs plain = view;
        plain.color_jitter_prob = 0.0;
        Rng same = kiln::data::sample_rng(0, 0, 0);
        QCOMPARE(cv::norm(kiln::data::make_view(image, plain, 1, same), once, cv::NORM_INF), 0.0);
    }

    // ---- loader ----

    void batchesAreIdenticalWithAnyNumberOfWorkers() {
        const auto index = kiln::data::DatasetIndex::scan({images_});
        std::vector<std::vector<kiln::data::Batch>> runs;
        for (int workers : {0, 1, 3, 8}) {
            kiln::data::LoaderOptions options;
            options.batch_size = 5;
            options.num_workers = workers;
            options.seed = 42;
            kiln::data::Loader loader(index, smallSimclr(), options);
            runs.push_back(wholeEpoch(loader, 3));
        }
        QCOMPARE(runs[0].size(), std::size_t(4)); // 24 images, batches of 5, drop_last
        for (std::size_t run = 1; run < runs.size(); ++run) {
            QCOMPARE(runs[run].size(), runs[0].size());
            for (std::size_t b = 0; b < runs[0].size(); ++b) {
                QCOMPARE(runs[run][b].indices, runs[0][b].indices);
                for (std::size_t v = 0; v < 2; ++v) {
                    QVERIFY(torch::equal(runs[run][b].views[v], runs[0][b].views[v]));
                }
            }
        }
        const at::Tensor& view = runs[0][0].views[0];
        QCOMPARE(view.sizes().vec(), (std::vector<std::int64_t>{5, 3, 32, 32}));
        QVERIFY(view.is_contiguous());
        QCOMPARE(view.scalar_type(), torch::kFloat32);
        QVERIFY(!torch::equal(runs[0][0].views[0], runs[0][0].views[1])); // two different views
    }

    void seedsAndEpochsChangeTheBatches() {
        const auto index = kiln::data::DatasetIndex::scan({images_});
        kiln::data::LoaderOptions options;
        options.batch_size = 8;
        kiln::data::Loader first(index, smallSimclr(), options);
        options.seed = 1;
        kiln::data::Loader second(index, smallSimclr(), options);
        QVERIFY(first.epoch_indices(0) != second.epoch_indices(0));
        QVERIFY(first.epoch_indices(0) != first.epoch_indices(1));
        options.shuffle = false;
        kiln::data::Loader ordered(index, smallSimclr(), options);
        QCOMPARE(ordered.epoch_indices(5),
                 (std::vector<std::int64_t>{0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11,
                                            12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}));
    }

    void shardsCoverEveryIndexOncePerEpoch() {
        const auto index = kiln::data::DatasetIndex::scan({images_}); // 24 images
        for (const bool dropLast : {true, false}) {
            for (const int world : {1, 2, 3, 5}) {
                std::vector<int> seen(index.size(), 0);
                std::size_t length = 0;
                for (int rank = 0; rank < world; ++rank) {
                    kiln::data::LoaderOptions options;
                    options.rank = rank;
                    options.world_size = world;
                    options.drop_last = dropLast;
                    options.seed = 7;
                    kiln::data::Loader loader(index, smallSimclr(), options);
                    const auto mine = loader.epoch_indices(2);
                    if (rank == 0) {
                        length = mine.size();
                    }
                    QCOMPARE(mine.size(), length); // equal shares
                    for (const std::int64_t i : mine) {
                        ++seen[static_cast<std::size_t>(i)];
                    }
                }
                const int missing = static_cast<int>(std::count(seen.begin(), seen.end(), 0));
                const int twice = static_cast<int>(
                    std::count_if(seen.begin(), seen.end(), [](int n) { return n > 1; }));
                if (dropLast) {
                    QCOMPARE(missing, 24 % world); // the remainder is dropped
                    QCOMPARE(twice, 0);
                } else {
                    QCOMPARE(missing, 0);
                    QCOMPARE(twice, (world - 24 % world) % world); // padded by repeats
                }
            }
        }
    }

    void lastBatchIsKeptWithoutDropLast() {
        const auto index = kiln::data::DatasetIndex::scan({images_});
        kiln::data::LoaderOptions options;
        options.batch_size = 10;
        options.drop_last = false;
        options.shuffle = false;
        kiln::data::Loader loader(index, kiln::data::embed_transform(16, 20), options);
        const auto batches = wholeEpoch(loader, 0);
        QCOMPARE(batches.size(), std::size_t(3));
        QCOMPARE(batches[2].views[0].size(0), 4);
        QCOMPARE(batches[2].views[0].sizes().vec(), (std::vector<std::int64_t>{4, 3, 16, 20}));
        QCOMPARE(batches[2].indices.back(), 23);
    }

    void unreadableFilesAreSkippedAndCounted() {
        const fs::path data = root_ / "mixed";
        for (int i = 0; i < 6; ++i) {
            writeImage(data / ("good" + std::to_string(i) + ".png"), syntheticImage(20, 20, i));
        }
        writeBytes(data / "empty.jpg", "");
        writeBytes(data / "garbage.png", "garbage");
        std::vector<std::string> warnings;
        std::mutex mutex;
        const kiln::log::ScopedSink sink([&](kiln::log::Level level, const std::string& message) {
            const std::lock_guard<std::mutex> lock(mutex);
            if (level == kiln::log::Level::Warning) {
                warnings.push_back(message);
            }
        });
        const auto index = kiln::data::DatasetIndex::scan({data});
        kiln::data::LoaderOptions options;
        options.batch_size = 8;
        options.drop_last = false;
        options.num_workers = 2;
        kiln::data::Loader loader(index, smallSimclr(16), options);
        for (int epoch = 0; epoch < 2; ++epoch) {
            const auto batches = wholeEpoch(loader, epoch);
            QCOMPARE(batches.size(), std::size_t(1));
            QCOMPARE(batches[0].indices.size(), std::size_t(6));
            QCOMPARE(batches[0].views[0].size(0), 6);
        }
        QCOMPARE(loader.skipped_files(), 2);
        QCOMPARE(warnings.size(), std::size_t(2)); // each named once, not once per epoch
        QVERIFY(std::any_of(warnings.begin(), warnings.end(), [](const std::string& w) {
            return w.find("empty.jpg") != std::string::npos;
        }));
    }

    // Training batches stay whole: an unreadable image's place goes to a readable one (a batch
    // of one made batch norm's statistics NaN; an empty batch read as a stop). Determinism
    // holds, and a batch that nothing can fill is an error naming an image.
    void trainingBatchesAreFilledPastUnreadableImages() {
        const fs::path data = root_ / "fill";
        for (int i = 0; i < 9; ++i) {
            writeImage(data / ("good" + std::to_string(i) + ".png"), syntheticImage(20, 20, i));
        }
        for (int i = 0; i < 3; ++i) {
            writeBytes(data / ("bad" + std::to_string(i) + ".png"), "not an image");
        }
        const kiln::log::ScopedSink quiet([](kiln::log::Level, const std::string&) {});
        const auto index = kiln::data::DatasetIndex::scan({data});
        kiln::data::LoaderOptions options;
        options.batch_size = 4;
        options.fill_batches = true;
        const auto epochOf = [&](int workers) {
            options.num_workers = workers;
            kiln::data::Loader loader(index, smallSimclr(16), options);
            return wholeEpoch(loader, 1);
        };
        const auto batches = epochOf(0);
        QCOMPARE(batches.size(), std::size_t(3));
        for (const auto& batch : batches) {
            QCOMPARE(batch.indices.size(), std::size_t(4));
            QCOMPARE(batch.views[0].size(0), 4);
            for (const std::int64_t sample : batch.indices) {
                QVERIFY(index_name(index, sample).rfind("good", 0) == 0);
            }
        }
        const auto again = epochOf(2);
        for (std::size_t b = 0; b < batches.size(); ++b) {
            QCOMPARE(again[b].indices, batches[b].indices);
            QVERIFY(torch::equal(again[b].views[0], batches[b].views[0]));
        }

        // One readable image among 40: every batch has it (the stand-ins go once round the
        // epoch, so a batch may be short here). None readable: an error naming one.
        const fs::path unreadable = root_ / "fill-one";
        for (int i = 0; i < 40; ++i) {
            writeBytes(unreadable / ("bad" + std::to_string(i) + ".png"), "not an image");
        }
        writeImage(unreadable / "good.png", syntheticImage(20, 20, 1));
        const auto mostly_bad = kiln::data::DatasetIndex::scan({unreadable});
        options.num_workers = 0;
        kiln::data::Loader filled(mostly_bad, smallSimclr(16), options);
        const auto whole = wholeEpoch(filled, 0);
        QCOMPARE(whole.size(), std::size_t(10));
        for (const auto& batch : whole) {
            QVERIFY(!batch.indices.empty());
            for (const std::int64_t sample : batch.indices) {
                QCOMPARE(index_name(mostly_bad, sample), std::string("good.png"));
            }
        }
        fs::remove(unreadable / "good.png");
        const auto all_bad = kiln::data::DatasetIndex::scan({unreadable});
        kiln::data::Loader empty(all_bad, smallSimclr(16), options);
        QVERIFY(kiln::test::throwsContaining([&] { wholeEpoch(empty, 0); },
                                             "none of the 40 images could be read, e.g.: \""));
    }

    void imagesOverThePixelCapAreSkippedAndCounted() {
        const fs::path data = root_ / "capped";
        for (int i = 0; i < 4; ++i) {
            writeImage(data / ("small" + std::to_string(i) + ".png"), syntheticImage(20, 20, i));
        }
        writeImage(data / "large.png", syntheticImage(40, 40, 9));
        const kiln::log::ScopedSink quiet([](kiln::log::Level, const std::string&) {});
        kiln::data::LoaderOptions options;
        options.batch_size = 8;
        options.drop_last = false;
        options.max_image_pixels = 20 * 20;
        const auto index = kiln::data::DatasetIndex::scan({data}); // the loader keeps it
        kiln::data::Loader loader(index, smallSimclr(16), options);
        QCOMPARE(wholeEpoch(loader, 0).at(0).indices.size(), std::size_t(4));
        QCOMPARE(loader.skipped_files(), 1);
    }

    void nothingReadableIsAClearError() {
        const fs::path data = root_ / "allbad";
        writeBytes(data / "a.jpg", "");
        writeBytes(data / "b.png", "nope");
        writeBytes(data / "c.png", "nor this");
        const kiln::log::ScopedSink quiet([](kiln::log::Level, const std::string&) {});
        const auto index = kiln::data::DatasetIndex::scan({data});
        // Batches of 2 draw two of the three images; the error counts all three.
        kiln::data::LoaderOptions options;
        options.batch_size = 2;
        kiln::data::Loader loader(index, smallSimclr(16), options);
        loader.start_epoch(0);
        const auto drain = [&loader] {
            while (loader.next()) {
            }
        };
        QVERIFY(kiln::test::throwsContaining(drain, "none of the 3 images could be read, e.g.: "));
        QCOMPARE(loader.skipped_files(), 3);

        // One readable image left out of the drawn batch: fewer than a batch can be read.
        writeImage(data / "d.png", 20, 20);
        const auto more = kiln::data::DatasetIndex::scan({data});
        options.batch_size = 3;
        for (std::int64_t epoch = 0; epoch < 32; ++epoch) {
            kiln::data::Loader again(more, smallSimclr(16), options);
            again.start_epoch(epoch);
            try {
                while (const auto batch = again.next()) {
                    QVERIFY(batch->views[0].size(0) >= 1); // d.png was drawn this epoch
                }
            } catch (const kiln::Error& error) {
                QVERIFY2(std::string(error.what())
                                 .find("only 1 of the 4 images can be read, "
                                       "fewer than one batch (batch_size=3)") != std::string::npos,
                         error.what());
                return;
            }
        }
        QFAIL("no epoch left d.png out of its one batch");
    }

    void workerFailuresReachTheConsumerWithTheFileName() {
        const auto index = kiln::data::DatasetIndex::scan({images_});
        kiln::data::TransformArgs broken = kiln::data::embed_transform(16, 16);
        broken.views[0].height = 0; // OpenCV refuses to resize to nothing
        kiln::data::LoaderOptions options;
        options.batch_size = 4;
        options.num_workers = 2;
        options.shuffle = false;
        kiln::data::Loader loader(index, broken, options);
        loader.start_epoch(0);
        QVERIFY(kiln::test::throwsContaining(
            [&] { loader.next(); }, "while preparing \"" + (images_ / "cats" / "00.png").string()));
    }

    void stopMidEpochReturnsAndJoins() {
        const auto index = kiln::data::DatasetIndex::scan({images_});
        kiln::StopToken stop;
        kiln::data::LoaderOptions options;
        options.batch_size = 2;
        options.num_workers = 3;
        auto loader = std::make_unique<kiln::data::Loader>(index, smallSimclr(), options, stop);
        loader->start_epoch(0);
        QVERIFY(loader->next().has_value());
        stop.request_stop();
        QVERIFY(!loader->next().has_value());
        loader.reset(); // joins every worker; a hang here fails the test by timeout
        QVERIFY(stop.stop_requested());
    }

    void restartingAnEpochAbandonsTheOldOne() {
        const auto index = kiln::data::DatasetIndex::scan({images_});
        kiln::data::LoaderOptions options;
        options.batch_size = 3;
        options.num_workers = 2;
        kiln::data::Loader loader(index, smallSimclr(), options);
        loader.start_epoch(0);
        QVERIFY(loader.next().has_value());
        const auto batches = wholeEpoch(loader, 1);
        QCOMPARE(batches.size(), std::size_t(8));
        QCOMPARE(batches[0].number, 0);
        QCOMPARE(batches[0].indices[0], loader.epoch_indices(1)[0]);
        QVERIFY(loader.last_wait_seconds() >= 0.0);
    }

    // ---- dataset tools ----

    void importIdxRoundTrip() {
        const int count = 12;
        std::vector<unsigned char> pixels(count * 4 * 3);
        std::vector<unsigned char> labels(count);
        for (int i = 0; i < count; ++i) {
            labels[i] = static_cast<unsigned char>(i % 3);
            for (int p = 0; p < 12; ++p) {
                pixels[i * 12 + p] = static_cast<unsigned char>(i * 20 + p);
            }
        }
        const fs::path images = root_ / "idx" / "images-idx3-ubyte.gz";
        const fs::path labelFile = root_ / "idx" / "labels-idx1-ubyte.gz";
        fs::create_directories(images.parent_path());
        writeIdx(images, 0x803, {count, 4, 3}, pixels);
        writeIdx(labelFile, 0x801, {count}, labels);

        kiln::data::IdxImportOptions options;
        options.images = images;
        options.labels = labelFile;
        options.out = root_ / "idx" / "out";
        const auto result = kiln::data::import_idx(options);
        QCOMPARE(result.images, 12);
        QCOMPARE(result.per_label.size(), std::size_t(3));
        QCOMPARE(result.per_label.at(1), 4);
        const cv::Mat seventh = kiln::data::decode_image(options.out / "1" / "07.png");
        QCOMPARE(seventh.size(), cv::Size(3, 4));
        QCOMPARE(seventh.at<cv::Vec3b>(1, 2), cv::Vec3b(145, 145, 145)); // 7 * 20 + 1 * 3 + 2
        const auto index = kiln::data::DatasetIndex::scan({options.out});
        QCOMPARE(index.size(), std::size_t(12));
        QCOMPARE(std::string(index.top_level_folder(0)), std::string("0"));

        options.out = root_ / "idx" / "limited";
        options.limit = 5;
        options.format = "jpg";
        QCOMPARE(kiln::data::import_idx(options).images, 5);
        QVERIFY(fs::exists(options.out / "1" / "4.jpg"));
        // Named classes: a folder per name; no name leaves `out`, none is given twice, and a
        // label has a name whenever names are given (folders of names and numbers mixed).
        options.out = root_ / "idx" / "named";
        options.class_names = {"zero", "one", "two"};
        QCOMPARE(kiln::data::import_idx(options).images, 5);
        QVERIFY(fs::exists(options.out / "one" / "4.jpg"));
        QVERIFY(fs::exists(options.out / "two" / "2.jpg"));
        for (const std::string bad : {"../up", "..", ""}) {
            options.class_names = {"zero", bad, "two"};
            QVERIFY(kiln::test::throwsContaining([&] { kiln::data::import_idx(options); },
                                                 "cannot name a folder"));
        }
        QVERIFY(!fs::exists(root_ / "idx" / "up"));
        options.out = root_ / "idx" / "misnamed";
        options.class_names = {"zero", "one", "zero"};
        QVERIFY(kiln::test::throwsContaining([&] { kiln::data::import_idx(options); },
                                             "class name \"zero\" is given twice (names 1 and 3)"));
        options.class_names = {"zero", "one"};
        QVERIFY(
            kiln::test::throwsContaining([&] { kiln::data::import_idx(options); },
                                         "the labels go from 0 to 2, and 2 class names are given"));
        options.class_names.clear();
        options.limit = 0;
        QVERIFY(kiln::test::throwsContaining([&] { kiln::data::import_idx(options); },
                                             "give a limit of at least 1"));
        QVERIFY(!fs::exists(options.out));
        options.limit = 5;

        options.labels = images; // wrong file
        QVERIFY(kiln::test::throwsContaining([&] { kiln::data::import_idx(options); },
                                             "is not an IDX labels file"));
        writeIdx(labelFile, 0x801, {count - 1}, std::vector<unsigned char>(count - 1));
        options.labels = labelFile;
        QVERIFY(kiln::test::throwsContaining([&] { kiln::data::import_idx(options); },
                                             "has 12 images but labels file"));
        writeIdx(labelFile, 0x801, {count}, std::vector<unsigned char>(count - 2));
        QVERIFY(
            kiln::test::throwsContaining([&] { kiln::data::import_idx(options); }, "truncated"));
        // Data beyond what the header announces is not read on (a small gzip file of zeros
        // filled memory), nor is an announcement larger than the machine can hold; images
        // without pixels are refused before anything is written.
        writeIdx(labelFile, 0x801, {count}, std::vector<unsigned char>(count + 100000));
        QVERIFY(kiln::test::throwsContaining([&] { kiln::data::import_idx(options); },
                                             "12 bytes of data its header announces (more "
                                             "follow)"));
        // A header announcing far more than the file holds costs no more memory than the file.
        writeIdx(labelFile, 0x801, {1u << 28}, labels);
        const long peak_before = kiln::test::peak_resident_kilobytes();
        QVERIFY(
            kiln::test::throwsContaining([&] { kiln::data::import_idx(options); }, "truncated"));
        QVERIFY2(kiln::test::peak_resident_kilobytes() - peak_before < 64 * 1024,
                 qPrintable(QString::number(kiln::test::peak_resident_kilobytes() - peak_before)));
        writeIdx(labelFile, 0x801, {count}, labels);
        writeIdx(images, 0x803, {0xFFFFFFFFu, 65500, 65500}, {});
        QVERIFY(kiln::test::throwsContaining([&] { kiln::data::import_idx(options); },
                                             "more than half the memory free"));
        writeIdx(images, 0x803, {count, 0, 3}, {});
        options.out = root_ / "idx" / "empty-images";
        QVERIFY(kiln::test::throwsContaining([&] { kiln::data::import_idx(options); },
                                             "declares images of 0x3 pixels"));
        QVERIFY(!fs::exists(options.out));
    }

    void optimizeDatasetConvertsAndNeverTouchesTheSource() {
        const fs::path source = root_ / "optimize" / "source";
        writeImage(source / "big.png", syntheticImage(300, 400, 1));
        writeImage(source / "nested" / "tall.png", syntheticImage(200, 50, 2));
        writeImage(source / "nested" / "small.jpg", syntheticImage(30, 40, 3));
        writeImage(source / "same.png", syntheticImage(20, 20, 4));
        writeImage(source / "same.jpg", syntheticImage(20, 20, 5));
        writeBytes(source / "corrupt.png", "broken");
        std::map<std::string, std::string> before;
        for (const auto& entry : fs::recursive_directory_iterator(source)) {
            if (entry.is_regular_file()) {
                before[entry.path().string()] = readBytes(entry.path());
            }
        }
        const kiln::log::ScopedSink quiet([](kiln::log::Level, const std::string&) {});
        kiln::data::OptimizeOptions options;
        options.source = source;
        options.destination = root_ / "optimize" / "out";
        options.max_size = 100;
        options.quality = 85;
        options.num_workers = 2;
        std::int64_t lastDone = 0;
        const auto result = kiln::data::optimize_dataset(
            options, [&](std::int64_t done, std::int64_t) { lastDone = std::max(lastDone, done); });
        QCOMPARE(result.written, 5);
        QCOMPARE(lastDone, 6);
        QCOMPARE(result.skipped.size(), std::size_t(1));
        QVERIFY(result.skipped[0].find("corrupt.png") != std::string::npos);
        QCOMPARE(kiln::data::decode_image(options.destination / "big.jpg").size(),
                 cv::Size(100, 75));
        QCOMPARE(kiln::data::decode_image(options.destination / "nested" / "tall.jpg").size(),
                 cv::Size(25, 100));
        QCOMPARE(kiln::data::decode_image(options.destination / "nested" / "small.jpg").size(),
                 cv::Size(40, 30));
        QVERIFY(fs::exists(options.destination / "same.png.jpg"));
        QVERIFY(fs::exists(options.destination / "same.jpg.jpg"));
        for (const auto& [path, bytes] : before) {
            QCOMPARE(readBytes(path), bytes);
        }

        options.format = "webp";
        options.destination = root_ / "optimize" / "webp";
        QCOMPARE(kiln::data::optimize_dataset(options).written, 5);
        QCOMPARE(kiln::data::decode_image(options.destination / "big.webp").size(),
                 cv::Size(100, 75));

        // An image wider than WebP can hold (16,383 px a side) with no max_size: shrunk to
        // fit, not the end of the whole job with half a copy written.
        const fs::path wide = root_ / "optimize" / "wide";
        writeImage(wide / "panorama.png", syntheticImage(4, 20000, 6));
        writeImage(wide / "plain.png", syntheticImage(20, 20, 7));
        options.source = wide;
        options.destination = root_ / "optimize" / "wide-webp";
        options.max_size = 0;
        const auto shrunk = kiln::data::optimize_dataset(options);
        QCOMPARE(shrunk.written, 2);
        QVERIFY(shrunk.skipped.empty());
        QCOMPARE(kiln::data::decode_image(options.destination / "panorama.webp").size().width,
                 16383);
        options.source = source;
        options.max_size = 100;

        options.destination = source / "inside";
        QVERIFY(kiln::test::throwsContaining([&] { kiln::data::optimize_dataset(options); },
                                             "overlap"));
        QVERIFY(!fs::exists(source / "inside"));
        options.destination = root_ / "optimize";
        QVERIFY(kiln::test::throwsContaining([&] { kiln::data::optimize_dataset(options); },
                                             "overlap"));
        options.destination.clear(); // it wrote into the current folder
        QVERIFY(kiln::test::throwsContaining([&] { kiln::data::optimize_dataset(options); },
                                             "the destination is empty"));
        options.destination = root_ / "optimize" / "q";
        options.quality = 0;
        QVERIFY(kiln::test::throwsContaining([&] { kiln::data::optimize_dataset(options); },
                                             "quality"));
    }
    // ---- labelled data (fine-tuning) ----

    void classFoldersAndCsvsGiveLabelledSplits() {
        const fs::path root = root_ / "labelled";
        for (const char* split : {"train", "val"}) {
            for (const char* cls : {"cat", "dog"}) {
                writeImage(root / split / cls / "a.png", 8, 8);
                writeImage(root / split / cls / "b.png", 8, 8);
            }
        }
        const json folders = {{"train", (root / "train").string()},
                              {"val", (root / "val").string()}};
        const auto data = kiln::data::load_classification_data(folders);
        QCOMPARE(data.classes, (std::vector<std::string>{"cat", "dog"}));
        QCOMPARE(data.train.labels, (std::vector<std::vector<std::int64_t>>{{0}, {0}, {1}, {1}}));
        QVERIFY(!data.multilabel);
        QCOMPARE(data.val.names[2], std::string("dog/a.png"));
        // data.classes fixes the ids (here reversed), as a dictionary or a JSON file.
        json named = folders;
        named["classes"] = {{"0", "dog"}, {"1", "cat"}};
        QCOMPARE(kiln::data::load_classification_data(named).train.labels,
                 (std::vector<std::vector<std::int64_t>>{{1}, {1}, {0}, {0}}));
        std::ofstream(root / "classes.json") << R"(["dog", "cat"])";
        named["classes"] = (root / "classes.json").string();
        QCOMPARE(kiln::data::load_classification_data(named).classes[0], std::string("dog"));

        // A CSV of image,label with paths relative to it, labels by name or id.
        std::ofstream(root / "train.csv") << "image,label\ntrain/cat/a.png,cat\n"
                                             "\"train/dog/a.png\",1\ntrain/dog/b.png,dog\n";
        json csv = {{"train", (root / "train.csv").string()},
                    {"val", (root / "val").string()},
                    {"classes", {"cat", "dog"}}};
        const auto from_csv = kiln::data::load_classification_data(csv);
        QCOMPARE(from_csv.train.labels, (std::vector<std::vector<std::int64_t>>{{0}, {1}, {1}}));
        QCOMPARE(from_csv.train.paths[0], root / "train/cat/a.png");
        QVERIFY(!from_csv.multilabel);
        // Several labels on a line (';' or '|'), or none, make the set multilabel; the
        // target becomes a multi-hot vector.
        std::ofstream(root / "multi.csv") << "image,label\ntrain/cat/a.png,cat;dog\n"
                                             "train/dog/a.png,dog\ntrain/dog/b.png,\n";
        csv["train"] = (root / "multi.csv").string();
        const auto multi = kiln::data::load_classification_data(csv);
        QVERIFY(multi.multilabel);
        QCOMPARE(multi.train.labels, (std::vector<std::vector<std::int64_t>>{{0, 1}, {1}, {}}));
        const kiln::data::ClassifiedSamples samples(
            multi.train, kiln::data::finetune_transform(json::object(), false, 0.08), 2);
        QCOMPARE(*samples.target_shape(), (std::vector<std::int64_t>{2}));
        std::vector<float> view(3 * 224 * 224);
        std::vector<std::int64_t> target(2, 7);
        kiln::data::Rng rng = kiln::data::sample_rng(0, 0, 0);
        samples.make(0, kiln::data::decode_image(multi.train.paths[0]), rng, {view.data()},
                     target.data());
        QCOMPARE(target, (std::vector<std::int64_t>{1, 1}));
        samples.make(2, kiln::data::decode_image(multi.train.paths[2]), rng, {view.data()},
                     target.data());
        QCOMPARE(target, (std::vector<std::int64_t>{0, 0}));
    }

    void valSplitHoldsOutEachClassByTheSeedAndOverlapIsWarned() {
        const fs::path root = root_ / "held-out";
        for (const char* cls : {"cat", "dog"}) {
            for (int i = 0; i < 20; ++i) {
                writeImage(root / cls / (std::to_string(i) + ".png"), 8, 8);
            }
        }
        const json data = {{"train", root.string()}, {"val_split", 0.2}};
        const auto split = kiln::data::load_classification_data(data, 3);
        QCOMPARE(split.train.paths.size(), std::size_t(32));
        QCOMPARE(split.val.paths.size(), std::size_t(8));
        QCOMPARE(std::count(split.val.labels.begin(), split.val.labels.end(),
                            std::vector<std::int64_t>{0}),
                 4L); // a fifth of each class
        std::set<fs::path> train(split.train.paths.begin(), split.train.paths.end());
        for (const fs::path& path : split.val.paths) {
            QVERIFY(!train.count(path)); // apart
        }
        QCOMPARE(kiln::data::load_classification_data(data, 3).val.paths, split.val.paths);
        QVERIFY(kiln::data::load_classification_data(data, 4).val.paths != split.val.paths);
        QVERIFY(kiln::test::throwsContaining(
            [&] {
                kiln::data::load_classification_data(
                    {{"train", root.string()}, {"val", root.string()}, {"val_split", 0.1}});
            },
            "cannot be combined with data.val"));

        std::vector<std::string> warnings;
        const kiln::log::ScopedSink sink([&](kiln::log::Level level, const std::string& text) {
            if (level == kiln::log::Level::Warning) {
                warnings.push_back(text);
            }
        });
        kiln::data::load_classification_data({{"train", root.string()}, {"val", root.string()}});
        QCOMPARE(warnings.size(), std::size_t(1));
        QVERIFY2(warnings[0].find("shares 40 of its 40 images with data.train") !=
                     std::string::npos,
                 warnings[0].c_str());
    }

    void badClassificationDataNamesEachProblem() {
        const fs::path root = root_ / "labelled-bad";
        writeImage(root / "train" / "cat" / "a.png", 8, 8);
        writeImage(root / "train" / "dog" / "a.png", 8, 8);
        writeImage(root / "train" / "loose.png", 8, 8);
        writeImage(root / "val" / "bird" / "a.png", 8, 8);
        std::ofstream(root / "nolabel.csv") << "file,kind\n";
        try {
            kiln::data::load_classification_data({{"train", (root / "train").string()},
                                                  {"val", (root / "val").string()},
                                                  {"extra", 1}});
            QFAIL("expected a ConfigError");
        } catch (const kiln::ConfigError& error) {
            const std::string text = error.what();
            QVERIFY2(text.find("loose.png") != std::string::npos, error.what());
            QVERIFY2(text.find("\"bird\"") != std::string::npos, error.what());
            QVERIFY2(text.find("data.extra") != std::string::npos, error.what());
        }
        QVERIFY(kiln::test::throwsContaining(
            [&] {
                kiln::data::load_classification_data(
                    {{"train", (root / "nolabel.csv").string()}, {"val", (root / "val").string()}});
            },
            "\"image\" and \"label\""));
        QVERIFY(kiln::test::throwsContaining(
            [&] { kiln::data::load_classification_data({{"train", (root / "train").string()}}); },
            "data.val"));
        QVERIFY(kiln::test::throwsContaining(
            [&] { kiln::data::parse_class_names({{"0", "a"}, {"2", "c"}}, "data.classes"); },
            "without gaps"));
        const auto distinct = [](int count) {
            json names = json::array();
            for (int c = 0; c < count; ++c) {
                names.push_back("c" + std::to_string(c));
            }
            return names;
        };
        QCOMPARE(kiln::data::parse_class_names(distinct(20000), "data.classes").size(),
                 std::size_t(20000));
        QVERIFY(kiln::test::throwsContaining(
            [&] { kiln::data::parse_class_names(distinct(20001), "data.classes"); },
            "names 20001 classes; Kiln trains at most 20000"));
        // Each class's metrics are keyed by its name, and each id names one class.
        QVERIFY(kiln::test::throwsContaining(
            [&] { kiln::data::parse_class_names({"car", "bus", "car"}, "data.classes"); },
            "data.classes: \"car\" names two classes"));
        QVERIFY(kiln::test::throwsContaining(
            [&] { kiln::data::parse_class_names({{"0", "a"}, {"00", "b"}}, "data.classes"); },
            "class id 0 is given twice"));
        // A class folder named in Latin-1 (from an old zip) failed the run at its first
        // validation, an epoch in: names are refused before training, spelt out.
        const fs::path latin = root_ / "labelled-latin1";
        writeImage(latin / "caf\xe9" / "a.png", 8, 8);
        writeImage(latin / "tea" / "a.png", 8, 8);
        QVERIFY(kiln::test::throwsContaining(
            [&] {
                kiln::data::load_classification_data(
                    {{"train", latin.string()}, {"val", latin.string()}});
            },
            "data.train: class \"caf\\xe9\" is not UTF-8 text"));
        json names = json::array({"tea"});
        names.push_back(std::string("caf\xe9")); // as data.yaml's reader may give it
        QVERIFY(kiln::test::throwsContaining(
            [&] { kiln::data::parse_class_names(names, "data.names"); },
            "data.names: class \"caf\\xe9\" is not UTF-8 text"));
    }

    void segmentationDataChecksEveryMask() {
        const fs::path root = root_ / "masks";
        fs::create_directories(root / "masks" / "sub");
        for (int i = 0; i < 3; ++i) {
            writeImage(root / "images" / "sub" / (std::to_string(i) + ".jpg"), 10, 12);
            cv::imwrite((root / "masks" / "sub" / (std::to_string(i) + ".png")).string(),
                        cv::Mat(10, 12, CV_8UC1, cv::Scalar(i == 2 ? 255 : i)));
        }
        json settings = {
            {"train",
             {{"images", (root / "images").string()}, {"masks", (root / "masks").string()}}},
            {"val", {{"images", (root / "images").string()}, {"masks", (root / "masks").string()}}},
            {"classes", {{"0", "background"}, {"1", "thing"}}}};
        const auto data = kiln::data::load_segmentation_data(settings, 2);
        QCOMPARE(data.train.paths.size(), std::size_t(3));
        QCOMPARE(data.train.masks[1], root / "masks" / "sub" / "1.png");
        QCOMPARE(data.ignore_index, 255);

        // A missing mask, a mask of another size, an id outside the classes, a colour mask.
        writeImage(root / "images" / "sub" / "3.jpg", 10, 12);
        writeImage(root / "images" / "sub" / "4.jpg", 10, 12);
        writeImage(root / "images" / "sub" / "5.jpg", 10, 12);
        writeImage(root / "images" / "sub" / "6.jpg", 10, 12);
        cv::imwrite((root / "masks" / "sub" / "4.png").string(),
                    cv::Mat(9, 12, CV_8UC1, cv::Scalar(0)));
        cv::imwrite((root / "masks" / "sub" / "5.png").string(),
                    cv::Mat(10, 12, CV_8UC1, cv::Scalar(4)));
        cv::imwrite((root / "masks" / "sub" / "6.png").string(),
                    cv::Mat(10, 12, CV_8UC3, cv::Scalar(1, 2, 3)));
        QVERIFY(kiln::test::throwsContaining(
            [&] { kiln::data::load_segmentation_data(settings, 2); }, "3.jpg\" has no mask"));
        // A folder or a FIFO where the mask should be is named as what it is, not as missing
        // (read, a FIFO would wait for a writer forever).
        fs::create_directory(root / "masks" / "sub" / "3.png");
        QVERIFY(
            kiln::test::throwsContaining([&] { kiln::data::load_segmentation_data(settings, 2); },
                                         "3.png\" is a folder, not the PNG of class ids of"));
        fs::remove(root / "masks" / "sub" / "3.png");
        QCOMPARE(::mkfifo((root / "masks" / "sub" / "3.png").c_str(), 0600), 0);
        QVERIFY(
            kiln::test::throwsContaining([&] { kiln::data::load_segmentation_data(settings, 2); },
                                         "3.png\" is not a file (a FIFO, socket or device)"));
        fs::remove(root / "masks" / "sub" / "3.png");
        std::ofstream(root / "masks" / "sub" / "3.png") << "not a png";
        try {
            kiln::data::load_segmentation_data(settings, 2);
            QFAIL("expected a ConfigError");
        } catch (const kiln::ConfigError& error) {
            const std::string text = error.what();
            QVERIFY2(text.find("3.png") != std::string::npos, error.what());
            QVERIFY2(text.find("is 12x9 but its image") != std::string::npos, error.what());
            QVERIFY2(text.find("class id 4") != std::string::npos, error.what());
            QVERIFY2(text.find("3 channel(s)") != std::string::npos, error.what());
        }
        settings["ignore_index"] = 1;
        QVERIFY(kiln::test::throwsContaining(
            [&] { kiln::data::load_segmentation_data(settings, 2); }, "is a class id"));
        // A mask linked to a device (no end: reading it filled memory) is refused, named.
        fs::create_symlink("/dev/zero", root / "masks" / "sub" / "device.png");
        QVERIFY(kiln::test::throwsContaining(
            [&] { kiln::data::read_mask(root / "masks" / "sub" / "device.png"); },
            "device.png\" is a character device, not a file"));
    }

    // Masks hold class ids as stored, whatever the PNG's layout: 1-, 2- and 4-bit grey (which
    // OpenCV scales to 8 bits: a 1-bit mask's 1 became 255, the ignore id) and a palette's
    // indices (PASCAL VOC's SegmentationClass masks, which OpenCV turns into colours).
    void masksReadTheClassIdsStoredInAnyPngLayout() {
        const fs::path folder = root_ / "mask-layouts";
        fs::create_directories(folder);
        std::vector<int> ids(6 * 5);
        for (std::size_t i = 0; i < ids.size(); ++i) {
            ids[i] = int(i % 2);
        }
        const auto read = [&](const char* name) {
            cv::Mat mask;
            try {
                mask = kiln::data::read_mask(folder / name);
            } catch (const std::exception& error) {
                qWarning("%s: %s", name, error.what());
                return std::vector<int>{};
            }
            std::vector<int> values;
            for (int y = 0; y < mask.rows; ++y) {
                for (int x = 0; x < mask.cols; ++x) {
                    values.push_back(mask.at<unsigned char>(y, x));
                }
            }
            return values;
        };
        writeRawPng(folder / "one-bit.png", 6, 5, 1, 0, ids);
        QCOMPARE(read("one-bit.png"), ids);
        for (std::size_t i = 0; i < ids.size(); ++i) {
            ids[i] = int(i % 4);
        }
        writeRawPng(folder / "two-bit.png", 6, 5, 2, 0, ids);
        QCOMPARE(read("two-bit.png"), ids);
        for (std::size_t i = 0; i < ids.size(); ++i) {
            ids[i] = int(i % 16);
        }
        writeRawPng(folder / "four-bit.png", 6, 5, 4, 0, ids);
        QCOMPARE(read("four-bit.png"), ids);
        // VOC's palette: 0 black, 1 dark red, 2 dark green; its border 255 is cream.
        std::vector<unsigned char> palette(256 * 3, 0);
        for (int i = 0; i < 256; ++i) {
            palette[std::size_t(i) * 3] = static_cast<unsigned char>(i); // one colour each
            palette[std::size_t(i) * 3 + 1] = static_cast<unsigned char>(i);
        }
        palette[3 * 1] = 128;
        palette[3 * 1 + 1] = 0;
        palette[3 * 2] = 0;
        palette[3 * 2 + 1] = 128;
        palette[3 * 255] = 224;
        palette[3 * 255 + 1] = 224;
        palette[3 * 255 + 2] = 192;
        for (std::size_t i = 0; i < ids.size(); ++i) {
            ids[i] = i % 5 == 4 ? 255 : int(i % 3);
        }
        writeRawPng(folder / "palette.png", 6, 5, 8, 3, ids, palette);
        QCOMPARE(read("palette.png"), ids);
        // A palette padded to 256 entries with black after its classes' colours (as tools pad
        // it) reads black as class 0, the first entry of that colour.
        for (int i = 3; i < 255; ++i) {
            palette[std::size_t(i) * 3] = 0;
            palette[std::size_t(i) * 3 + 1] = 0;
        }
        writeRawPng(folder / "padded.png", 6, 5, 8, 3, ids, palette);
        QCOMPARE(read("padded.png"), ids);
    }

    void masksMoveWithTheirImages() {
        // The left half bright and class 1, the right half dark and class 0: after any crop and
        // flip, bright pixels and class-1 pixels must still coincide.
        const fs::path root = root_ / "aligned";
        cv::Mat image(40, 60, CV_8UC3, cv::Scalar(0, 0, 0));
        image(cv::Rect(0, 0, 30, 40)).setTo(cv::Scalar(255, 255, 255));
        cv::Mat mask(40, 60, CV_8UC1, cv::Scalar(0));
        mask(cv::Rect(0, 0, 30, 40)).setTo(1);
        fs::create_directories(root);
        cv::imwrite((root / "a.png").string(), image);
        cv::imwrite((root / "a_mask.png").string(), mask);
        kiln::data::SegmentedImages split;
        split.paths = {root / "a.png"};
        split.masks = {root / "a_mask.png"};
        split.names = {"a.png"};
        json args = {{"image_size", 16},
                     {"random_flip", {{"horizontal_prob", 0.5}, {"vertical_prob", 0.5}}}};
        const kiln::data::SegmentedSamples samples(split, 255,
                                                   kiln::data::finetune_transform(args, true, 0.25),
                                                   kiln::data::kDefaultMaxImagePixels);
        const cv::Mat decoded = kiln::data::decode_image(root / "a.png");
        std::vector<float> view(3 * 16 * 16);
        std::vector<std::int64_t> target(16 * 16);
        int flipped = 0;
        for (std::uint64_t seed = 0; seed < 40; ++seed) {
            kiln::data::Rng rng = kiln::data::sample_rng(seed, 0, 0);
            samples.make(0, decoded, rng, {view.data()}, target.data());
            int agree = 0;
            for (int p = 0; p < 16 * 16; ++p) {
                agree += (view[p] > 0) == (target[p] == 1) ? 1 : 0;
            }
            QVERIFY2(agree >= 16 * 16 - 16, qPrintable(QString::number(agree))); // one edge column
            flipped += target[0] == 0 && target[15] == 1 ? 1 : 0;
        }
        QVERIFY(flipped > 0);
    }

    void validationSharesHoldEachImageOnce() {
        kiln::data::LoaderOptions options;
        options.batch_size = 4;
        options.shuffle = false;
        options.drop_last = false;
        options.even_shares = false;
        options.world_size = 3;
        std::vector<std::int64_t> seen;
        const auto index = kiln::data::DatasetIndex::scan({root_ / "labelled" / "train"});
        for (int rank = 0; rank < 3; ++rank) {
            options.rank = rank;
            kiln::data::Loader loader(index, kiln::data::embed_transform(8, 8), options);
            const auto mine = loader.epoch_indices(0);
            seen.insert(seen.end(), mine.begin(), mine.end());
        }
        std::sort(seen.begin(), seen.end());
        QCOMPARE(seen, (std::vector<std::int64_t>{0, 1, 2, 3}));
    }

    void generatedScenesAreSeededAndLabelled() {
        const int count = 6;
        std::vector<unsigned char> pixels(count * 28 * 28, 0);
        std::vector<unsigned char> labels(count);
        for (int i = 0; i < count; ++i) {
            labels[i] = static_cast<unsigned char>(i % 3);
            for (int y = 8; y < 20; ++y) {
                for (int x = 8; x < 20; ++x) {
                    pixels[i * 784 + y * 28 + x] = 200;
                }
            }
        }
        const fs::path idx = root_ / "scenes-idx";
        fs::create_directories(idx);
        writeIdx(idx / "images.gz", 0x803, {count, 28, 28}, pixels);
        writeIdx(idx / "labels.gz", 0x801, {count}, labels);
        kiln::data::SceneOptions options;
        options.images = idx / "images.gz";
        options.labels = idx / "labels.gz";
        options.out = root_ / "scenes-a";
        options.scenes = 5;
        options.seed = 4;
        const auto result = kiln::data::generate_scenes(options);
        QCOMPARE(result.scenes, std::int64_t(5));
        QCOMPARE(result.classes, 4);
        options.out = root_ / "scenes-b";
        kiln::data::generate_scenes(options);
        // Label 255 became class 256, which an 8-bit mask wrapped to background.
        std::vector<unsigned char> high = labels;
        high[0] = 255;
        writeIdx(idx / "high-labels.gz", 0x801, {count}, high);
        kiln::data::SceneOptions wrapped = options;
        wrapped.labels = idx / "high-labels.gz";
        wrapped.out = root_ / "scenes-high";
        QVERIFY(kiln::test::throwsContaining([&] { kiln::data::generate_scenes(wrapped); },
                                             "holds the label 255; scenes' masks hold classes"));
        QVERIFY(!fs::exists(wrapped.out));
        // A full disk (a file size limit stands in) leaves nothing behind, so the same command
        // runs again once there is room: the half-written set was refused as "holds images".
        kiln::data::SceneOptions full = options;
        full.out = root_ / "scenes-full";
        {
            const kiln::test::FileSizeLimit limit(200);
            QVERIFY(limit.applied());
            QVERIFY(kiln::test::throwsContaining([&] { kiln::data::generate_scenes(full); },
                                                 "write failed"));
        }
        QVERIFY(!fs::exists(full.out));
        QCOMPARE(kiln::data::generate_scenes(full).scenes, std::int64_t(5));
        // Scenes over scenes mixed two sets; an empty out wrote into the current folder.
        QVERIFY(kiln::test::throwsContaining([&] { kiln::data::generate_scenes(options); },
                                             "holds images already; choose an empty folder"));
        wrapped.labels = options.labels;
        wrapped.out.clear();
        QVERIFY(kiln::test::throwsContaining([&] { kiln::data::generate_scenes(wrapped); },
                                             "out is empty"));
        for (const char* file : {"images/0.png", "masks/4.png", "classes.json"}) {
            QCOMPARE(readAll(root_ / "scenes-a" / file), readAll(root_ / "scenes-b" / file));
        }
        // The scenes load as a segmentation set: every mask fits its image and data.classes.
        const json settings = {{"train",
                                {{"images", (root_ / "scenes-a/images").string()},
                                 {"masks", (root_ / "scenes-a/masks").string()}}},
                               {"val",
                                {{"images", (root_ / "scenes-b/images").string()},
                                 {"masks", (root_ / "scenes-b/masks").string()}}},
                               {"classes", (root_ / "scenes-a/classes.json").string()}};
        const auto data = kiln::data::load_segmentation_data(settings, 1);
        QCOMPARE(data.classes.size(), std::size_t(4));
        const cv::Mat mask = kiln::data::read_mask(root_ / "scenes-a/masks/0.png");
        QVERIFY(cv::countNonZero(mask) > 0);

        // The instances: as COCO reads them, each annotation's mask is the part of the semantic
        // mask with its class that it covers, its box that mask's box; as many YOLO lines.
        const json coco = json::parse(readAll(root_ / "scenes-a/annotations.json"));
        QCOMPARE(coco["images"].size(), std::size_t(5));
        QCOMPARE(coco["categories"].size(), std::size_t(3));
        QCOMPARE(static_cast<std::int64_t>(coco["annotations"].size()), result.objects);
        std::map<int, int> per_image;
        for (const json& annotation : coco["annotations"]) {
            const int image = annotation["image_id"].get<int>();
            ++per_image[image];
            const auto rle = kiln::coco::decode_counts_string(
                annotation["segmentation"]["counts"].get<std::string>(), 64, 64);
            const std::vector<std::uint8_t> pixels = kiln::coco::decode_to_pixels(rle);
            const cv::Mat scene_mask = kiln::data::read_mask(root_ / "scenes-a/masks" /
                                                             (std::to_string(image - 1) + ".png"));
            const int category = annotation["category_id"].get<int>();
            for (int p = 0; p < 64 * 64; ++p) {
                if (pixels[std::size_t(p)] != 0) {
                    QCOMPARE(int(scene_mask.at<unsigned char>(p / 64, p % 64)), category);
                }
            }
            const auto box = kiln::coco::bounding_box(rle);
            QCOMPARE(annotation["bbox"][2].get<double>(), box[2]);
            QCOMPARE(annotation["area"].get<double>(), double(kiln::coco::area(rle)));
        }
        for (const auto& [image, count] : per_image) {
            const std::string labels =
                readAll(root_ / "scenes-a/labels" / (std::to_string(image - 1) + ".txt"));
            QCOMPARE(int(std::count(labels.begin(), labels.end(), '\n')), count);
        }
        QVERIFY(readAll(root_ / "scenes-a/data.yaml").find("names:") != std::string::npos);
    }
    // ---- dataset layouts and label statistics (of scenes-a, made above) ----

    void datasetLayoutsAreRecognised() {
        using kiln::data::LabelKind;
        QCOMPARE(kiln::data::detect_dataset_layout(images_).kind, LabelKind::ClassFolders);
        QCOMPARE(kiln::data::detect_dataset_layout(root_ / "index").kind, LabelKind::Images);
        // scenes-a holds a data.yaml, masks and a COCO file: the YAML names the whole layout.
        const auto yolo = kiln::data::detect_dataset_layout(root_ / "scenes-a");
        QCOMPARE(yolo.kind, LabelKind::Yolo);
        QCOMPARE(yolo.labels, root_ / "scenes-a" / "data.yaml");
        QCOMPARE(yolo.images, root_ / "scenes-a" / "images"); // not the masks beside them

        const fs::path masks = root_ / "layout-masks";
        writeImage(masks / "images" / "a.png", 8, 8);
        fs::create_directories(masks / "masks");
        const auto segmentation = kiln::data::detect_dataset_layout(masks);
        QCOMPARE(segmentation.kind, LabelKind::Masks);
        QCOMPARE(segmentation.images, masks / "images");
        QCOMPARE(segmentation.labels, masks / "masks");

        const fs::path coco = root_ / "layout-coco";
        writeImage(coco / "images" / "a.png", 8, 8);
        writeBytes(coco / "annotations" / "instances_val.json", R"({"images": []})");
        writeBytes(coco / "annotations" / "instances_train.json", R"({"images": []})");
        writeBytes(coco / "annotations" / "notes.json", R"({"author": "me"})");
        const auto instances = kiln::data::detect_dataset_layout(coco);
        QCOMPARE(instances.kind, LabelKind::Coco);
        QCOMPARE(instances.images, coco / "images");
        QCOMPARE(instances.labels, coco / "annotations" / "instances_train.json");

        for (const LabelKind kind : {LabelKind::Images, LabelKind::ClassFolders, LabelKind::Masks,
                                     LabelKind::Coco, LabelKind::Yolo}) {
            QCOMPARE(kiln::data::parse_label_kind(kiln::data::label_kind_name(kind)), kind);
        }
        QVERIFY(!kiln::data::parse_label_kind("voc"));
    }

    void labelStatisticsCountWhatTheLabelsHold() {
        using kiln::data::LabelKind;
        const fs::path scenes = root_ / "scenes-a";
        const json annotations = json::parse(readAll(scenes / "annotations.json"));
        std::map<std::int64_t, std::int64_t> per_category;
        std::int64_t small = 0;
        for (const json& annotation : annotations["annotations"]) {
            ++per_category[annotation["category_id"].get<std::int64_t>()];
            const double area =
                annotation["bbox"][2].get<double>() * annotation["bbox"][3].get<double>();
            small += area < 32.0 * 32.0 ? 1 : 0;
        }
        for (const auto& layout :
             {kiln::data::DatasetLayout{LabelKind::Coco, scenes / "images",
                                        scenes / "annotations.json"},
              kiln::data::DatasetLayout{LabelKind::Yolo, scenes, scenes / "data.yaml"}}) {
            const auto statistics = kiln::data::read_label_statistics(layout, 2);
            QVERIFY2(statistics.problems.empty(),
                     statistics.problems.empty() ? "" : statistics.problems.front().c_str());
            QCOMPARE(statistics.images, std::int64_t(5));
            QVERIFY2(statistics.warnings.empty(), // the generator's boxes lie inside their images
                     statistics.warnings.empty() ? "" : statistics.warnings.front().c_str());
            QCOMPARE(statistics.labelled.size(), std::size_t(5));
            QCOMPARE(statistics.classes.size(), annotations["categories"].size());
            std::int64_t objects = 0;
            for (std::size_t c = 0; c < statistics.classes.size(); ++c) {
                const json& category = annotations["categories"][c];
                QCOMPARE(statistics.classes[c].objects,
                         per_category[category["id"].get<std::int64_t>()]);
                QVERIFY(statistics.classes[c].images <= statistics.classes[c].objects);
                objects += statistics.classes[c].objects;
            }
            QCOMPARE(objects, static_cast<std::int64_t>(annotations["annotations"].size()));
            QCOMPARE(statistics.object_sizes[0], small);
            QCOMPARE(statistics.object_sizes[0] + statistics.object_sizes[1] +
                         statistics.object_sizes[2],
                     objects);
        }

        // Masks: every pixel counted by class, the names from classes.json beside the masks.
        const auto masks = kiln::data::read_label_statistics(
            {LabelKind::Masks, scenes / "images", scenes / "masks"}, 2);
        QVERIFY(masks.problems.empty());
        const json names = json::parse(readAll(scenes / "classes.json"));
        QCOMPARE(masks.classes.size(), names.size());
        for (std::size_t value = 0; value < masks.classes.size(); ++value) {
            std::int64_t pixels = 0;
            std::int64_t images = 0;
            for (int i = 0; i < 5; ++i) {
                const cv::Mat mask =
                    kiln::data::read_mask(scenes / "masks" / (std::to_string(i) + ".png"));
                const int count = cv::countNonZero(mask == int(value));
                pixels += count;
                images += count > 0 ? 1 : 0;
            }
            QCOMPARE(masks.classes[value].objects, pixels);
            QCOMPARE(masks.classes[value].images, images);
            QCOMPARE(masks.classes[value].name, names[std::to_string(value)].get<std::string>());
        }

        // Bad masks are listed by file, and the others still counted.
        const fs::path broken = root_ / "broken-masks";
        fs::create_directories(broken);
        fs::copy(scenes / "images", broken / "images", fs::copy_options::recursive);
        fs::copy(scenes / "masks", broken / "masks", fs::copy_options::recursive);
        fs::remove(broken / "masks" / "1.png");
        writeImage(broken / "masks" / "3.png", cv::Mat::zeros(10, 12, CV_8U));
        std::vector<std::pair<std::int64_t, std::int64_t>> reported;
        const auto partly = kiln::data::read_label_statistics(
            {LabelKind::Masks, broken / "images", broken / "masks"}, 2,
            [&](std::int64_t done, std::int64_t total) {
                reported.emplace_back(done, total);
                return true;
            });
        QCOMPARE(partly.problems.size(), std::size_t(2));
        QVERIFY(partly.problems[0].find("has no mask \"" + (broken / "masks" / "1.png").string()) !=
                std::string::npos);
        QVERIFY(partly.problems[1].find("3.png\" is 12x10") != std::string::npos);
        QCOMPARE(partly.images, std::int64_t(5));
        QVERIFY(!reported.empty());
        QCOMPARE(reported.back(), std::make_pair(std::int64_t(5), std::int64_t(5)));
        std::int64_t counted = 0;
        for (const auto& count : partly.classes) {
            counted += count.objects;
        }
        QCOMPARE(counted + partly.ignored_pixels, std::int64_t(3 * 64 * 64));

        // Class folders: the images per class.
        const auto folders =
            kiln::data::read_label_statistics({LabelKind::ClassFolders, images_, {}}, 1);
        QCOMPARE(folders.classes.size(), std::size_t(2));
        QCOMPARE(folders.classes[0].name, std::string("cats"));
        QCOMPARE(folders.classes[1].images, std::int64_t(12));

        // A COCO file the engine refuses is one problem, in the engine's words.
        json wrong = annotations;
        wrong["annotations"][0]["category_id"] = 99;
        writeBytes(root_ / "wrong.json", wrong.dump());
        const auto refused = kiln::data::read_label_statistics(
            {LabelKind::Coco, scenes / "images", root_ / "wrong.json"}, 1);
        QCOMPARE(refused.problems.size(), std::size_t(1));
        // It names the file and the annotation.
        QVERIFY2(refused.problems[0].find("wrong.json: annotations[0] (id 1) has category_id 99") !=
                     std::string::npos,
                 refused.problems[0].c_str());
        QVERIFY(refused.classes.empty());
    }
};

QTEST_GUILESS_MAIN(DataTest)
#include "tst_data.moc"
