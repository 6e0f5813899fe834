#include "project/demo_project.h"

#include "core/error.h"
#include "data/idx_import.h"
#include "project/project.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <filesystem>

namespace kiln::gui {
namespace {

const QString kImages = QStringLiteral("train-images-idx3-ubyte.gz");
const QString kLabels = QStringLiteral("train-labels-idx1-ubyte.gz");

// Thrown from the import's progress callback to end it early.
struct ImportStopped {};

std::filesystem::path toPath(const QString& path) {
    return std::filesystem::path(path.toStdString());
}

} // namespace

QString defaultFashionMnistFolder() {
    const QString chosen = qEnvironmentVariable("KILN_FASHION_MNIST");
    return chosen.isEmpty() ? QStringLiteral("/usr/share/datasets/fashion-mnist") : chosen;
}

QString demoProjectFile(const QString& folder) {
    return QDir(folder).filePath(QStringLiteral("Fashion-MNIST demo.kiln"));
}

QString makeDemoProject(const DemoProjectOptions& options, const StopToken& stop,
                        const std::function<void(qint64 done, qint64 total)>& progress) {
    const QDir source(options.fashionMnist);
    if (!QFileInfo::exists(source.filePath(kImages)) ||
        !QFileInfo::exists(source.filePath(kLabels))) {
        throw Error(QDir::toNativeSeparators(source.filePath(kImages)).toStdString() +
                    " is missing: the demo project imports Fashion-MNIST from Debian's package "
                    "dataset-fashion-mnist (sudo apt install dataset-fashion-mnist), or from the "
                    "folder KILN_FASHION_MNIST names");
    }
    QDir folder(options.folder);
    if (!folder.mkpath(QStringLiteral("."))) {
        throw Error("cannot create " + QDir::toNativeSeparators(options.folder).toStdString() +
                    " for the demo project: check that its parent folder is writable");
    }
    // The import lands under a temporary name and is renamed when complete, so a stopped or
    // failed import never passes for the dataset.
    const QString dataset = folder.filePath(QStringLiteral("fashion-mnist"));
    if (!QFileInfo(dataset).isDir()) {
        QDir partial(folder.filePath(QStringLiteral("fashion-mnist.partial")));
        partial.removeRecursively();
        data::IdxImportOptions import;
        import.images = toPath(source.filePath(kImages));
        import.labels = toPath(source.filePath(kLabels));
        import.out = toPath(partial.path());
        import.limit = options.images;
        import.class_names = data::kFashionMnistClasses;
        try {
            data::import_idx(import, [&](std::int64_t done, std::int64_t total) {
                if (stop.stop_requested()) {
                    throw ImportStopped{};
                }
                progress(done, total);
            });
        } catch (...) {
            partial.removeRecursively();
            if (stop.stop_requested()) {
                return {};
            }
            throw;
        }
        if (!folder.rename(QStringLiteral("fashion-mnist.partial"),
                           QStringLiteral("fashion-mnist"))) {
            partial.removeRecursively();
            throw Error("cannot rename the imported images to " +
                        QDir::toNativeSeparators(dataset).toStdString());
        }
    }
    const QString file = demoProjectFile(options.folder);
    if (QFileInfo::exists(file)) {
        return file;
    }
    Project project;
    project.addDataset(dataset);
    // The command-line demo's settings: a few minutes of SimCLR on a CPU.
    const QJsonObject settings{
        {QStringLiteral("task"), QStringLiteral("pretrain")},
        {QStringLiteral("data"), QDir::cleanPath(QFileInfo(dataset).absoluteFilePath())},
        {QStringLiteral("model"), QStringLiteral("smallcnn_v2")},
        {QStringLiteral("method"), QStringLiteral("simclr")},
        {QStringLiteral("epochs"), 15},
        {QStringLiteral("batch_size"), 128}}; // image size auto: the 28 px images train at 32
    project.setRunPresets(QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("last")},
                                                 {QStringLiteral("settings"), settings}}});
    QString error;
    if (!project.save(file, &error)) {
        throw Error(error.toStdString());
    }
    return file;
}

} // namespace kiln::gui
