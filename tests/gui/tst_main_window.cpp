// Kiln Studio's window, offscreen: it builds, has its menus, shows versions and closes cleanly.

#include "app/about_dialog.h"
#include "app/application.h"
#include "app/main_window.h"
#include "app/preferences_dialog.h"
#include "plots/live_plots.h"
#include "plots/qcustomplot.h"
#include "system/hardware.h"

#include <QAction>
#include <QComboBox>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QTranslator>
#include <QtTest>

class MainWindowTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true); // keep the user's settings out of it
        kiln::gui::configureApplication(*qApp);   // the application's names locate its settings
        QSettings().clear();
    }

    void windowHasTheApplicationsMenus() {
        kiln::gui::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QStringList titles;
        for (QAction* action : window.menuBar()->actions()) {
            titles << action->text();
        }
        QCOMPARE(titles, (QStringList{"&File", "&Edit", "&Run", "&View", "&Help"}));

        for (const char* name :
             {"newProjectAction", "openProjectAction", "preferencesAction", "saveProjectAction",
              "saveProjectAsAction", "exportEmbeddingsAction", "closeProjectAction", "quitAction",
              "trainAction", "embedAction", "stopAction", "livePlotsViewAction",
              "runHistoryViewAction", "aboutAction", "aboutQtAction"}) {
            QVERIFY2(window.findChild<QAction*>(QLatin1String(name)) != nullptr, name);
        }
        QCOMPARE(window.findChild<QAction*>("quitAction")->shortcut(),
                 QKeySequence(QKeySequence::Quit));
        QVERIFY(window.findChild<QAction*>("aboutAction")->isEnabled());
        // The toolbar's commands have icons from the resources.
        for (const char* name : {"newProjectAction", "openProjectAction", "saveProjectAction",
                                 "trainAction", "stopAction", "exportEmbeddingsAction"}) {
            QVERIFY2(!window.findChild<QAction*>(QLatin1String(name))->icon().isNull(), name);
        }
        QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("CPU")));
        QVERIFY(!window.statusBar()->currentMessage().contains(QStringLiteral("(s)")));
    }

    void preferencesKeepLanguageAndTheme() {
        kiln::gui::PreferencesDialog dialog;
        dialog.findChild<QComboBox*>("languageField")->setCurrentIndex(2); // Deutsch
        dialog.findChild<QComboBox*>("themeField")->setCurrentIndex(2);    // dark
        dialog.accept();
        QCOMPARE(QSettings().value("ui/language").toString(), QStringLiteral("de"));
        QCOMPARE(QSettings().value("ui/theme").toString(), QStringLiteral("dark"));
        QCOMPARE(QApplication::palette().color(QPalette::Window),
                 kiln::gui::themePalette("dark").color(QPalette::Window));
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() < 100);
        // The plots follow the theme: dark backgrounds, light axes.
        {
            kiln::gui::LivePlots plots;
            auto* loss = plots.findChild<QCustomPlot*>(QStringLiteral("lossPlot"));
            const QImage drawn = loss->toPixmap(300, 200).toImage();
            QVERIFY2(drawn.pixelColor(2, 2).lightness() < 100,
                     qPrintable(drawn.pixelColor(2, 2).name()));
            QVERIFY(loss->xAxis->tickLabelColor().lightness() > 150);
            QVERIFY(QApplication::palette().color(QPalette::PlaceholderText).lightness() > 100);
        }
        // Reopened, the dialog shows what was chosen; back to the system's.
        kiln::gui::PreferencesDialog again;
        QCOMPARE(again.findChild<QComboBox*>("languageField")->currentIndex(), 2);
        again.findChild<QComboBox*>("languageField")->setCurrentIndex(0);
        again.findChild<QComboBox*>("themeField")->setCurrentIndex(0);
        again.accept();
        QCOMPARE(QSettings().value("ui/language").toString(), QString());
    }

    void aboutListsTheVersions() {
        const kiln::system::LibraryVersions versions = kiln::system::library_versions();
        kiln::gui::AboutDialog dialog;
        const QString text = dialog.versionsText();
        QVERIFY(text.contains(QStringLiteral("Qt ") + QLatin1String(qVersion())));
        QVERIFY(
            text.contains(QStringLiteral("LibTorch ") + QString::fromStdString(versions.libtorch)));
        QVERIFY(text.contains(QStringLiteral("OpenCV ") + QString::fromStdString(versions.opencv)));
        QVERIFY(text.contains(QStringLiteral("SQLite ") + QString::fromStdString(versions.sqlite)));
    }

    void aboutOpensFromTheHelpMenu() {
        kiln::gui::MainWindow window;
        window.show();
        bool shown = false;
        QTimer::singleShot(0, [&] {
            auto* dialog = window.findChild<kiln::gui::AboutDialog*>();
            shown = dialog != nullptr && dialog->isVisible();
            if (dialog != nullptr) {
                dialog->reject();
            }
        });
        window.findChild<QAction*>("aboutAction")->trigger();
        QVERIFY(shown);
    }

    void quitClosesTheWindowAndRemembersItsGeometry() {
        {
            kiln::gui::MainWindow window;
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.resize(960, 760); // above the minimum the toolbar and pages need
            window.findChild<QAction*>("quitAction")->trigger();
            QVERIFY(!window.isVisible());
        }
        QVERIFY(QSettings().contains(QStringLiteral("mainWindow/geometry")));
        kiln::gui::MainWindow reopened;
        QCOMPARE(reopened.size(), QSize(960, 760));
    }

    void translationsFollowTheChosenLanguage() {
        for (const auto& [language, fileMenu] :
             {std::pair{QStringLiteral("de"), QStringLiteral("&Datei")},
              std::pair{QStringLiteral("zh_CN"), QStringLiteral("文件(&F)")}}) {
            QSettings().setValue(QStringLiteral("ui/language"), language);
            kiln::gui::configureApplication(*qApp);
            kiln::gui::MainWindow window;
            QCOMPARE(window.menuBar()->actions().first()->text(), fileMenu);
            for (QTranslator* translator : qApp->findChildren<QTranslator*>()) {
                QCoreApplication::removeTranslator(translator);
                delete translator;
            }
        }
        QSettings().remove(QStringLiteral("ui/language"));
    }
};

QTEST_MAIN(MainWindowTest)
#include "tst_main_window.moc"
