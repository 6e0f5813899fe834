// Kiln Studio: the desktop workstation over the Kiln engine.

#include "app/application.h"
#include "app/main_window.h"
#include "distributed/launcher.h"
#include "train/trainer.h"

#include <cstring>

int main(int argc, char** argv) {
    // The other ranks of a multi-device run are this program again, without a window.
    if (argc == 2 && std::strcmp(argv[1], kiln::distributed::kRankProcessArgument) == 0) {
        return kiln::train::rank_process_main();
    }
    QApplication app(argc, argv);
    kiln::gui::configureApplication(app);
    kiln::gui::MainWindow window;
    window.show();
    // kiln-studio FILE.kiln opens the project.
    const QStringList arguments = QApplication::arguments();
    if (arguments.size() > 1) {
        window.openProject(arguments.at(1));
    }
    return QApplication::exec();
}
