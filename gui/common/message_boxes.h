#pragma once

class QString;
class QWidget;

namespace kiln::gui {

// Kiln Studio's message boxes. Window-modal, never application-modal: a long message never
// blocks the event loop (nor a test); each deletes itself when closed.
void showErrorMessage(QWidget* parent, const QString& text);
void showInformationMessage(QWidget* parent, const QString& text);

} // namespace kiln::gui
