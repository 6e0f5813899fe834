#include "python.h"

#include <QProcess>

namespace kiln::test {

QString python() {
    return QStringLiteral(KILN_TEST_PYTHON);
}

PythonResult runPython(const QString& script, const QStringList& arguments, int timeout_ms) {
    PythonResult result;
    if (python().isEmpty()) {
        result.errors = QStringLiteral("no Python: configure with -DKILN_PYTHON=...");
        return result;
    }
    QProcess process;
    process.start(python(), QStringList{"-c", script} + arguments);
    if (!process.waitForFinished(timeout_ms) || process.exitStatus() != QProcess::NormalExit) {
        process.kill();
        process.waitForFinished();
        result.errors = QStringLiteral("did not finish: ") + process.errorString();
        return result;
    }
    result.exit_code = process.exitCode();
    result.output = QString::fromUtf8(process.readAllStandardOutput());
    result.errors = QString::fromUtf8(process.readAllStandardError());
    return result;
}

bool pythonHas(const QString& modules) {
    return runPython(QStringLiteral("import ") + modules, {}, 60000).exit_code == 0;
}

QByteArray pythonMissing(const QString& modules) {
    return (QStringLiteral("%1 cannot import %2: run packaging/setup-debian.sh and configure "
                           "with -DKILN_PYTHON=<its environment>/bin/python")
                .arg(python().isEmpty() ? QStringLiteral("KILN_PYTHON (unset)") : python(),
                     modules))
        .toUtf8();
}

} // namespace kiln::test
