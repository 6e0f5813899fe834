#pragma once

#include <QWidget>

class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;

namespace kiln::gui {

// What Kiln Studio shows with no project open: New Project, Open, the recent projects with
// their paths, and Open Demo Project. It asks; the main window acts.
class StartPage : public QWidget {
    Q_OBJECT

public:
    explicit StartPage(QWidget* parent = nullptr);

    // Newest first; files no longer on disk are shown greyed out as not found.
    void setRecentProjects(const QStringList& files);
    // While the demo project is being made: its progress, and no second start.
    void showDemoProgress(qint64 done, qint64 total);
    void showDemoFinished();

Q_SIGNALS:
    void newProjectRequested();
    void openProjectRequested();
    void recentProjectRequested(const QString& file);
    void demoProjectRequested();

private:
    QListWidget* recent_ = nullptr;
    QLabel* noRecent_ = nullptr;
    QPushButton* demo_ = nullptr;
    QProgressBar* demoProgress_ = nullptr;
};

} // namespace kiln::gui
