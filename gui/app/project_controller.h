#pragma once

#include "common/background_job.h"

#include <QObject>
#include <functional>

class QUrl;
class QWidget;

namespace kiln::gui {

class Project;

// What files dropped onto the window open: one project file (*.kiln), and folders added to
// it (or to the open project) as datasets. Empty (refused) when the drop holds anything else:
// other files, remote URLs, a second project.
struct DroppedFiles {
    QString project;
    QStringList folders;

    static DroppedFiles of(const QList<QUrl>& urls);
    bool empty() const { return project.isEmpty() && folders.isEmpty(); }
};

// The open project's life cycle: New, Open (and Open Recent, the demo project), Save, Save As,
// Close, and the recent projects list. Each command asks first when unsaved changes would be
// lost and returns false when the user cancelled or the file could not be read or written (with
// a message). While a job writes into the open project (`busy`), no other project opens.
class ProjectController : public QObject {
    Q_OBJECT

public:
    ProjectController(QWidget* window, std::function<bool()> busy);
    ~ProjectController() override;

    Project* project() const { return project_; }
    QStringList recentProjects() const;

    bool newProject();
    bool openProject(const QString& file);
    bool saveProject(); // asks for a file when the project has none
    bool saveProjectAs(const QString& file);
    bool closeProject();
    // Adds a dataset folder, to a new project when none is open.
    bool addDataset(const QString& folder);
    // Opens the dropped project, then adds the dropped folders; says in the status bar what
    // it added and which folders the project had already.
    void openDropped(const DroppedFiles& dropped);
    // Makes the demo project in the user's data folder on a thread (importing Fashion-MNIST the
    // first time) and opens it.
    void openDemoProject();
    // True when the project has a file; otherwise offers to save it (saying `why`), and is true
    // once it was saved.
    bool ensureSaved(const QString& why);
    // Save, discard or cancel when the project has unsaved changes: false means cancel.
    bool maybeSaveChanges();
    // The dialogs of File > Open Project..., Save As... and Add Dataset Folder....
    void askToOpen();
    void askToSaveAs();
    void askToAddDataset();
    void stopJobs(); // the window closes

Q_SIGNALS:
    // Another project is open (or none); the previous one is deleted after this returns.
    void projectChanged(kiln::gui::Project* project);
    void modifiedChanged();
    void saved(); // to its file, which may have moved its runs folder
    void recentProjectsChanged(const QStringList& files);
    void demoProgress(qint64 done, qint64 total);
    void demoFinished();
    void message(const QString& text); // for the status bar

private:
    void setProject(Project* project);
    bool refuseWhileBusy();
    void rememberRecent(const QString& file);

    QWidget* window_;
    std::function<bool()> busy_;
    Project* project_ = nullptr;
    BackgroundJob demoJob_{this, QStringLiteral("demo project")};
};

} // namespace kiln::gui
