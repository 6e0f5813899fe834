#include "app/project_controller.h"

#include "common/message_boxes.h"
#include "project/demo_project.h"
#include "project/project.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QUrl>

namespace kiln::gui {
namespace {

const QString kRecentProjectsKey = QStringLiteral("recentProjects");

QString withKilnSuffix(const QString& file) {
    return file.endsWith(QStringLiteral(".kiln")) ? file : file + QStringLiteral(".kiln");
}

} // namespace

DroppedFiles DroppedFiles::of(const QList<QUrl>& urls) {
    DroppedFiles dropped;
    for (const QUrl& url : urls) {
        const QFileInfo file(url.toLocalFile());
        if (!url.isLocalFile()) {
            return {};
        }
        if (file.isDir()) {
            dropped.folders << QDir::cleanPath(file.absoluteFilePath());
        } else if (file.isFile() && file.suffix() == QLatin1String("kiln") &&
                   dropped.project.isEmpty()) {
            dropped.project = file.absoluteFilePath();
        } else {
            return {};
        }
    }
    return dropped;
}

ProjectController::ProjectController(QWidget* window, std::function<bool()> busy)
    : QObject(window), window_(window), busy_(std::move(busy)) {}

ProjectController::~ProjectController() {
    demoJob_.stopAndWait();
}

QStringList ProjectController::recentProjects() const {
    return QSettings().value(kRecentProjectsKey).toStringList();
}

void ProjectController::setProject(Project* project) {
    Project* previous = project_;
    project_ = project;
    if (project_ != nullptr) {
        project_->setParent(this);
        connect(project_, &Project::modifiedChanged, this, &ProjectController::modifiedChanged);
    }
    Q_EMIT projectChanged(project_);
    delete previous; // after every page has let go of it
}

// While a run writes into the open project, no other project opens (Open Recent and the start
// page included): its plots and end message would land in the wrong one.
bool ProjectController::refuseWhileBusy() {
    if (!busy_()) {
        return false;
    }
    showErrorMessage(window_, tr("A job is running in this project; stop it (Run ▸ Stop) before "
                                 "opening or creating another project."));
    return true;
}

bool ProjectController::newProject() {
    if (refuseWhileBusy() || !maybeSaveChanges()) {
        return false;
    }
    setProject(new Project);
    return true;
}

bool ProjectController::openProject(const QString& file) {
    if (refuseWhileBusy() || !maybeSaveChanges()) {
        return false;
    }
    auto* project = new Project;
    QString error;
    if (!project->load(file, &error)) {
        delete project;
        showErrorMessage(window_, error);
        return false;
    }
    setProject(project);
    rememberRecent(project_->file());
    const QStringList missing = project_->missingDatasets();
    if (!missing.isEmpty()) {
        constexpr int kListed = 10; // a box taller than the screen hides its OK button
        QString listed = missing.mid(0, kListed).join(QLatin1Char('\n'));
        if (missing.size() > kListed) {
            listed +=
                QLatin1Char('\n') + tr("and %Ln more", nullptr, int(missing.size()) - kListed);
        }
        showErrorMessage(window_, tr("These dataset folders of the project are missing; reconnect "
                                     "the drive or remove them from the project:\n%1")
                                      .arg(listed));
    }
    return true;
}

bool ProjectController::saveProject() {
    if (project_ == nullptr) {
        return false;
    }
    if (project_->file().isEmpty()) {
        const QString file = QFileDialog::getSaveFileName(window_, tr("Save Project"), QString(),
                                                          tr("Kiln projects (*.kiln)"));
        return !file.isEmpty() && saveProjectAs(withKilnSuffix(file));
    }
    return saveProjectAs(project_->file());
}

bool ProjectController::saveProjectAs(const QString& file) {
    if (project_ == nullptr) {
        return false;
    }
    QString error;
    if (!project_->save(file, &error)) {
        showErrorMessage(window_, error);
        return false;
    }
    rememberRecent(project_->file());
    const QString runs = project_->runsFolder();
    if (QFileInfo(runs).isDir() &&
        !runs.startsWith(QFileInfo(project_->file()).absolutePath() + QLatin1Char('/'))) {
        Q_EMIT message(tr("The project's runs stay in %1; the project refers to them there.")
                           .arg(QDir::toNativeSeparators(runs)));
    }
    Q_EMIT saved();
    return true;
}

bool ProjectController::closeProject() {
    if (!maybeSaveChanges()) {
        return false;
    }
    setProject(nullptr);
    return true;
}

bool ProjectController::addDataset(const QString& folder) {
    if (project_ == nullptr && !newProject()) {
        return false;
    }
    return project_->addDataset(folder);
}

void ProjectController::openDropped(const DroppedFiles& dropped) {
    if (!dropped.project.isEmpty() && !openProject(dropped.project)) {
        return;
    }
    QStringList added;
    QStringList known;
    for (const QString& folder : dropped.folders) {
        if (addDataset(folder)) {
            added << QDir::toNativeSeparators(folder);
        } else if (project_ != nullptr) { // else the user cancelled leaving the open project
            known << QDir::toNativeSeparators(folder);
        } else {
            return;
        }
    }
    QStringList said;
    if (!added.isEmpty()) {
        said << tr("Added %Ln dataset(s): %1", nullptr, added.size())
                    .arg(added.join(QStringLiteral(", ")));
    }
    if (!known.isEmpty()) {
        said << tr("already in the project: %1").arg(known.join(QStringLiteral(", ")));
    }
    if (!said.isEmpty()) {
        Q_EMIT message(said.join(QStringLiteral("; ")));
    }
}

void ProjectController::openDemoProject() {
    if (demoJob_.isRunning()) {
        return;
    }
    DemoProjectOptions options;
    options.fashionMnist = defaultFashionMnistFolder();
    options.folder = QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
                         .filePath(QStringLiteral("demo"));
    auto result = std::make_shared<std::pair<QString, QString>>(); // the file, or an error
    Q_EMIT demoProgress(0, options.images);
    demoJob_.start(
        [this, options, result](const StopToken& stop) {
            try {
                result->first = makeDemoProject(options, stop, [this](qint64 done, qint64 total) {
                    QMetaObject::invokeMethod(
                        this, [this, done, total] { Q_EMIT demoProgress(done, total); });
                });
            } catch (const std::exception& error) {
                result->second = QString::fromStdString(error.what());
            }
        },
        [this, result] {
            Q_EMIT demoFinished();
            if (!result->second.isEmpty()) {
                showErrorMessage(window_,
                                 tr("The demo project could not be made:\n%1").arg(result->second));
            } else if (!result->first.isEmpty()) {
                openProject(result->first);
            }
        });
}

bool ProjectController::ensureSaved(const QString& why) {
    if (!project_->file().isEmpty()) {
        return true;
    }
    QMessageBox box(QMessageBox::Question, tr("Save Project"),
                    why + QLatin1Char(' ') + tr("The project has not been saved yet."),
                    QMessageBox::Save | QMessageBox::Cancel, window_);
    box.setObjectName(QStringLiteral("saveFirstBox"));
    box.setInformativeText(tr("Save it now?"));
    box.setDefaultButton(QMessageBox::Save);
    return box.exec() == QMessageBox::Save && saveProject();
}

bool ProjectController::maybeSaveChanges() {
    if (project_ == nullptr || !project_->isModified()) {
        return true;
    }
    QMessageBox box(QMessageBox::Warning, tr("Unsaved Changes"),
                    tr("The project \"%1\" has unsaved changes.").arg(project_->displayName()),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, window_);
    box.setObjectName(QStringLiteral("unsavedChangesBox"));
    box.setTextFormat(Qt::PlainText); // the project's name, as written
    box.setInformativeText(tr("Save them before going on?"));
    box.setDefaultButton(QMessageBox::Save);
    switch (box.exec()) {
    case QMessageBox::Save:
        return saveProject();
    case QMessageBox::Discard:
        return true;
    default:
        return false;
    }
}

void ProjectController::askToOpen() {
    const QString file = QFileDialog::getOpenFileName(window_, tr("Open Project"), QString(),
                                                      tr("Kiln projects (*.kiln)"));
    if (!file.isEmpty()) {
        openProject(file);
    }
}

void ProjectController::askToSaveAs() {
    const QString file = QFileDialog::getSaveFileName(
        window_, tr("Save Project As"), project_->file(), tr("Kiln projects (*.kiln)"));
    if (!file.isEmpty()) {
        saveProjectAs(withKilnSuffix(file));
    }
}

void ProjectController::askToAddDataset() {
    const QString folder = QFileDialog::getExistingDirectory(window_, tr("Add Dataset Folder"));
    if (!folder.isEmpty()) {
        addDataset(folder);
    }
}

void ProjectController::stopJobs() {
    demoJob_.stop();
}

void ProjectController::rememberRecent(const QString& file) {
    QStringList recent = recentProjects();
    recent.removeAll(file);
    recent.prepend(file);
    constexpr int kRecentProjects = 8;
    while (recent.size() > kRecentProjects) {
        recent.removeLast();
    }
    QSettings().setValue(kRecentProjectsKey, recent);
    Q_EMIT recentProjectsChanged(recent);
}

} // namespace kiln::gui
