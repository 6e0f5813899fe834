#include "project/project.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>

namespace kiln::gui {

Project::Project(QObject* parent) : QObject(parent) {}

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
    QFile input(file);
    if (!input.open(QIODevice::ReadOnly)) {
        return fail(
            tr("Cannot open %1: %2.").arg(QDir::toNativeSeparators(file), input.errorString()));
    }
    QJsonParseError parse;
    const QJsonDocument document = QJsonDocument::fromJson(input.readAll(), &parse);
    if (parse.error != QJsonParseError::NoError) {
        return fail(tr("%1 is not a Kiln project: %2 at byte %3.")
                        .arg(QDir::toNativeSeparators(file), parse.errorString())
                        .arg(parse.offset));
    }
    if (!document.isObject()) {
        return fail(tr("%1 is not a Kiln project: it holds no JSON object.")
                        .arg(QDir::toNativeSeparators(file)));
    }
    const QJsonObject root = document.object();
    const QJsonValue version = root.value(QStringLiteral("format_version"));
    if (!version.isDouble() || version.toDouble() != double(version.toInt()) ||
        version.toInt() < 1) {
        return fail(tr("%1 is not a Kiln project: it has no valid format_version.")
                        .arg(QDir::toNativeSeparators(file)));
    }
    if (version.toInt() > kFormatVersion) {
        return fail(tr("%1 was saved by a newer Kiln Studio (project format %2; this version "
                       "reads up to %3). Update Kiln Studio to open it; the file is left as it is.")
                        .arg(QDir::toNativeSeparators(file))
                        .arg(version.toInt())
                        .arg(kFormatVersion));
    }
    const QDir base = QFileInfo(file).absoluteDir();
    QList<DatasetEntry> datasets;
    const QJsonArray entries = root.value(QStringLiteral("datasets")).toArray();
    for (int i = 0; i < entries.size(); ++i) {
        const QJsonObject entry = entries[i].toObject();
        const QString path = entry.value(QStringLiteral("path")).toString();
        if (path.isEmpty()) {
            return fail(
                tr("%1: dataset %2 has no path.").arg(QDir::toNativeSeparators(file)).arg(i + 1));
        }
        const QString absolute = QDir::cleanPath(base.absoluteFilePath(path));
        QString name = entry.value(QStringLiteral("name")).toString();
        if (name.isEmpty()) {
            name = QFileInfo(absolute).fileName();
        }
        datasets.append({name, absolute});
    }
    file_ = QFileInfo(file).absoluteFilePath();
    datasets_ = datasets;
    runs_folder_ = root.value(QStringLiteral("runs_folder")).toString(QStringLiteral("runs"));
    run_presets_ = root.value(QStringLiteral("run_presets")).toArray();
    ui_state_ = root.value(QStringLiteral("ui")).toObject();
    Q_EMIT datasetsChanged();
    setModified(false);
    return true;
}

bool Project::save(const QString& file, QString* error) {
    const QDir base = QFileInfo(file).absoluteDir();
    QJsonArray datasets;
    for (const DatasetEntry& dataset : datasets_) {
        datasets.append(QJsonObject{{QStringLiteral("name"), dataset.name},
                                    {QStringLiteral("path"), base.relativeFilePath(dataset.path)}});
    }
    const QJsonObject root{{QStringLiteral("format_version"), kFormatVersion},
                           {QStringLiteral("datasets"), datasets},
                           {QStringLiteral("runs_folder"), runs_folder_},
                           {QStringLiteral("run_presets"), run_presets_},
                           {QStringLiteral("ui"), ui_state_}};
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
    setModified(false);
    return true;
}

bool Project::addDataset(const QString& folder) {
    const QString absolute = QDir::cleanPath(QFileInfo(folder).absoluteFilePath());
    for (const DatasetEntry& dataset : datasets_) {
        if (dataset.path == absolute) {
            return false;
        }
    }
    datasets_.append({QFileInfo(absolute).fileName(), absolute});
    Q_EMIT datasetsChanged();
    setModified(true);
    return true;
}

void Project::removeDataset(int index) {
    if (index < 0 || index >= datasets_.size()) {
        return;
    }
    datasets_.removeAt(index);
    Q_EMIT datasetsChanged();
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
        setModified(true);
    }
}

void Project::setUiState(const QJsonObject& state) {
    if (state != ui_state_) {
        ui_state_ = state;
        setModified(true);
    }
}

void Project::setModified(bool modified) {
    if (modified != modified_) {
        modified_ = modified;
        Q_EMIT modifiedChanged(modified);
    }
}

} // namespace kiln::gui
