#include "app/user_guide_dialog.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTextBrowser>
#include <QTextCursor>
#include <QVBoxLayout>

namespace kiln::gui {

UserGuideDialog::UserGuideDialog(QWidget* parent)
    : QDialog(parent), browser_(new QTextBrowser(this)), search_(new QLineEdit(this)) {
    setObjectName(QStringLiteral("userGuideDialog"));
    setWindowTitle(tr("Kiln User Guide"));
    browser_->setObjectName(QStringLiteral("userGuideText"));
    browser_->setOpenExternalLinks(true);
    QFile guide(QStringLiteral(":/doc/user-guide.md"));
    if (guide.open(QIODevice::ReadOnly)) {
        browser_->setMarkdown(QString::fromUtf8(guide.readAll()));
    } else {
        browser_->setPlainText(tr("The user guide is missing from this build."));
    }
    search_->setObjectName(QStringLiteral("userGuideSearch"));
    search_->setPlaceholderText(tr("Find in the guide (Enter: next)"));
    search_->setClearButtonEnabled(true);
    connect(search_, &QLineEdit::returnPressed, this, [this] { find(search_->text()); });
    // As the word is typed, its first match from the top.
    connect(search_, &QLineEdit::textEdited, this, [this](const QString& text) {
        browser_->moveCursor(QTextCursor::Start);
        find(text);
    });
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Find:"), this));
    bar->addWidget(search_, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    // Enter in the find field finds the next match: Close is not the dialog's default button.
    buttons->button(QDialogButtonBox::Close)->setAutoDefault(false);
    buttons->button(QDialogButtonBox::Close)->setDefault(false);
    bar->addWidget(buttons);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(browser_, 1);
    layout->addLayout(bar);
    resize(900, 700);
}

bool UserGuideDialog::find(const QString& text) {
    if (text.isEmpty()) {
        return false;
    }
    if (browser_->find(text)) {
        return true;
    }
    browser_->moveCursor(QTextCursor::Start); // wrap around
    return browser_->find(text);
}

} // namespace kiln::gui
