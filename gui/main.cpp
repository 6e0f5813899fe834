// Kiln Studio: the desktop workstation over the Kiln engine.

#include "app/application.h"
#include "app/main_window.h"

int main(int argc, char** argv) {
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
