#pragma once

#include "core/stop_token.h"

#include <QString>
#include <functional>

namespace kiln::gui {

// The demo project that the start page opens: Fashion-MNIST, as Debian's dataset-fashion-mnist
// installs it, imported as class folders of PNGs beside a project with a run preset that
// pretrains a small CNN in a few minutes on a CPU (the command-line demo of `make run`).
struct DemoProjectOptions {
    QString fashionMnist; // the folder holding train-images-idx3-ubyte.gz and its labels
    QString folder;       // where the images and the project go
    int images = 10000;   // the first N training images
};

// KILN_FASHION_MNIST when set, otherwise where dataset-fashion-mnist puts the files.
QString defaultFashionMnistFolder();
// The project file of a demo made in `folder`.
QString demoProjectFile(const QString& folder);

// Imports the images unless a finished import is there, then writes the project file unless it
// exists, and returns the project file. Runs off the GUI thread; `progress` gets images done of
// total. A missing Fashion-MNIST or an unwritable folder throws a kiln::Error naming the path
// and the fix; a stopped import leaves no partial dataset behind.
QString makeDemoProject(const DemoProjectOptions& options, const StopToken& stop,
                        const std::function<void(qint64 done, qint64 total)>& progress);

} // namespace kiln::gui
