#include "project/project.h"

#include "data/dataset_labels.h"
#include "models/backbone_names.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>
#include <QUndoStack>
#include <functional>

namespace kiln::gui {
namespace {

// The paths a run preset's settings hold, each turned by `convert` (relative to the project
// file on disk, absolute in memory): the dataset folders and files under `data` (not class
// names), the output folder, the checkpoint, the starting backbone and the teacher.
QJsonObject convertPresetPaths(QJsonObject settings,
                               const std::function<QString(const QString&)>& convert) {
    const std::function<QJsonValue(const QJsonValue&)> paths = [&](const QJsonValue& value) {
        if (value.isString()) {
            const QString text = value.toString();
            // torchscript:FILE keeps its prefix; FILE moves with the project as other paths do.
            const QString prefix = QString::fromUtf8(models::kTorchScriptPrefix);
            return QJsonValue(text.isEmpty()            ? QString()
                              : text.startsWith(prefix) ? prefix + convert(text.mid(prefix.size()))
                                                        : convert(text));
        }
        if (value.isArray()) {
            QJsonArray list;
            for (const QJsonValue& item : value.toArray()) {
                list.append(paths(item));
            }
            return QJsonValue(list);
        }
        if (value.isObject()) {
            QJsonObject object = value.toObject();
            for (auto it = object.begin(); it != object.end(); ++it) {
                // data.classes as a dictionary holds class names, not paths.
                if (!(it.key() == QLatin1String("classes") && it.value().isObject())) {
                    it.value() = paths(it.value());
                }
            }
            return QJsonValue(object);
        }
        return value;
    };
    for (const char* key : {"data", "out", "checkpoint"}) {
        if (settings.contains(QLatin1String(key))) {
            settings[QLatin1String(key)] = paths(settings.value(QLatin1String(key)));
        }
    }
    for (const auto& [parent, key] :
         {std::pair{"model_args", "backbone_weights"}, std::pair{"method_args", "teacher"}}) {
        QJsonObject object = settings.value(QLatin1String(parent)).toObject();
        if (object.value(QLatin1String(key)).isString()) {
            object[QLatin1String(key)] = paths(object.value(QLatin1String(key)));
            settings[QLatin1String(parent)] = object;
        }
    }
    return settings;
}

QJsonArray convertPresets(const QJsonArray& presets,
                          const std::function<QString(const QString&)>& convert) {
    QJsonArray converted;
    for (const QJsonValue& preset : presets) {
        QJsonObject object = preset.toObject();
        if (object.value(QStringLiteral("settings")).isObject()) {
            object[QStringLiteral("settings")] =
                convertPresetPaths(object.value(QStringLiteral("settings")).toObject(), convert);
        }
        converted.append(object);
    }
    return converted;
}

// One undoable change of the project's datasets: the list before and after it.
class DatasetsEdit : public QUndoCommand {
public:
    using Apply = std::function<void(const QList<DatasetEntry>&)>;
    DatasetsEdit(const QString& text, QList<DatasetEntry> before, QList<DatasetEntry> after,
                 Apply apply)
        : QUndoCommand(text), before_(std::move(before)), after_(std::move(after)),
          apply_(std::move(apply)) {}
    void undo() override { apply_(before_); }
    void redo() override { apply_(after_); }

private:
    QList<DatasetEntry> before_;
    QList<DatasetEntry> after_;
    Apply apply_;
};

} // namespace

Project::Project(QObject* parent) : QObject(parent), undoStack_(new QUndoStack(this)) {
    // Undone back to where it was saved, the datasets are as saved.
    connect(undoStack_, &QUndoStack::cleanChanged, this,
            [this](bool clean) { setModified(!clean || changedOutsideUndo_); });
}

QString Project::displayName() const {
    return file_.isEmpty() ? tr("Untitled") : QFileInfo(file_).completeBaseName();
}

bool Project::load(const QString& file, QString* error) {
    const auto fail = [&](const QString& message) {
        if (error != nullptr) {
            *error = message;
        }
        return false;
    };
    const QString shown = QDir::toNativeSeparators(file);
    QJsonObject root;
    if (const QString problem = readProjectFile(file, root); !problem.isEmpty()) {
        return fail(problem);
    }
    const QDir base = QFileInfo(file).absoluteDir();
    const QJsonArray entries = root.value(QStringLiteral("datasets")).toArray();
    if (entries.size() > kMaxDatasets) {
        return fail(tr("%1 lists %2 datasets; a project holds at most %3. Check the file: a "
                       "list this long was not made by Kiln Studio.")
                        .arg(shown)
                        .arg(entries.size())
                        .arg(kMaxDatasets));
    }
    QList<DatasetEntry> datasets;
    for (int i = 0; i < entries.size(); ++i) {
        const QJsonObject entry = entries[i].toObject();
        if (entry.value(QStringLiteral("path")).toString().isEmpty()) {
            return fail(tr("%1: dataset %2 has no path.").arg(shown).arg(i + 1));
        }
        datasets.append(readDatasetEntry(entry, base));
    }
    // Every path the file names, as the rest of Studio will use it.
    QStringList named;
    const auto absolute = [&base, &named](const QString& path) {
        named << QDir::cleanPath(base.absoluteFilePath(path));
        return named.back();
    };
    for (const DatasetEntry& dataset : datasets) {
        named << dataset.path << dataset.labels;
    }
    const QJsonArray presets =
        convertPresets(root.value(QStringLiteral("run_presets")).toArray(), absolute);
    QStringList embeddings;
    for (const QJsonValue& path : root.value(QStringLiteral("embeddings")).toArray()) {
        if (!path.toString().isEmpty() && embeddings.size() < kMaxEmbeddings) {
            embeddings << absolute(path.toString());
        }
    }
    for (const QString& path : named) {
        const QFileInfo info(path);
        if (!path.isEmpty() && info.exists() && !info.isFile() && !info.isDir()) {
            return fail(tr("%1 names %2, which is a device or a pipe, not a file or folder; Kiln "
                           "Studio does not read it (reading one may never end). Check where "
                           "the project came from.")
                            .arg(shown, QDir::toNativeSeparators(path)));
        }
    }
    file_ = QFileInfo(file).absoluteFilePath();
    datasets_ = datasets;
    runs_folder_ = root.value(QStringLiteral("runs_folder")).toString(QStringLiteral("runs"));
    run_presets_ = presets;
    ui_state_ = root.value(QStringLiteral("ui")).toObject();
    embeddings_ = embeddings;
    undoStack_->clear();
    changedOutsideUndo_ = false;
    Q_EMIT datasetsChanged();
    Q_EMIT embeddingsChanged();
    setModified(false);
    return true;
}

QString Project::readProjectFile(const QString& file, QJsonObject& root) {
    const QString shown = QDir::toNativeSeparators(file);
    const QFileInfo info(file);
    if (info.exists() && !info.isFile()) { // a device or pipe would be read without end
        return tr("%1 is not a file; open a Kiln project (*.kiln).").arg(shown);
    }
    if (info.size() > kMaxFileBytes) {
        return tr("%1 is %2 MB; a Kiln project is a few kilobytes of settings, so this is not "
                  "one (Kiln Studio reads at most %3 MB).")
            .arg(shown)
            .arg(info.size() / (1024 * 1024))
            .arg(kMaxFileBytes / (1024 * 1024));
    }
    QFile input(file);
    if (!input.open(QIODevice::ReadOnly)) {
        return tr("Cannot open %1: %2.").arg(shown, input.errorString());
    }
    QJsonParseError parse;
    const QJsonDocument document = QJsonDocument::fromJson(input.readAll(), &parse);
    if (parse.error != QJsonParseError::NoError) {
        return tr("%1 is not a Kiln project: %2 at byte %3.")
            .arg(shown, parse.errorString())
            .arg(parse.offset);
    }
    if (!document.isObject()) {
        return tr("%1 is not a Kiln project: it holds no JSON object.").arg(shown);
    }
    root = document.object();
    const QJsonValue version = root.value(QStringLiteral("format_version"));
    if (!version.isDouble() || version.toDouble() != double(version.toInt()) ||
        version.toInt() < 1) {
        return tr("%1 is not a Kiln project: it has no valid format_version.").arg(shown);
    }
    if (version.toInt() > kFormatVersion) {
        return tr("%1 was saved by a newer Kiln Studio (project format %2; this version "
                  "reads up to %3). Update Kiln Studio to open it; the file is left as it is.")
            .arg(shown)
            .arg(version.toInt())
            .arg(kFormatVersion);
    }
    return {};
}

DatasetEntry Project::readDatasetEntry(const QJsonObject& entry, const QDir& base) {
    DatasetEntry dataset;
    dataset.path =
        QDir::cleanPath(base.absoluteFilePath(entry.value(QStringLiteral("path")).toString()));
    // The name becomes part of file names (embeddings/<name>.csv): one holding a separator or
    // ".." would lead those files out of their folder, so it falls back to the folder's name.
    const QString name = entry.value(QStringLiteral("name")).toString();
    const bool plain = !name.isEmpty() && name != QLatin1String(".") &&
                       name != QLatin1String("..") && !name.contains(QLatin1Char('/')) &&
                       !name.contains(QLatin1Char('\\'));
    dataset.name = plain ? name : QFileInfo(dataset.path).fileName();
    const QString kind = entry.value(QStringLiteral("kind")).toString();
    if (data::parse_label_kind(kind.toStdString())) {
        dataset.kind = kind;
        const QString labels = entry.value(QStringLiteral("labels")).toString();
        dataset.labels =
            labels.isEmpty() ? QString() : QDir::cleanPath(base.absoluteFilePath(labels));
    } else { // saved before datasets had kinds
        const data::DatasetLayout layout = data::detect_dataset_layout(dataset.path.toStdString());
        dataset.kind = QString::fromUtf8(data::label_kind_name(layout.kind).data());
        dataset.labels = QString::fromStdString(layout.labels.string());
    }
    return dataset;
}

bool Project::save(const QString& file, QString* error) {
    const QDir base = QFileInfo(file).absoluteDir();
    // Saved elsewhere, the project keeps its runs where they are, found from the new place.
    const QString runs = runsFolder();
    const QString runs_folder =
        !runs.isEmpty() && QFileInfo(runs).isDir() ? base.relativeFilePath(runs) : runs_folder_;
    QJsonArray datasets;
    for (const DatasetEntry& dataset : datasets_) {
        QJsonObject entry{{QStringLiteral("name"), dataset.name},
                          {QStringLiteral("path"), base.relativeFilePath(dataset.path)},
                          {QStringLiteral("kind"), dataset.kind}};
        if (!dataset.labels.isEmpty()) {
            entry.insert(QStringLiteral("labels"), base.relativeFilePath(dataset.labels));
        }
        datasets.append(entry);
    }
    const QJsonObject root{
        {QStringLiteral("format_version"), kFormatVersion},
        {QStringLiteral("datasets"), datasets},
        {QStringLiteral("runs_folder"), runs_folder},
        {QStringLiteral("run_presets"),
         convertPresets(run_presets_,
                        [&base](const QString& path) { return base.relativeFilePath(path); })},
        {QStringLiteral("ui"), ui_state_},
        {QStringLiteral("embeddings"), [&] {
             QJsonArray files;
             for (const QString& embeddings : embeddings_) {
                 files.append(base.relativeFilePath(embeddings));
             }
             return files;
         }()}};
    QSaveFile output(file);
    if (!output.open(QIODevice::WriteOnly) ||
        output.write(QJsonDocument(root).toJson(QJsonDocument::Indented)) < 0 || !output.commit()) {
        if (error != nullptr) {
            *error = tr("Cannot save %1: %2. The previous file, if any, is unchanged.")
                         .arg(QDir::toNativeSeparators(file), output.errorString());
        }
        return false;
    }
    file_ = QFileInfo(file).absoluteFilePath();
    runs_folder_ = runs_folder;
    changedOutsideUndo_ = false;
    undoStack_->setClean();
    setModified(false);
    return true;
}

bool Project::addDataset(const QString& folder) {
    const QString absolute = QDir::cleanPath(QFileInfo(folder).absoluteFilePath());
    const data::DatasetLayout layout = data::detect_dataset_layout(absolute.toStdString());
    const QString images = QDir::cleanPath(QString::fromStdString(layout.images.string()));
    for (const DatasetEntry& dataset : datasets_) {
        if (dataset.path == images) {
            return false;
        }
    }
    QList<DatasetEntry> after = datasets_;
    after.append({QFileInfo(absolute).fileName(), images,
                  QString::fromUtf8(data::label_kind_name(layout.kind).data()),
                  layout.labels.empty()
                      ? QString()
                      : QDir::cleanPath(QString::fromStdString(layout.labels.string()))});
    editDatasets(tr("Add Dataset \"%1\"").arg(after.last().name), after);
    return true;
}

void Project::setDatasetLabels(int index, const QString& kind, const QString& labels) {
    if (index < 0 || index >= datasets_.size()) {
        return;
    }
    QList<DatasetEntry> after = datasets_;
    DatasetEntry& dataset = after[index];
    const QString absolute = labels.isEmpty() ? QString() : QDir::cleanPath(labels);
    if (dataset.kind == kind && dataset.labels == absolute) {
        return;
    }
    dataset.kind = kind;
    dataset.labels = absolute;
    editDatasets(tr("Change Labels of \"%1\"").arg(dataset.name), after);
}

void Project::removeDataset(int index) {
    if (index < 0 || index >= datasets_.size()) {
        return;
    }
    QList<DatasetEntry> after = datasets_;
    after.removeAt(index);
    editDatasets(tr("Remove Dataset \"%1\"").arg(datasets_[index].name), after);
}

void Project::editDatasets(const QString& text, const QList<DatasetEntry>& after) {
    undoStack_->push(new DatasetsEdit(text, datasets_, after,
                                      [this](const auto& datasets) { setDatasets(datasets); }));
}

void Project::setDatasets(const QList<DatasetEntry>& datasets) {
    datasets_ = datasets;
    Q_EMIT datasetsChanged();
}

void Project::changedOutsideUndo() {
    changedOutsideUndo_ = true;
    setModified(true);
}

QString Project::runsFolder() const {
    if (file_.isEmpty()) {
        return {};
    }
    return QDir::cleanPath(QFileInfo(file_).absoluteDir().absoluteFilePath(runs_folder_));
}

QStringList Project::missingDatasets() const {
    QStringList missing;
    for (const DatasetEntry& dataset : datasets_) {
        if (!QFileInfo(dataset.path).isDir()) {
            missing << dataset.path;
        }
    }
    return missing;
}

void Project::setRunPresets(const QJsonArray& presets) {
    if (presets != run_presets_) {
        run_presets_ = presets;
        changedOutsideUndo();
    }
}

void Project::rememberEmbeddings(const QString& file) {
    const QString path = QDir::cleanPath(QFileInfo(file).absoluteFilePath());
    if (!embeddings_.isEmpty() && embeddings_.front() == path) {
        return;
    }
    embeddings_.removeAll(path);
    embeddings_.prepend(path);
    while (embeddings_.size() > kMaxEmbeddings) {
        embeddings_.removeLast();
    }
    changedOutsideUndo();
    Q_EMIT embeddingsChanged();
}

void Project::setUiState(const QJsonObject& state) {
    if (state != ui_state_) {
        ui_state_ = state;
        changedOutsideUndo();
    }
}

void Project::setModified(bool modified) {
    if (modified != modified_) {
        modified_ = modified;
        Q_EMIT modifiedChanged(modified);
    }
}

} // namespace kiln::gui
