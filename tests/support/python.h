#pragma once

#include <QString>
#include <QStringList>

namespace kiln::test {

// The Python of the environment whose torch wheel Kiln was built against (KILN_PYTHON at
// configure time), for tests that prove PyTorch reads what Kiln writes. Empty when the build
// was configured without one.
QString python();

// True when python() runs and imports every module in `modules` (a comma-separated list).
bool pythonHas(const QString& modules);

// Why a test that needs `modules` was skipped, for QSKIP.
QByteArray pythonMissing(const QString& modules);

struct PythonResult {
    int exit_code = -1;
    QString output;
    QString errors;
};

// Runs `script` with `arguments` as sys.argv[1:]; waits at most `timeout_ms`.
PythonResult runPython(const QString& script, const QStringList& arguments = {},
                       int timeout_ms = 120000);

} // namespace kiln::test
