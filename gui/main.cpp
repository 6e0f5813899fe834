// Kiln Studio: the desktop workstation over the Kiln engine.

#include "app/application.h"
#include "app/main_window.h"
#include "distributed/launcher.h"
#include "distributed/nccl_backend.h"
#include "system/hardware.h"
#include "train/trainer.h"

#include <QCommandLineParser>
#include <cstring>

namespace {

struct Options {
    QCommandLineOption demo{QStringLiteral("demo"),
                            QStringLiteral("Open the demo project (Fashion-MNIST), making it the "
                                           "first time.")};
};

void describe(QCommandLineParser& parser, const Options& options) {
    parser.setApplicationDescription(
        QStringLiteral("Kiln Studio: a desktop training workstation for computer vision."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOption(options.demo);
    parser.addPositionalArgument(QStringLiteral("project"),
                                 QStringLiteral("A Kiln project (*.kiln) to open."),
                                 QStringLiteral("[project]"));
}

// --help and --version answer without a display, as any command-line program does.
bool onlyAsksForHelpOrVersion(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        for (const char* flag : {"-h", "--help", "-v", "--version"}) {
            if (std::strcmp(argv[i], flag) == 0) {
                return true;
            }
        }
    }
    return false;
}

// The window's event loop; the window and the application are gone (settings saved) when it
// returns, so the process may end without static destructors after a run over NCCL.
int runStudio(int argc, char** argv, const Options& options) {
    QApplication app(argc, argv);
    kiln::gui::configureApplication(app);
    QCommandLineParser parser;
    describe(parser, options);
    parser.process(app);
    kiln::gui::MainWindow window;
    window.show();
    if (parser.isSet(options.demo)) {
        window.projects()->openDemoProject();
    } else if (!parser.positionalArguments().isEmpty()) {
        window.projects()->openProject(parser.positionalArguments().constFirst());
    }
    return QApplication::exec();
}

} // namespace

int main(int argc, char** argv) {
    // The other ranks of a multi-device run are this program again, without a window.
    if (argc == 2 && std::strcmp(argv[1], kiln::distributed::kRankProcessArgument) == 0) {
        return kiln::distributed::end_process(kiln::train::rank_process_main());
    }
    const Options options;
    if (onlyAsksForHelpOrVersion(argc, argv)) {
        QCoreApplication app(argc, argv);
        QCoreApplication::setApplicationName(QStringLiteral("kiln-studio"));
        QCoreApplication::setApplicationVersion(
            QString::fromStdString(kiln::system::library_versions().kiln));
        QCommandLineParser parser;
        describe(parser, options);
        parser.process(app); // prints and exits
        return 0;
    }
    return kiln::distributed::end_process(runStudio(argc, argv, options));
}
