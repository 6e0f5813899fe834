#include "app/shortcuts_dialog.h"

#include "app/action_manager.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QTableWidget>
#include <QVBoxLayout>

namespace kiln::gui {
namespace {

// A menu text without its mnemonic ampersands: "&File" -> "File".
QString plain(QString text) {
    return text.remove(QRegularExpression(QStringLiteral("&(?!&)")));
}

void collect(const QMenu& menu, const QString& path, QTableWidget& table) {
    for (QAction* action : menu.actions()) {
        if (action->menu() != nullptr) {
            collect(*action->menu(), path + QStringLiteral(" > ") + plain(action->text()), table);
            continue;
        }
        if (action->isSeparator() || action->shortcut().isEmpty()) {
            continue;
        }
        const int row = table.rowCount();
        table.insertRow(row);
        table.setItem(row, 0, new QTableWidgetItem(path));
        const QVariant name = action->property(kCommandNameProperty);
        table.setItem(
            row, 1, new QTableWidgetItem(name.isValid() ? name.toString() : plain(action->text())));
        table.setItem(row, 2,
                      new QTableWidgetItem(action->shortcut().toString(QKeySequence::NativeText)));
    }
}

} // namespace

ShortcutsDialog::ShortcutsDialog(const QMenuBar& menus, QWidget* parent)
    : QDialog(parent), table_(new QTableWidget(0, 3, this)) {
    setObjectName(QStringLiteral("shortcutsDialog"));
    setWindowTitle(tr("Keyboard Shortcuts"));
    table_->setObjectName(QStringLiteral("shortcutsTable"));
    table_->setHorizontalHeaderLabels({tr("Menu"), tr("Command"), tr("Keys")});
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    // A list to read: rows of one line, none selected (the last row opened selected).
    table_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    table_->setSelectionMode(QAbstractItemView::NoSelection);
    table_->setFocusPolicy(Qt::NoFocus);
    for (QAction* action : menus.actions()) {
        if (action->menu() != nullptr) {
            collect(*action->menu(), plain(action->text()), *table_);
        }
    }
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(table_, 1);
    layout->addWidget(buttons);
    resize(560, 480);
}

} // namespace kiln::gui
