#pragma once

#include "core/error.h"

#include <QtGlobal>
#include <functional>
#include <string>

namespace kiln::test {

// Whether `action` throws a kiln::Error whose message holds `text` (the message is logged when
// it does not, so a failing check shows what was said instead).
inline bool throwsContaining(const std::function<void()>& action, const std::string& text) {
    try {
        action();
    } catch (const kiln::Error& error) {
        if (std::string(error.what()).find(text) != std::string::npos) {
            return true;
        }
        qWarning("message was: %s", error.what());
    }
    return false;
}

} // namespace kiln::test
