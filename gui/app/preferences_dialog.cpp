#include "app/preferences_dialog.h"

#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPalette>
#include <QSettings>
#include <QStyle>
#include <QVBoxLayout>

namespace kiln::gui {

QPalette themePalette(const QString& theme) {
    if (theme == QLatin1String("dark")) {
        QPalette dark;
        // Fields lighter than the window: Fusion outlines a check box or a field in a shade
        // darker than the window, which vanishes against a darker field.
        const QColor window(45, 45, 48), base(60, 60, 64), text(220, 220, 220);
        dark.setColor(QPalette::Window, window);
        dark.setColor(QPalette::WindowText, text);
        dark.setColor(QPalette::Base, base);
        dark.setColor(QPalette::AlternateBase, QColor(53, 53, 57));
        dark.setColor(QPalette::ToolTipBase, base);
        dark.setColor(QPalette::ToolTipText, text);
        dark.setColor(QPalette::Text, text);
        dark.setColor(QPalette::Button, window);
        dark.setColor(QPalette::ButtonText, text);
        dark.setColor(QPalette::BrightText, Qt::red);
        dark.setColor(QPalette::Highlight, QColor(42, 130, 218));
        dark.setColor(QPalette::HighlightedText, Qt::white);
        dark.setColor(QPalette::Link, QColor(90, 160, 230));
        dark.setColor(QPalette::PlaceholderText, QColor(150, 150, 150)); // readable on `base`
        dark.setColor(QPalette::Disabled, QPalette::Text, QColor(120, 120, 120));
        dark.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(120, 120, 120));
        dark.setColor(QPalette::Disabled, QPalette::WindowText, QColor(120, 120, 120));
        return dark;
    }
    if (theme == QLatin1String("light")) {
        return QApplication::style()->standardPalette();
    }
    return QPalette(); // the system's
}

void applyStoredTheme() {
    QApplication::setPalette(
        themePalette(QSettings().value(QStringLiteral("ui/theme")).toString()));
}

PreferencesDialog::PreferencesDialog(QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("preferencesDialog"));
    setWindowTitle(tr("Preferences"));
    language_ = new QComboBox(this);
    language_->setObjectName(QStringLiteral("languageField"));
    language_->addItem(tr("As the system"), QString());
    language_->addItem(QStringLiteral("English"), QStringLiteral("en"));
    language_->addItem(QStringLiteral("Deutsch"), QStringLiteral("de"));
    language_->addItem(QStringLiteral("简体中文"), QStringLiteral("zh_CN"));
    theme_ = new QComboBox(this);
    theme_->setObjectName(QStringLiteral("themeField"));
    theme_->addItem(tr("As the system"), QString());
    theme_->addItem(tr("Light"), QStringLiteral("light"));
    theme_->addItem(tr("Dark"), QStringLiteral("dark"));
    const QSettings settings;
    language_->setCurrentIndex(
        std::max(0, language_->findData(settings.value(QStringLiteral("ui/language")).toString())));
    theme_->setCurrentIndex(
        std::max(0, theme_->findData(settings.value(QStringLiteral("ui/theme")).toString())));
    auto* note = new QLabel(tr("A new language applies when Kiln Studio starts again."), this);
    note->setWordWrap(true);
    auto* form = new QFormLayout;
    form->addRow(tr("Language"), language_);
    form->addRow(tr("Theme"), theme_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &PreferencesDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    setMinimumWidth(fontMetrics().averageCharWidth() * 55); // its note wrapped at every word
    layout->addWidget(buttons);
}

void PreferencesDialog::accept() {
    QSettings settings;
    settings.setValue(QStringLiteral("ui/language"), language_->currentData().toString());
    settings.setValue(QStringLiteral("ui/theme"), theme_->currentData().toString());
    applyStoredTheme();
    QDialog::accept();
}

} // namespace kiln::gui
