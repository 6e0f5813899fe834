#pragma once

#include <QDialog>
#include <functional>
#include <nlohmann/json.hpp>

class QComboBox;
class QFormLayout;
class QLabel;
class QLayout;
class QLineEdit;
class QSpinBox;

namespace kiln::gui {

// What the dialogs that hand settings to the engine share (Export Embeddings, Export Model,
// Predict): file and folder choosers beside their lists, a line for the engine's problems, OK
// named for the action, and an accept() that checks the settings with the engine first.
class SettingsDialog : public QDialog {
    Q_OBJECT

protected:
    SettingsDialog(const QString& object_name, const QString& title, QWidget* parent);

    // `box` with a Browse... button beside it that picks a file matching `filter` (a folder
    // when `filter` is empty), starting in `folder`; the pick is chosen in the box.
    QLayout* withBrowse(QComboBox* box, const QString& caption, const QString& folder,
                        const QString& filter);
    // A button beside a path field: `text` opens a chooser titled `caption` for a folder
    // (`filter` empty) or a file matching `filter`.
    struct PathChooser {
        QString text;
        QString caption;
        QString filter;
    };
    // `field` with a button per chooser, each starting in `folder`; the pick is written in it.
    QLayout* withChoosers(QLineEdit* field, const QString& folder,
                          const QList<PathChooser>& choosers);
    // `field`, where a file is written, with a Browse... button that asks where (a folder when
    // `filter` is empty), starting at what the field holds.
    QLayout* withSaveBrowse(QLineEdit* field, const QString& caption, const QString& filter);
    // The image_size setting's field: a side in px, or auto (the size the model trained at)
    // below 1 px; imageSizeSetting gives its value as the engine reads it.
    QSpinBox* imageSizeField();
    static nlohmann::json imageSizeSetting(const QSpinBox* field);
    // Selects `value` (an item's data) in `box`, adding it under its file name when not listed.
    static void choose(QComboBox* box, const QString& value);
    // The dialog's layout: an optional note, the form, the problem line, the buttons.
    void finishLayout(QFormLayout* form, const QString& action, QWidget* note = nullptr);
    // Asks before replacing an `out` that exists (unless its Browse... dialog asked), makes
    // `out`'s folder and runs `resolve`, which throws kiln::Error for bad settings: the
    // problems are shown and the dialog stays; otherwise it closes, accepted.
    void acceptChecked(const QString& out, const std::function<void()>& resolve);
    // Runs `resolve`: an error it throws (a kiln::Error or any other std::exception) is shown
    // and the dialog stays; else it closes.
    void acceptResolved(const std::function<void()>& resolve);

    // Widens the dialog so that the paths its save fields suggest show whole.
    void showEvent(QShowEvent* event) override;

private:
    bool replaceConfirmed(const QString& out);
    // An existing folder (`filter` empty) or file the user picks; empty when cancelled.
    QString askForPath(const QString& caption, const QString& folder, const QString& filter);

    QLabel* problem_;
    QString confirmed_out_; // what the save dialog of withSaveBrowse confirmed
    QList<QLineEdit*> save_fields_;
};

} // namespace kiln::gui
