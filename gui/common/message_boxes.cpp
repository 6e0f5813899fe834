#include "common/message_boxes.h"

#include <QApplication>
#include <QCoreApplication>
#include <QMessageBox>

namespace kiln::gui {
namespace {

void openMessage(QWidget* parent, QMessageBox::Icon icon, const QString& objectName,
                 const QString& text, const QStringList& warnings) {
    // Titled with the application's name ("Kiln Studio"), which is not translated.
    auto* box =
        new QMessageBox(icon, QApplication::applicationName(), text, QMessageBox::Ok, parent);
    if (!warnings.isEmpty()) {
        box->setText(text + QStringLiteral("\n\n") +
                     QCoreApplication::translate("kiln::gui::MessageBoxes",
                                                 "Warnings were logged: Show Details lists them."));
        box->setDetailedText(warnings.join(QLatin1Char('\n')));
    }
    // Paths and the engine's messages as written: Qt renders text whose first line looks like
    // HTML, and an <img> in it makes Qt read the file it names.
    box->setTextFormat(Qt::PlainText);
    box->setObjectName(objectName);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace

void showErrorMessage(QWidget* parent, const QString& text, const QStringList& warnings) {
    openMessage(parent, QMessageBox::Warning, QStringLiteral("errorBox"), text, warnings);
}

void showInformationMessage(QWidget* parent, const QString& text, const QStringList& warnings) {
    openMessage(parent, QMessageBox::Information, QStringLiteral("informationBox"), text, warnings);
}

} // namespace kiln::gui
