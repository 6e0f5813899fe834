// Embedding: computing embeddings in order, the four file formats, `run_embedding`.

#include "config/run_config.h"
#include "core/error.h"
#include "core/log.h"
#include "data/dataset_index.h"
#include "embed/embedder.h"
#include "embed/embedding_map.h"
#include "embed/explorer.h"
#include "embed/writers.h"
#include "models/archive.h"
#include "models/backbone.h"
#include "support/error_text.h"
#include "support/file_size_limit.h"
#include "support/peak_memory.h"
#include "support/python.h"

#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <opencv2/imgcodecs.hpp>
#include <set>
#include <sstream>
#include <torch/nn/functional/distance.h>
#include <torch/nn/functional/normalization.h>
#include <torch/serialize.h>
#include <torch/types.h>
#include <torch/utils.h>

namespace fs = std::filesystem;

namespace {

std::string readText(const fs::path& path) {
    std::ifstream file(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(file), {}};
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> result;
    std::istringstream stream(text);
    for (std::string line; std::getline(stream, line);) {
        result.push_back(line);
    }
    return result;
}

} // namespace

class EmbedTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir temp_;
    fs::path root_;
    fs::path images_;
    const std::vector<std::string> names_ = {"a.png", "sub/b,c.jpg", "d.png"};
    const torch::Tensor values_ =
        torch::tensor({{0.1f, -2.5f}, {3.25f, 1e-7f}, {0.0f, 123456.789f}});
    std::unique_ptr<kiln::log::ScopedSink> quiet_;

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(temp_.isValid());
        root_ = temp_.path().toStdString();
        images_ = root_ / "images";
        fs::create_directories(images_ / "a");
        fs::create_directories(images_ / "b");
        for (int i = 0; i < 11; ++i) {
            cv::Mat image(20 + i, 30, CV_8UC3, cv::Scalar(i * 20, 100, 255 - i * 20));
            QVERIFY(cv::imwrite(
                (images_ / (i < 6 ? "a" : "b") / (std::to_string(i) + ".png")).string(), image));
        }
        std::ofstream(images_ / "b" / "broken.png") << "not an image";
        quiet_ =
            std::make_unique<kiln::log::ScopedSink>([](kiln::log::Level, const std::string&) {});
    }

    void csvFormats() {
        kiln::embed::write_embeddings(root_ / "e.csv", "csv", names_, values_);
        auto rows = lines(readText(root_ / "e.csv"));
        QCOMPARE(rows.size(), std::size_t(4));
        QCOMPARE(rows[0], std::string("filename,embedding_0,embedding_1"));
        QCOMPARE(rows[1], std::string("a.png,0.100000001,-2.5"));
        QCOMPARE(rows[2], std::string("\"sub/b,c.jpg\",3.25,1.00000001e-07"));
        QCOMPARE(std::stof("123456.789"), std::stof(rows[3].substr(rows[3].rfind(',') + 1)));

        kiln::embed::write_embeddings(root_ / "e.lightly.csv", "lightly_csv", names_, values_);
        rows = lines(readText(root_ / "e.lightly.csv"));
        QCOMPARE(rows[0], std::string("filenames,embedding_0,embedding_1,labels"));
        QCOMPARE(rows[1], std::string("a.png,0.100000001,-2.5,0"));
    }

    void torchFormatRoundTrip() {
        kiln::embed::write_embeddings(root_ / "e.pt", "torch", names_, values_);
        const std::string bytes = readText(root_ / "e.pt");
        const c10::IValue value = torch::pickle_load(std::vector<char>(bytes.begin(), bytes.end()));
        const auto dict = value.toGenericDict();
        QVERIFY(torch::equal(dict.at("embeddings").toTensor(), values_));
        const auto filenames = dict.at("filenames").toList();
        QCOMPARE(filenames.size(), std::size_t(3));
        QCOMPARE(filenames.get(1).toStringRef(), std::string("sub/b,c.jpg"));
    }

    // npy's two files are written together: a disk with room for the names and not for the
    // array (a file size limit stands in for it) leaves neither, nor a temporary file.
    void npyLeavesBothFilesOrNeither() {
        const std::filesystem::path folder = root_ / "npy-full";
        std::filesystem::create_directories(folder);
        const torch::Tensor values = torch::rand({3, 4096});
        QString message;
        {
            const kiln::test::FileSizeLimit full(8192); // the names fit, 48 KB of floats do not
            QVERIFY(full.applied());
            try {
                kiln::embed::write_embeddings(folder / "e.npy", "npy", names_, values);
            } catch (const kiln::Error& error) {
                message = QString::fromStdString(error.what());
            }
        }
        QVERIFY2(message.contains(QStringLiteral("e.npy")), qPrintable(message));
        QVERIFY(std::filesystem::is_empty(folder));
        kiln::embed::write_embeddings(folder / "e.npy", "npy", names_, values);
        QVERIFY(std::filesystem::exists(folder / "e.npy") &&
                std::filesystem::exists(folder / "e_filenames.txt"));
    }

    void npyFormatRoundTrip() {
        kiln::embed::write_embeddings(root_ / "e.npy", "npy", names_, values_);
        const std::string bytes = readText(root_ / "e.npy");
        QCOMPARE(bytes.substr(0, 6), std::string("\x93NUMPY"));
        const std::size_t header =
            static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
        QCOMPARE((10 + header) % 64, std::size_t(0));
        QVERIFY(bytes.find("'shape': (3, 2)") != std::string::npos);
        QCOMPARE(bytes.size(), 10 + header + 6 * sizeof(float));
        float data[6];
        std::memcpy(data, bytes.data() + 10 + header, sizeof data);
        QCOMPARE(data[2], 3.25f);
        QCOMPARE(lines(readText(kiln::embed::npy_filenames_path(root_ / "e.npy"))), names_);
    }

    void pythonReadsWhatKilnWrites() {
        if (!kiln::test::pythonHas("torch, numpy")) {
            QSKIP(kiln::test::pythonMissing("torch, numpy"));
        }
        const auto read = kiln::test::runPython(
            "import sys, torch, numpy\n"
            "d = torch.load(sys.argv[1])\n"
            "assert d['filenames'] == ['a.png', 'sub/b,c.jpg', 'd.png'], d['filenames']\n"
            "assert tuple(d['embeddings'].shape) == (3, 2)\n"
            "a = numpy.load(sys.argv[2])\n"
            "assert a.dtype == numpy.float32 and a.shape == (3, 2)\n"
            "assert numpy.array_equal(a, d['embeddings'].numpy())\n",
            {QString::fromStdString((root_ / "e.pt").string()),
             QString::fromStdString((root_ / "e.npy").string())});
        QVERIFY2(read.exit_code == 0, qPrintable(read.errors));
    }

    void everyFormatReadsBack() {
        for (const auto& [format, file] :
             {std::pair{"csv", "e.csv"}, std::pair{"lightly_csv", "e.lightly.csv"},
              std::pair{"torch", "e.pt"}, std::pair{"npy", "e.npy"}}) {
            kiln::embed::write_embeddings(root_ / file, format, names_, values_);
            const auto read = kiln::embed::read_embeddings(root_ / file);
            QCOMPARE(read.filenames, names_);
            QVERIFY2(torch::equal(read.embeddings, values_), format);
        }
        std::ofstream(root_ / "bad.csv") << "filename,embedding_0\na.png,1.5\nb.png,oops\n";
        try {
            kiln::embed::read_embeddings(root_ / "bad.csv");
            QFAIL("read a malformed file");
        } catch (const kiln::Error& error) {
            QVERIFY(std::string(error.what()).find("line 3: \"oops\" is not a number") !=
                    std::string::npos);
        }
        std::ofstream(root_ / "other.csv") << "name,x\n";
        QVERIFY_THROWS_EXCEPTION(kiln::Error, kiln::embed::read_embeddings(root_ / "other.csv"));
        // One layout's header on the other's rows: a dimension read as labels, or labels as a
        // dimension.
        const auto refused = [&](const std::string& name, const std::string& text) {
            std::ofstream(root_ / name) << text;
            try {
                kiln::embed::read_embeddings(root_ / name);
                return std::string("read");
            } catch (const kiln::Error& error) {
                return std::string(error.what());
            }
        };
        QVERIFY(refused("no-labels.csv", "filenames,embedding_0,embedding_1\na.png,1,2\n")
                    .find("does not end with a labels column") != std::string::npos);
        QVERIFY(refused("labelled.csv", "filename,embedding_0,labels\na.png,1,0\n")
                    .find("ends with a labels column") != std::string::npos);
        QVERIFY(refused("long-row.csv", "filename,embedding_0\na.png,1\nb.png,2,3\n")
                    .find("line 3 has 3 fields, the header 2") != std::string::npos);
        QVERIFY(refused("short-row.csv", "filename,embedding_0,embedding_1\na.png,1\n")
                    .find("line 2 has 2 fields, the header 3") != std::string::npos);
        // A header alone: dedup said "0 of 0 images" and succeeded.
        QVERIFY(refused("header-only.csv", "filename,embedding_0\n").find("holds no embeddings") !=
                std::string::npos);
        // Rows of zeros have no direction for any cosine: read, with a warning naming one.
        std::vector<std::string> warnings;
        {
            const kiln::log::ScopedSink sink([&](kiln::log::Level level, const std::string& text) {
                if (level == kiln::log::Level::Warning) {
                    warnings.push_back(text);
                }
            });
            std::ofstream(root_ / "zeros.csv")
                << "filename,embedding_0,embedding_1\na.png,1,2\nb.png,0,0\nc.png,0,5e-324\n";
            QCOMPARE(kiln::embed::read_embeddings(root_ / "zeros.csv").filenames.size(),
                     std::size_t(3));
        }
        QCOMPARE(warnings.size(), std::size_t(1));
        QVERIFY2(warnings[0].find("holds 2 embedding(s) of zeros, \"b.png\" first") !=
                     std::string::npos,
                 warnings[0].c_str());
        // Excel's byte order mark is not part of the first column's name.
        std::ofstream(root_ / "excel.csv") << "\xEF\xBB\xBF"
                                           << "filename,embedding_0\na.png,1.5\n";
        QCOMPARE(kiln::embed::read_embeddings(root_ / "excel.csv").filenames,
                 std::vector<std::string>{"a.png"});
        // Read a field at a time: 200,000 columns and blank lines, in the lightly layout.
        std::string wide = "filenames";
        std::string row = "\"a,b.png\"";
        for (int column = 0; column < 200000; ++column) {
            wide += ",embedding_" + std::to_string(column);
            row += column == 7 ? ",2.5" : ",0";
        }
        std::ofstream(root_ / "wide.csv") << wide << ",labels\n\n" << row << ",0\n\n";
        const auto read_wide = kiln::embed::read_embeddings(root_ / "wide.csv");
        QCOMPARE(read_wide.filenames, std::vector<std::string>{"a,b.png"});
        QCOMPARE(read_wide.embeddings.sizes(), (c10::IntArrayRef{1, 200000}));
        QCOMPARE(read_wide.embeddings[0][7].item<float>(), 2.5f);
        // Text from the file is shown escaped and cut short.
        const std::string shown =
            refused("escape.csv", "\x1b]0;HACKED\x07" + std::string(500, 'x') + ",e\n");
        QVERIFY2(shown.find("\\x1b]0;HACKED\\x07xxx") != std::string::npos &&
                     shown.find("...\" (511 bytes)") != std::string::npos && shown.size() < 300,
                 shown.c_str());
    }

    // Embeddings files others give: one without values, one with a NaN, one whose tensor views
    // a single stored number as trillions are refused, naming the file, before any use.
    void untrustedEmbeddingFilesAreRefused() {
        const auto refusal = [&](const std::string& name) {
            try {
                kiln::embed::read_embeddings(root_ / name);
                return std::string("read");
            } catch (const kiln::Error& error) {
                return std::string(error.what());
            }
        };
        std::ofstream(root_ / "names-only.csv") << "filenames\nx\n";
        QVERIFY2(refusal("names-only.csv").find("has no embedding columns") != std::string::npos,
                 refusal("names-only.csv").c_str());
        std::ofstream(root_ / "header-only.csv") << "filename\n";
        QVERIFY(refusal("header-only.csv").find("has no embedding columns") != std::string::npos);
        // Kiln writes none (a half-precision model can overflow): nothing is written instead.
        const torch::Tensor overflowed = torch::tensor({{1.0f}, {INFINITY}});
        QVERIFY(kiln::test::throwsContaining(
            [&] {
                kiln::embed::write_embeddings(root_ / "overflowed.csv", "csv", {"a.png", "b.png"},
                                              overflowed);
            },
            "the embedding of \"b.png\" is not a finite number (NaN or infinite), so nothing was "
            "written"));
        QVERIFY(!fs::exists(root_ / "overflowed.csv"));
        fs::create_symlink("/dev/zero", root_ / "device.csv"); // it has no end
        QVERIFY2(refusal("device.csv").find("is a character device, not a file") !=
                     std::string::npos,
                 refusal("device.csv").c_str());
        std::ofstream(root_ / "nan.csv") << "filename,embedding_0\na.png,1\nb.png,nan\n";
        QVERIFY2(refusal("nan.csv").find("not a finite number (NaN or infinite) in the embedding "
                                         "of \"b.png\"") != std::string::npos,
                 refusal("nan.csv").c_str());
        // Studio copies images by these names: none may lead out of the embedded folder.
        for (const char* name : {"../outside.png", "/etc/passwd", "a/../../outside.png"}) {
            std::ofstream(root_ / "escape.csv") << "filename,embedding_0\na.png,1\n"
                                                << name << ",2\n";
            QVERIFY2(refusal("escape.csv")
                             .find("the name on row 2 (\"" + std::string(name) +
                                   "\") leaves the images folder") != std::string::npos,
                     refusal("escape.csv").c_str());
        }
        std::ofstream(root_ / "inside.csv") << "filename,embedding_0\na/../b.png,1\n";
        QCOMPARE(refusal("inside.csv"), std::string("read"));
        if (!kiln::test::pythonHas("torch")) {
            QSKIP(kiln::test::pythonMissing("torch"));
        }
        const auto saved =
            kiln::test::runPython("import sys, torch\n"
                                  "torch.save({'filenames': ['a.png', 'b.png'], "
                                  "'embeddings': torch.ones(1).expand(2, 1 << 40)}, sys.argv[1])\n",
                                  {QString::fromStdString((root_ / "view.pt").string())});
        QVERIFY2(saved.exit_code == 0, qPrintable(saved.errors));
        QVERIFY2(
            refusal("view.pt").find("a tensor of 2199023255552 values viewing a storage of 1") !=
                std::string::npos,
            refusal("view.pt").c_str());
        // One 1 MB name referred to a thousand times (two bytes each in the pickle) is not
        // copied a thousand times; embeddings of no dimensions are named.
        const auto memo = kiln::test::runPython(
            "import sys, torch\n"
            "name = 'a' * 1000000\n"
            "torch.save({'filenames': [name] * 1000, 'embeddings': torch.rand(1000, 2)},"
            " sys.argv[1])\n"
            "torch.save({'filenames': ['a.png', 'b.png'], 'embeddings': torch.rand(2, 0)},"
            " sys.argv[2])\n",
            {QString::fromStdString((root_ / "memo.pt").string()),
             QString::fromStdString((root_ / "no-dimensions.pt").string())});
        QVERIFY2(memo.exit_code == 0, qPrintable(memo.errors));
        const long peak_before = kiln::test::peak_resident_kilobytes();
        const std::string repeated = refusal("memo.pt");
        QVERIFY2(repeated.find("as a file made to exhaust memory would") != std::string::npos,
                 repeated.substr(0, 300).c_str());
        QVERIFY2(kiln::test::peak_resident_kilobytes() - peak_before < 256 * 1024,
                 qPrintable(QString::number(kiln::test::peak_resident_kilobytes() - peak_before)));
        QVERIFY2(refusal("no-dimensions.pt").find("holds embeddings of no dimensions") !=
                     std::string::npos,
                 refusal("no-dimensions.pt").c_str());
        // Tensors Kiln does not read are named as such, with how to save them instead (the
        // advice had been to save a model's state_dict).
        const auto kinds =
            kiln::test::runPython("import sys, torch\n"
                                  "names = ['a.png', 'b.png']\n"
                                  "torch.save({'filenames': names, 'embeddings': torch.ones(2, 2, "
                                  "dtype=torch.complex64)},"
                                  " sys.argv[1])\n"
                                  "torch.save({'filenames': names, 'embeddings': "
                                  "torch.eye(2).to_sparse()}, sys.argv[2])\n",
                                  {QString::fromStdString((root_ / "complex.pt").string()),
                                   QString::fromStdString((root_ / "sparse.pt").string())});
        QVERIFY2(kinds.exit_code == 0, qPrintable(kinds.errors));
        for (const char* name : {"complex.pt", "sparse.pt"}) {
            const std::string message = refusal(name);
            QVERIFY2(message.find("holds a tensor of a kind Kiln does not read") !=
                             std::string::npos &&
                         message.find("tensor.float()") != std::string::npos,
                     message.c_str());
        }
    }

    void npyHeadersAreCheckedAgainstTheirData() {
        // A shape the data does not hold (too large, negative, or one whose product overflows)
        // is refused with the file named, before anything is allocated for it.
        // A file of `data_bytes` zero bytes under the header `dictionary`, in .npy `version` 1
        // (the header's length in two bytes) or 2 (in four).
        const auto refusal_of = [&](std::string dictionary, std::size_t data_bytes,
                                    char version = 1) {
            const std::size_t length_bytes = version == 1 ? 2 : 4;
            dictionary.append(63 - (8 + length_bytes + dictionary.size()) % 64, ' ')
                .push_back('\n');
            std::string bytes = "\x93NUMPY";
            bytes += version;
            bytes += '\0';
            for (std::size_t i = 0; i < length_bytes; ++i) {
                bytes += static_cast<char>((dictionary.size() >> (8 * i)) & 0xff);
            }
            const fs::path file = root_ / "crafted.npy";
            std::ofstream(file, std::ios::binary)
                << bytes << dictionary << std::string(data_bytes, '\0');
            std::ofstream(kiln::embed::npy_filenames_path(file)) << "a.png\nb.png\nc.png\n";
            try {
                kiln::embed::read_embeddings(file);
                return std::string("read");
            } catch (const kiln::Error& error) {
                const std::string message = error.what();
                return message.find(file.string()) == std::string::npos
                           ? message
                           : message.substr(file.string().size() + 3);
            }
        };
        const auto refusal = [&](const std::string& shape, std::size_t data_bytes,
                                 const std::string& fortran_order = "False") {
            return refusal_of("{'descr': '<f4', 'fortran_order': " + fortran_order +
                                  ", 'shape': " + shape + ", }",
                              data_bytes);
        };
        // Version 2 (a header's length in four bytes) is read; a header is read as the
        // dictionary it is: what another key's value spells is not taken for the header.
        QCOMPARE(refusal_of("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 2), }", 24, 2),
                 std::string("read"));
        QVERIFY(refusal_of("{'descr': '>f4', 'fortran_order': True, 'shape': (3, 2), 'x': "
                           "\"'descr': '<f4', 'fortran_order': False, 'shape': (3, 2)\"}",
                           24)
                    .starts_with("is not a float32 matrix"));
        QCOMPARE(refusal("(3, 2)", 24), std::string("read")); // the builder makes good files
        QCOMPARE(refusal("(4, 2)", 24),
                 std::string("declares 4 x 2 float32 values but holds 24 bytes of them: it is "
                             "truncated or damaged; embed the images again"));
        QVERIFY(refusal("(-3, -2)", 24).starts_with("is not a float32 matrix"));
        QVERIFY(refusal("(3, 0)", 0).starts_with("is not a float32 matrix"));
        QVERIFY(refusal("(3, 2, 1)", 24).starts_with("is not a float32 matrix")); // 3-D
        QVERIFY(refusal("(3, 1, 1, 2)", 24).starts_with("holds an embedding per location"));
        // Column-major values would be read transposed: refused, not misread.
        QVERIFY(refusal("(3, 2)", 24, "True").starts_with("is not a float32 matrix"));
        // The message shows what the header says instead.
        QVERIFY(refusal("(3, 2)", 24, "True").find("'fortran_order': True") != std::string::npos);
        // 2^62 x 4 values of 4 bytes wrap to 0 bytes in 64 bits.
        QVERIFY(refusal("(4611686018427387904, 4)", 0).starts_with("declares 4611686018427387904"));
        // Finite values too large for a length or a cosine (a PCA map wrote inf).
        std::ofstream(root_ / "huge.csv") << "filename,embedding_0,embedding_1\na.png,1,2\n"
                                             "b.png,3e38,-3e38\n";
        QVERIFY(kiln::test::throwsContaining(
            [&] { kiln::embed::read_embeddings(root_ / "huge.csv"); },
            "holds a value beyond 1e+15 in the embedding of \"b.png\""));
        // Its names file missing: said so, with where kiln embed writes it.
        kiln::embed::write_embeddings(root_ / "lone.npy", "npy", names_, values_);
        std::filesystem::remove(root_ / "lone_filenames.txt");
        QVERIFY(kiln::test::throwsContaining(
            [&] { kiln::embed::read_embeddings(root_ / "lone.npy"); },
            "lone_filenames.txt\", which does not exist; kiln embed format=npy writes the two"));
        std::ofstream(root_ / "stub.npy", std::ios::binary) << "\x93NUM";
        QVERIFY_THROWS_EXCEPTION(kiln::Error, kiln::embed::read_embeddings(root_ / "stub.npy"));
    }

    void projectionFindsTheMainAxes() {
        torch::manual_seed(2);
        // Most spread along dimension 3, then along dimension 0; little elsewhere.
        const torch::Tensor data =
            torch::randn({500, 6}) * torch::tensor({2.0f, 0.1f, 0.1f, 5.0f, 0.1f, 0.1f}) + 7.0f;
        const torch::Tensor projection = kiln::embed::pca_2d(data);
        QCOMPARE(projection.sizes().vec(), (std::vector<std::int64_t>{500, 2}));
        const torch::Tensor centred = data - data.mean(0);
        const double first =
            torch::corrcoef(torch::stack({projection.select(1, 0), centred.select(1, 3)}))[0][1]
                .item<double>();
        const double second =
            torch::corrcoef(torch::stack({projection.select(1, 1), centred.select(1, 0)}))[0][1]
                .item<double>();
        QVERIFY2(std::abs(first) > 0.99, qPrintable(QString::number(first)));
        QVERIFY2(std::abs(second) > 0.95, qPrintable(QString::number(second)));
        QVERIFY(torch::equal(kiln::embed::pca_2d(data), projection)); // deterministic, signs too
        QVERIFY_THROWS_EXCEPTION(kiln::Error, kiln::embed::pca_2d(torch::ones({1, 4})));
        // Fewer embeddings than dimensions: the same projection (up to sign) as the singular
        // vectors give, without a dimensions x dimensions matrix (20,000^2 took 3 GB and
        // minutes); two rows span one direction, and the other is 0.
        for (const std::int64_t rows : {3, 2}) {
            const torch::Tensor wide = torch::randn({rows, 20000}, torch::kFloat64);
            const long peak_before = kiln::test::peak_resident_kilobytes();
            const torch::Tensor mapped = kiln::embed::pca_2d(wide).to(torch::kFloat64);
            QVERIFY2(
                kiln::test::peak_resident_kilobytes() - peak_before < 256 * 1024,
                qPrintable(QString::number(kiln::test::peak_resident_kilobytes() - peak_before)));
            const auto [u, singular, v] = torch::linalg_svd(wide - wide.mean(0), false);
            const torch::Tensor expected = u.narrow(1, 0, std::min<std::int64_t>(2, rows)) *
                                           singular.narrow(0, 0, std::min<std::int64_t>(2, rows));
            QVERIFY(torch::allclose(mapped.abs().narrow(1, 0, rows == 2 ? 1 : 2),
                                    expected.abs().narrow(1, 0, rows == 2 ? 1 : 2), 1e-4, 1e-3));
            if (rows == 2) {
                QVERIFY(mapped.select(1, 1).abs().max().item<double>() < 1e-3);
            }
        }
    }

    void neighboursAndDuplicates() {
        torch::manual_seed(3);
        torch::Tensor data = torch::randn({200, 16});
        data[150] = data[17] * 3.0; // the same image at another scale: cosine 1
        data[90] = data[40] + 0.01 * torch::randn({16});
        const auto neighbours =
            kiln::embed::nearest_neighbours(kiln::embed::unit_rows(data), 17, 5);
        QCOMPARE(neighbours.size(), std::size_t(5));
        QCOMPARE(neighbours[0].row, 150);
        QVERIFY(neighbours[0].similarity > 0.999);
        QVERIFY(neighbours[1].similarity <= neighbours[0].similarity);
        for (const auto& neighbour : neighbours) {
            QVERIFY(neighbour.row != 17);
        }
        for (const std::int64_t chunk : {1024, 7}) {
            const auto duplicates = kiln::embed::near_duplicates_exact(data, 0.99, chunk);
            QCOMPARE(duplicates.size(), std::size_t(2));
            QCOMPARE(duplicates[0].kept, 17);
            QCOMPARE(duplicates[0].row, 150);
            QCOMPARE(duplicates[1].kept, 40);
            QCOMPARE(duplicates[1].row, 90);
        }
        QVERIFY_THROWS_EXCEPTION(
            kiln::Error, kiln::embed::nearest_neighbours(kiln::embed::unit_rows(data), 200, 3));
    }

    void indexedDuplicatesMatchTheExactSearch() {
        // Clustered rows, as real embeddings are (60 clusters, cosine ~0.8 to their centre), with
        // pairs planted at similarities from 0.95 up.
        torch::manual_seed(4);
        const torch::Tensor centres = torch::randn({60, 64});
        torch::Tensor data =
            centres.index_select(0, torch::randint(60, {6000})) + 0.75 * torch::randn({6000, 64});
        for (int i = 0; i < 60; ++i) {
            const double noise = 0.05 + 0.25 * i / 60.0; // cosine ~1.0 down to ~0.96
            data[5000 + i] = data[i] + noise * torch::randn({64}) * data[i].norm() / 8.0;
        }
        const torch::Tensor unit = torch::nn::functional::normalize(
            data, torch::nn::functional::NormalizeFuncOptions().dim(1));
        const auto exact = kiln::embed::near_duplicates_exact(data, 0.95);
        QVERIFY2(exact.size() >= 50, qPrintable(QString::number(exact.size())));
        const auto indexed = kiln::embed::near_duplicates_approximate(data, 0.95);
        std::set<std::int64_t> truth, left_out;
        for (const auto& duplicate : exact) {
            truth.insert(duplicate.row);
        }
        for (const auto& duplicate : indexed) {
            left_out.insert(duplicate.row);
        }
        std::size_t found = 0;
        for (const auto& duplicate : indexed) {
            QVERIFY(duplicate.kept < duplicate.row);
            QVERIFY(!left_out.count(duplicate.kept)); // a duplicate of a row that is kept
            QVERIFY(duplicate.similarity >= 0.95);
            QVERIFY(std::abs(unit[duplicate.row].dot(unit[duplicate.kept]).item<double>() -
                             duplicate.similarity) < 1e-4);
            found += truth.count(duplicate.row);
        }
        QVERIFY2(found >= exact.size() * 97 / 100,
                 qPrintable(QStringLiteral("%1 of %2").arg(found).arg(exact.size())));
        // Seeded: the same duplicates every time.
        const auto again = kiln::embed::near_duplicates_approximate(data, 0.95);
        QCOMPARE(again.size(), indexed.size());
        for (std::size_t i = 0; i < again.size(); ++i) {
            QCOMPARE(again[i].row, indexed[i].row);
            QCOMPARE(again[i].kept, indexed[i].kept);
        }
    }

    void duplicatesChainToTheFirstKeptImage() {
        // a ~ b and b ~ c, a and c apart: b duplicates a, c is kept (it duplicates no kept row).
        const torch::Tensor chain = torch::tensor({{1.0f, 0.0f},
                                                   {0.985f, 0.174f},   // 10 degrees from a
                                                   {0.940f, 0.342f}}); // 10 from b, 20 from a
        for (const std::int64_t chunk : {1024, 1, 2}) {
            const auto duplicates = kiln::embed::near_duplicates_exact(chain, 0.97, chunk);
            QCOMPARE(duplicates.size(), std::size_t(1));
            QCOMPARE(duplicates[0].row, 1);
            QCOMPARE(duplicates[0].kept, 0);
        }
        const auto indexed = kiln::embed::near_duplicates_approximate(chain, 0.97);
        QCOMPARE(indexed.size(), std::size_t(1));
        QCOMPARE(indexed[0].row, 1);
        // Chains across the index's blocks of 2,048 rows, of copies and near-copies it cannot
        // miss: the index finds what the exact search finds, each with the same kept row.
        torch::manual_seed(8);
        torch::Tensor rows = torch::randn({5000, 32});
        for (const std::int64_t row : {2040, 2046, 2047, 2048, 2049, 2055, 4095, 4096, 4097}) {
            rows[row] = rows[row - 1] + 0.01 * torch::randn({32}); // each repeats the last
        }
        rows[4999] = rows[3] * 2.0; // a copy at another scale
        const auto exact = kiln::embed::near_duplicates_exact(rows, 0.99);
        const auto across = kiln::embed::near_duplicates_approximate(rows, 0.99);
        const auto kept_of = [](const std::vector<kiln::embed::Duplicate>& found) {
            std::map<std::int64_t, std::int64_t> kept; // their order by similarity may differ
            for (const auto& duplicate : found) {
                kept[duplicate.row] = duplicate.kept;
            }
            return kept;
        };
        QCOMPARE(exact.size(), std::size_t(10));
        QCOMPARE(kept_of(across), kept_of(exact));
        QCOMPARE(kept_of(exact)[2049], 2045); // a chain of five, 2045-2049: its first is kept
        // Copies count at a threshold of 1, though they normalise to a cosine under 1.
        QCOMPARE(kiln::embed::near_duplicates_exact(rows, 1.0).size(), std::size_t(1));
        QCOMPARE(kiln::embed::near_duplicates_approximate(rows, 1.0).size(), std::size_t(1));
        // 30,000 copies of one image (and one other): duplicates of the first, found through
        // the index without a pair list (4.5e8 pairs held 10 GB before).
        torch::Tensor copies = torch::ones({30000, 64});
        copies[29999] = -1.0;
        const auto repeated = kiln::embed::near_duplicates(copies, 0.95);
        QCOMPARE(repeated.size(), std::size_t(29998));
        for (const auto& duplicate : repeated) {
            QVERIFY(duplicate.kept == 0 && duplicate.row != 29999);
        }
    }

    void mismatchedRowsAreRefused() {
        QVERIFY_THROWS_EXCEPTION(
            kiln::Error, kiln::embed::write_embeddings(root_ / "x.csv", "csv", {"a"}, values_));
        QVERIFY_THROWS_EXCEPTION(kiln::Error, kiln::embed::write_embeddings(
                                                  root_ / "x.csv", "parquet", names_, values_));
        // An image named with a line break would split npy's names file and select's list.
        for (const char* format : {"csv", "npy", "torch"}) {
            const fs::path out = root_ / (std::string("broken.") + format);
            QVERIFY(kiln::test::throwsContaining(
                [&] {
                    kiln::embed::write_embeddings(out, format, {"a.png", "b\nc.png", "d.png"},
                                                  values_);
                },
                "holds a control character"));
            QVERIFY(!fs::exists(out));
        }
    }

    void everyReadableImageOnceInOrder() {
        torch::manual_seed(0);
        const auto backbone = kiln::models::make_backbone("smallcnn");
        const auto index = kiln::data::DatasetIndex::scan({images_});
        kiln::train::EmbedOptions options;
        options.height = options.width = 16;
        options.batch_size = 4; // 12 files: 3 batches, one of them short of the broken file
        options.num_workers = 2;
        const auto embeddings = kiln::train::compute_embeddings(*backbone, index, options);
        QCOMPARE(embeddings.values.size(0), 11);
        QCOMPARE(embeddings.values.size(1), 256);
        QCOMPARE(embeddings.skipped, 1);
        for (std::size_t i = 1; i < embeddings.indices.size(); ++i) {
            QVERIFY(embeddings.indices[i] > embeddings.indices[i - 1]);
        }
        options.num_workers = 0;
        options.batch_size = 64;
        QVERIFY(torch::allclose(kiln::train::compute_embeddings(*backbone, index, options).values,
                                embeddings.values, 1e-5, 1e-6));
    }

    void precisionChangesHowNotWhat() {
        torch::manual_seed(2);
        const auto backbone = kiln::models::make_backbone("smallcnn");
        const auto index = kiln::data::DatasetIndex::scan({images_});
        kiln::train::EmbedOptions options;
        options.height = options.width = 16;
        const torch::Tensor full =
            kiln::train::compute_embeddings(*backbone, index, options).values;
        namespace F = torch::nn::functional;
        // A batch this large has its memory probed first, through the model as the pass runs
        // it (a float32 probe failed on bfloat16 and float64 weights).
        options.batch_size = 100'000;
        for (const kiln::Precision precision :
             {kiln::Precision::BF16Mixed, kiln::Precision::BF16True, kiln::Precision::Full64}) {
            options.precision = precision;
            const torch::Tensor values =
                kiln::train::compute_embeddings(*backbone, index, options).values;
            QCOMPARE(values.scalar_type(), torch::kFloat32);
            const double similarity =
                F::cosine_similarity(values, full, F::CosineSimilarityFuncOptions().dim(1))
                    .min()
                    .item<double>();
            QVERIFY2(similarity > 0.98, qPrintable(QString::number(similarity)));
            // Another precision changes the digits, float64 barely the direction.
            QCOMPARE(torch::equal(values, full), false);
            if (precision == kiln::Precision::Full64) {
                QVERIFY2(similarity > 0.99999, qPrintable(QString::number(similarity)));
            }
        }
        // The backbone is left as it was given.
        QCOMPARE(backbone->parameters()[0].scalar_type(), torch::kFloat32);
    }

    void runEmbeddingFindsTheModelOfAnExport() {
        torch::manual_seed(1);
        const auto backbone = kiln::models::make_backbone("smallcnn");
        kiln::models::save_backbone_weights(*backbone, root_ / "exported.pt");
        kiln::ResolveContext context;
        context.hardware.cpu_cores = 2;
        const nlohmann::json settings = {{"out", (root_ / "out.csv").string()},
                                         {"data", images_.string()},
                                         {"checkpoint", (root_ / "exported.pt").string()},
                                         {"format", "csv"},
                                         {"image_size", 16},
                                         {"accelerator", "cpu"}};
        const auto summary =
            kiln::embed::run_embedding(kiln::resolve_embed_config(settings, context));
        QCOMPARE(summary.model, std::string("smallcnn"));
        QCOMPARE(summary.images, 11);
        QCOMPARE(summary.skipped, 1);
        QCOMPARE(lines(readText(root_ / "out.csv")).size(), std::size_t(12));
        QCOMPARE(summary.image_height, 16);
        QVERIFY(!summary.size_from_training); // given, not auto
        QVERIFY(summary.images_per_second > 0);
        QVERIFY(summary.data_wait >= 0 && summary.data_wait <= 1);

        std::ofstream(root_ / "junk.pt") << "junk";
        nlohmann::json bad = settings;
        bad["checkpoint"] = (root_ / "junk.pt").string();
        bad["overwrite"] = true;
        try {
            kiln::embed::run_embedding(kiln::resolve_embed_config(bad, context));
            QFAIL("embedded with junk weights");
        } catch (const kiln::Error& error) {
            QVERIFY(std::string(error.what()).find("junk.pt") != std::string::npos);
        }

        // An image named with a line break: refused before anything is embedded or written.
        const fs::path odd = root_ / "odd-names";
        fs::create_directories(odd);
        fs::copy_file(images_ / "a" / "0.png", odd / "fine.png");
        fs::copy_file(images_ / "a" / "0.png", odd / "two\nlines.png");
        nlohmann::json named = settings;
        named["data"] = odd.string();
        named["out"] = (root_ / "odd.csv").string();
        QVERIFY(kiln::test::throwsContaining(
            [&] { kiln::embed::run_embedding(kiln::resolve_embed_config(named, context)); },
            "an image of data cannot be embedded: the name on row 2 (\"two\\x0alines.png\")"));
        QVERIFY(!fs::exists(root_ / "odd.csv"));
        // A Latin-1 name (from an old zip): written, torch.load and Python's csv failed on it.
        fs::remove(odd / "two\nlines.png");
        fs::copy_file(images_ / "a" / "0.png", odd / "caf\xe9.png");
        QVERIFY(kiln::test::throwsContaining(
            [&] { kiln::embed::run_embedding(kiln::resolve_embed_config(named, context)); },
            "the name on row 1 (\"caf\\xe9.png\") is not UTF-8 text"));
        QVERIFY(!fs::exists(root_ / "odd.csv"));
        // Two folders holding one name: the file could not say which image is which (select
        // and dedup refused it afterwards).
        fs::remove(odd / "caf\xe9.png");
        named["data"] = {odd.string(), (images_ / "a").string()};
        fs::copy_file(images_ / "a" / "0.png", odd / "0.png");
        QVERIFY(kiln::test::throwsContaining(
            [&] { kiln::embed::run_embedding(kiln::resolve_embed_config(named, context)); },
            "0.png\" would both be named \"0.png\" in the embeddings"));
        QVERIFY(!fs::exists(root_ / "odd.csv"));

        // npy's names file beside out is replaced only with overwrite=true, as out is.
        nlohmann::json npy = settings;
        npy["format"] = "npy";
        npy["out"] = (root_ / "kept.npy").string();
        std::ofstream(root_ / "kept_filenames.txt") << "mine\n";
        QVERIFY(kiln::test::throwsContaining(
            [&] { kiln::embed::run_embedding(kiln::resolve_embed_config(npy, context)); },
            "kept_filenames.txt\" exists, and format=npy writes the images' names there"));
        QCOMPARE(readText(root_ / "kept_filenames.txt"), std::string("mine\n"));
        QVERIFY(!fs::exists(root_ / "kept.npy"));
        npy["overwrite"] = true;
        kiln::embed::run_embedding(kiln::resolve_embed_config(npy, context));
        QCOMPARE(lines(readText(root_ / "kept_filenames.txt")).size(), std::size_t(11));

        // A size the run records that no image could have (a damaged or hand-made config.json)
        // is named, not passed on to LibTorch.
        const fs::path run = root_ / "odd-run";
        fs::create_directories(run / "exported_models");
        kiln::models::save_backbone_weights(*backbone, run / "exported_models" / "model.pt");
        std::ofstream(run / "run.db") << "";
        std::ofstream(run / "config.json") << R"({"transform_args": {"image_size": [-5, 0]}})";
        nlohmann::json recorded = settings;
        recorded["checkpoint"] = (run / "exported_models" / "model.pt").string();
        recorded["image_size"] = "auto";
        recorded["out"] = (root_ / "recorded.csv").string();
        QVERIFY(kiln::test::throwsContaining(
            [&] { kiln::embed::run_embedding(kiln::resolve_embed_config(recorded, context)); },
            "config.json\" records transform_args.image_size [-5,0], whose sides are not between 1 "
            "and 4096; give image_size yourself"));
        QVERIFY(!fs::exists(root_ / "recorded.csv"));
        recorded["image_size"] = 16; // given: the recorded one is not needed
        kiln::embed::run_embedding(kiln::resolve_embed_config(recorded, context));
        QVERIFY(fs::exists(root_ / "recorded.csv"));
    }

    void patchEmbeddingsAreTheLastFeatureMapPerLocation() {
        // smallcnn at 32 px has a last map of 2 x 2 locations (stride 16); each location's
        // vector is the map's, in row-major order, and the image embedding is not among them.
        torch::manual_seed(4);
        const auto backbone = kiln::models::make_backbone("smallcnn");
        kiln::models::save_backbone_weights(*backbone, root_ / "patches.pt");
        kiln::ResolveContext context;
        context.hardware.cpu_cores = 2;
        nlohmann::json settings = {{"out", (root_ / "patches-out.pt").string()},
                                   {"data", (images_ / "a").string()},
                                   {"checkpoint", (root_ / "patches.pt").string()},
                                   {"format", "torch"},
                                   {"embedding", "patch"},
                                   {"image_size", 32},
                                   {"accelerator", "cpu"}};
        const auto summary =
            kiln::embed::run_embedding(kiln::resolve_embed_config(settings, context));
        const std::vector<torch::Tensor> maps =
            backbone->feature_maps(torch::zeros({1, 3, 32, 32}));
        const std::int64_t rows = maps.back().size(2), columns = maps.back().size(3);
        QCOMPARE(summary.rows, rows);
        QCOMPARE(summary.columns, columns);
        QCOMPARE(summary.dimension, maps.back().size(1));
        const kiln::models::Archive archive = kiln::models::read_archive(root_ / "patches-out.pt");
        const torch::Tensor values = archive.tensor("embeddings");
        QCOMPARE(values.sizes().vec(),
                 (std::vector<std::int64_t>{6, rows, columns, maps.back().size(1)}));
        // smallcnn's image embedding is its last map averaged over the locations.
        nlohmann::json whole = settings;
        whole["embedding"] = "image";
        whole["out"] = (root_ / "image-level.pt").string();
        kiln::embed::run_embedding(kiln::resolve_embed_config(whole, context));
        const auto images = kiln::embed::read_embeddings(root_ / "image-level.pt");
        QVERIFY(torch::allclose(values.mean({1, 2}), images.embeddings, 1e-4, 1e-5));
        // Readers of whole-image embeddings refuse the file, naming it and the fix.
        try {
            kiln::embed::read_embeddings(root_ / "patches-out.pt");
            QFAIL("a per-location file read as whole-image embeddings");
        } catch (const kiln::Error& error) {
            QVERIFY2(std::string(error.what()).find("embedding=patch") != std::string::npos,
                     error.what());
        }
        // CSV: a line per location with its row and column; lightly_csv cannot hold them.
        settings["format"] = "csv";
        settings["out"] = (root_ / "patches.csv").string();
        kiln::embed::run_embedding(kiln::resolve_embed_config(settings, context));
        const auto written = lines(readText(root_ / "patches.csv"));
        QCOMPARE(written.size(), std::size_t(1 + 6 * rows * columns));
        QVERIFY(written[0].rfind("filename,row,column,embedding_0,", 0) == 0);
        QVERIFY(written[2].rfind("0.png,0,1,", 0) == 0);
        QVERIFY_THROWS_EXCEPTION(kiln::Error, kiln::embed::read_embeddings(root_ / "patches.csv"));
        settings["format"] = "lightly_csv";
        settings["out"] = (root_ / "patches-lightly.csv").string();
        QVERIFY_THROWS_EXCEPTION(kiln::ConfigError, kiln::resolve_embed_config(settings, context));
    }

    void aStoppedMapWritesNothing() {
        torch::manual_seed(5);
        std::vector<std::string> names;
        for (int i = 0; i < 40; ++i) {
            names.push_back(std::to_string(i) + ".png");
        }
        kiln::embed::write_embeddings(root_ / "to-map.csv", "csv", names, torch::randn({40, 8}));
        kiln::MapConfig config;
        config.embeddings = root_ / "to-map.csv";
        config.out = root_ / "map.csv";
        config.projection = "umap";
        kiln::StopToken stop;
        stop.request_stop();
        QVERIFY_THROWS_EXCEPTION(kiln::Error, kiln::embed::write_embedding_map(config, &stop));
        QVERIFY(!fs::exists(config.out));
        const auto summary = kiln::embed::write_embedding_map(config);
        QCOMPARE(summary.points, std::int64_t(40));
        QCOMPARE(lines(readText(config.out)).size(), std::size_t(41));
        // A file that cannot be mapped is named.
        kiln::embed::write_embeddings(root_ / "one.csv", "csv", {"a.png"}, torch::randn({1, 8}));
        config.embeddings = root_ / "one.csv";
        config.out = root_ / "one-map.csv";
        QVERIFY(kiln::test::throwsContaining([&] { kiln::embed::write_embedding_map(config); },
                                             "one.csv\": "));
        QVERIFY(!fs::exists(config.out));
    }

    void copiesShareTheirPlaceOnTheMap() {
        // 3,000 copies of one image among 60 others: t-SNE's tree could not split the pile
        // (20,000 copies took over a minute); each copy now sits where its first one does.
        torch::manual_seed(6);
        const torch::Tensor others = torch::randn({60, 8});
        const torch::Tensor data =
            torch::cat({others, others[3].expand({3000, 8}), others[7].unsqueeze(0)});
        for (const auto projection :
             {kiln::embed::Projection::Tsne, kiln::embed::Projection::Umap}) {
            kiln::embed::MapOptions options;
            options.projection = projection;
            const torch::Tensor map = kiln::embed::map_2d(data, options);
            QCOMPARE(map.size(0), 3061);
            QVERIFY(map.isfinite().all().item<bool>());
            QVERIFY(torch::equal(map.narrow(0, 60, 3000), map[3].expand({3000, 2})));
            QVERIFY(torch::equal(map[3060], map[7]));
            QVERIFY(!torch::equal(map[3], map[7]));
        }
        kiln::embed::MapOptions options;
        options.projection = kiln::embed::Projection::Tsne;
        QVERIFY(torch::equal(kiln::embed::map_2d(torch::ones({500, 8}), options),
                             torch::zeros({500, 2})));
    }

    void severalDevicesShareTheImagesAndWriteTheSameFile() {
        // Three shares of 12 files (one unreadable) on the CPU: the same rows, in the same
        // order, as one device; the uneven last share's repeated entry is written once.
        torch::manual_seed(2);
        const auto backbone = kiln::models::make_backbone("smallcnn");
        kiln::models::save_backbone_weights(*backbone, root_ / "shared.pt");
        kiln::ResolveContext context;
        context.hardware.cpu_cores = 4;
        nlohmann::json settings = {{"out", (root_ / "one.pt").string()},
                                   {"data", images_.string()},
                                   {"checkpoint", (root_ / "shared.pt").string()},
                                   {"format", "torch"},
                                   {"image_size", 16},
                                   {"batch_size", 2},
                                   {"accelerator", "cpu"}};
        kiln::embed::run_embedding(kiln::resolve_embed_config(settings, context));
        settings["out"] = (root_ / "three.pt").string();
        settings["devices"] = 3;
        kiln::train::EmbedProgressInfo last;
        const auto summary = kiln::embed::run_embedding(
            kiln::resolve_embed_config(settings, context),
            [&](const kiln::train::EmbedProgressInfo& progress) { last = progress; });
        QCOMPARE(summary.images, 11);
        QCOMPARE(summary.skipped, 1);
        QCOMPARE(last.done, last.total); // the shares' progress adds up to the whole
        // Images and time so far, as training reports them: 12 rows (one repeated to even the
        // shares) of which 11 were read.
        QVERIFY(last.images >= 11 && last.images <= 12);
        QVERIFY(last.images_per_second() > 0);
        QVERIFY(last.data_wait() >= 0 && last.data_wait() <= 1);
        QVERIFY(summary.advice.has_value()); // where the time went, with what to do
        QVERIFY(!summary.advice->diagnosis.empty());
        const auto one = kiln::embed::read_embeddings(root_ / "one.pt");
        const auto three = kiln::embed::read_embeddings(root_ / "three.pt");
        QCOMPARE(three.filenames, one.filenames);
        QVERIFY(torch::allclose(three.embeddings, one.embeddings, 1e-5, 1e-6));
        // 5 files in 3 shares: the first, unreadable, is repeated to even them; counted once.
        const fs::path uneven = root_ / "uneven";
        fs::create_directories(uneven);
        std::ofstream(uneven / "0-broken.png") << "not an image";
        for (int i = 1; i < 5; ++i) {
            QVERIFY(cv::imwrite((uneven / (std::to_string(i) + ".png")).string(),
                                cv::Mat(20, 20, CV_8UC3, cv::Scalar(i * 40, 80, 160))));
        }
        nlohmann::json shares = settings;
        shares["data"] = uneven.string();
        shares["out"] = (root_ / "uneven.pt").string();
        const auto uneven_summary =
            kiln::embed::run_embedding(kiln::resolve_embed_config(shares, context));
        QCOMPARE(uneven_summary.images, 4);
        QCOMPARE(uneven_summary.skipped, 1);
        settings["devices"] = nlohmann::json::array({0, 1});
        QVERIFY_THROWS_EXCEPTION(kiln::ConfigError,
                                 kiln::resolve_embed_config(settings, context)); // GPUs on cpu
    }
};

QTEST_GUILESS_MAIN(EmbedTest)
#include "tst_embed.moc"
