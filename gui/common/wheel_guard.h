#pragma once

class QWidget;

namespace kiln::gui {

// The mouse wheel over `content`'s spin boxes and combo boxes scrolls the page they sit in
// unless the field has the keyboard focus (a click gives it): scrolling a long form must not
// change the batch size it passes over.
void scrollPastUnfocusedFields(QWidget* content);

} // namespace kiln::gui
