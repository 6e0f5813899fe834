#include "common/wheel_guard.h"

#include <QAbstractSpinBox>
#include <QComboBox>
#include <QEvent>
#include <QWidget>

namespace kiln::gui {
namespace {

class WheelGuard : public QObject {
public:
    using QObject::QObject;

protected:
    // An ignored wheel event goes on to the field's parents, up to the scroll area.
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Wheel && !static_cast<QWidget*>(watched)->hasFocus()) {
            event->ignore();
            return true;
        }
        return QObject::eventFilter(watched, event);
    }
};

void guard(QWidget* field, WheelGuard* guard) {
    field->setFocusPolicy(Qt::StrongFocus); // the wheel alone does not focus it
    field->installEventFilter(guard);
}

} // namespace

void scrollPastUnfocusedFields(QWidget* content) {
    auto* wheelGuard = new WheelGuard(content);
    for (QAbstractSpinBox* field : content->findChildren<QAbstractSpinBox*>()) {
        guard(field, wheelGuard);
    }
    for (QComboBox* field : content->findChildren<QComboBox*>()) {
        guard(field, wheelGuard);
    }
}

} // namespace kiln::gui
