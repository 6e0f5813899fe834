// Kiln Studio: the desktop workstation over the Kiln engine.

#include "app/application.h"
#include "app/main_window.h"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    kiln::gui::configureApplication(app);
    kiln::gui::MainWindow window;
    window.show();
    return QApplication::exec();
}
