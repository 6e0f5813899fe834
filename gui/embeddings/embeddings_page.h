#pragma once

#include <QWidget>

class QComboBox;

namespace kiln::gui {

class EmbeddingsView;
class Project;

// The Embeddings tab: the view of one embeddings file, the project's remembered files (newest
// first: one click shows one again) and Open for any other. A file that loads is remembered by
// the project.
class EmbeddingsPage : public QWidget {
    Q_OBJECT

public:
    explicit EmbeddingsPage(QWidget* parent = nullptr);

    EmbeddingsView* view() const { return view_; }
    // The open project (null: none), whose remembered files are listed from then on.
    void setProject(Project* project);
    // Shows `file`; its image names are looked up in the project's dataset folders.
    void showFile(const QString& file);

Q_SIGNALS:
    // A remembered file that is gone, in words for the user.
    void problem(const QString& text);

private:
    void updateList();

    Project* project_ = nullptr;
    EmbeddingsView* view_;
    QComboBox* remembered_;
};

} // namespace kiln::gui
