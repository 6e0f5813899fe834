#include "common/message_boxes.h"

#include <QApplication>
#include <QMessageBox>

namespace kiln::gui {
namespace {

void openMessage(QWidget* parent, QMessageBox::Icon icon, const QString& objectName,
                 const QString& text) {
    // Titled with the application's name ("Kiln Studio"), which is not translated.
    auto* box =
        new QMessageBox(icon, QApplication::applicationName(), text, QMessageBox::Ok, parent);
    box->setObjectName(objectName);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace

void showErrorMessage(QWidget* parent, const QString& text) {
    openMessage(parent, QMessageBox::Warning, QStringLiteral("errorBox"), text);
}

void showInformationMessage(QWidget* parent, const QString& text) {
    openMessage(parent, QMessageBox::Information, QStringLiteral("informationBox"), text);
}

} // namespace kiln::gui
