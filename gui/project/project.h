#pragma once

#include <QDir>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>

class QUndoStack;

namespace kiln::gui {

// A dataset of the project: its folder of images and what labels it has.
struct DatasetEntry {
    QString name;
    QString path;                            // absolute: the folder of images training reads
    QString kind = QStringLiteral("images"); // data::label_kind_name: images, masks, coco, ...
    QString labels; // absolute: the masks folder, COCO JSON or data.yaml; empty for the others
};

// A Kiln Studio project: a `*.kiln` file, JSON with a `format_version`, holding the datasets
// and the paths in the run presets and of the embeddings files it made or opened (stored
// relative to the file, so a project moves with its data), the runs folder (saved elsewhere, the
// project keeps referring to its runs where they are) and UI state. Saved atomically (QSaveFile).
// Tracks whether it has unsaved changes.
class Project : public QObject {
    Q_OBJECT

public:
    static constexpr int kFormatVersion = 1;
    // A project file is a few kilobytes; these bound what one from someone else can make
    // Studio read and list.
    static constexpr qint64 kMaxFileBytes = 64 * 1024 * 1024;
    static constexpr int kMaxDatasets = 1000;

    explicit Project(QObject* parent = nullptr);

    // Reads `file`. On failure returns false with a message that names the file and the fix,
    // and leaves this project as it was. A file from someone else is held to what Studio
    // writes: at most kMaxFileBytes and kMaxDatasets, the newest kMaxEmbeddings embeddings
    // files, dataset names without path separators, and no path naming a device or pipe.
    bool load(const QString& file, QString* error);
    // Writes `file` atomically; on success it becomes this project's file and is unmodified.
    bool save(const QString& file, QString* error);

    QString file() const { return file_; }
    // The file's base name, or "Untitled" for a new project.
    QString displayName() const;
    bool isModified() const { return modified_; }

    const QList<DatasetEntry>& datasets() const { return datasets_; }
    // Adds a folder (named after it) with the labels found in it (data::detect_dataset_layout:
    // for a folder with images/ and masks/, the images folder is images/); false if its images
    // are already in the project.
    bool addDataset(const QString& folder);
    // Changes what labels dataset `index` has.
    void setDatasetLabels(int index, const QString& kind, const QString& labels);
    void removeDataset(int index);
    // Adding and removing datasets and changing their labels can be undone (Edit ▸ Undo);
    // opening a file starts a new history.
    QUndoStack* undoStack() const { return undoStack_; }
    // Datasets whose folder is not on disk (moved, or an unplugged drive).
    QStringList missingDatasets() const;

    // Where the project's runs are written and looked for: `runs` beside the file unless the
    // file says otherwise (runs_folder, relative to it); empty for an unsaved project.
    QString runsFolder() const;

    QJsonArray runPresets() const { return run_presets_; }
    void setRunPresets(const QJsonArray& presets);
    // Embeddings files exported or opened in this project, newest first (absolute paths).
    const QStringList& embeddings() const { return embeddings_; }
    // Puts `file` first (once); the list keeps the newest kMaxEmbeddings.
    void rememberEmbeddings(const QString& file);
    static constexpr int kMaxEmbeddings = 20;
    QJsonObject uiState() const { return ui_state_; }
    void setUiState(const QJsonObject& state);

Q_SIGNALS:
    void modifiedChanged(bool modified);
    void datasetsChanged();
    void embeddingsChanged();

private:
    void setModified(bool modified);
    // Pushes the change of the datasets to `after` onto the undo stack, as `text`.
    void editDatasets(const QString& text, const QList<DatasetEntry>& after);
    void setDatasets(const QList<DatasetEntry>& datasets);
    // A change the undo stack does not hold (run presets, UI state, embeddings files).
    void changedOutsideUndo();
    // The file's JSON object, or a message saying why it is not a project.
    static QString readProjectFile(const QString& file, QJsonObject& root);
    static DatasetEntry readDatasetEntry(const QJsonObject& entry, const QDir& base);

    QString file_;
    bool modified_ = false;
    QList<DatasetEntry> datasets_;
    QString runs_folder_ = QStringLiteral("runs"); // relative to the file
    QJsonArray run_presets_;
    QStringList embeddings_;
    QJsonObject ui_state_;
    QUndoStack* undoStack_;
    bool changedOutsideUndo_ = false;
};

} // namespace kiln::gui
