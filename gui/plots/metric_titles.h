#pragma once

#include <QString>

namespace kiln::gui {

// What a metric is called where people read it (legends, readouts, the run summary): "top-1
// accuracy" for val_metric/top1_acc_micro, "validation loss" for val_loss. The keys stay what
// every logger and `kiln runs` use; a metric Kiln does not name is shown by its key's last part.
QString metricTitle(const QString& key);

} // namespace kiln::gui
