#pragma once

#include <QMainWindow>

class QAction;
class QMenu;

namespace kiln::gui {

// The Kiln Studio window: menus, the start page and the status bar.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);

public Q_SLOTS:
    void showAbout();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void createMenus();
    QWidget* createStartPage();
    QAction* addAction(QMenu* menu, const QString& objectName, const QString& text,
                       const QKeySequence& shortcut = {});
    void restoreWindowState();
};

} // namespace kiln::gui
