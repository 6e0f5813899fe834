#pragma once

#include <QDialog>

class QComboBox;
class QPalette;

namespace kiln::gui {

// Edit > Preferences: the interface language (applied at the next start) and the colour theme
// (system, light or dark; applied at once). Both are kept in QSettings (ui/language, ui/theme).
class PreferencesDialog : public QDialog {
    Q_OBJECT

public:
    explicit PreferencesDialog(QWidget* parent = nullptr);

public Q_SLOTS:
    void accept() override;

private:
    QComboBox* language_;
    QComboBox* theme_;
};

// The palette of a theme: "light", "dark", or anything else for the system's.
QPalette themePalette(const QString& theme);
// Applies the theme stored in ui/theme to the application.
void applyStoredTheme();

} // namespace kiln::gui
