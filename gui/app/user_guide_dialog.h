#pragma once

#include <QDialog>

class QLineEdit;
class QTextBrowser;

namespace kiln::gui {

// Help > User Guide: docs/user-guide.md as this Kiln was built with it (compiled in, so it always
// matches the program), rendered, with a search field (Enter finds the next match, from the top
// again at the end).
class UserGuideDialog : public QDialog {
    Q_OBJECT

public:
    explicit UserGuideDialog(QWidget* parent = nullptr);

    QTextBrowser* browser() const { return browser_; }
    // Selects the next occurrence of `text`; false when there is none.
    bool find(const QString& text);

private:
    QTextBrowser* browser_;
    QLineEdit* search_;
};

} // namespace kiln::gui
