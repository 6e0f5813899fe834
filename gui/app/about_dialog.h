#pragma once

#include <QDialog>

class QLabel;

namespace kiln::gui {

// Help > About: what Kiln is and the versions of everything it runs on.
class AboutDialog : public QDialog {
    Q_OBJECT

public:
    explicit AboutDialog(QWidget* parent = nullptr);

    // The versions as shown, one "Name version" per line.
    QString versionsText() const;

private:
    QLabel* versions_ = nullptr;
};

} // namespace kiln::gui
