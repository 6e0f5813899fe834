#pragma once

#include <QApplication>

namespace kiln::gui {

// Names, icon and translations shared by the executable and the GUI tests.
void configureApplication(QApplication& app);

} // namespace kiln::gui
