// COCO evaluation: pycocotools' numbers on its own fixture, hand-computed cases, RLE and masks.

#include "core/error.h"
#include "eval/coco/coco_eval.h"
#include "eval/coco/rle.h"

#include <QtTest>
#include <filesystem>

namespace coco = kiln::coco;

namespace {

const std::filesystem::path kFixtures =
    std::filesystem::path(KILN_SOURCE_DIR).parent_path() / "shared" / "fixtures" / "coco";

// The 12 stats pycocotools 2.0.x prints on the fixture (../shared/fixtures/coco/README.md).
constexpr std::array<double, 12> kFixtureBbox{
    0.5045806987249628, 0.6969727247299577, 0.5729816669904824, 0.5856257209410443,
    0.5193996948036719, 0.5013978986347466, 0.38681277964578054, 0.5936795762842003,
    0.595352982877607,  0.6398109626113442, 0.5664205978994309, 0.5642905982905982};
constexpr std::array<double, 12> kFixtureSegm{
    0.3195452758576433, 0.5622883972521636, 0.29892653412086784, 0.3873740315997838,
    0.31018272403369485, 0.3269339071005138, 0.2682297225711534, 0.41544868114906375,
    0.4168394992198818,  0.4694498622754236, 0.37675922666197265, 0.3814715099715099};

QString stat_text(const std::array<double, 12>& stats) {
    QStringList parts;
    for (double value : stats) {
        parts << QString::number(value, 'g', 17);
    }
    return parts.join(", ");
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
};

QTEST_GUILESS_MAIN(CocoTest)
#include "tst_coco.moc"
