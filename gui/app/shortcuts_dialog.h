#pragma once

#include <QDialog>
#include <QList>

class QAction;
class QMenuBar;
class QTableWidget;

namespace kiln::gui {

// Help > Keyboard Shortcuts: every menu command that has a shortcut, read from the menu bar
// itself (so the list is never out of date), as Menu, Command, Keys in the platform's spelling.
class ShortcutsDialog : public QDialog {
    Q_OBJECT

public:
    explicit ShortcutsDialog(const QMenuBar& menus, QWidget* parent = nullptr);

    QTableWidget* table() const { return table_; }

private:
    QTableWidget* table_;
};

} // namespace kiln::gui
