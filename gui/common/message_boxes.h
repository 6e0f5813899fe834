#pragma once

#include <QStringList>

class QString;
class QWidget;

namespace kiln::gui {

// Kiln Studio's message boxes. Window-modal, never application-modal: a long message never
// blocks the event loop (nor a test); each deletes itself when closed. The warnings a job logged
// (BackgroundJob::warnings()) are listed under Show Details, which the text points to.
void showErrorMessage(QWidget* parent, const QString& text, const QStringList& warnings = {});
void showInformationMessage(QWidget* parent, const QString& text, const QStringList& warnings = {});

} // namespace kiln::gui
