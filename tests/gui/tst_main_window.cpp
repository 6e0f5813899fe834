// Kiln Studio's window, offscreen: it builds, has its menus, shows versions and closes cleanly.

#include "app/about_dialog.h"
#include "app/application.h"
#include "app/main_window.h"
#include "app/preferences_dialog.h"
#include "app/shortcuts_dialog.h"
#include "app/user_guide_dialog.h"
#include "common/background_job.h"
#include "core/error.h"
#include "core/log.h"
#include "plots/live_plots.h"
#include "plots/qcustomplot.h"
#include "project/project.h"
#include "support/screenshot.h"
#include "system/hardware.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QImage>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QMimeData>
#include <QPushButton>
#include <QScopeGuard>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QThread>
#include <QTimer>
#include <QTranslator>
#include <QUndoCommand>
#include <QUndoStack>
#include <QWheelEvent>
#include <QXmlStreamReader>
#include <QtTest>
#include <atomic>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

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
        // The hardware is probed off the GUI thread, then summarised.
        QTRY_VERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("CPU")));
        QVERIFY(!window.statusBar()->currentMessage().contains(QStringLiteral("(s)")));
    }

    // A job whose work does not check its stop token (a long read) is abandoned, not waited
    // for: the next one starts at once, the abandoned one's end is not reported, and the
    // job's end waits for both.
    void anAbandonedJobDoesNotHoldTheNextOne() {
        QObject owner;
        auto release = std::make_shared<std::atomic<bool>>(false);
        auto finished = std::make_shared<std::atomic<int>>(0);
        int reported = 0;
        {
            kiln::gui::BackgroundJob job(&owner, QStringLiteral("test job"));
            QVERIFY(job.start(
                [release, finished](const kiln::StopToken&) {
                    while (!*release) {
                        QThread::msleep(1);
                    }
                    ++*finished;
                },
                [&reported] { reported += 1; }));
            job.abandon();
            QVERIFY(!job.isRunning());
            QVERIFY(job.start([finished](const kiln::StopToken&) { ++*finished; },
                              [&reported] { reported += 10; }));
            QTRY_COMPARE(reported, 10);
            QCOMPARE(finished->load(), 1); // the abandoned one still runs
            *release = true;
        }
        QCOMPARE(finished->load(), 2);
        QCoreApplication::processEvents();
        QCOMPARE(reported, 10);
    }

    // Work that throws ends itself, not the program: its end is reported with what it threw.
    void aJobThatThrowsReportsItsError() {
        QObject owner;
        kiln::gui::BackgroundJob job(&owner, QStringLiteral("test job"));
        QString reported = QStringLiteral("not yet");
        QVERIFY(job.start([](const kiln::StopToken&) { throw std::runtime_error("disk on fire"); },
                          [&] { reported = job.error(); }));
        QTRY_COMPARE(reported, QStringLiteral("disk on fire"));
        QVERIFY(job.start([](const kiln::StopToken&) {}, [&] { reported = job.error(); }));
        QTRY_VERIFY(reported.isEmpty());
    }

    // run() hands the work's result, or what it threw, to the owner's thread.
    void aJobRunHandsOverItsResultOrItsError() {
        QObject owner;
        kiln::gui::BackgroundJob job(&owner, QStringLiteral("test job"));
        int result = 0;
        QString failure;
        QVERIFY(job.run<int>([](const kiln::StopToken&) { return 42; },
                             [&](int value) { result = value; },
                             [&](const QString& message) { failure = message; }));
        QTRY_COMPARE(result, 42);
        QVERIFY(failure.isEmpty());
        QVERIFY(job.run<int>([](const kiln::StopToken&) -> int { throw kiln::Error("no disk"); },
                             [&](int value) { result = value; },
                             [&](const QString& message) { failure = message; }));
        QTRY_COMPARE(failure, QStringLiteral("no disk"));
        QCOMPARE(result, 42);
    }

    // Two jobs side by side (a run and a dataset scan): each is a job of its own for the log, so
    // a sink one registers (a run's train.log, its warning list) hears none of the other's lines.
    void eachJobHearsOnlyItsOwnLog() {
        QObject owner;
        kiln::gui::BackgroundJob run(&owner, QStringLiteral("run"));
        kiln::gui::BackgroundJob scan(&owner, QStringLiteral("scan"));
        auto listening = std::make_shared<std::atomic<bool>>(false);
        auto scanLogged = std::make_shared<std::atomic<bool>>(false);
        QStringList heard;
        bool ended = false;
        QVERIFY(run.start(
            [&heard, listening, scanLogged](const kiln::StopToken&) {
                const kiln::log::ScopedSink sink(
                    [&heard](kiln::log::Level, const std::string& text) {
                        heard << QString::fromStdString(text);
                    });
                *listening = true;
                kiln::log::warning("the run's");
                while (!*scanLogged) {
                    QThread::msleep(1);
                }
            },
            [&ended] { ended = true; }));
        QVERIFY(scan.start([listening, scanLogged](const kiln::StopToken&) {
            while (!*listening) {
                QThread::msleep(1);
            }
            kiln::log::warning("the scan's");
            *scanLogged = true;
        }));
        QTRY_VERIFY(ended);
        QCOMPARE(heard, QStringList{QStringLiteral("the run's")});
    }

    // English plurals come from kiln_en.ts: every "(s)" message the German file translates has
    // its English forms there, so that no window reads "1 image(s)"; and its count is written
    // as the locale writes numbers.
    void everyPluralReadsAsEnglish() {
        const QLocale locale; // US English's separators whatever the machine's locale is
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        const auto restore = qScopeGuard([&locale] { QLocale::setDefault(locale); });
        QFile german(QStringLiteral(KILN_SOURCE_DIR "/translations/kiln_de.ts"));
        QVERIFY(german.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&german);
        QString context;
        int plurals = 0;
        bool numerus = false;
        while (!xml.atEnd()) {
            xml.readNext();
            if (!xml.isStartElement()) {
                continue;
            }
            if (xml.name() == u"name") {
                context = xml.readElementText();
            } else if (xml.name() == u"message") {
                numerus = xml.attributes().value(QStringLiteral("numerus")) == u"yes";
            } else if (xml.name() == u"source" && numerus) {
                const QString source = xml.readElementText();
                ++plurals;
                for (const int n : {1, 2}) {
                    const QString english = QCoreApplication::translate(
                        context.toUtf8().constData(), source.toUtf8().constData(), nullptr, n);
                    QVERIFY2(!english.contains(QStringLiteral("(s)")) &&
                                 !english.contains(QStringLiteral("(n)")),
                             qPrintable(context + QStringLiteral(": ") + english));
                }
                // The count as the locale writes numbers: "12,345 embeddings", not "12345".
                const QString count = QCoreApplication::translate(
                    context.toUtf8().constData(), source.toUtf8().constData(), nullptr, 12345);
                QVERIFY2(count.contains(QStringLiteral("12,345")),
                         qPrintable(context + QStringLiteral(": ") + count));
            }
        }
        QVERIFY(!xml.hasError());
        QVERIFY(plurals > 30);
    }

    // Studio has no terminal: the warnings and errors a job logs, on its thread or one it
    // starts, are kept for its `done` to show, in order, the first 20 listed and the rest counted;
    // its other lines are not, nor another job's warnings.
    void aJobKeepsTheWarningsItLogged() {
        QObject owner;
        kiln::gui::BackgroundJob job(&owner, QStringLiteral("embedding"));
        QStringList kept;
        QVERIFY(job.start(
            [](const kiln::StopToken&) {
                kiln::log::info("an info line");
                kiln::log::warning("skipping unreadable image: a.png");
                std::thread(kiln::log::for_this_job([] {
                    kiln::log::error("from a loader thread");
                })).join();
                for (int i = 0; i < 30; ++i) {
                    kiln::log::warning("warning " + std::to_string(i));
                }
            },
            [&job, &kept] { kept = job.warnings(); }));
        QTRY_COMPARE(kept.size(), 21);
        QCOMPARE(kept.at(0), QStringLiteral("skipping unreadable image: a.png"));
        QCOMPARE(kept.at(1), QStringLiteral("from a loader thread"));
        QCOMPARE(kept.at(19), QStringLiteral("warning 17"));
        QCOMPARE(kept.at(20), QStringLiteral("... and 12 more warnings."));

        // The next job starts with none.
        bool ended = false;
        QVERIFY(job.start([](const kiln::StopToken&) { kiln::log::info("quiet"); },
                          [&ended] { ended = true; }));
        QTRY_VERIFY(ended);
        QVERIFY(job.warnings().isEmpty());
    }

    // Reports made while the owner's thread is busy are shown once, the latest; a job stopped and
    // waited for leaves no report to the next.
    void progressReportsAreCoalesced() {
        QObject owner;
        kiln::gui::BackgroundJob job(&owner, QStringLiteral("test job"));
        QVector<qint64> shown;
        QString text;
        job.onProgress([&](qint64 done, qint64 total, const QString& what) {
            QCOMPARE(total, qint64{100000});
            shown << done;
            text = what;
        });
        auto reportedAll = std::make_shared<std::atomic<bool>>(false);
        bool finished = false;
        QVERIFY(job.start(
            [&job, reportedAll](const kiln::StopToken&) {
                for (qint64 i = 1; i <= 100000; ++i) {
                    job.report(i, 100000, QStringLiteral("reading"));
                }
                *reportedAll = true;
            },
            [&] { finished = true; }));
        while (!*reportedAll) { // no event loop meanwhile: the reports wait to be shown
            QThread::msleep(1);
        }
        QTRY_VERIFY(finished);
        QCOMPARE(shown, QVector<qint64>{100000}); // one showing, of the latest
        QCOMPARE(text, QStringLiteral("reading"));

        shown.clear();
        auto reported = std::make_shared<std::atomic<bool>>(false);
        QVERIFY(job.start([&job, reported](const kiln::StopToken& stop) {
            job.report(1, 100000);
            *reported = true;
            while (!stop.stop_requested()) {
                QThread::msleep(1);
            }
        }));
        while (!*reported) { // no event loop meanwhile: the report waits to be shown
            QThread::msleep(1);
        }
        job.stopAndWait();
        QCoreApplication::processEvents();
        QVERIFY(shown.isEmpty());
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

    // Help > User Guide shows the user guide this build was made from, searchable; Help >
    // Keyboard Shortcuts lists every menu command with a shortcut, read from the menus.
    void helpHasTheGuideAndTheShortcuts() {
        kiln::gui::MainWindow window;
        window.show();
        QAction* guide = window.findChild<QAction*>("userGuideAction");
        QCOMPARE(guide->shortcut(), QKeySequence(QKeySequence::HelpContents));
        guide->trigger();
        auto* dialog = window.findChild<kiln::gui::UserGuideDialog*>();
        QVERIFY(dialog != nullptr && dialog->isVisible());
        const QString text = dialog->browser()->toPlainText();
        QVERIFY2(text.startsWith(QStringLiteral("Kiln User Guide")) &&
                     text.contains(QStringLiteral("Choosing what to label"), Qt::CaseInsensitive),
                 qPrintable(text.left(200)));
        QVERIFY(!text.contains(QStringLiteral("## "))); // rendered, not shown as Markdown
        QVERIFY(dialog->find(QStringLiteral("Run History")));
        QCOMPARE(dialog->browser()->textCursor().selectedText().toLower(),
                 QStringLiteral("run history")); // any case, as find bars do
        QVERIFY(!dialog->find(QStringLiteral("no such words in the guide")));
        // Typed into the find field, a word is found as it is typed; Enter finds the next
        // match and keeps the guide open.
        auto* search = dialog->findChild<QLineEdit*>(QStringLiteral("userGuideSearch"));
        search->setFocus();
        QTest::keyClicks(search, QStringLiteral("Run History"));
        QCOMPARE(dialog->browser()->textCursor().selectedText().toLower(),
                 QStringLiteral("run history"));
        const int first = dialog->browser()->textCursor().position();
        QTest::keyClick(search, Qt::Key_Return);
        QVERIFY(dialog->isVisible());
        QVERIFY(dialog->browser()->textCursor().position() > first);
        kiln::test::saveScreenshot(*dialog, QStringLiteral("user-guide"));
        dialog->close();

        int with_shortcuts = 0;
        for (QAction* action : window.findChildren<QAction*>()) {
            with_shortcuts += !action->shortcut().isEmpty() && !action->objectName().isEmpty();
        }
        // Undo is listed as Undo, not as what it would undo now.
        QVERIFY(window.projects()->newProject());
        window.project()->undoStack()->push(new QUndoCommand(QStringLiteral("Rename Run \"a\"")));
        QVERIFY(
            window.findChild<QAction*>("undoAction")->text().contains(QStringLiteral("Rename")));
        window.findChild<QAction*>("shortcutsAction")->trigger();
        auto* shortcuts = window.findChild<kiln::gui::ShortcutsDialog*>();
        QVERIFY(shortcuts != nullptr && shortcuts->isVisible());
        QTableWidget* table = shortcuts->table();
        QCOMPARE(table->rowCount(), with_shortcuts);
        bool save = false;
        for (int row = 0; row < table->rowCount(); ++row) {
            save =
                save || (table->item(row, 0)->text() == QStringLiteral("File") &&
                         table->item(row, 2)->text() ==
                             QKeySequence(QKeySequence::Save).toString(QKeySequence::NativeText));
        }
        QVERIFY(save);
        const QString undo = QKeySequence(QKeySequence::Undo).toString(QKeySequence::NativeText);
        bool undo_named = false;
        for (int row = 0; row < table->rowCount(); ++row) {
            undo_named = undo_named || (table->item(row, 2)->text() == undo &&
                                        table->item(row, 1)->text() == QStringLiteral("Undo"));
        }
        QVERIFY(undo_named);
        kiln::test::saveScreenshot(*shortcuts, QStringLiteral("keyboard-shortcuts"));
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

    // A folder of images dropped onto the window becomes a dataset (of a new project when none
    // is open), a dropped project file opens; anything else is refused at the door.
    void droppedFoldersAndProjectsOpen() {
        QTemporaryDir temp;
        const QDir root(temp.path());
        for (const QString& folder : {QStringLiteral("images"), QStringLiteral("more")}) {
            QVERIFY(root.mkpath(folder));
            QImage image(8, 8, QImage::Format_RGB32);
            image.fill(Qt::gray);
            QVERIFY(image.save(root.filePath(folder + QStringLiteral("/a.png"))));
        }
        QFile notes(root.filePath(QStringLiteral("notes.txt")));
        QVERIFY(notes.open(QIODevice::WriteOnly));
        notes.close();
        const auto url = [&root](const QString& name) {
            return QUrl::fromLocalFile(root.filePath(name));
        };
        kiln::gui::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        // Whether the window takes the drag, and what it does with the drop.
        const auto drop = [&window](const QList<QUrl>& urls) {
            QMimeData data;
            data.setUrls(urls);
            QDragEnterEvent enter(QPoint(50, 50), Qt::CopyAction, &data, Qt::LeftButton,
                                  Qt::NoModifier);
            enter.ignore();
            QApplication::sendEvent(&window, &enter);
            if (!enter.isAccepted()) {
                return false;
            }
            QDropEvent dropped(QPointF(50, 50), Qt::CopyAction, &data, Qt::LeftButton,
                               Qt::NoModifier);
            QApplication::sendEvent(&window, &dropped);
            return dropped.isAccepted();
        };
        QVERIFY(!drop({url(QStringLiteral("notes.txt"))}));
        QVERIFY(!drop({url(QStringLiteral("images")), url(QStringLiteral("notes.txt"))}));
        QVERIFY(!drop({QUrl(QStringLiteral("https://example.com/images"))}));
        QVERIFY(window.project() == nullptr);

        QVERIFY(drop({url(QStringLiteral("images"))}));
        QTRY_VERIFY(window.project() != nullptr);
        QCOMPARE(window.project()->datasets().size(), 1);
        QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("1 dataset")),
                 qPrintable(window.statusBar()->currentMessage()));
        auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("projectTabs"));
        tabs->setCurrentIndex(3); // Run History: the drop shows the Datasets page
        QVERIFY(drop({url(QStringLiteral("images")), url(QStringLiteral("more"))}));
        QTRY_COMPARE(window.project()->datasets().size(), 2);
        QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("already")),
                 qPrintable(window.statusBar()->currentMessage()));
        QCOMPARE(tabs->currentIndex(), 0);

        const QString file = root.filePath(QStringLiteral("dropped.kiln"));
        QVERIFY(window.projects()->saveProjectAs(file));
        QVERIFY(window.projects()->closeProject());
        QVERIFY(!drop({url(QStringLiteral("dropped.kiln")), url(QStringLiteral("dropped.kiln"))}));
        QVERIFY(drop({url(QStringLiteral("dropped.kiln"))}));
        QTRY_VERIFY(window.project() != nullptr);
        QCOMPARE(window.project()->file(), file);
        QCOMPARE(window.project()->datasets().size(), 2);
        QVERIFY(!window.project()->isModified());
    }

    // The wheel over a field of Run Configuration leaves the field alone and is handed on (to
    // the scrolling page); a clicked (focused) field takes the wheel.
    void theWheelScrollsPastUnfocusedFields() {
        kiln::gui::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY(window.projects()->newProject());
        auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("projectTabs"));
        tabs->setCurrentIndex(1);
        auto* batch = window.findChild<QSpinBox*>(QStringLiteral("batchSizeField"));
        auto* task = window.findChild<QComboBox*>(QStringLiteral("taskField"));
        const auto wheelDown = [](QWidget* field) {
            QWheelEvent wheel(QPointF(5, 5), field->mapToGlobal(QPointF(5, 5)), QPoint(),
                              QPoint(0, -120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase,
                              false);
            QApplication::sendEvent(field, &wheel);
            return wheel.isAccepted();
        };
        const int batchSize = batch->value();
        const int taskIndex = task->currentIndex();
        QVERIFY(!wheelDown(batch)); // handed on to the page
        QVERIFY(!wheelDown(task));
        QCOMPARE(batch->value(), batchSize);
        QCOMPARE(task->currentIndex(), taskIndex);
        QCOMPARE(batch->focusPolicy(), Qt::StrongFocus); // the wheel alone does not focus it
        batch->setFocus();
        QTRY_VERIFY(batch->hasFocus());
        wheelDown(batch);
        QVERIFY(batch->value() < batchSize);
    }

    // Each view at a laptop's 1366x768 and at 1920x1080, light and dark, in English and in
    // German (the longest labels): no button shows less than its text needs. The screenshots
    // (screenshots/view-*.png) are for looking at.
    void everyViewFitsBothScreenSizesThemesAndLanguages() {
        QTemporaryDir temp;
        const QString images = QDir(temp.path()).filePath(QStringLiteral("images"));
        QDir().mkpath(images);
        for (int i = 0; i < 4; ++i) {
            QImage image(32, 32, QImage::Format_RGB32);
            image.fill(QColor(40 * i, 90, 160));
            QVERIFY(image.save(QStringLiteral("%1/%2.png").arg(images).arg(i)));
        }
        for (const QString& language : {QStringLiteral("en"), QStringLiteral("de")}) {
            for (const QString& theme : {QStringLiteral("light"), QStringLiteral("dark")}) {
                QSettings().setValue(QStringLiteral("ui/language"), language);
                QSettings().setValue(QStringLiteral("ui/theme"), theme);
                kiln::gui::configureApplication(*qApp);
                for (const QSize& size : {QSize(1366, 768), QSize(1920, 1080)}) {
                    kiln::gui::MainWindow window;
                    window.resize(size.width(), size.height() - 60); // the panel's share
                    window.show();
                    QVERIFY(QTest::qWaitForWindowExposed(&window));
                    QVERIFY(window.projects()->newProject());
                    QVERIFY(window.projects()->addDataset(images));
                    auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("projectTabs"));
                    for (int tab = 0; tab < tabs->count(); ++tab) {
                        tabs->setCurrentIndex(tab);
                        QTest::qWait(20);
                        for (const QPushButton* button : window.findChildren<QPushButton*>()) {
                            if (button->isVisible() && !button->text().isEmpty()) {
                                QVERIFY2(button->width() >= button->minimumSizeHint().width(),
                                         qPrintable(QStringLiteral("%1 at %2x%3: %4 px of %5")
                                                        .arg(button->text())
                                                        .arg(size.width())
                                                        .arg(size.height())
                                                        .arg(button->width())
                                                        .arg(button->minimumSizeHint().width())));
                            }
                        }
                        kiln::test::saveScreenshot(window, QStringLiteral("view-%1-%2-%3x%4-tab%5")
                                                               .arg(language, theme)
                                                               .arg(size.width())
                                                               .arg(size.height())
                                                               .arg(tab));
                    }
                }
                for (QTranslator* translator : qApp->findChildren<QTranslator*>()) {
                    QCoreApplication::removeTranslator(translator);
                    delete translator;
                }
            }
        }
        QSettings().remove(QStringLiteral("ui/language"));
        QSettings().remove(QStringLiteral("ui/theme"));
        kiln::gui::configureApplication(*qApp);
        QLocale::setDefault(QLocale::system());
    }

    void translationsFollowTheChosenLanguage() {
        for (const auto& [language, fileMenu] :
             {std::pair{QStringLiteral("de"), QStringLiteral("&Datei")},
              std::pair{QStringLiteral("zh_CN"), QStringLiteral("文件(&F)")}}) {
            QSettings().setValue(QStringLiteral("ui/language"), language);
            kiln::gui::configureApplication(*qApp);
            kiln::gui::MainWindow window;
            QCOMPARE(window.menuBar()->actions().first()->text(), fileMenu);
            // Numbers as the language writes them, not as the system's locale does.
            QCOMPARE(QLocale().toString(10000), language == QStringLiteral("de")
                                                    ? QStringLiteral("10.000")
                                                    : QStringLiteral("10,000"));
            for (QTranslator* translator : qApp->findChildren<QTranslator*>()) {
                QCoreApplication::removeTranslator(translator);
                delete translator;
            }
        }
        QSettings().remove(QStringLiteral("ui/language"));
        QLocale::setDefault(QLocale::system());
    }
};

QTEST_MAIN(MainWindowTest)
#include "tst_main_window.moc"
