#pragma once

#include <QDir>
#include <QString>
#include <QWidget>
#include <QtTest>

namespace kiln::test {

// Saves what `widget` shows as build/screenshots/<name>.png, for people to look at what the
// GUI tests drove. Only in the GUI tests, whose CMake target defines KILN_SCREENSHOT_DIR.
inline void saveScreenshot(QWidget& widget, const QString& name) {
    const QString folder = QStringLiteral(KILN_SCREENSHOT_DIR);
    QDir().mkpath(folder);
    QVERIFY(widget.grab().save(QDir(folder).filePath(name + QStringLiteral(".png"))));
}

} // namespace kiln::test
