#pragma once

#include "common/settings_dialog.h"
#include "config/run_config.h"

class QCheckBox;
class QComboBox;
class QLineEdit;
class QSpinBox;

namespace kiln::gui {

// Select for Labelling's settings: how many images, the strategy, the images labelled already
// (a folder of them, or a list of names), near-duplicates left out and whitening. The strategies,
// the defaults and the help come from kiln select's settings (config::select_schema()), so the
// dialog and the command offer the same thing; how many is the dialog's own (kiln select has no
// default for n): a tenth of the images, at most 100.
class LabellingPickDialog : public SettingsDialog {
    Q_OBJECT

public:
    // `images`: how many the embeddings hold; `folder`: where the choosers start.
    LabellingPickDialog(int images, const QString& folder, QWidget* parent = nullptr);

    // kiln select's settings as chosen; out and embeddings are left empty.
    SelectConfig pick() const;

public Q_SLOTS:
    // Refuses an already-labelled path that does not exist, in the dialog.
    void accept() override;

private:
    QComboBox* strategyField();
    // A check box for one of kiln select's true/false settings, set to its default.
    QCheckBox* checkBox(const QString& text, const char* key);

    QSpinBox* count_;
    QComboBox* strategy_;
    QLineEdit* labelled_;
    QCheckBox* exclude_duplicates_;
    QCheckBox* whiten_;
};

} // namespace kiln::gui
