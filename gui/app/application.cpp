#include "app/application.h"

#include "app/preferences_dialog.h"
#include "system/hardware.h"

#include <QIcon>
#include <QLibraryInfo>
#include <QLocale>
#include <QSettings>
#include <QTranslator>

// kiln.qrc is compiled into the static kiln_gui library; its registration must be called in
// (Qt's macro cannot stand inside a namespace).
static void initialiseResources() {
    Q_INIT_RESOURCE(kiln);
}

namespace kiln::gui {

void configureApplication(QApplication& app) {
    initialiseResources();
    QApplication::setApplicationName(QStringLiteral("Kiln Studio"));
    QApplication::setOrganizationName(QStringLiteral("Kiln"));
    QApplication::setApplicationVersion(QString::fromStdString(system::library_versions().kiln));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/kiln-256.png")));

    // The language follows the system unless the user picked one ("ui/language", e.g. "de").
    // English has a file of its own for plural forms, and stands in for unknown languages.
    const QString chosen = QSettings().value(QStringLiteral("ui/language")).toString();
    const QLocale locale = chosen.isEmpty() ? QLocale() : QLocale(chosen);
    QLocale::setDefault(locale); // numbers as the language writes them: 10.000 in German
    const QString directory = QStringLiteral(":/i18n");
    auto* translator = new QTranslator(&app);
    if (translator->load(locale, QStringLiteral("kiln"), QStringLiteral("_"), directory) ||
        translator->load(QStringLiteral("kiln_en"), directory)) {
        QApplication::installTranslator(translator);
    }
    // Qt's own words (Cancel, Close, Ctrl in shortcuts) from Debian's qt6-translations-l10n,
    // where it is installed; English without it.
    auto* qt_words = new QTranslator(&app);
    if (qt_words->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                       QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QApplication::installTranslator(qt_words);
    }
    applyStoredTheme();
}

} // namespace kiln::gui
