#pragma once

#include "common/settings_dialog.h"
#include "config/run_config.h"

class QCheckBox;
class QComboBox;
class QLineEdit;
class QSpinBox;

namespace kiln::gui {

// Select for Labelling's settings: how many images, the strategy, the images labelled already
// (a folder of them, or a list of names), near-duplicates left out and whitening. The choices,
// defaults and tooltips come from kiln select's settings (config::select_schema()), so the
// dialog and the command offer the same thing.
class LabellingPickDialog : public SettingsDialog {
    Q_OBJECT

public:
    // `images`: how many the embeddings hold; `folder`: where Browse... starts.
    LabellingPickDialog(int images, const QString& folder, QWidget* parent = nullptr);

    // kiln select's settings as chosen; out and embeddings are left empty.
    SelectConfig pick() const;

public Q_SLOTS:
    // Refuses an already-labelled path that does not exist, in the dialog.
    void accept() override;

private:
    QSpinBox* count_;
    QComboBox* strategy_;
    QLineEdit* labelled_;
    QCheckBox* exclude_duplicates_;
    QCheckBox* whiten_;
};

} // namespace kiln::gui
