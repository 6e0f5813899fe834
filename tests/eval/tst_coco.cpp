// COCO evaluation: pycocotools' numbers on its own fixture, hand-computed cases, RLE and masks.

#include "core/error.h"
#include "eval/coco/coco_eval.h"
#include "eval/coco/mask_tensor.h"
#include "eval/coco/rle.h"
#include "support/coco_sets.h"
#include "support/peak_memory.h"
#include "support/python.h"

#include <ATen/ATen.h>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <tuple>

namespace coco = kiln::coco;

namespace {

const std::filesystem::path kFixtures =
    std::filesystem::path(KILN_SOURCE_DIR).parent_path() / "shared" / "fixtures" / "coco";

// The 12 stats pycocotools 2.0.x prints on the fixture with NumPy 2.3 or newer (2.4.6 here). The
// fixture's README lists them as an older NumPy gave them: the segm AP small there ends in
// ...838, one bit above, because NumPy before 2.3 summed 8192 values at a time.
constexpr std::array<double, 12> kFixtureBbox{
    0.5045806987249628, 0.6969727247299577, 0.5729816669904824,  0.5856257209410443,
    0.5193996948036719, 0.5013978986347466, 0.38681277964578054, 0.5936795762842003,
    0.595352982877607,  0.6398109626113442, 0.5664205978994309,  0.5642905982905982};
constexpr std::array<double, 12> kFixtureSegm{
    0.3195452758576433,  0.5622883972521636, 0.29892653412086784, 0.3873740315997837,
    0.31018272403369485, 0.3269339071005138, 0.2682297225711534,  0.41544868114906375,
    0.4168394992198818,  0.4694498622754236, 0.37675922666197265, 0.3814715099715099};

QString stat_text(const std::array<double, 12>& stats) {
    QStringList parts;
    for (double value : stats) {
        parts << QString::number(value, 'g', 17);
    }
    return parts.join(", ");
}

// One image (id 1, 100 x 100) and categories 1 and 2; `annotations` is the JSON list.
std::string ground_truth_json(const std::string& annotations) {
    return "{\"images\": [{\"id\": 1, \"height\": 100, \"width\": 100}], \"categories\": [{\"id\": "
           "1, \"name\": \"cat\"}, {\"id\": 2, \"name\": \"dog\"}], \"annotations\": " +
           annotations + "}";
}

std::string box_annotation(int id, double x, double y, double w, double h, int crowd = 0,
                           int category = 1) {
    return "{\"id\": " + std::to_string(id) +
           ", \"image_id\": 1, \"category_id\": " + std::to_string(category) + ", \"bbox\": [" +
           std::to_string(x) + ", " + std::to_string(y) + ", " + std::to_string(w) + ", " +
           std::to_string(h) + "], \"area\": " + std::to_string(w * h) +
           ", \"iscrowd\": " + std::to_string(crowd) + "}";
}

std::string box_detection(double x, double y, double w, double h, double score, int category = 1,
                          int image = 1) {
    return "{\"image_id\": " + std::to_string(image) +
           ", \"category_id\": " + std::to_string(category) + ", \"bbox\": [" + std::to_string(x) +
           ", " + std::to_string(y) + ", " + std::to_string(w) + ", " + std::to_string(h) +
           "], \"score\": " + std::to_string(score) + "}";
}

coco::EvalResult evaluate_json(const std::string& truth_json, const std::string& results_json,
                               coco::IouType type = coco::IouType::Box,
                               std::array<int, 3> max_detections = {1, 10, 100}) {
    const auto truth = coco::GroundTruth::parse(truth_json, "gt.json");
    const auto detections = coco::Detections::parse(results_json, "dt.json", truth, type);
    coco::EvalParams params;
    params.iou_type = type;
    params.max_detections = max_detections;
    params.threads = 2;
    return coco::evaluate(truth, detections, params);
}

QString error_of(const std::function<void()>& action) {
    try {
        action();
    } catch (const kiln::Error& error) {
        return QString::fromStdString(error.what());
    }
    return QStringLiteral("(no error)");
}

// pycocotools' rleEncode: one pixel at a time over a column-major copy.
coco::Rle encode_pixel_by_pixel(const std::vector<std::uint8_t>& row_major, std::uint32_t height,
                                std::uint32_t width) {
    coco::Rle rle{height, width, {}};
    std::uint8_t previous = 0;
    std::uint32_t run = 0;
    for (std::uint32_t x = 0; x < width; ++x) {
        for (std::uint32_t y = 0; y < height; ++y) {
            const std::uint8_t value = row_major[y * width + x] != 0;
            if (value != previous) {
                rle.counts.push_back(run);
                run = 0;
                previous = value;
            }
            ++run;
        }
    }
    rle.counts.push_back(run);
    return rle;
}

std::vector<std::uint8_t> block_mask(std::uint32_t height, std::uint32_t width, std::uint32_t top,
                                     std::uint32_t left, std::uint32_t rows,
                                     std::uint32_t columns) {
    std::vector<std::uint8_t> pixels(std::size_t{height} * width, 0);
    for (std::uint32_t y = top; y < top + rows; ++y) {
        for (std::uint32_t x = left; x < left + columns; ++x) {
            pixels[y * width + x] = 1;
        }
    }
    return pixels;
}

coco::Rle encode(const std::vector<std::uint8_t>& pixels, std::uint32_t height,
                 std::uint32_t width) {
    return coco::encode_mask(pixels.data(), height, width, width);
}

} // namespace

class CocoTest : public QObject {
    Q_OBJECT

private:
    void compareWithFixture(const char* results, coco::IouType type,
                            const std::array<double, 12>& expected, int threads) {
        if (!std::filesystem::exists(kFixtures / "instances_val2014_100.json")) {
            QSKIP("../shared/fixtures/coco is absent: cannot compare with pycocotools' numbers");
        }
        const auto truth = coco::GroundTruth::load(kFixtures / "instances_val2014_100.json");
        const auto detections = coco::Detections::load(kFixtures / results, truth, type);
        coco::EvalParams params;
        params.iou_type = type;
        params.threads = threads;
        const coco::EvalResult result = coco::evaluate(truth, detections, params);
        QCOMPARE(stat_text(result.stats), stat_text(expected));
        for (int i = 0; i < 12; ++i) {
            QVERIFY2(result.stats[i] == expected[i], qPrintable(QString::number(i)));
        }
    }

private Q_SLOTS:
    void fixtureBboxMatchesPycocotools() {
        compareWithFixture("instances_val2014_fakebbox100_results.json", coco::IouType::Box,
                           kFixtureBbox, 1);
        compareWithFixture("instances_val2014_fakebbox100_results.json", coco::IouType::Box,
                           kFixtureBbox, 4);
    }

    void fixtureSegmMatchesPycocotools() {
        compareWithFixture("instances_val2014_fakesegm100_results.json", coco::IouType::Mask,
                           kFixtureSegm, 1);
        compareWithFixture("instances_val2014_fakesegm100_results.json", coco::IouType::Mask,
                           kFixtureSegm, 4);
    }

    // The real pycocotools, run now on the same files, gives Kiln's twelve stats bit for bit
    // (faster-coco-eval, where installed, to within 1e-15): on pycocotools' own fixture and on a
    // generated set with crowd regions, 80 category ids and 100 detections per image.
    void realPeersGiveKilnsStats() {
        if (!kiln::test::pythonHas(QStringLiteral("pycocotools"))) {
            QSKIP(kiln::test::pythonMissing(QStringLiteral("pycocotools")));
        }
        QTemporaryDir dir;
        const std::filesystem::path generated = dir.filePath(QStringLiteral("set")).toStdString();
        kiln::test::write_coco_set(generated, 150);
        std::vector<std::tuple<std::filesystem::path, std::filesystem::path, coco::IouType>> cases =
            {{generated / "gt.json", generated / "bbox.json", coco::IouType::Box},
             {generated / "gt.json", generated / "segm.json", coco::IouType::Mask}};
        if (std::filesystem::exists(kFixtures / "instances_val2014_100.json")) {
            cases.emplace_back(kFixtures / "instances_val2014_100.json",
                               kFixtures / "instances_val2014_fakebbox100_results.json",
                               coco::IouType::Box);
            cases.emplace_back(kFixtures / "instances_val2014_100.json",
                               kFixtures / "instances_val2014_fakesegm100_results.json",
                               coco::IouType::Mask);
        }
        QFile script(QStringLiteral(KILN_SOURCE_DIR "/tests/benchmarks/coco_peers.py"));
        QVERIFY(script.open(QIODevice::ReadOnly));
        const QString peers = QString::fromUtf8(script.readAll());
        for (const auto& [truth_file, results, type] : cases) {
            const auto truth = coco::GroundTruth::load(truth_file);
            coco::EvalParams params;
            params.iou_type = type;
            const coco::EvalResult kiln =
                coco::evaluate(truth, coco::Detections::load(results, truth, type), params);
            const auto run = kiln::test::runPython(
                peers,
                {QString::fromStdString(truth_file.string()),
                 QString::fromStdString(results.string()),
                 type == coco::IouType::Mask ? QStringLiteral("segm") : QStringLiteral("bbox")});
            QVERIFY2(run.exit_code == 0, qPrintable(run.errors));
            const QStringList lines = run.output.trimmed().split(QLatin1Char('\n'));
            QVERIFY(!lines.isEmpty());
            for (const QString& line : lines) {
                const nlohmann::json peer = nlohmann::json::parse(line.toStdString());
                const std::string what =
                    peer["name"].get<std::string>() + " on " + results.filename().string();
                // pycocotools to the last bit; faster-coco-eval, a reimplementation whose sums
                // may round differently, to within 1e-15.
                const double tolerance = peer["name"] == "pycocotools" ? 0.0 : 1e-15;
                for (std::size_t i = 0; i < 12; ++i) {
                    QVERIFY2(std::abs(peer["stats"][i].get<double>() - kiln.stats[i]) <= tolerance,
                             qPrintable(QString::fromStdString(what) +
                                        QStringLiteral(": stat %1 is %2, Kiln's %3")
                                            .arg(i)
                                            .arg(peer["stats"][i].get<double>(), 0, 'g', 17)
                                            .arg(kiln.stats[i], 0, 'g', 17)));
                }
            }
        }
    }

    void thresholdsAreNumpysLinspace() {
        QCOMPARE(coco::iou_thresholds()[8], 0.8999999999999999);
        QCOMPARE(coco::iou_thresholds()[5], 0.75);
        QCOMPARE(coco::iou_thresholds()[9], 0.95);
        QCOMPARE(coco::recall_thresholds()[3], 0.03);
        QCOMPARE(coco::recall_thresholds()[100], 1.0);
    }

    void meanIsNumpys() {
        // Values from numpy 2.4's np.mean on the same arrays (numpy 1.x gave 0.29999999999999993
        // for the last: it summed 8192 values at a time).
        std::vector<double> values;
        for (int i = 0; i < 20000; ++i) {
            values.push_back(std::fmod(i * 0.1, 1.7));
        }
        QVERIFY(coco::numpy_mean(values) == 0.8039850000000799);
        QVERIFY(coco::numpy_mean(std::vector<double>(100, 0.1)) == 0.09999999999999998);
        QVERIFY(coco::numpy_mean(std::vector<double>(9000, 0.3)) == 0.3); // exactly
    }

    void perfectMatch() {
        // A 50 x 40 box: medium. Precision is tp / (tp + fp + eps), so a perfect AP is just
        // below 1, exactly as pycocotools reports it.
        const auto result =
            evaluate_json(ground_truth_json("[" + box_annotation(1, 0, 0, 50, 40) + "]"),
                          "[" + box_detection(0, 0, 50, 40, 0.9) + "]");
        const std::array<double, 12> expected{0.99999999999999978,
                                              0.99999999999999989,
                                              0.99999999999999989,
                                              -1,
                                              0.99999999999999978,
                                              -1,
                                              1,
                                              1,
                                              1,
                                              -1,
                                              1,
                                              -1};
        QCOMPARE(stat_text(result.stats), stat_text(expected));
        QVERIFY(std::abs(result.per_category[0].ap - 1.0) < 1e-15);
        QCOMPARE(result.per_category[1].ap, -1.0); // no ground truth for dogs
    }

    // As Python's json reads a key given twice (pycocotools loads with it): the last value.
    void repeatedKeysTakeTheirLastValue() {
        const std::string truth =
            ground_truth_json("[{\"id\": 1, \"image_id\": 1, \"category_id\": 2, "
                              "\"category_id\": 1, \"bbox\": [0, 0, 50, 40], \"area\": 2000}]");
        const std::string detections = "[{\"image_id\": 1, \"category_id\": 1, \"bbox\": "
                                       "[60, 60, 5, 5], \"bbox\": [0, 0, 50, 40], \"score\": 0.9}]";
        const auto repeated = evaluate_json(truth, detections);
        const auto plain =
            evaluate_json(ground_truth_json("[" + box_annotation(1, 0, 0, 50, 40) + "]"),
                          "[" + box_detection(0, 0, 50, 40, 0.9) + "]");
        QCOMPARE(stat_text(repeated.stats), stat_text(plain.stats));
        QCOMPARE(repeated.per_category[1].ap, -1.0);
    }

    // Categories without ground truth cost nothing (50,000 of them over 2,000 images took
    // gigabytes: a cell per image and category, 12,120 values per category), and change
    // nothing; more than 20,000 categories with ground truth are refused.
    void onlyCategoriesWithGroundTruthAreEvaluated() {
        std::string images, categories;
        for (int i = 1; i <= 2000; ++i) {
            images += (i > 1 ? ", " : "") +
                      ("{\"id\": " + std::to_string(i) + ", \"height\": 100, \"width\": 100}");
        }
        for (int c = 1; c <= 50000; ++c) {
            categories += (c > 1 ? ", " : "") + ("{\"id\": " + std::to_string(c) +
                                                 ", \"name\": \"c" + std::to_string(c) + "\"}");
        }
        const std::string truth = "{\"images\": [" + images + "], \"categories\": [" + categories +
                                  "], \"annotations\": [" + box_annotation(1, 0, 0, 50, 40) + "]}";
        const long peak_before = kiln::test::peak_resident_kilobytes();
        const auto many = evaluate_json(truth, "[" + box_detection(0, 0, 50, 40, 0.9) + ", " +
                                                   box_detection(0, 0, 50, 40, 0.8, 7) + "]");
        QVERIFY2(kiln::test::peak_resident_kilobytes() - peak_before < 256 * 1024,
                 qPrintable(QString::number(kiln::test::peak_resident_kilobytes() - peak_before)));
        const auto one =
            evaluate_json(ground_truth_json("[" + box_annotation(1, 0, 0, 50, 40) + "]"),
                          "[" + box_detection(0, 0, 50, 40, 0.9) + "]");
        QCOMPARE(stat_text(many.stats), stat_text(one.stats));
        QCOMPARE(many.per_category.size(), std::size_t(50000));
        QCOMPARE(many.per_category[0].ap, one.per_category[0].ap);
        QCOMPARE(many.per_category[6].ap, -1.0); // detections, no ground truth
        QCOMPARE(coco::precision_at_recalls(many, 0), coco::precision_at_recalls(one, 0));
        QCOMPARE(coco::precision_at_recalls(many, 6), std::vector<double>(101, -1.0));

        std::string annotations;
        for (int c = 1; c <= 20001; ++c) {
            annotations += (c > 1 ? ", " : "") + box_annotation(c, 0, 0, 10, 10, 0, c);
        }
        const std::string crowded = "{\"images\": [{\"id\": 1, \"height\": 100, \"width\": "
                                    "100}], \"categories\": [" +
                                    categories + "], \"annotations\": [" + annotations + "]}";
        const QString refusal = error_of([&] { evaluate_json(crowded, "[]"); });
        QVERIFY2(
            refusal.contains("has ground truth in 20001 categories; Kiln evaluates at most 20000"),
            qPrintable(refusal));
    }

    void noDetections() {
        const auto result =
            evaluate_json(ground_truth_json("[" + box_annotation(1, 0, 0, 50, 40) + "]"), "[]");
        const std::array<double, 12> expected{0, 0, 0, -1, 0, -1, 0, 0, 0, -1, 0, -1};
        QCOMPARE(stat_text(result.stats), stat_text(expected));
    }

    void onlyFalsePositives() {
        const auto result =
            evaluate_json(ground_truth_json("[" + box_annotation(1, 0, 0, 20, 20) + "]"),
                          "[" + box_detection(50, 50, 20, 20, 0.9) + ", " +
                              box_detection(0, 0, 20, 20, 0.8, 2) + "]");
        QCOMPARE(result.stats[0], 0.0);
        QCOMPARE(result.stats[8], 0.0);
        QCOMPARE(result.per_category[1].ap, -1.0); // dogs: detections but no ground truth
    }

    void crowdRegionsAbsorbDetections() {
        // A crowd box covering the right half: detections inside it are neither right nor
        // wrong, and several may match it; its IoU is over the detection's area.
        const std::string truth = ground_truth_json("[" + box_annotation(1, 0, 0, 20, 20) + ", " +
                                                    box_annotation(2, 50, 0, 50, 100, 1) + "]");
        const auto result = evaluate_json(truth, "[" + box_detection(60, 10, 10, 10, 0.95) + ", " +
                                                     box_detection(70, 40, 20, 20, 0.9) + ", " +
                                                     box_detection(0, 0, 20, 20, 0.5) + "]");
        QVERIFY(std::abs(result.stats[0] - 1.0) < 1e-15);
        QCOMPARE(coco::box_iou({60, 10, 10, 10}, {50, 0, 50, 100}, true), 1.0);
        QCOMPARE(coco::box_iou({0, 0, 10, 10}, {5, 0, 10, 10}, false), 1.0 / 3.0);
        QCOMPARE(coco::box_iou({0, 0, 10, 10}, {5, 0, 10, 10}, true), 0.5);
        QCOMPARE(coco::box_iou({0, 0, 10, 10}, {10, 0, 10, 10}, false), 0.0);
    }

    void tiedScoresKeepFileOrder() {
        const std::string truth = ground_truth_json("[" + box_annotation(1, 0, 0, 20, 20) + "]");
        const std::string wrong = box_detection(60, 60, 20, 20, 0.5);
        const std::string right = box_detection(0, 0, 20, 20, 0.5);
        // Wrong first: precision 0 then 1/2, interpolated to 1/2 at every recall.
        QCOMPARE(evaluate_json(truth, "[" + wrong + ", " + right + "]").stats[1], 0.5);
        QCOMPARE(evaluate_json(truth, "[" + right + ", " + wrong + "]").stats[1], 1.0);
    }

    void tiesAcrossImagesFollowImageIds() {
        // Images listed 2 then 1: the evaluation order is by id, so image 1's false positive
        // comes before image 2's true positive at the same score.
        const std::string truth =
            "{\"images\": [{\"id\": 2}, {\"id\": 1}], \"categories\": [{\"id\": 1}], "
            "\"annotations\": [ {\"id\": 1, \"image_id\": 1, \"category_id\": 1, \"bbox\": [0, 0, "
            "20, 20], \"area\": 400}, {\"id\": 2, \"image_id\": 2, \"category_id\": 1, \"bbox\": "
            "[0, 0, 20, 20], \"area\": 400}]}";
        const auto result =
            evaluate_json(truth, "[" + box_detection(0, 0, 20, 20, 0.5, 1, 2) + ", " +
                                     box_detection(50, 50, 20, 20, 0.5, 1, 1) + "]");
        // Recall 1/2 at precision 1/2: 51 of the 101 recall thresholds reach it.
        QVERIFY(std::abs(result.stats[1] - 51 * 0.5 / 101) < 1e-15);
        QCOMPARE(result.stats[8], 0.5);
    }

    void areaRangeEndsAreInclusive() {
        // 32 x 32 is both small and medium; 96 x 96 both medium and large.
        const std::string truth = ground_truth_json("[" + box_annotation(1, 0, 0, 32, 32) + ", " +
                                                    box_annotation(2, 0, 0, 96, 96, 0, 2) + "]");
        const auto result = evaluate_json(truth, "[" + box_detection(0, 0, 32, 32, 0.9) + ", " +
                                                     box_detection(0, 0, 96, 96, 0.9, 2) + "]");
        for (double stat : result.stats) {
            QVERIFY2(std::abs(stat - 1.0) < 1e-15, qPrintable(stat_text(result.stats)));
        }
    }

    void maxDetectionsCut() {
        const std::string truth = ground_truth_json("[" + box_annotation(1, 0, 0, 10, 10) + ", " +
                                                    box_annotation(2, 30, 0, 10, 10) + ", " +
                                                    box_annotation(3, 60, 0, 10, 10) + "]");
        const std::string detections = "[" + box_detection(0, 0, 10, 10, 0.9) + ", " +
                                       box_detection(30, 0, 10, 10, 0.8) + ", " +
                                       box_detection(60, 0, 10, 10, 0.7) + "]";
        const auto result = evaluate_json(truth, detections);
        QVERIFY(std::abs(result.stats[6] - 1.0 / 3) < 1e-15); // AR@1
        QCOMPARE(result.stats[7], 1.0);                       // AR@10
        // COCOeval's first stat asks for maxDets=100 literally: other limits leave it at -1.
        const auto other = evaluate_json(truth, detections, coco::IouType::Box, {1, 2, 50});
        QCOMPARE(other.stats[0], -1.0);
        QVERIFY(std::abs(other.stats[7] - 2.0 / 3) < 1e-15);
        QVERIFY(coco::summary_table(other).find("maxDets=  2 ] = 0.667") != std::string::npos);
    }

    void groundTruthWithIdZeroNeverMatches() {
        // pycocotools stores the matched ground truth's id and reads 0 as "no match".
        const std::string annotations =
            "[" + box_annotation(0, 0, 0, 20, 20) + ", " + box_annotation(1, 50, 50, 20, 20) + "]";
        const std::string detections = "[" + box_detection(0, 0, 20, 20, 0.9) + ", " +
                                       box_detection(50, 50, 20, 20, 0.8) + "]";
        const auto truth = coco::GroundTruth::parse(ground_truth_json(annotations), "gt.json");
        QCOMPARE(truth.warnings().size(), std::size_t{1});
        QVERIFY(QString::fromStdString(truth.warnings()[0]).contains("id 0"));
        const auto result = evaluate_json(ground_truth_json(annotations), detections);
        QCOMPARE(result.stats[8], 0.5);
        QVERIFY(std::abs(result.stats[0] - 51 * 0.5 / 101) < 1e-15);
    }

    void rleStringRoundTrips() {
        std::mt19937 random(7);
        for (int trial = 0; trial < 200; ++trial) {
            const std::uint32_t height = 1 + random() % 40;
            const std::uint32_t width = 1 + random() % 40;
            std::vector<std::uint8_t> pixels(std::size_t{height} * width);
            const unsigned density = random() % 4;
            for (auto& pixel : pixels) {
                pixel =
                    (random() % 4 < density) ? static_cast<std::uint8_t>(1 + random() % 255) : 0;
            }
            const coco::Rle rle = encode(pixels, height, width);
            QVERIFY(rle == encode_pixel_by_pixel(pixels, height, width));
            const std::string text = coco::encode_counts_string(rle);
            QVERIFY(coco::decode_counts_string(text, height, width) == rle);
            std::vector<std::uint8_t> binary = pixels;
            for (auto& pixel : binary) {
                pixel = pixel != 0;
            }
            QVERIFY(coco::decode_to_pixels(rle) == binary);
        }
        // Large counts and negative differences between them.
        const coco::Rle big{2000, 1000, {1999000, 500, 300, 200}};
        QVERIFY(coco::decode_counts_string(coco::encode_counts_string(big), 2000, 1000) == big);
        // An all-zero and an all-one mask.
        QVERIFY(encode(std::vector<std::uint8_t>(12, 0), 3, 4) == (coco::Rle{3, 4, {12}}));
        QVERIFY(encode(std::vector<std::uint8_t>(12, 1), 3, 4) == (coco::Rle{3, 4, {0, 12}}));
    }

    void malformedRleIsAClearError() {
        QVERIFY(error_of([] {
                    coco::decode_counts_string("0\n", 1, 1);
                }).contains("outside COCO's RLE alphabet"));
        QVERIFY(error_of([] {
                    coco::decode_counts_string("1o", 1, 1);
                }).contains("ends in the middle"));
        QVERIFY(error_of([] {
                    coco::decode_counts_string("52", 2, 2);
                }).contains("add up to 7 pixels"));
        QVERIFY(
            error_of([] { coco::decode_counts_string("0000000000", 2, 2); }).contains("add up"));
        QVERIFY(error_of([] {
                    coco::decode_counts_string("ooooooo1", 2, 2);
                }).contains("longer than 7"));
        QVERIFY(
            error_of([] { coco::rle_from_counts({1, 2}, 2, 2); }).contains("add up to 3 pixels"));
    }

    void polygonsRasteriseAsMaskApi() {
        // A 4 x 4 square from (0, 0): the pixels whose centres lie inside, columns and rows 0-3.
        const double square[] = {0, 0, 4, 0, 4, 4, 0, 4};
        const coco::Rle polygon = coco::rle_from_polygon(square, 4, 10, 10);
        QVERIFY(polygon == encode(block_mask(10, 10, 0, 0, 4, 4), 10, 10));
        QCOMPARE(coco::area(polygon), std::uint64_t{16});
        QVERIFY(coco::rle_from_box({0, 0, 4, 4}, 10, 10) == polygon);
        const coco::Box box = coco::bounding_box(polygon);
        QCOMPARE(box, (coco::Box{0, 0, 4, 4}));

        // IoU against hand-made masks: 16 shared pixels of 24, or of 16 with the crowd rule.
        const coco::Rle wider = encode(block_mask(10, 10, 0, 0, 4, 6), 10, 10);
        QCOMPARE(coco::mask_iou_of_overlapping(polygon, wider, false), 16.0 / 24.0);
        QCOMPARE(coco::mask_iou_of_overlapping(polygon, wider, true), 1.0);
        const coco::Rle apart = encode(block_mask(10, 10, 6, 6, 2, 2), 10, 10);
        QCOMPARE(coco::mask_iou_of_overlapping(polygon, apart, false), 0.0);
        QCOMPARE(coco::mask_iou_of_overlapping(polygon, coco::Rle{5, 5, {25}}, false), -1.0);

        // Parts of one object merge into their union.
        const coco::Rle right = encode(block_mask(10, 10, 2, 2, 4, 4), 10, 10);
        const coco::Rle both = coco::merge_union({polygon, right});
        QCOMPARE(coco::area(both), std::uint64_t{28});
        QCOMPARE(coco::bounding_box(both), (coco::Box{0, 0, 6, 6}));
        // A triangle: half of the 10 x 10 square, diagonal pixels by their centres.
        const double triangle[] = {0, 0, 10, 0, 0, 10};
        const coco::Rle half = coco::rle_from_polygon(triangle, 3, 10, 10);
        QVERIFY(coco::area(half) >= 45 && coco::area(half) <= 55);
    }

    void segmentationEvaluation() {
        // Ground truth polygons (a square) and an uncompressed crowd RLE; detections as
        // compressed RLE strings, as pycocotools' results files have them.
        const coco::Rle square = encode(block_mask(100, 100, 10, 10, 20, 20), 100, 100);
        const coco::Rle shifted = encode(block_mask(100, 100, 10, 15, 20, 20), 100, 100);
        const std::string truth = ground_truth_json(
            "[{\"id\": 1, \"image_id\": 1, \"category_id\": 1, \"area\": 400, \"bbox\": [10, 10, "
            "20, 20], \"segmentation\": [[10, 10, 30, 10, 30, 30, 10, 30]], \"iscrowd\": 0}]");
        auto detection = [](const coco::Rle& mask, double score) {
            return "{\"image_id\": 1, \"category_id\": 1, \"score\": " + std::to_string(score) +
                   ", \"segmentation\": {\"size\": [100, 100], \"counts\": \"" +
                   coco::encode_counts_string(mask) + "\"}}";
        };
        auto result = evaluate_json(truth, "[" + detection(square, 0.9) + "]", coco::IouType::Mask);
        QCOMPARE(result.stats[0], 1.0);
        // 15 of 20 columns overlap: IoU 300 / 500 = 0.6, a match at 0.5, 0.55 and 0.6 only.
        result = evaluate_json(truth, "[" + detection(shifted, 0.9) + "]", coco::IouType::Mask);
        QCOMPARE(result.stats[1], 1.0);
        QCOMPARE(result.stats[2], 0.0);
        QCOMPARE(result.stats[8], 0.3);
    }

    void labelmeExampleFile() {
        const std::filesystem::path file =
            "/usr/share/doc/labelme-examples/examples/"
            "instance_segmentation/data_dataset_coco/annotations.json";
        if (!std::filesystem::exists(file)) {
            QSKIP("labelme-examples is not installed: no real COCO file with ids from 0");
        }
        const auto truth = coco::GroundTruth::load(file);
        QCOMPARE(truth.images().size(), std::size_t{3});
        QCOMPARE(truth.annotations().size(), std::size_t{12});
        QCOMPARE(truth.warnings().size(), std::size_t{1}); // annotation id 0
        const auto& masks = truth.masks(2);
        // Detections equal to the ground truth, as boxes and as masks.
        std::vector<coco::Annotation> boxes;
        std::vector<coco::Annotation> mask_detections;
        for (std::size_t i = 0; i < truth.annotations().size(); ++i) {
            coco::Annotation detection = truth.annotations()[i];
            detection.score = 1.0 - 0.01 * static_cast<double>(i);
            detection.segmentation = {};
            boxes.push_back(detection);
            detection.has_box = false;
            detection.segmentation.kind = coco::Segmentation::Kind::Mask;
            detection.segmentation.mask = masks.masks[i];
            mask_detections.push_back(detection);
            // Polygons rasterised here span the box labelme computed from its own masks.
            const coco::Box box = coco::bounding_box(masks.masks[i]);
            for (int c = 0; c < 4; ++c) {
                QVERIFY2(std::abs(box[c] - truth.annotations()[i].box[c]) <= 2,
                         qPrintable(QStringLiteral("annotation %1: %2 %3 %4 %5")
                                        .arg(i)
                                        .arg(box[0])
                                        .arg(box[1])
                                        .arg(box[2])
                                        .arg(box[3])));
            }
        }
        for (auto type : {coco::IouType::Box, coco::IouType::Mask}) {
            coco::EvalParams params;
            params.iou_type = type;
            const auto& detections = type == coco::IouType::Box ? boxes : mask_detections;
            const auto result = coco::evaluate(
                truth, coco::Detections::from_annotations(detections, truth), params);
            // Every object found except the one with id 0, which pycocotools cannot match.
            QVERIFY(result.stats[8] < 1.0);
            QVERIFY(result.stats[8] > 0.8);
            // Annotation 0 is a person (category 15); the other five labelled categories are
            // found perfectly.
            int perfect = 0;
            for (const auto& category : result.per_category) {
                if (category.category_id == 15) {
                    QVERIFY(category.ap < 0.9);
                } else {
                    perfect += std::abs(category.ap - 1.0) < 1e-15 ? 1 : 0;
                }
            }
            QCOMPARE(perfect, 5);
        }
    }

    void tensorMasksEncodeLikePycocotools() {
        at::Tensor mask = at::zeros({6, 9}, at::kBool);
        mask.index_put_({at::indexing::Slice(1, 4), at::indexing::Slice(2, 7)}, true);
        const std::vector<std::uint8_t> pixels = block_mask(6, 9, 1, 2, 3, 5);
        QVERIFY(coco::encode_mask(mask) == encode_pixel_by_pixel(pixels, 6, 9));
        // A strided view (every other column) and a batch.
        at::Tensor wide = at::zeros({6, 18}, at::kByte);
        wide.index_put_({at::indexing::Slice(), at::indexing::Slice(0, at::indexing::None, 2)},
                        mask.to(at::kByte) * 255);
        QVERIFY(coco::encode_mask(wide.slice(1, 0, 18, 2)) == coco::encode_mask(mask));
        const auto batch = coco::encode_masks(at::stack({mask, mask.logical_not()}), 2);
        QCOMPARE(batch.size(), std::size_t{2});
        QCOMPARE(coco::area(batch[1]), std::uint64_t{54 - 15});
        QVERIFY(error_of([] {
                    coco::encode_mask(at::zeros({3, 3}, at::kFloat));
                }).contains("bool or uint8"));
    }

    void badInputNamesTheEntry() {
        const std::string good_truth =
            ground_truth_json("[" + box_annotation(7, 0, 0, 20, 20) + "]");
        QVERIFY(error_of([] {
                    coco::GroundTruth::parse("{\"images\": [", "gt.json");
                }).contains("gt.json is not valid JSON"));
        // A byte order mark before the JSON (Windows editors write one) is read past.
        QCOMPARE(coco::GroundTruth::parse("\xEF\xBB\xBF" + good_truth, "gt.json").images().size(),
                 std::size_t{1});
        const QString nan = error_of([&] {
            const auto truth = coco::GroundTruth::parse(good_truth, "gt.json");
            coco::Detections::parse(
                "[" + box_detection(0, 0, 20, 20, 0.5) +
                    ", {\"image_id\": 1, "
                    "\"category_id\": 1, \"bbox\": [0, 0, 1, 1], \"score\": NaN}]",
                "dt.json", truth, coco::IouType::Box);
        });
        QVERIFY2(nan.contains("dt.json is not valid JSON") &&
                     nan.contains("it holds NaN or Infinity, which JSON has no numbers for"),
                 qPrintable(nan));
        const QString named = error_of([] {
            coco::GroundTruth::parse(
                "{\"categories\": [{\"id\": 1, \"name\": \"Infinity \\\"NaN\"}", "gt.json");
        });
        QVERIFY2(named.contains("gt.json is not valid JSON") && !named.contains("NaN or Infinity"),
                 qPrintable(named));
        QVERIFY(error_of([] {
                    coco::GroundTruth::parse("{\"categories\": []}", "gt.json");
                }).contains("gt.json has no 'images' list"));
        QCOMPARE(error_of([] {
                     coco::GroundTruth::parse(
                         ground_truth_json("[{\"id\": 5, \"image_id\": 1, \"category_id\": 1}]"),
                         "gt.json");
                 }),
                 QStringLiteral("gt.json: annotations[0] (id 5) has no 'area'"));
        QVERIFY(error_of([] {
                    coco::GroundTruth::parse(
                        ground_truth_json(
                            "[{\"id\": 5, \"image_id\": 3, \"category_id\": 1, \"area\": 1}]"),
                        "gt.json");
                }).contains("annotations[0] (id 5) has image_id 3, which is not in 'images'"));
        QVERIFY(error_of([] {
                    coco::GroundTruth::parse(
                        ground_truth_json(
                            "[{\"id\": 5, \"image_id\": 1, \"category_id\": 9, \"area\": 1}]"),
                        "gt.json");
                }).contains("has category_id 9, which is not in 'categories'"));
        QVERIFY(error_of([] {
                    coco::GroundTruth::parse(
                        ground_truth_json("[{\"id\": 5, \"image_id\": 1, \"category_id\": 1, "
                                          "\"area\": 1, \"bbox\": [1, 2, 3]}]"),
                        "gt.json");
                }).contains("has a 'bbox' of 3 numbers"));
        // A name that is a number was taken as no name, and the class named by its id; null is
        // no name, as pycocotools takes it.
        QCOMPARE(error_of([] {
                     coco::GroundTruth::parse("{\"images\": [], \"categories\": [{\"id\": 1, "
                                              "\"name\": 7}]}",
                                              "gt.json");
                 }),
                 QStringLiteral("gt.json: categories[0] (id 1) has a name that is a number; give "
                                "it as a string, or leave it out to name it by its id"));
        QVERIFY(coco::GroundTruth::parse(
                    "{\"images\": [], \"categories\": [{\"id\": 1, \"name\": null}]}", "gt.json")
                    .categories()
                    .at(0)
                    .name.empty());
        // Masks that would take more memory than their image: an RLE's size beyond its image's
        // (65536 x 65536 on a 10 x 10 image took 4 GiB a sample), a polygon zig-zagging
        // between +-1e6 (four points took 856 MB).
        const auto oversized = [](const std::string& segmentation) {
            return error_of([&] {
                coco::GroundTruth::parse(
                    ground_truth_json("[{\"id\": 5, \"image_id\": 1, \"category_id\": 1, "
                                      "\"area\": 1, \"segmentation\": " +
                                      segmentation + "}]"),
                    "gt.json")
                    .masks(1);
            });
        };
        QCOMPARE(oversized("{\"size\": [65536, 65536], \"counts\": [0, 4294967295, 1]}"),
                 QStringLiteral("gt.json: annotations[0] (id 5) has an RLE mask of 65536 x 65536 "
                                "(height x width), far larger than its image 1 (100 x 100); a "
                                "mask's 'size' is its image's [height, width]"));
        QCOMPARE(oversized("{\"size\": [200, 200], \"counts\": [0, 40000]}"),
                 QStringLiteral("(no error)")); // pycocotools' unmatched mask
        const QString zigzag = oversized("[[1000000, 1000000, -1000000, -1000000, 1000000, "
                                         "-1000000, -1000000, 1000000]]");
        QVERIFY2(zigzag.startsWith("gt.json: annotations[0] (id 5) has a polygon whose outline "
                                   "is 8000000 px long, more than Kiln rasterises on its 100 x "
                                   "100 image"),
                 qPrintable(zigzag));
        QCOMPARE(oversized("[[0, 0, 50, 0, 50, 50, 0, 50]]"), QStringLiteral("(no error)"));
        // Found by fuzzing: a file without an annotations list crashed the reader.
        const auto empty = coco::GroundTruth::parse(
            "{\"images\": [{\"id\": 1}], \"categories\": [{\"id\": 1}], \"anotations\": []}",
            "gt.json");
        QCOMPARE(empty.annotations().size(), std::size_t{0});
        QVERIFY(QString::fromStdString(empty.warnings().at(0)).contains("no 'annotations' list"));
        const auto truth = coco::GroundTruth::parse(good_truth, "gt.json");
        QVERIFY(error_of([&] {
                    coco::Detections::parse("[" + box_detection(0, 0, 1, 1, .5) + ", " +
                                                box_detection(0, 0, 1, 1, .5, 1, 99) + "]",
                                            "dt.json", truth, coco::IouType::Box);
                })
                    .contains("dt.json: [1] (image_id 99, category_id 1) is for an image that is "
                              "not in gt.json"));
        QVERIFY(error_of([&] {
                    coco::Detections::parse("[" + box_detection(0, 0, 1, 1, .5, 3) + "]", "dt.json",
                                            truth, coco::IouType::Box);
                }).contains("has a category that is not in gt.json"));
        QVERIFY(
            error_of([&] {
                coco::Detections::parse(
                    "[{\"image_id\": 1, \"category_id\": 1, \"score\": 1, \"segmentation\": "
                    "{\"size\": [100, 100], \"counts\": \"0\\u0001\"}}]",
                    "dt.json", truth, coco::IouType::Mask);
            })
                .contains(
                    "dt.json: [0] (image_id 1, category_id 1) has a malformed RLE segmentation"));
        QVERIFY(error_of([&] {
                    coco::Detections::parse("[{\"image_id\": 1, \"category_id\": 1}]", "dt.json",
                                            truth, coco::IouType::Box);
                }).contains("has no 'score'"));
        QVERIFY(error_of([&] {
                    coco::Detections::parse("{\"image_id\": 1}", "dt.json", truth,
                                            coco::IouType::Box);
                }).contains("a results file is a list of detections"));
        // Found by fuzzing: a huge box rasterised for segm evaluation overflowed maskApi's
        // integer grid and took seconds; now it is an error naming the detection.
        const std::string truth_with_mask = ground_truth_json(
            "[{\"id\": 1, \"image_id\": 1, \"category_id\": 1, \"area\": 4, \"segmentation\": "
            "[[0, 0, 2, 0, 2, 2, 0, 2]]}]");
        const auto masked = coco::GroundTruth::parse(truth_with_mask, "gt.json");
        const auto huge = coco::Detections::parse("[" + box_detection(0, 0, 8e14, 5, .5) + "]",
                                                  "dt.json", masked, coco::IouType::Mask);
        coco::EvalParams segm;
        segm.iou_type = coco::IouType::Mask;
        QVERIFY2(error_of([&] {
                     coco::evaluate(masked, huge, segm);
                 }).contains("dt.json: [0] (image_id 1, category_id 1) has the polygon coordinate"),
                 qPrintable(error_of([&] { coco::evaluate(masked, huge, segm); })));
        // Box-only ground truth cannot be evaluated as masks.
        const auto detections = coco::Detections::parse("[" + box_detection(0, 0, 20, 20, .5) + "]",
                                                        "dt.json", truth, coco::IouType::Mask);
        coco::EvalParams params;
        params.iou_type = coco::IouType::Mask;
        QVERIFY(error_of([&] {
                    coco::evaluate(truth, detections, params);
                }).contains("gt.json: annotations[0] (id 7) has no 'segmentation'"));
    }
};

QTEST_GUILESS_MAIN(CocoTest)
#include "tst_coco.moc"
