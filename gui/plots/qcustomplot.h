#pragma once

// QCustomPlot's header uses Qt's keywords (signals, foreach), which Kiln builds without
// (QT_NO_KEYWORDS); include it through here.
#define signals Q_SIGNALS
#define foreach Q_FOREACH
#include <qcustomplot.h>
#undef foreach
#undef signals
